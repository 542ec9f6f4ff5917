// Signature verification (consensus.md §7.3): recover the public key from (txHash, signature) and
// compare its address with the origin account's address. There is no other verification path.
import { addressFromPublicKey } from '../core/address.js';
import { fail } from '../core/errors.js';
import { entryTxHash, type EntryContext, type SignedEntry } from '../core/entry.js';
import { ByteRing } from '../core/byte_ring.js';
import { equalBytes } from '../core/hex.js';
import { recoverPublicKey } from '../core/keys.js';

/**
 * A body entry's signature recovered ahead of time (worker threads, ts/chain/prerecover.ts): the
 * digest formed from these inputs and the key it recovers (null: none). Keyed by the parsed entry
 * itself, so the entry is never hashed twice; held only while the body is.
 */
export interface Recovered {
  height: number;
  pinHash: Uint8Array;
  ctx: EntryContext;
  digest: Uint8Array;
  pub: Uint8Array | null;
}
const recoveredAhead = new WeakMap<SignedEntry, Recovered>();

/** Records the recovery of `entry`'s signature done elsewhere (verifyEntrySignature takes it once). */
export function rememberRecovered(entry: SignedEntry, r: Recovered): void {
  recoveredAhead.set(entry, r);
}

let inPlace = 0;

/** How many signatures were recovered here, on the calling thread, so far (tests, diagnostics). */
export function recoveredInPlace(): number {
  return inPlace;
}

const sameOptional = (a: Uint8Array | undefined, b: Uint8Array | undefined) => (a === undefined ? b === undefined : b !== undefined && equalBytes(a, b));

/** The remembered recovery of `entry` if it was made for exactly these inputs (then its digest is entryTxHash's). */
function takeRecovered(entry: SignedEntry, height: number, pinHash: Uint8Array, ctx: EntryContext): Recovered | undefined {
  const r = recoveredAhead.get(entry);
  if (!r) return undefined;
  recoveredAhead.delete(entry);
  const same =
    r.height === height && equalBytes(r.pinHash, pinHash) && sameOptional(r.ctx.toAddress, ctx.toAddress) && sameOptional(r.ctx.assetHash, ctx.assetHash);
  return same ? r : undefined;
}

/**
 * Keys of recent signers by account id: learned where an entry's signature recovered to its
 * origin's address, handed to recovery ahead of application as hints (prerecover.ts; the kernel
 * checks the signatures of one hinted key together, recoverManyHintedKernel). Only a hint: a
 * wrong one (an id given to another address after a rollback) costs a recovery, never a verdict.
 * Bounded: the oldest learned goes first.
 */
export const MAX_SIGNER_KEYS = 16_384;
const PUBLIC_KEY_BYTES = 33; // compressed, as recoverPublicKey gives it
const signerKeys = new ByteRing<bigint>(MAX_SIGNER_KEYS, PUBLIC_KEY_BYTES);

/** The key account `id` signed with when last seen (a hint for recovery ahead), if known. */
export function knownSignerKey(id: bigint): Uint8Array | undefined {
  return signerKeys.get(id)?.slice();
}

function learnSignerKey(id: bigint, pub: Uint8Array): void {
  const had = signerKeys.get(id);
  if (!had || !equalBytes(had, pub)) signerKeys.set(id, pub);
}

/**
 * Signatures recovered on this node before (mempool admission), as Bitcoin Core's signature cache:
 * an entry with the same digest and signature recovers to the same key, recovery being a function
 * of the two, so the transactions of a block that this node admitted are not recovered again,
 * neither ahead (prerecover.ts) nor here. Bounded: the oldest first out. A record is the digest,
 * the signature and the key, found by 30 bits of the digest (a small integer key; a digest sharing
 * them replaces the record, which costs a recovery, never a verdict).
 */
export const MAX_SEEN_SIGNATURES = 16_384;
const seenSignatures = new ByteRing<number>(MAX_SEEN_SIGNATURES, 32 + 65 + PUBLIC_KEY_BYTES);
const digestKey = (d: Uint8Array): number => d[0]! | (d[1]! << 8) | (d[2]! << 16) | ((d[3]! & 0x3f) << 24);

/** The key `sig` over `digest` recovered to when this node recovered it before, if it is remembered. */
export function seenSignatureKey(digest32: Uint8Array, sig65: Uint8Array): Uint8Array | undefined {
  const r = seenSignatures.get(digestKey(digest32));
  return r && equalBytes(r.subarray(0, 32), digest32) && equalBytes(r.subarray(32, 97), sig65) ? r.slice(97) : undefined;
}

/** Recovers the key of `sig` over `digest` (null: none) and remembers a recovered one for block application. */
export function recoverRemembered(digest32: Uint8Array, sig65: Uint8Array): Uint8Array | null {
  const pub = recoverPublicKey(digest32, sig65);
  if (!pub) return null;
  seenSignatures.set(digestKey(digest32), digest32, sig65, pub);
  return pub;
}

/** The last key turned into an address: a sender's entries usually come in runs. */
let lastKey: { pub: Uint8Array; address: Uint8Array } | null = null;
function addressOfKey(pub: Uint8Array): Uint8Array {
  if (lastKey && equalBytes(lastKey.pub, pub)) return lastKey.address;
  lastKey = { pub, address: addressFromPublicKey(pub) };
  return lastKey.address;
}

/** The 20-byte address of the signer, or null when no key recovers (or the encoding is invalid). */
export function recoverSignerAddress(digest32: Uint8Array, sig65: Uint8Array): Uint8Array | null {
  inPlace++;
  const pub = recoverPublicKey(digest32, sig65);
  return pub ? addressOfKey(pub) : null;
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
  const ahead = takeRecovered(entry, height, pinHash, ctx);
  const hash = ahead?.digest ?? entryTxHash(entry, height, pinHash, ctx);
  let recovered: Uint8Array | null | undefined = ahead ? ahead.pub : seenSignatureKey(hash, entry.signature);
  if (recovered === undefined) {
    inPlace++;
    recovered = recoverPublicKey(hash, entry.signature);
  }
  const pub = recovered ?? fail('ECORRUPTEDSIG', 'no public key recovers from the signature');
  if (!equalBytes(addressOfKey(pub), originAddress)) fail('EINVSIG', 'signature does not recover to the origin address');
  learnSignerKey(entry.originId, pub);
  return hash;
}
