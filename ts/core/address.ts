// Account addresses (consensus.md §7.3): 20 bytes = RIPEMD160(SHA256(compressed public key));
// display form = the 20 bytes ‖ the first 4 bytes of SHA256(the 20 bytes), 48 hex chars.
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '../kernel/hash.js';
import { equalBytes, fromHexExact, toHex } from './hex.js';

export const ADDRESS_BYTES = 20;

export function addressFromPublicKey(pubKey33: Uint8Array): Uint8Array {
  return ripemd160(sha256(pubKey33));
}

export function addressChecksum(address: Uint8Array): Uint8Array {
  return sha256(address).subarray(0, 4);
}

/** The 48-hex display form. */
export function formatAddress(address: Uint8Array): string {
  return toHex(address) + toHex(addressChecksum(address));
}

/** Parses the 48-hex display form; null on a wrong length, bad hex or a wrong checksum. */
export function parseAddress(text: string): Uint8Array | null {
  const b = fromHexExact(text, ADDRESS_BYTES + 4);
  if (!b) return null;
  const address = b.subarray(0, ADDRESS_BYTES);
  return equalBytes(addressChecksum(address), b.subarray(ADDRESS_BYTES)) ? address.slice() : null;
}
