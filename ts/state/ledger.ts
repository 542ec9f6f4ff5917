// Accounts, balances and counters of the ledger, read and written through a StateOverlay (or read
// straight from the database for queries). Token id 0 is the coin (exchange.md §1.1).
import { Reader, Writer } from '../core/bytes.js';
import { fail } from '../core/errors.js';
import type { KeySource } from '../store/database.js';
import { COUNTER_HISTORY_ID, COUNTER_STATE_ID, accountKey, addressKey, balanceKey, holderKey, readU64, u64Value } from '../store/keys.js';

export { COIN_TOKEN_ID } from './tokens.js';

/** Anything that reads keys: the database or an overlay on it. */
export interface KeyReader {
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
}

export interface KeyWriter extends KeyReader {
  put(key: Uint8Array, value: Uint8Array): Promise<void>;
  /** A write of a key known to be absent (no read of its previous value). */
  putNew(key: Uint8Array, value: Uint8Array): void;
  del(key: Uint8Array): Promise<void>;
}

/**
 * Adapts a database for read-only ledger queries. Point reads are synchronous: LevelDB answers
 * them from its cache or the OS page cache in microseconds, while an asynchronous get waits for
 * libuv's thread pool and then an event-loop turn, which under load is a queue's worth of other
 * work; a block append made of dozens of them waited behind every running read (issue 12).
 */
export const dbReader = (db: KeySource): KeyReader => ({ get: async (k) => db.getSync(k) });

export interface Balance {
  total: bigint;
  locked: bigint;
}

export const ZERO_BALANCE: Balance = { total: 0n, locked: 0n };

export async function accountIdOf(s: KeyReader, address: Uint8Array): Promise<bigint | undefined> {
  const v = await s.get(addressKey(address));
  return v ? readU64(v) : undefined;
}

export async function addressOf(s: KeyReader, accountId: bigint): Promise<Uint8Array | undefined> {
  return s.get(accountKey(accountId));
}

export async function addAccount(s: KeyWriter, accountId: bigint, address: Uint8Array): Promise<void> {
  await s.put(accountKey(accountId), address);
  await s.put(addressKey(address), u64Value(accountId));
}

export async function balanceOf(s: KeyReader, accountId: bigint, tokenId: bigint): Promise<Balance> {
  const v = await s.get(balanceKey(accountId, tokenId));
  if (!v) return ZERO_BALANCE;
  const r = new Reader(v);
  return { total: r.u64(), locked: r.u64() };
}

/** Whether the (account, token) row exists; rows are created on first credit and never deleted (exchange.md §3.1). */
export async function hasBalanceRow(s: KeyReader, accountId: bigint, tokenId: bigint): Promise<boolean> {
  return (await s.get(balanceKey(accountId, tokenId))) !== undefined;
}

/** Writes a balance row; a new row is also listed among the token's holders (for the richlist). */
export async function setBalance(s: KeyWriter, accountId: bigint, tokenId: bigint, b: Balance): Promise<void> {
  if (b.locked > b.total) fail('EBALANCE', `locked ${b.locked} > total ${b.total}`);
  if (!(await hasBalanceRow(s, accountId, tokenId))) await s.put(holderKey(tokenId, accountId), new Uint8Array(0));
  await s.put(balanceKey(accountId, tokenId), new Writer(16).u64(b.total).u64(b.locked).finish());
}

/** Counters start at 1: the first account id and the first history id are 1 (§6.6, exchange.md §10.1). */
async function counter(s: KeyReader, key: Uint8Array): Promise<bigint> {
  const v = await s.get(key);
  return v ? readU64(v) : 1n;
}

export const nextStateId = (s: KeyReader) => counter(s, COUNTER_STATE_ID);
export const nextHistoryId = (s: KeyReader) => counter(s, COUNTER_HISTORY_ID);
export const setNextStateId = (s: KeyWriter, v: bigint) => s.put(COUNTER_STATE_ID, u64Value(v));
export const setNextHistoryId = (s: KeyWriter, v: bigint) => s.put(COUNTER_HISTORY_ID, u64Value(v));
