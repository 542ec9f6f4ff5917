// Deterministic generators of body content for round-trip and rule tests.
import { signDigest } from '../../ts/core/keys.js';
import { assetNameBytes } from '../../ts/core/transaction.js';
import { emptyTokenSection, type Body, type BodyLayout, type TokenSection } from '../../ts/core/body.js';
import type { EntryKind, EntryOf, SignedEntry, SignedHead } from '../../ts/core/entry.js';

/** xorshift32: reproducible pseudo-random numbers. */
export class Rng {
  constructor(private s = 0x9e3779b9) {}
  u32(): number {
    let x = this.s;
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    this.s = x;
    return x;
  }
  int(n: number): number {
    return this.u32() % n;
  }
  u64(): bigint {
    return (BigInt(this.u32()) << 32n) | BigInt(this.u32());
  }
  bytes(n: number): Uint8Array {
    return Uint8Array.from({ length: n }, () => this.u32() & 0xff);
  }
}

const SIGNER = Uint8Array.from({ length: 32 }, (_, i) => i + 1);

/** A canonical (low-s) signature over random bytes: valid encoding, not a valid authorization. */
export function someSignature(rng: Rng): Uint8Array {
  return signDigest(rng.bytes(32), SIGNER);
}

export function head(rng: Rng): SignedHead {
  return {
    originId: BigInt(1 + rng.int(1000)),
    pinNonce: { nonceId: rng.u32(), relativePin: rng.int(256), reserved: rng.int(4) === 0 ? rng.bytes(3) : new Uint8Array(3) },
    feeCode: rng.int(0x10000),
    signature: someSignature(rng),
  };
}

export function entry<K extends EntryKind>(kind: K, rng: Rng): EntryOf<K> {
  const h = head(rng);
  const amount = rng.u64() % 10n ** 15n;
  const fields: Record<EntryKind, object> = {
    coinTransfer: { toId: BigInt(1 + rng.int(1000)), amount },
    assetTransfer: { toId: BigInt(1 + rng.int(1000)), amount },
    shareTransfer: { toId: BigInt(1 + rng.int(1000)), amount },
    limitSwap: { buy: rng.int(2) === 1, amount, limit: Uint8Array.of(0x80 | rng.int(128), rng.int(256), rng.int(128)) },
    liquidityDeposit: { quote: amount, base: rng.u64() },
    liquidityWithdrawal: { shares: amount },
    cancelation: { cancelHeight: 32 * rng.int(1000), cancelNonceId: rng.u32() },
    assetCreation: ((supply: bigint, precision: number) => ({
      // a supply of at least one whole unit (EINV_SUPPLY otherwise)
      supply: supply < 10n ** BigInt(precision) ? supply + 10n ** BigInt(precision) : supply,
      precision,
      name: assetNameBytes(['TOK', 'A', 'ZZ9', 'abcde'][rng.int(4)]),
    }))(rng.u64(), rng.int(19)),
  };
  return { kind, ...h, ...fields[kind] } as EntryOf<K>;
}

export function entries<K extends EntryKind>(kind: K, n: number, rng: Rng): EntryOf<K>[] {
  return Array.from({ length: n }, () => entry(kind, rng));
}

export function tokenSection(rng: Rng, counts: [number, number, number, number, number]): TokenSection {
  const s = emptyTokenSection(BigInt(1 + rng.int(50)));
  s.assetTransfers = entries('assetTransfer', counts[0], rng);
  s.shareTransfers = entries('shareTransfer', counts[1], rng);
  s.limitSwaps = entries('limitSwap', counts[2], rng);
  s.liquidityDeposits = entries('liquidityDeposit', counts[3], rng);
  s.liquidityWithdrawals = entries('liquidityWithdrawal', counts[4], rng);
  return s;
}

export function body(layout: BodyLayout, rng: Rng, parts: Partial<Body> = {}): Body {
  return {
    layout,
    extraNonce: rng.bytes(layout === 'V1' ? 4 : 10),
    newAddresses: Array.from({ length: rng.int(4) }, () => rng.bytes(20)),
    reward: { toId: BigInt(1 + rng.int(100)), amount: 300_000_000n },
    coinTransfers: [],
    cancelations: [],
    tokenSections: [],
    assetCreations: [],
    ...parts,
  };
}

/** A V4 body holding every entry kind (all seven transaction types). */
export function fullV4Body(rng: Rng): Body {
  return body('V4', rng, {
    coinTransfers: entries('coinTransfer', 3, rng),
    cancelations: entries('cancelation', 2, rng),
    tokenSections: [tokenSection(rng, [2, 1, 2, 1, 1]), tokenSection(rng, [0, 0, 1, 0, 0]), tokenSection(rng, [0, 0, 0, 0, 0])],
    assetCreations: entries('assetCreation', 2, rng),
  });
}

export function allSignedEntries(b: Body): SignedEntry[] {
  return [
    ...b.coinTransfers,
    ...b.cancelations,
    ...b.tokenSections.flatMap((s) => [...s.assetTransfers, ...s.shareTransfers, ...s.limitSwaps, ...s.liquidityDeposits, ...s.liquidityWithdrawals]),
    ...b.assetCreations,
  ];
}
