// secp256k1 public-key recovery from the kernel (consensus.md §7.3): signature = r(32) ‖ s(32) ‖
// recid(1, 0..3), signed digest = the 32-byte txHash itself; r, s in [1, n−1] and s ≤ n/2.
import { callWithBuffers, kernel } from './instance.js';

interface Secp256k1Exports {
  secp256k1_recover(digest: number, sig: number, out: number): number;
  secp256k1_recover_many(items: number, n: number, out: number): void;
  secp256k1_recover_many_hinted(items: number, n: number, out: number): void;
  secp256k1_public_key(sk: number, out: number): number;
}

/** The 33-byte compressed public key sk·G of a 32-byte secret key; null unless 1 ≤ sk < n. */
export function publicKeyKernel(sk32: Uint8Array): Uint8Array | null {
  if (!(sk32 instanceof Uint8Array) || sk32.length !== 32) return null;
  const { out, status } = callWithBuffers([sk32], 33, ([k], o) => kernel<Secp256k1Exports>().secp256k1_public_key(k, o));
  return status === 0 ? out : null;
}

/** Status codes of `secp256k1_recover` other than 0 (success). */
export const RECOVER_ERRORS: Record<number, string> = {
  1: 'recid > 3',
  2: 'r or s not in [1, n-1]',
  3: 'high s',
  4: 'no curve point for r and recid',
  5: 'public key at infinity',
};

/**
 * The 33-byte compressed public key recovered from a 32-byte digest and a 65-byte signature
 * r ‖ s ‖ recid; null for any invalid input (wrong lengths, recid > 3, r or s out of range,
 * high s, no point for r, key at infinity).
 */
export function recoverPublicKeyKernel(digest32: Uint8Array, sig65: Uint8Array): Uint8Array | null {
  if (!(digest32 instanceof Uint8Array) || digest32.length !== 32) return null;
  if (!(sig65 instanceof Uint8Array) || sig65.length !== 65) return null;
  const { out, status } = callWithBuffers([digest32, sig65], 33, ([d, s], o) => kernel<Secp256k1Exports>().secp256k1_recover(d, s, o));
  return status === 0 ? out : null;
}

/**
 * Many recoveries in one kernel call (the inversions shared across the batch): `items` is
 * n × (digest(32) ‖ signature(65)); the answer n × (status(1) ‖ key(33)), status 0 with the key,
 * else a RECOVER_ERRORS code and 33 zero bytes.
 */
export function recoverManyKernel(items: Uint8Array): Uint8Array {
  if (items.length % 97 !== 0) throw new RangeError(`${items.length} bytes are not whole items`);
  const n = items.length / 97;
  if (n === 0) return new Uint8Array(0);
  return callWithBuffers([items], 34 * n, ([i], o) => kernel<Secp256k1Exports>().secp256k1_recover_many(i, n, o)).out;
}

/** The first byte of a hint naming a signer whose key is not known: SIGNER_TAG ‖ any 32 bytes. */
export const SIGNER_TAG = 0xff;

/**
 * recoverManyKernel with a hint per item: `items` is n × (digest(32) ‖ signature(65) ‖ hint(33)),
 * the hint the compressed key the signature is expected to recover to, or a signer tag
 * (SIGNER_TAG ‖ 32 bytes, equal for the signatures expected from one signer: the first of them
 * that recovers names the key for the others), or 33 zero bytes (none). The answer is byte for
 * byte recoverManyKernel's over the same digests and signatures: the kernel checks the signatures
 * sharing a key together (one multi-scalar product, about a third of a recovery each) and recovers
 * one by one wherever that check fails, so a wrong hint costs time, never a verdict.
 */
export function recoverManyHintedKernel(items: Uint8Array): Uint8Array {
  if (items.length % 130 !== 0) throw new RangeError(`${items.length} bytes are not whole items`);
  const n = items.length / 130;
  if (n === 0) return new Uint8Array(0);
  return callWithBuffers([items], 34 * n, ([i], o) => kernel<Secp256k1Exports>().secp256k1_recover_many_hinted(i, n, o)).out;
}

/** The group order n of secp256k1 and floor(n/2), the largest "low" s. */
const CURVE_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = CURVE_N >> 1n;

const N_BYTES = Uint8Array.from(
  CURVE_N.toString(16)
    .match(/../g)!
    .map((h) => parseInt(h, 16)),
);
const HALF_N_BYTES = Uint8Array.from(
  HALF_N.toString(16)
    .match(/../g)!
    .map((h) => parseInt(h, 16)),
);

/** Compares 32-byte big-endian numbers a[from..from+32) and b: negative, 0 or positive. */
function compare32(a: Uint8Array, from: number, b: Uint8Array): number {
  for (let i = 0; i < 32; i++) if (a[from + i] !== b[i]) return a[from + i] - b[i];
  return 0;
}

function isZero32(a: Uint8Array, from: number): boolean {
  for (let i = 0; i < 32; i++) if (a[from + i] !== 0) return false;
  return true;
}

/**
 * The range rules of `secp256k1_recover` (its statuses 1–3) without the kernel: 65 bytes,
 * recid ≤ 3, r and s in [1, n−1] and s ≤ n/2. A signature passing them can still fail recovery
 * (no curve point for r, or the key at infinity).
 */
export function signatureInRange(sig65: Uint8Array): boolean {
  if (!(sig65 instanceof Uint8Array) || sig65.length !== 65 || sig65[64] > 3) return false;
  // Byte comparisons (this runs for every signature a body carries): r in [1, n−1], s in [1, n/2].
  return !isZero32(sig65, 0) && compare32(sig65, 0, N_BYTES) < 0 && !isZero32(sig65, 32) && compare32(sig65, 32, HALF_N_BYTES) <= 0;
}
