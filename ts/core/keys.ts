// secp256k1 keys and recoverable signatures (consensus.md §7.3): r ‖ s ‖ recid, low s, no +27.
import * as secp from '@noble/secp256k1';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { addressFromPublicKey } from './address.js';
import { recoverPublicKeyKernel, signatureInRange } from '../kernel/secp256k1.js';

// Synchronous signing and recovery need these hooks (RFC 6979 nonces use HMAC-SHA256).
secp.hashes.sha256 = (m: Uint8Array) => nobleSha256(m);
secp.hashes.hmacSha256 = (k: Uint8Array, m: Uint8Array) => hmac(nobleSha256, k, m);

export function isValidPrivateKey(sk: Uint8Array): boolean {
  return sk.length === 32 && secp.utils.isValidSecretKey(sk);
}

export function randomPrivateKey(): Uint8Array {
  return secp.utils.randomSecretKey();
}

/** 33-byte compressed public key. */
export function publicKeyOf(sk: Uint8Array): Uint8Array {
  return secp.getPublicKey(sk, true);
}

export function addressOfPrivateKey(sk: Uint8Array): Uint8Array {
  return addressFromPublicKey(publicKeyOf(sk));
}

/** Signs a 32-byte digest; returns 65 bytes r ‖ s ‖ recid with low s. */
export function signDigest(digest32: Uint8Array, sk: Uint8Array): Uint8Array {
  const sig = secp.sign(digest32, sk, { prehash: false, format: 'recovered', lowS: true });
  const out = new Uint8Array(65);
  out.set(sig.subarray(1, 65), 0);
  out[64] = sig[0];
  return out;
}

/**
 * The body-parse validity of a 65-byte signature (consensus.md §7.3): recid ≤ 3, r and s in
 * [1, n−1], and s low (s ≤ n/2: a signature normalization would change is invalid). These are
 * exactly the range rules of the kernel's recovery (`secp256k1_recover` statuses 1–3).
 */
export function isCanonicalSignature(sig65: Uint8Array): boolean {
  return signatureInRange(sig65);
}

/**
 * Recovers the compressed public key from a 32-byte digest and a 65-byte signature
 * (r ‖ s ‖ recid) with the WASM kernel (initKernel() must have run). Null when recid > 3, r or s
 * out of range, s not low, or no key recovers.
 */
export function recoverPublicKey(digest32: Uint8Array, sig65: Uint8Array): Uint8Array | null {
  return recoverPublicKeyKernel(digest32, sig65);
}
