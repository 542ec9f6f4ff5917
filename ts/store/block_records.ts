// The records one block owns in the store (keys.ts): its header, body, hash index, undo record
// and block meta, and the header chunk record when it completes a chunk of 4,096. Appending
// writes exactly `blockPuts`, rolling back deletes exactly `blockDeletes`: the two come from one
// list, so a record kind added to one cannot be forgotten in the other. The block meta's codec is
// here too, the one place that knows its byte layout.
import type { Header } from '../core/header.js';
import { Reader, Writer } from '../core/bytes.js';
import type { BatchOp } from './database.js';
import { HEADER_CHUNK, blockMetaKey, bodyKey, hashIndexKey, headerChunkKey, headerKey, u32Value, undoKey } from './keys.js';

/** A block of the chain as the store holds it. */
export interface StoredBlock {
  height: number;
  header: Header;
  raw: Uint8Array;
  hash: Uint8Array;
  body: Uint8Array;
  firstHistoryId: bigint;
}

/** The block meta record ('k'): where the block's state ids and history ids begin. */
export interface BlockMeta {
  firstStateId: bigint;
  firstHistoryId: bigint;
  /** CRC-32 of the raw headers 1 … this block (chain/integrity.ts); null in records written before it was kept. */
  headerCrc: number | null;
}

export function encodeBlockMeta(m: BlockMeta & { headerCrc: number }): Uint8Array {
  return new Writer(20).u64(m.firstStateId).u64(m.firstHistoryId).u32(m.headerCrc).finish();
}

export function decodeBlockMeta(b: Uint8Array): BlockMeta {
  const r = new Reader(b);
  const firstStateId = r.u64();
  const firstHistoryId = r.u64();
  return { firstStateId, firstHistoryId, headerCrc: b.length >= 20 ? r.u32() : null };
}

/** The chunk record block `height` completes, or null (chunk records: keys.ts 'G'). */
export const completedChunk = (height: number): number | null => (height % HEADER_CHUNK === 0 ? height / HEADER_CHUNK - 1 : null);

/** What an append writes for block `height`, besides the ledger's changes and the head records. */
export interface BlockRecords {
  height: number;
  raw: Uint8Array;
  hash: Uint8Array;
  body: Uint8Array;
  undo: Uint8Array;
  meta: BlockMeta & { headerCrc: number };
  /** The raw headers of the chunk the block completes (read only when it completes one). */
  chunkHeaders: () => Uint8Array;
}

export function blockPuts(b: BlockRecords): BatchOp[] {
  const chunk = completedChunk(b.height);
  return [
    { type: 'put', key: headerKey(b.height), value: b.raw },
    { type: 'put', key: bodyKey(b.height), value: b.body },
    { type: 'put', key: hashIndexKey(b.hash), value: u32Value(b.height) },
    { type: 'put', key: undoKey(b.height), value: b.undo },
    { type: 'put', key: blockMetaKey(b.height), value: encodeBlockMeta(b.meta) },
    ...(chunk === null ? [] : [{ type: 'put' as const, key: headerChunkKey(chunk), value: b.chunkHeaders() }]),
  ];
}

/** What a rollback deletes of block `height` (whose hash is `hash`): every record `blockPuts` wrote. */
export function blockDeletes(height: number, hash: Uint8Array): BatchOp[] {
  const chunk = completedChunk(height);
  return [
    { type: 'del', key: headerKey(height) },
    { type: 'del', key: bodyKey(height) },
    { type: 'del', key: hashIndexKey(hash) },
    { type: 'del', key: undoKey(height) },
    { type: 'del', key: blockMetaKey(height) },
    ...(chunk === null ? [] : [{ type: 'del' as const, key: headerChunkKey(chunk) }]),
  ];
}
