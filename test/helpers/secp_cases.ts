// The cases of the signature cross-check (test/kernel/secp256k1_crosscheck.test.ts): valid and
// invalid signatures in fixed proportions, each drawn from (seed, case index) alone, in batches
// that share a few signing keys (so the kernel's hinted path checks groups of one signer together).
import { SIGNER_TAG } from '../../ts/kernel/secp256k1.js';
import type { Libsecp256k1 } from './libsecp256k1.js';
import { OpensslSigner } from './openssl_secp256k1.js';
import { be32, HALF_N, N, P, Rng, sigOf, toBig } from './secp_math.js';

/** Cases per batch: one kernel call per batch and path; 1,000,000 is 4,000 of them. */
export const BATCH = 250;
/** Signing keys per batch (about 9 signatures each, valid or made invalid, per batch). */
export const KEYS_PER_BATCH = 16;

/**
 * What the class implies beyond the oracle's verdict: 'signer' (recovers to the key that signed),
 * 'other' (recovers, to another key), a kernel refusal status (RECOVER_ERRORS), or null (the oracle
 * alone decides).
 */
export type Implied = 'signer' | 'other' | 1 | 2 | 3 | 4 | 5 | null;

export interface Case {
  index: number;
  cls: string;
  digest: Uint8Array;
  /** r ‖ s ‖ recid */
  sig: Uint8Array;
  /** The hint recoverManyHintedKernel gets: a key (right or wrong), a signer tag, garbage, or zeros. */
  hint: Uint8Array;
  /** The key that signed, where one did. */
  signer: Uint8Array | null;
  implied: Implied;
}

/** What a class's draw needs beside its own stream. */
interface Batch {
  lib: Libsecp256k1;
  keys: { sk: Uint8Array; pub: Uint8Array }[];
  openssl: () => OpensslSigner;
}

type Draw = (rng: Rng, batch: Batch) => Omit<Case, 'index' | 'cls' | 'hint'>;

/** A digest: 1 in 50 an extreme one (0, all ones, n − 1, n, n + 1: z is reduced mod n), else random. */
function digestOf(rng: Rng): Uint8Array {
  if (rng.below(50) !== 0) return rng.bytes(32);
  return be32([0n, 2n ** 256n - 1n, N - 1n, N, N + 1n][rng.below(5)]);
}

/** A valid signature of a random digest by one of the batch's keys, signed by libsecp256k1. */
function signed(rng: Rng, batch: Batch): { digest: Uint8Array; sig: Uint8Array; signer: Uint8Array } {
  const key = batch.keys[rng.below(KEYS_PER_BATCH)];
  const digest = digestOf(rng);
  return { digest, sig: batch.lib.sign(digest, key.sk), signer: key.pub };
}

const rOf = (sig: Uint8Array) => toBig(sig.subarray(0, 32));
const sOf = (sig: Uint8Array) => toBig(sig.subarray(32, 64));

/** Values of r or s at and around the range limits (0, 1, n/2, n − 1, n, beyond). */
const rEdges = (rng: Rng) => [0n, 1n, N - 1n, N, N + 1n, rng.big(N, 2n ** 256n), 2n ** 256n - 1n];
const sEdges = (rng: Rng) => [0n, 1n, HALF_N, HALF_N + 1n, N - 1n, N, N + 1n, rng.big(N, 2n ** 256n), 2n ** 256n - 1n];

/** The classes, each with its share of every 100 cases and how it draws one. */
export const CLASSES: { name: string; per100: number; draw: Draw }[] = [
  { name: 'valid (libsecp256k1 signs)', per100: 29, draw: (rng, b) => ({ ...signed(rng, b), implied: 'signer' }) },
  {
    // The recid is the one at which libsecp256k1 recovers OpenSSL's key: 'signer' then checks that
    // one of recid 0 and 1 does, for both implementations.
    name: 'valid (OpenSSL signs)',
    per100: 1,
    draw: (rng, b) => {
      const signer = b.openssl();
      const { digest, rs } = signer.sign(rng.bytes(1 + rng.below(64)));
      const at0 = b.lib.recover(digest, Uint8Array.of(...rs, 0));
      const recid = at0 && Buffer.from(at0).equals(signer.publicKey) ? 0 : 1;
      return { digest, sig: Uint8Array.of(...rs, recid), signer: signer.publicKey, implied: 'signer' };
    },
  },
  {
    name: 'valid, other parity (recovers another key)',
    per100: 4,
    draw: (rng, b) => {
      const v = signed(rng, b);
      v.sig[64] ^= 1;
      return { ...v, implied: 'other' };
    },
  },
  {
    // r + n ≥ p unless r < p − n (probability 2⁻¹²⁷)
    name: 'valid, recid + 2 (x = r + n)',
    per100: 2,
    draw: (rng, b) => {
      const v = signed(rng, b);
      v.sig[64] |= 2;
      return { ...v, implied: rOf(v.sig) >= P - N ? 4 : null };
    },
  },
  {
    name: 'high s (the n − s twin)',
    per100: 5,
    draw: (rng, b) => {
      const v = signed(rng, b);
      return { ...v, sig: sigOf(rOf(v.sig), N - sOf(v.sig), v.sig[64] ^ 1), implied: 3 };
    },
  },
  {
    name: 'valid with one bit flipped (digest or signature)',
    per100: 5,
    draw: (rng, b) => {
      const v = signed(rng, b);
      const bit = rng.below(97 * 8);
      if (bit < 256) {
        v.digest = v.digest.slice();
        v.digest[bit >> 3] ^= 1 << (bit & 7);
      } else v.sig[(bit - 256) >> 3] ^= 1 << (bit & 7);
      return { ...v, implied: null };
    },
  },
  {
    name: 'recid 4..255',
    per100: 3,
    draw: (rng, b) => {
      const v = signed(rng, b);
      v.sig[64] = 4 + rng.below(252);
      return { ...v, implied: 1 };
    },
  },
  {
    name: 'r or s at a range limit (0, 1, n/2, n − 1, n, ≥ n)',
    per100: 8,
    draw: (rng, b) => {
      const v = signed(rng, b);
      let [r, s] = [rOf(v.sig), sOf(v.sig)];
      if (rng.below(2) === 0) {
        const edges = rEdges(rng);
        r = edges[rng.below(edges.length)];
      } else {
        const edges = sEdges(rng);
        s = edges[rng.below(edges.length)];
      }
      return { ...v, sig: sigOf(r, s, v.sig[64]), implied: null };
    },
  },
  {
    // about half of the r have no curve point
    name: 'random r in [1, n − 1], low s, recid 0/1',
    per100: 20,
    draw: (rng) => ({ digest: digestOf(rng), sig: sigOf(rng.big(1n, N), rng.big(1n, HALF_N + 1n), rng.below(2)), signer: null, implied: null }),
  },
  {
    // x = r + n is below p for recid 2/3: the recoveries a random r never reaches
    name: 'small r (below p − n), recid 0..3',
    per100: 5,
    draw: (rng) => {
      const r = rng.below(8) === 0 ? [1n, P - N - 1n, P - N, P - N + 1n][rng.below(4)] : rng.big(1n, P - N);
      return { digest: digestOf(rng), sig: sigOf(r, rng.big(1n, HALF_N + 1n), rng.below(4)), signer: null, implied: null };
    },
  },
  {
    // R = k·G and z = s·k: Q = r⁻¹(s·R − z·G) is the point at infinity
    name: 'key at infinity (s·R = z·G)',
    per100: 3,
    draw: (rng, b) => {
      const k = rng.big(1n, N);
      const R = b.lib.publicKey(be32(k));
      const r = toBig(R.subarray(1));
      const s = rng.big(1n, HALF_N + 1n);
      return { digest: be32((s * k) % N), sig: sigOf(r, s, R[0] & 1), signer: null, implied: r < N ? 5 : null };
    },
  },
  {
    name: 'random bytes (2 in 3 with recid 0..3)',
    per100: 15,
    draw: (rng) => {
      const sig = rng.bytes(65);
      if (rng.below(3) < 2) sig[64] &= 3;
      return { digest: rng.bytes(32), sig, signer: null, implied: null };
    },
  },
];

/** Class of each of 100 consecutive cases: the shares spread out (37 is prime to 100). */
const SCHEDULE: number[] = (() => {
  const flat = CLASSES.flatMap((c, k) => Array<number>(c.per100).fill(k));
  if (flat.length !== 100) throw new Error(`class shares add up to ${flat.length}, not 100`);
  return flat.map((_, j) => flat[(j * 37) % 100]);
})();

export const classOf = (index: number): number => SCHEDULE[index % 100];

/**
 * The hint for a case. The first half of a batch's keys are hinted only on their valid
 * signatures, so their groups pass the kernel's one-product check (its fast path); the second half
 * also on their invalid ones and on other signers' and random signatures, so their groups fail it
 * and fall back to recovery one by one. Besides: signer tags, keys that cannot be one, none. A
 * hint changes no verdict: the hinted answers must equal the plain ones.
 */
function hintOf(rng: Rng, c: Pick<Case, 'signer' | 'implied'>, batch: Batch): Uint8Array {
  const tag = (pub: Uint8Array) => Uint8Array.of(SIGNER_TAG, ...pub.subarray(1));
  const half = KEYS_PER_BATCH / 2;
  const mixed = batch.keys[half + rng.below(half)].pub;
  const roll = rng.below(100);
  if (!c.signer) return roll < 40 ? new Uint8Array(33) : roll < 70 ? mixed : tag(batch.keys[rng.below(KEYS_PER_BATCH)].pub);
  const clean = batch.keys.slice(0, half).some((k) => Buffer.from(k.pub).equals(c.signer!));
  if (clean && c.implied !== 'signer') return roll < 50 ? tag(c.signer) : new Uint8Array(33);
  if (roll < 60) return c.signer;
  if (roll < 75) return tag(c.signer);
  if (roll < 85) return mixed;
  if (roll < 90) return roll & 1 ? Uint8Array.of(4, ...c.signer.subarray(1)) : Uint8Array.of(2, ...new Uint8Array(32).fill(0xff));
  return new Uint8Array(33);
}

/**
 * Batch `b` of the cross-check under `seed`: cases b·BATCH … b·BATCH + count − 1. Everything is
 * drawn from the seed but the OpenSSL signatures (OpenSSL's nonces are random): a failure prints
 * its case's bytes.
 */
export function drawBatch(seed: number, b: number, lib: Libsecp256k1, count = BATCH): Case[] {
  const keyRng = new Rng(seed, 0x6b657973, b);
  const keys = Array.from({ length: KEYS_PER_BATCH }, () => {
    const sk = be32(keyRng.big(1n, N));
    return { sk, pub: lib.publicKey(sk) };
  });
  let signer: OpensslSigner | undefined;
  const openssl = () => {
    if (signer) return signer;
    signer = new OpensslSigner(keys[0].sk);
    // the same secret key in both libraries: a third opinion on d·G before any signature
    if (!Buffer.from(signer.publicKey).equals(keys[0].pub)) throw new Error(`OpenSSL and libsecp256k1 differ on d·G (seed ${seed}, batch ${b})`);
    return signer;
  };
  const batch: Batch = { lib, keys, openssl };
  const cases: Case[] = [];
  for (let index = b * BATCH; index < b * BATCH + count; index++) {
    const rng = new Rng(seed, index);
    const k = classOf(index);
    const c = CLASSES[k].draw(rng, batch);
    cases.push({ index, cls: CLASSES[k].name, ...c, hint: hintOf(rng, c, batch) });
  }
  return cases;
}
