// History entries (exchange.md §10.1): one per reward, per signed transaction and per recorded
// match, with global consecutive ids assigned in processing order (§7.1). An entry is
// self-contained, so lookups and account history need no block parsing:
//   kind u8 ‖ height u32 ‖ hash 32 ‖ payload
// Payloads:
//   reward              toId u64 ‖ amount u64
//   coinTransfer        entry bytes
//   tokenTransfer       assetId u64 ‖ isLiquidity u8 (1: the liquidity token) ‖ entry bytes
//   limitSwap           assetId u64 ‖ entry bytes
//   match               assetId u64 ‖ poolBefore (base, quote) ‖ poolAfter ‖ buys n u16 ‖ sells n u16
//                       ‖ each swap (historyId u64, base u64, quote u64), buys first
//   liquidityDeposit    assetId u64 ‖ sharesReceived u64 ‖ entry bytes
//   liquidityWithdrawal assetId u64 ‖ receivedBase u64 ‖ receivedQuote u64 ‖ entry bytes
//   cancelation         canceledOrderId u64 (0: none) ‖ entry bytes
//   assetCreation       assetId u64 ‖ entry bytes
import { Reader, Writer } from '../core/bytes.js';
import { HASH_SIZE } from '../core/header.js';
import { concatBytes } from '../core/hex.js';
import { HISTORY_KINDS, type HistoryKind } from '../core/history_kinds.js';
import { sha256 } from '../kernel/hash.js';
import { accountHistoryKey, historyKey, txHashKey, u64Value } from '../store/keys.js';
import type { KeyWriter } from './ledger.js';

export interface HistoryEntry {
  kind: HistoryKind;
  height: number;
  hash: Uint8Array;
  payload: Uint8Array;
}

export function encodeHistoryEntry(e: HistoryEntry): Uint8Array {
  return new Writer(37 + e.payload.length).u8(HISTORY_KINDS.indexOf(e.kind)).u32(e.height).bytes(e.hash, HASH_SIZE).bytes(e.payload).finish();
}

export function decodeHistoryEntry(bytes: Uint8Array): HistoryEntry {
  const r = new Reader(bytes);
  const kind = HISTORY_KINDS[r.u8()];
  const height = r.u32();
  const hash = r.bytes(HASH_SIZE);
  return { kind, height, hash, payload: r.bytes(r.remaining) };
}

/**
 * Writes the entry and indexes its hash; its accounts are linked by their block's records
 * (linkAccountHistory). Both keys are new: history ids only grow (rollback removes the ids it
 * reuses) and a hash names one entry (equal signed bytes would repeat a transaction id, which the
 * chain refuses).
 */
export function addHistoryEntry(s: KeyWriter, id: bigint, e: HistoryEntry): void {
  s.putNew(historyKey(id), encodeHistoryEntry(e));
  s.putNew(txHashKey(e.hash), u64Value(id));
}

/**
 * Links an account to its history entries of one block (ascending ids, at least one) with one
 * record (issue 29: one per account and block, not one per entry): key (account, first id), value
 * the further ids as u32 differences to the one before (empty: the first alone). A store written
 * before holds one record per entry with an empty value, which reads the same. The key is new: the
 * first id is the block's.
 */
export function linkAccountHistory(s: KeyWriter, accountId: bigint, ids: readonly bigint[]): void {
  const value = new Uint8Array(4 * (ids.length - 1));
  const v = new DataView(value.buffer);
  for (let i = 1; i < ids.length; i++) v.setUint32(4 * (i - 1), Number(ids[i] - ids[i - 1]));
  s.putNew(accountHistoryKey(accountId, ids[0]), value);
}

/** The history ids of an account history record: its key's first id, then the value's differences. */
export function accountHistoryIds(first: bigint, value: Uint8Array): bigint[] {
  if (value.length % 4 !== 0) throw new Error(`account history record of ${value.length} bytes`);
  const ids = [first];
  const v = new DataView(value.buffer, value.byteOffset, value.length);
  for (let at = 0; at < value.length; at += 4) ids.push(ids[ids.length - 1] + BigInt(v.getUint32(at)));
  return ids;
}

/** One side's fill in a match record (exchange.md §8.7). */
export interface MatchSwap {
  historyId: bigint;
  base: bigint;
  quote: bigint;
}

export interface MatchRecord {
  assetId: bigint;
  poolBefore: { base: bigint; quote: bigint };
  poolAfter: { base: bigint; quote: bigint };
  buySwaps: MatchSwap[];
  sellSwaps: MatchSwap[];
}

/** The transaction hash of a block's match of an asset (exchange.md §8.7): SHA-256(block hash ‖ asset id u64). */
export function matchTxHash(blockHash: Uint8Array, assetId: bigint): Uint8Array {
  return sha256(concatBytes(blockHash, u64Value(assetId)));
}

export function encodeMatch(m: MatchRecord): Uint8Array {
  const w = new Writer(44 + 24 * (m.buySwaps.length + m.sellSwaps.length))
    .u64(m.assetId)
    .u64(m.poolBefore.base)
    .u64(m.poolBefore.quote)
    .u64(m.poolAfter.base)
    .u64(m.poolAfter.quote)
    .u16(m.buySwaps.length)
    .u16(m.sellSwaps.length);
  for (const s of [...m.buySwaps, ...m.sellSwaps]) w.u64(s.historyId).u64(s.base).u64(s.quote);
  return w.finish();
}

export function decodeMatch(payload: Uint8Array): MatchRecord {
  const r = new Reader(payload);
  const assetId = r.u64();
  const poolBefore = { base: r.u64(), quote: r.u64() };
  const poolAfter = { base: r.u64(), quote: r.u64() };
  const nb = r.u16(),
    ns = r.u16();
  const swap = (): MatchSwap => ({ historyId: r.u64(), base: r.u64(), quote: r.u64() });
  const buySwaps = Array.from({ length: nb }, swap);
  const sellSwaps = Array.from({ length: ns }, swap);
  r.end();
  return { assetId, poolBefore, poolAfter, buySwaps, sellSwaps };
}
