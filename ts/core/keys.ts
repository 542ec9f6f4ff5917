// secp256k1 keys and recoverable signatures (consensus.md §7.3): r ‖ s ‖ recid, low s, no +27.
import * as secp from '@noble/secp256k1';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { addressFromPublicKey } from './address.js';

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
 * range, and s low (a signature normalization would change is invalid).
 */
export function isCanonicalSignature(sig65: Uint8Array): boolean {
  if (sig65.length !== 65 || sig65[64] > 3) return false;
  try {
    return !secp.Signature.fromBytes(sig65.subarray(0, 64), 'compact').hasHighS();
  } catch {
    return false;
  }
}

/**
 * Recovers the compressed public key from a 32-byte digest and a 65-byte signature
 * (r ‖ s ‖ recid). Null when recid > 3, r or s out of range, s not low, or no key recovers.
 */
export function recoverPublicKey(digest32: Uint8Array, sig65: Uint8Array): Uint8Array | null {
  if (sig65.length !== 65 || sig65[64] > 3) return null;
  const recovered = new Uint8Array(65);
  recovered[0] = sig65[64];
  recovered.set(sig65.subarray(0, 64), 1);
  try {
    const s = secp.Signature.fromBytes(sig65.subarray(0, 64), 'compact');
    if (s.hasHighS()) return null;
    return secp.recoverPublicKey(recovered, digest32, { prehash: false });
  } catch {
    return null;
  }
}
