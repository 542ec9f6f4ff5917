// Read-side queries of the history (exchange.md §10; http-api-details.md §4.4, §5.5, §7.3): the
// entries of one block, the latest entries, and one account's entries before an id. Entries come
// back decoded, in ascending id order, with what their views need resolved: addresses of the
// accounts they name, asset records, and the values filled in at query time (exchange.md §10.2):
// a limitSwap's current remaining (§5.3, proposal P4), a cancelation's canceled order hash (§5.4).
import { Annotator } from '../core/annotation.js';
import { Reader } from '../core/bytes.js';
import { entryPinHeight, readEntry, type EntryKind, type EntryOf } from '../core/entry.js';
import { assetNameOf } from '../core/transaction.js';
import type { Db } from '../store/database.js';
import { COUNTER_HISTORY_ID, accountHistoryKey, blockMetaKey, historyKey, readU64, txHashKey } from '../store/keys.js';
import { decodeBlockMeta } from '../store/block_records.js';
import { assetById, type Asset } from './assets.js';
import { accountHistoryIds, decodeHistoryEntry, decodeMatch, type MatchRecord } from './history.js';
import { addressOf, dbReader, nextHistoryId, type KeyReader } from './ledger.js';
import { orderById } from './orders.js';

/** `/transaction/latest` covers the last 100 history ids (http-api-details.md §4.4). */
export const LATEST_HISTORY_ENTRIES = 100;
/** An account history page holds at most 100 entries (http-api-details.md §7.3, §13). */
export const ACCOUNT_HISTORY_PAGE = 100;

interface MinedCommon {
  id: bigint; // history id
  height: number; // block height
  hash: Uint8Array; // transaction hash (reward: consensus.md §7.7; match: exchange.md §8.7)
}

/** A signed entry with its pin height and signer address resolved. */
interface MinedSigned<K extends EntryKind> extends MinedCommon {
  entry: EntryOf<K>;
  pinHeight: number;
  originAddress: Uint8Array;
}

export interface MinedReward extends MinedCommon {
  kind: 'reward';
  toId: bigint;
  toAddress: Uint8Array;
  amount: bigint;
}

export interface MinedCoinTransfer extends MinedSigned<'coinTransfer'> {
  kind: 'coinTransfer';
  toAddress: Uint8Array;
}

/** An asset transfer or (isLiquidity) a transfer of the asset's pool liquidity token. */
export interface MinedTokenTransfer extends MinedSigned<'assetTransfer' | 'shareTransfer'> {
  kind: 'tokenTransfer';
  asset: Asset;
  isLiquidity: boolean;
  toAddress: Uint8Array;
}

export interface MinedLimitSwap extends MinedSigned<'limitSwap'> {
  kind: 'limitSwap';
  asset: Asset;
  /** Current remaining of the order (spend token), 0 once filled or canceled (§5.3, P4). */
  remaining: bigint;
}

export interface MinedMatch extends MinedCommon {
  kind: 'match';
  asset: Asset;
  record: MatchRecord;
}

export interface MinedLiquidityDeposit extends MinedSigned<'liquidityDeposit'> {
  kind: 'liquidityDeposit';
  asset: Asset;
  sharesReceived: bigint;
}

export interface MinedLiquidityWithdrawal extends MinedSigned<'liquidityWithdrawal'> {
  kind: 'liquidityWithdrawal';
  asset: Asset;
  received: { base: bigint; quote: bigint };
}

export interface MinedCancelation extends MinedSigned<'cancelation'> {
  kind: 'cancelation';
  /** Hash of the limitSwap whose open order this canceled, null if none matched (§5.4). */
  canceledTxHash: Uint8Array | null;
}

export interface MinedAssetCreation extends MinedSigned<'assetCreation'> {
  kind: 'assetCreation';
  assetId: bigint;
  name: string;
}

export type MinedTransaction =
  | MinedReward
  | MinedCoinTransfer
  | MinedTokenTransfer
  | MinedLimitSwap
  | MinedMatch
  | MinedLiquidityDeposit
  | MinedLiquidityWithdrawal
  | MinedCancelation
  | MinedAssetCreation;

/** Account and asset lookups of one query, each read once. */
class Lookups {
  private readonly addresses = new Map<bigint, Uint8Array>();
  private readonly assets = new Map<bigint, Asset>();
  constructor(readonly s: KeyReader) {}

  async address(id: bigint): Promise<Uint8Array> {
    let a = this.addresses.get(id);
    if (!a) {
      a = await addressOf(this.s, id);
      if (!a) throw new Error(`database corrupt: history names account ${id}, which does not exist`);
      this.addresses.set(id, a);
    }
    return a;
  }

  async asset(id: bigint): Promise<Asset> {
    let a = this.assets.get(id);
    if (!a) {
      a = (await assetById(this.s, id)) ?? undefined;
      if (!a) throw new Error(`database corrupt: history names asset ${id}, which does not exist`);
      this.assets.set(id, a);
    }
    return a;
  }
}

async function decode(id: bigint, bytes: Uint8Array, look: Lookups): Promise<MinedTransaction> {
  const e = decodeHistoryEntry(bytes);
  const common = { id, height: e.height, hash: e.hash };
  if (e.kind === 'match') {
    const record = decodeMatch(e.payload);
    return { kind: 'match', ...common, asset: await look.asset(record.assetId), record };
  }
  const r = new Reader(e.payload);
  if (e.kind === 'reward') {
    const toId = r.u64();
    return { kind: 'reward', ...common, toId, toAddress: await look.address(toId), amount: r.u64() };
  }
  // The signed kinds: a fixed prefix (history.ts payload layouts), then the entry bytes.
  const signed = async <K extends EntryKind>(kind: K) => {
    const entry = readEntry(kind, r, new Annotator(r, false));
    r.end();
    return { ...common, entry, pinHeight: entryPinHeight(entry, e.height), originAddress: await look.address(entry.originId) };
  };
  switch (e.kind) {
    case 'coinTransfer': {
      const s = await signed('coinTransfer');
      return { kind: 'coinTransfer', ...s, toAddress: await look.address(s.entry.toId) };
    }
    case 'tokenTransfer': {
      const asset = await look.asset(r.u64());
      const isLiquidity = r.u8() === 1;
      const s = await signed(isLiquidity ? 'shareTransfer' : 'assetTransfer');
      return { kind: 'tokenTransfer', ...s, asset, isLiquidity, toAddress: await look.address(s.entry.toId) };
    }
    case 'limitSwap': {
      const asset = await look.asset(r.u64());
      const s = await signed('limitSwap');
      const order = await orderById(look.s, id); // the order id is its limitSwap's history id (§5.2)
      return { kind: 'limitSwap', ...s, asset, remaining: order ? order.amount - order.filled : 0n };
    }
    case 'liquidityDeposit': {
      const asset = await look.asset(r.u64());
      const sharesReceived = r.u64();
      return { kind: 'liquidityDeposit', ...(await signed('liquidityDeposit')), asset, sharesReceived };
    }
    case 'liquidityWithdrawal': {
      const asset = await look.asset(r.u64());
      const received = { base: r.u64(), quote: r.u64() };
      return { kind: 'liquidityWithdrawal', ...(await signed('liquidityWithdrawal')), asset, received };
    }
    case 'cancelation': {
      const orderId = r.u64();
      const s = await signed('cancelation');
      return { kind: 'cancelation', ...s, canceledTxHash: orderId === 0n ? null : await entryHash(look.s, orderId) };
    }
    case 'assetCreation': {
      const assetId = r.u64();
      const s = await signed('assetCreation');
      return { kind: 'assetCreation', ...s, assetId, name: assetNameOf(s.entry.name) ?? '' };
    }
  }
}

/** The transaction hash of history entry `id`. */
async function entryHash(s: KeyReader, id: bigint): Promise<Uint8Array> {
  const v = await s.get(historyKey(id));
  if (!v) throw new Error(`database corrupt: history entry ${id} is missing`);
  return decodeHistoryEntry(v).hash;
}

/** Decodes the stored entries of `ids` (ascending); ids without an entry (rolled back meanwhile) are skipped. */
async function load(db: Db, ids: bigint[]): Promise<MinedTransaction[]> {
  const values = ids.length ? await db.getMany(ids.map(historyKey)) : [];
  const look = new Lookups(dbReader(db));
  const out: MinedTransaction[] = [];
  for (const [i, v] of values.entries()) if (v) out.push(await decode(ids[i], v, look));
  return out;
}

/**
 * The entries of block `height`, whose first history id is `firstHistoryId`: they are consecutive
 * and end where the next block's begin (its block meta), or at the next history id for the tip.
 * Point reads of exactly those ids: an iterator would read ahead past the block.
 */
export async function blockTransactions(db: Db, height: number, firstHistoryId: bigint): Promise<MinedTransaction[]> {
  const [nextMeta, counter] = await db.getMany([blockMetaKey(height + 1), COUNTER_HISTORY_ID]);
  const end = nextMeta ? decodeBlockMeta(nextMeta).firstHistoryId : counter ? readU64(counter) : firstHistoryId;
  const ids: bigint[] = [];
  for (let id = firstHistoryId; id < end; id++) ids.push(id);
  return (await load(db, ids)).filter((t) => t.height === height);
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
export async function accountTransactions(db: Db, accountId: bigint, beforeId: bigint, limit = ACCOUNT_HISTORY_PAGE): Promise<MinedTransaction[]> {
  // Records (one per account and block, keyed by the block's first id of the account) newest first;
  // the newest one may hold ids at or above beforeId.
  const ids: bigint[] = [];
  const range = { gte: accountHistoryKey(accountId, 0n), lt: accountHistoryKey(accountId, beforeId), reverse: true };
  for await (const [key, value] of db.iterator(range)) {
    const record = accountHistoryIds(readU64(key, 9), value);
    for (let i = record.length - 1; i >= 0 && ids.length < limit; i--) if (record[i] < beforeId) ids.push(record[i]);
    if (ids.length >= limit) break;
  }
  return load(db, ids.reverse());
}

/** The mined entry with transaction hash `hash` (exchange.md §10.1: every entry is indexed by its hash), or null. */
export async function transactionByHash(db: Db, hash: Uint8Array): Promise<MinedTransaction | null> {
  const id = await db.get(txHashKey(hash));
  if (!id) return null;
  const [tx] = await load(db, [readU64(id)]);
  return tx ?? null;
}

/** The history id of the mined entry with transaction hash `hash`, or null: the index's one point read, nothing decoded. */
export async function transactionIdByHash(db: Db, hash: Uint8Array): Promise<bigint | null> {
  const id = await dbReader(db).get(txHashKey(hash));
  return id ? readU64(id) : null;
}
