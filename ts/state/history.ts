// History entries (exchange.md §10.1): one per reward and per signed transaction, with global
// consecutive ids assigned in processing order (§7.1). An entry is self-contained, so lookups and
// account history need no block parsing:  kind u8 ‖ height u32 ‖ hash 32 ‖ payload.
// Payloads: reward = toId u64 ‖ amount u64; signed kinds = the entry's body bytes.
import { Reader, Writer } from '../core/bytes.js';
import { HASH_SIZE } from '../core/header.js';
import { accountHistoryKey, historyKey, txHashKey, u64Value } from '../store/keys.js';
import type { KeyWriter } from './ledger.js';

export const HISTORY_KINDS = ['reward', 'coinTransfer'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

export interface HistoryEntry {
  kind: HistoryKind;
  height: number;
  hash: Uint8Array;
  payload: Uint8Array;
}

export function encodeHistoryEntry(e: HistoryEntry): Uint8Array {
  return new Writer(37 + e.payload.length).u8(HISTORY_KINDS.indexOf(e.kind)).u32(e.height)
    .bytes(e.hash, HASH_SIZE).bytes(e.payload).finish();
}

export function decodeHistoryEntry(bytes: Uint8Array): HistoryEntry {
  const r = new Reader(bytes);
  const kind = HISTORY_KINDS[r.u8()];
  const height = r.u32();
  const hash = r.bytes(HASH_SIZE);
  return { kind, height, hash, payload: r.bytes(r.remaining) };
}

/** Writes the entry, links it to its accounts (duplicates collapse) and indexes its hash. */
export async function addHistoryEntry(s: KeyWriter, id: bigint, e: HistoryEntry, accounts: bigint[]): Promise<void> {
  await s.put(historyKey(id), encodeHistoryEntry(e));
  for (const a of new Set(accounts)) await s.put(accountHistoryKey(a, id), new Uint8Array(0));
  await s.put(txHashKey(e.hash), u64Value(id));
}
