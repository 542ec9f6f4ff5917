// The 80-byte block header (consensus.md §2.1). Note the order: the target precedes the merkle
// root. The block hash is SHA256d of the 80 bytes, displayed without byte reversal (§2.2).
import { sha256d } from '../kernel/hash.js';
import { Reader, Writer } from './bytes.js';
import { fail } from './errors.js';

export const HEADER_SIZE = 80;
export const HASH_SIZE = 32;

export interface Header {
  prevHash: Uint8Array; // 32 bytes
  target: number; // u32, compact target; its kind (V1/V2) follows from the height (§2.4)
  merkleRoot: Uint8Array; // 32 bytes
  version: number; // u32
  timestamp: number; // u32, Unix seconds
  nonce: number; // the 4 raw nonce bytes read as u32 big-endian
}

/** Parses exactly 80 bytes; EBADHEADER otherwise. */
export function parseHeader(bytes: Uint8Array): Header {
  if (bytes.length !== HEADER_SIZE) fail('EBADHEADER', `header must be ${HEADER_SIZE} bytes, got ${bytes.length}`);
  const r = new Reader(bytes);
  return {
    prevHash: r.bytes(HASH_SIZE),
    target: r.u32(),
    merkleRoot: r.bytes(HASH_SIZE),
    version: r.u32(),
    timestamp: r.u32(),
    nonce: r.u32(),
  };
}

export function serializeHeader(h: Header): Uint8Array {
  return new Writer(HEADER_SIZE)
    .bytes(h.prevHash, HASH_SIZE)
    .u32(h.target)
    .bytes(h.merkleRoot, HASH_SIZE)
    .u32(h.version)
    .u32(h.timestamp)
    .u32(h.nonce)
    .finish();
}

/** SHA256d of the serialized header (§2.2). */
export function blockHash(header: Header | Uint8Array): Uint8Array {
  return sha256d(header instanceof Uint8Array ? header : serializeHeader(header));
}
