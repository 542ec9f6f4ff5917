// Signature verification (consensus.md §7.3): recover the public key from (txHash, signature) and
// compare its address with the origin account's address. There is no other verification path.
import { addressFromPublicKey } from '../core/address.js';
import { fail } from '../core/errors.js';
import { entryTxHash, type EntryContext, type SignedEntry } from '../core/entry.js';
import { equalBytes } from '../core/hex.js';
import { recoverPublicKey } from '../core/keys.js';

/**
 * Keys recovered ahead of time (worker threads, ts/chain/prerecover.ts), by digest ‖ signature: a
 * cache of a pure function, so a hit gives what recovery here would. Each is taken once; the oldest
 * go first beyond PRERECOVERED_MAX.
 */
const prerecovered = new Map<string, Uint8Array | null>();
export const PRERECOVERED_MAX = 50_000;

function recoveryKey(digest32: Uint8Array, sig65: Uint8Array): string {
  return String.fromCharCode.apply(null, digest32 as unknown as number[]) + String.fromCharCode.apply(null, sig65 as unknown as number[]);
}

/** Records the key (33 bytes, or null: none recovers) of `sig65` over `digest32`, recovered elsewhere. */
export function rememberRecovered(digest32: Uint8Array, sig65: Uint8Array, pub33: Uint8Array | null): void {
  if (digest32.length !== 32 || sig65.length !== 65) return;
  while (prerecovered.size >= PRERECOVERED_MAX) prerecovered.delete(prerecovered.keys().next().value!);
  prerecovered.set(recoveryKey(digest32, sig65), pub33);
}

let inPlace = 0;

/** How many signatures were recovered here, on the calling thread, so far (tests, diagnostics). */
export function recoveredInPlace(): number {
  return inPlace;
}

/** How many recovered keys wait to be used (tests, diagnostics). */
export function prerecoveredCount(): number {
  return prerecovered.size;
}

/** The 20-byte address of the signer, or null when no key recovers (or the encoding is invalid). */
export function recoverSignerAddress(digest32: Uint8Array, sig65: Uint8Array): Uint8Array | null {
  let pub: Uint8Array | null;
  const k = prerecovered.size > 0 && digest32.length === 32 && sig65.length === 65 ? recoveryKey(digest32, sig65) : null;
  const hit = k === null ? undefined : prerecovered.get(k);
  if (hit !== undefined) {
    prerecovered.delete(k!);
    pub = hit;
  } else {
    inPlace++;
    pub = recoverPublicKey(digest32, sig65);
  }
  return pub ? addressFromPublicKey(pub) : null;
}

/** Fails with ECORRUPTEDSIG unless the signature recovers to `address`. */
export function verifySignature(digest32: Uint8Array, sig65: Uint8Array, address: Uint8Array): void {
  const signer = recoverSignerAddress(digest32, sig65);
  if (!signer || !equalBytes(signer, address)) fail('ECORRUPTEDSIG', 'signature does not recover to the origin address');
}

/**
 * Verifies a body entry of block `height`: its signed hash needs the pinned block's hash, the
 * recipient's address and the section's asset hash (where the type has them); returns the txHash.
 * As the reference's block application: no key recovers, ECORRUPTEDSIG (crypto.cpp:66); another
 * signer, EINVSIG (signature_verification.hpp:28).
 */
export function verifyEntrySignature(entry: SignedEntry, height: number, pinHash: Uint8Array, originAddress: Uint8Array, ctx: EntryContext): Uint8Array {
  const hash = entryTxHash(entry, height, pinHash, ctx);
  const signer = recoverSignerAddress(hash, entry.signature) ?? fail('ECORRUPTEDSIG', 'no public key recovers from the signature');
  if (!equalBytes(signer, originAddress)) fail('EINVSIG', 'signature does not recover to the origin address');
  return hash;
}
