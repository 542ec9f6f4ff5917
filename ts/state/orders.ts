// Open orders (exchange.md §5.2–§5.4): an order's id is its limitSwap's history id; it stays in the
// book until filled completely or canceled. Indexed by asset (the book), by transaction id (for
// cancelations) and by account (open-order listings).
import { Reader, Writer } from '../core/bytes.js';
import type { TransactionId } from '../core/transaction.js';
import type { Db, StateSource } from '../store/database.js';
import { accountOrderKey, bookKey, keysStartingWith, orderKey, orderTxKey, readU64, u64Value } from '../store/keys.js';
import { dbReader, type KeyReader, type KeyWriter } from './ledger.js';

export interface OpenOrder {
  id: bigint;
  accountId: bigint;
  assetId: bigint;
  isBuy: boolean;
  /** In the spend token: coin for buys, asset for sells. */
  amount: bigint;
  filled: bigint;
  /** The 3-byte limit price. */
  limit: Uint8Array;
  pinHeight: number;
  nonceId: number;
  txHash: Uint8Array;
  height: number;
}

function encode(o: OpenOrder): Uint8Array {
  return new Writer(96)
    .u64(o.accountId)
    .u64(o.assetId)
    .u8(o.isBuy ? 1 : 0)
    .u64(o.amount)
    .u64(o.filled)
    .bytes(o.limit, 3)
    .u32(o.pinHeight)
    .u32(o.nonceId)
    .bytes(o.txHash, 32)
    .u32(o.height)
    .finish();
}

function decode(id: bigint, v: Uint8Array): OpenOrder {
  const r = new Reader(v);
  return {
    id,
    accountId: r.u64(),
    assetId: r.u64(),
    isBuy: r.u8() === 1,
    amount: r.u64(),
    filled: r.u64(),
    limit: r.bytes(3),
    pinHeight: r.u32(),
    nonceId: r.u32(),
    txHash: r.bytes(32),
    height: r.u32(),
  };
}

export async function orderById(s: KeyReader, id: bigint): Promise<OpenOrder | null> {
  const v = await s.get(orderKey(id));
  return v ? decode(id, v) : null;
}

export async function orderByTxId(s: KeyReader, id: TransactionId): Promise<OpenOrder | null> {
  const v = await s.get(orderTxKey(id.accountId, id.pinHeight, id.nonceId));
  return v ? orderById(s, readU64(v)) : null;
}

export async function addOrder(s: KeyWriter, o: OpenOrder): Promise<void> {
  await s.put(orderKey(o.id), encode(o));
  await s.put(bookKey(o.assetId, o.id), new Uint8Array(0));
  await s.put(orderTxKey(o.accountId, o.pinHeight, o.nonceId), u64Value(o.id));
  await s.put(accountOrderKey(o.accountId, o.id), new Uint8Array(0));
}

/** Records a fill; an order filled completely leaves the book (§5.3). */
export async function updateOrder(s: KeyWriter, o: OpenOrder): Promise<void> {
  if (o.filled >= o.amount) return removeOrder(s, o);
  await s.put(orderKey(o.id), encode(o));
}

export async function removeOrder(s: KeyWriter, o: OpenOrder): Promise<void> {
  await s.del(orderKey(o.id));
  await s.del(bookKey(o.assetId, o.id));
  await s.del(orderTxKey(o.accountId, o.pinHeight, o.nonceId));
  await s.del(accountOrderKey(o.accountId, o.id));
}

/** Ids of an asset's open orders in the committed database (ascending). */
export async function bookOrderIds(db: Pick<StateSource, 'keys'>, assetId: bigint): Promise<bigint[]> {
  const ids: bigint[] = [];
  for await (const k of db.keys(keysStartingWith(bookKey(assetId, 0n).subarray(0, 9)))) ids.push(readU64(k, 9));
  return ids;
}

/** An account's open orders (ascending id). */
export async function accountOrders(db: Db, accountId: bigint): Promise<OpenOrder[]> {
  const out: OpenOrder[] = [];
  const s = dbReader(db);
  for await (const k of db.keys(keysStartingWith(accountOrderKey(accountId, 0n).subarray(0, 9)))) {
    const o = await orderById(s, readU64(k, 9));
    if (o) out.push(o);
  }
  return out;
}
