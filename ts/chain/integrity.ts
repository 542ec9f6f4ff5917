// What the chain commits with every block so that it can check itself at start-up, and that check.
// The check record (key 'm' "check", in the block's own atomic batch) repeats the head height and
// adds the tip hash and a CRC-32 over every raw header from height 1: a head pointer, tip or header
// that disagrees with it, or a head marker (store/head_marker.ts) naming a block the database no
// longer holds, means the database is damaged, and the node refuses to start on it.
import { crc32 } from 'node:zlib';
import { equalBytes, toHex } from '../core/hex.js';
import { damaged } from '../store/failure.js';
import type { HeadMark } from '../store/head_marker.js';

export interface CheckRecord {
  height: number;
  tipHash: Uint8Array;
  headerCrc: number;
}

/** CRC-32 of the raw headers so far (`crc`) extended by `raw`. */
export const extendCrc = (crc: number, raw: Uint8Array): number => crc32(raw, crc);

export function encodeCheck(r: CheckRecord): Uint8Array {
  const b = new Uint8Array(40);
  const v = new DataView(b.buffer);
  v.setUint32(0, r.height);
  b.set(r.tipHash, 4);
  v.setUint32(36, r.headerCrc);
  return b;
}

export function decodeCheck(b: Uint8Array): CheckRecord | null {
  if (b.length !== 40) return null;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return { height: v.getUint32(0), tipHash: b.slice(4, 36), headerCrc: v.getUint32(36) };
}

export interface LoadedChain {
  path: string;
  /** Height the head pointer names; the headers loaded: as many as were found. */
  head: number;
  length: number;
  hashAt(height: number): Uint8Array;
  headerCrc: number;
}

/**
 * Throws a StoreFailure naming the damage when what was loaded disagrees with what was committed.
 * A database without a check record (written before there was one) is only checked for its headers.
 */
export function verifyLoaded(c: LoadedChain, check: Uint8Array | undefined, mark: HeadMark | null | 'unreadable'): void {
  if (c.length !== c.head) throw damaged(c.path, `the head pointer names block ${c.head} but ${c.length} consecutive headers are stored`);
  if (check !== undefined) {
    const r =
      decodeCheck(check) ??
      (() => {
        throw damaged(c.path, 'its check record is malformed');
      })();
    if (r.height !== c.head) throw damaged(c.path, `the head pointer names block ${c.head} but the check record block ${r.height}`);
    if (!equalBytes(r.tipHash, c.hashAt(c.length))) throw damaged(c.path, `the tip header ${c.length} is not the one committed (${toHex(r.tipHash)})`);
    if (r.headerCrc !== c.headerCrc) throw damaged(c.path, 'the stored headers differ from the ones committed (header checksum mismatch)');
  }
  if (mark === 'unreadable') throw damaged(c.path, 'its head marker file is unreadable');
  // No marker: a crash came between the first block's commit and its marker, or the database
  // predates markers.
  if (mark === null) return;
  if (mark.height > c.length) {
    throw damaged(c.path, `blocks ${c.length + 1}–${mark.height} were committed but are gone (a damaged or truncated write-ahead log)`);
  }
  if (!equalBytes(mark.hash, c.hashAt(mark.height))) throw damaged(c.path, `block ${mark.height} is not the one committed`);
}
