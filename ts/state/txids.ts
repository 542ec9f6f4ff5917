// The transaction-id cache (consensus.md §7.6) lives in the database under 'n', keyed by
// (pinHeight, accountId, nonceId), so it is written and undone with its block.
import type { TransactionId } from '../core/transaction.js';
import type { Db, StateSource } from '../store/database.js';
import { PREFIX, prefixRange, readU32, readU64, txIdKey, u32Value } from '../store/keys.js';
import type { KeyReader, KeyWriter } from './ledger.js';

export async function hasTxId(s: KeyReader, id: TransactionId): Promise<boolean> {
  return (await s.get(txIdKey(id.pinHeight, id.accountId, id.nonceId))) !== undefined;
}

/** Records an id the caller has found unused (hasTxId). */
export function addTxId(s: KeyWriter, id: TransactionId, height: number): void {
  s.putNew(txIdKey(id.pinHeight, id.accountId, id.nonceId), u32Value(height));
}

/** Deletes (through `s`) every committed id with pinHeight < `below`. */
export async function pruneTxIds(db: Pick<StateSource, 'keys'>, s: KeyWriter, below: number): Promise<void> {
  const { gte } = prefixRange(PREFIX.txId);
  for await (const key of db.keys({ gte, lt: txIdKey(below, 0n, 0) })) await s.del(key);
}

/** Every cached id in key order: by pinHeight, then account id, then nonce id (http-api-details.md §5.8). */
export async function listTxIds(db: Db): Promise<TransactionId[]> {
  const out: TransactionId[] = [];
  for await (const key of db.keys(prefixRange(PREFIX.txId))) {
    out.push({ pinHeight: readU32(key, 1), accountId: readU64(key, 5), nonceId: readU32(key, 13) });
  }
  return out;
}
