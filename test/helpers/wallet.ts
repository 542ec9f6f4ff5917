// A test wallet: a key, its address, and signed coin transfers, both in the mempool's form (for
// block templates) and as body entries (for blocks built by hand).
import { addressOfPrivateKey, signDigest } from '../../ts/core/keys.js';
import { formatAddress } from '../../ts/core/address.js';
import { fee16Decode } from '../../ts/kernel/fee16.js';
import { relativePinFor } from '../../ts/core/pin.js';
import { txHash } from '../../ts/core/transaction.js';
import type { CoinTransferEntry } from '../../ts/core/entry.js';
import type { PendingTx } from '../../ts/mempool/pending.js';

export interface TransferFields {
  pinHeight: number;
  pinHash: Uint8Array;
  nonceId: number;
  feeCode: number;
  originId: bigint;
  toAddress: Uint8Array;
  amount: bigint;
}

/** Signs a coin transfer (consensus.md §7.2) with `sk`, as the mempool holds it. */
export function signCoinTransfer(sk: Uint8Array, o: TransferFields): PendingTx {
  const feeE8 = fee16Decode(o.feeCode);
  const payload = { type: 'coinTransfer' as const, toAddress: o.toAddress, amount: o.amount };
  const hash = txHash({ pinHash: o.pinHash, pinHeight: o.pinHeight, nonceId: o.nonceId, feeE8 }, payload);
  return {
    hash,
    payload,
    originId: o.originId,
    originAddress: addressOfPrivateKey(sk),
    pinHeight: o.pinHeight,
    pinHash: o.pinHash,
    nonceId: o.nonceId,
    feeCode: o.feeCode,
    feeE8,
    signature: signDigest(hash, sk),
  };
}

/** The body entry of a signed transfer in block `height`, to account `toId`. */
export function asBlockEntry(t: PendingTx, height: number, toId: bigint): CoinTransferEntry {
  if (t.payload.type !== 'coinTransfer') throw new Error('not a coin transfer');
  const k = relativePinFor(height, t.pinHeight);
  if (k === null) throw new Error(`pin ${t.pinHeight} not usable at height ${height}`);
  return {
    kind: 'coinTransfer',
    originId: t.originId,
    pinNonce: { nonceId: t.nonceId, relativePin: k, reserved: new Uint8Array(3) },
    feeCode: t.feeCode,
    signature: t.signature,
    toId,
    amount: t.payload.amount,
  };
}

export class TestWallet {
  readonly address: Uint8Array;
  constructor(readonly sk: Uint8Array) {
    this.address = addressOfPrivateKey(sk);
  }

  static fromSeed(seed: number): TestWallet {
    const sk = new Uint8Array(32);
    new DataView(sk.buffer).setUint32(28, seed + 1);
    sk[0] = 0x42;
    return new TestWallet(sk);
  }

  get addressText(): string {
    return formatAddress(this.address);
  }

  transfer(o: TransferFields): PendingTx {
    return signCoinTransfer(this.sk, o);
  }

  coinTransferEntry(o: TransferFields & { height: number; toId: bigint }): CoinTransferEntry {
    return asBlockEntry(this.transfer(o), o.height, o.toId);
  }
}

// Requests of all seven types are signed by the same core code the wallet uses.
export { requestJson, signRequest, type SignOptions } from '../../ts/core/signed_request.js';

/** A request body with members renamed (another generation's naming of the same request); null drops one. */
export function renameMembers(o: Record<string, unknown>, names: Record<string, string | null>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (!(k in names)) out[k] = v;
    else if (names[k] !== null) out[names[k]!] = v;
  }
  return out;
}
