// The address of a signer's public key (core/address.ts: RIPEMD160(SHA256(key))), with the system's
// RIPEMD160 where it has one: a third of the JS one's time (4 µs against 13), paid by every admitted
// transaction and every generated wallet. The node only: the browser bundle keeps core/address.ts.
import { createHash } from 'node:crypto';
import { addressFromPublicKey } from '../core/address.js';
import { sha256 } from '../kernel/hash.js';

/** Whether the system's crypto has RIPEMD160 (OpenSSL 3 may leave it to the legacy provider). */
const systemRipemd160 = (() => {
  try {
    createHash('ripemd160');
    return true;
  } catch {
    return false;
  }
})();

/** The 20-byte account address of a 33-byte compressed public key (addressFromPublicKey). */
export function signerAddress(pub: Uint8Array): Uint8Array {
  return systemRipemd160 ? new Uint8Array(createHash('ripemd160').update(sha256(pub)).digest()) : addressFromPublicKey(pub);
}
