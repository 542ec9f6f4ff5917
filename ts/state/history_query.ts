// Read-side queries of the history (exchange.md §10; http-api-details.md §4.4, §5.5, §7.3): the
// entries of one block, the latest entries, and one account's entries before an id. Entries come
// back decoded, in ascending id order, with the account ids they name resolved to addresses.
import { Annotator } from '../core/annotation.js';
import { Reader } from '../core/bytes.js';
import { entryPinHeight, readEntry, type CoinTransferEntry } from '../core/entry.js';
import type { Db } from '../store/database.js';
import { accountHistoryKey, historyKey, prefixRange, readU64, txHashKey } from '../store/keys.js';
import { decodeHistoryEntry } from './history.js';
import { addressOf, dbReader, nextHistoryId, type KeyReader } from './ledger.js';

/** `/transaction/latest` covers the last 100 history ids (http-api-details.md §4.4). */
export const LATEST_HISTORY_ENTRIES = 100;
/** An account history page holds at most 100 entries (http-api-details.md §7.3, §13). */
export const ACCOUNT_HISTORY_PAGE = 100;

interface MinedCommon {
  id: bigint;        // history id
  height: number;    // block height
  hash: Uint8Array;  // transaction hash (the reward hash for rewards, consensus.md §7.7)
}

export interface MinedReward extends MinedCommon {
  kind: 'reward';
  toId: bigint;
  toAddress: Uint8Array;
  amount: bigint;
}

export interface MinedCoinTransfer extends MinedCommon {
  kind: 'coinTransfer';
  entry: CoinTransferEntry;
  pinHeight: number;
  originAddress: Uint8Array;
  toAddress: Uint8Array;
}

export type MinedTransaction = MinedReward | MinedCoinTransfer;

/** Account id → address lookups of one query, each id read once. */
class AddressBook {
  private readonly known = new Map<bigint, Uint8Array>();
  constructor(private readonly s: KeyReader) {}

  async of(id: bigint): Promise<Uint8Array> {
    let a = this.known.get(id);
    if (!a) {
      a = await addressOf(this.s, id);
      if (!a) throw new Error(`database corrupt: history names account ${id}, which does not exist`);
      this.known.set(id, a);
    }
    return a;
  }
}

async function decode(id: bigint, bytes: Uint8Array, book: AddressBook): Promise<MinedTransaction> {
  const e = decodeHistoryEntry(bytes);
  const r = new Reader(e.payload);
  if (e.kind === 'reward') {
    const toId = r.u64();
    return { kind: 'reward', id, height: e.height, hash: e.hash, toId, toAddress: await book.of(toId), amount: r.u64() };
  }
  const entry = readEntry('coinTransfer', r, new Annotator(r, false));
  return {
    kind: 'coinTransfer', id, height: e.height, hash: e.hash, entry, pinHeight: entryPinHeight(entry, e.height),
    originAddress: await book.of(entry.originId), toAddress: await book.of(entry.toId),
  };
}

/** Decodes the stored entries of `ids` (ascending); ids without an entry (rolled back meanwhile) are skipped. */
async function load(db: Db, ids: bigint[]): Promise<MinedTransaction[]> {
  const values = ids.length ? await db.getMany(ids.map(historyKey)) : [];
  const book = new AddressBook(dbReader(db));
  const out: MinedTransaction[] = [];
  for (const [i, v] of values.entries()) if (v) out.push(await decode(ids[i], v, book));
  return out;
}

/** The entries of block `height`, whose first history id is `firstHistoryId` (they are consecutive). */
export async function blockTransactions(db: Db, height: number, firstHistoryId: bigint): Promise<MinedTransaction[]> {
  const book = new AddressBook(dbReader(db));
  const out: MinedTransaction[] = [];
  for await (const [key, value] of db.iterator({ gte: historyKey(firstHistoryId), lt: prefixRange('h').lt })) {
    if (decodeHistoryEntry(value).height !== height) break;
    out.push(await decode(readU64(key, 1), value, book));
  }
  return out;
}

/** The entries with ids in [max(1, next − n), next); `fromId` is that lower bound (1 when there are none). */
export async function latestTransactions(db: Db, n = LATEST_HISTORY_ENTRIES): Promise<{ fromId: bigint; transactions: MinedTransaction[] }> {
  const next = await nextHistoryId(dbReader(db));
  const fromId = next > BigInt(n) ? next - BigInt(n) : 1n;
  const ids: bigint[] = [];
  for (let id = fromId; id < next; id++) ids.push(id);
  return { fromId, transactions: await load(db, ids) };
}

/** The newest `limit` entries linked to `accountId` with id < `beforeId`, returned in ascending id order. */
export async function accountTransactions(
  db: Db, accountId: bigint, beforeId: bigint, limit = ACCOUNT_HISTORY_PAGE,
): Promise<MinedTransaction[]> {
  const ids: bigint[] = [];
  const range = { gte: accountHistoryKey(accountId, 0n), lt: accountHistoryKey(accountId, beforeId), reverse: true, limit };
  for await (const key of db.keys(range)) ids.push(readU64(key, 9));
  return load(db, ids.reverse());
}

/** The mined entry with transaction hash `hash` (exchange.md §10.1: every entry is indexed by its hash), or null. */
export async function transactionByHash(db: Db, hash: Uint8Array): Promise<MinedTransaction | null> {
  const id = await db.get(txHashKey(hash));
  if (!id) return null;
  const [tx] = await load(db, [readU64(id)]);
  return tx ?? null;
}
