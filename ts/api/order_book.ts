// The open orders the interface lists (exchange.md §5.3, §8.8): on-chain open orders with their
// fills, plus pending mempool limitSwaps (full amount, nothing filled). Mempool orders get ids
// above every on-chain order id, so that priority (§5.5: best limit first, then ascending id)
// ranks on-chain orders first at an equal limit, in listings and in the Market.match preview.
import { equalBytes } from '../core/hex.js';
import { comparePriority, type Order } from '../dex/book.js';
import { priceFromBytes } from '../kernel/price.js';
import type { PendingTx } from '../mempool/pending.js';
import type { PoolState } from '../kernel/pool.js';
import type { Asset } from '../state/assets.js';
import { dbReader, nextHistoryId } from '../state/ledger.js';
import { accountOrders, bookOrderIds, orderById, type OpenOrder } from '../state/orders.js';
import { poolOf } from '../state/pools.js';
import type { ReadView } from '../chain/read_view.js';

export interface ListedOrder extends Order {
  assetId: bigint;
  /** In the spend token: coin for buys, the asset for sells. */
  amount: bigint;
  filled: bigint;
  txHash: Uint8Array;
  inMempool: boolean;
  /** The order's transaction id (with its account). */
  pinHeight: number;
  nonceId: number;
}

export interface Sides {
  buys: ListedOrder[];
  sells: ListedOrder[];
}

function onChain(o: OpenOrder): ListedOrder | null {
  const limit = priceFromBytes(o.limit);
  if (!limit) return null;
  return {
    id: o.id,
    assetId: o.assetId,
    isBuy: o.isBuy,
    limit,
    remaining: o.amount - o.filled,
    amount: o.amount,
    filled: o.filled,
    txHash: o.txHash,
    inMempool: false,
    pinHeight: o.pinHeight,
    nonceId: o.nonceId,
  };
}

function pending(tx: PendingTx, assetId: bigint, id: bigint): ListedOrder | null {
  const p = tx.payload;
  if (p.type !== 'limitSwap') return null;
  const limit = priceFromBytes(p.limit);
  if (!limit || p.amount === 0n) return null;
  return {
    id,
    assetId,
    isBuy: p.isBuy,
    limit,
    remaining: p.amount,
    amount: p.amount,
    filled: 0n,
    txHash: tx.hash,
    inMempool: true,
    pinHeight: tx.pinHeight,
    nonceId: tx.nonceId,
  };
}

/** Splits orders into sides, each best first (§5.5). */
export function sides(orders: ListedOrder[]): Sides {
  return {
    buys: orders.filter((o) => o.isBuy).sort(comparePriority),
    sells: orders.filter((o) => !o.isBuy).sort(comparePriority),
  };
}

const byTxId = (a: ListedOrder, b: ListedOrder) => a.pinHeight - b.pinHeight || a.nonceId - b.nonceId;

/**
 * One account's orders split into sides in the reference's order (its account order queries): the
 * on-chain orders first, by transaction id (`byId`: by order id, i.e. in the order they entered
 * the book), then the pending ones by transaction id.
 */
export function accountSides(orders: ListedOrder[], byId = false): Sides {
  const order = (a: ListedOrder, b: ListedOrder) =>
    Number(a.inMempool) - Number(b.inMempool) || (byId && !a.inMempool ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : byTxId(a, b));
  return { buys: orders.filter((o) => o.isBuy).sort(order), sells: orders.filter((o) => !o.isBuy).sort(order) };
}

/**
 * Every open order of `asset` (its book on `view` and the pending limitSwaps on it among `mempool`)
 * and its pool: book and pool agree, being of one view.
 */
export async function assetMarket(view: ReadView, mempool: readonly PendingTx[], asset: Asset): Promise<{ orders: ListedOrder[]; pool: PoolState }> {
  // The on-chain book and pool: read once per chain state, however many ask for them.
  const onChainPart = await view.memo(`market ${asset.id}`, async () => {
    const s = dbReader(view.db);
    const orders: ListedOrder[] = [];
    for (const id of await bookOrderIds(view.db, asset.id)) {
      const o = await orderById(s, id);
      const l = o && onChain(o);
      if (l) orders.push(l);
    }
    return { orders, nextId: await nextHistoryId(s), pool: await poolOf(s, asset.id) };
  });
  const out = onChainPart.orders.map((o) => ({ ...o }));
  let nextId = onChainPart.nextId;
  for (const tx of mempool) {
    const p = tx.payload;
    if (p.type !== 'limitSwap' || !equalBytes(p.assetHash, asset.hash)) continue;
    const l = pending(tx, asset.id, nextId);
    if (l) {
      out.push(l);
      nextId++;
    }
  }
  return { orders: out, pool: { ...onChainPart.pool } };
}

/**
 * Every open order of an account, on `view` and among its pending transactions `mempool`, by asset
 * id; `assetOf` resolves a pending order's asset hash (null when the asset is gone).
 */
export async function accountOrdersByAsset(
  view: ReadView,
  mempool: readonly PendingTx[],
  accountId: bigint,
  assetOf: (hash: Uint8Array) => Promise<Asset | null>,
): Promise<Map<bigint, ListedOrder[]>> {
  const s = dbReader(view.db);
  const byAsset = new Map<bigint, ListedOrder[]>();
  const add = (o: ListedOrder) => {
    const list = byAsset.get(o.assetId);
    if (list) list.push(o);
    else byAsset.set(o.assetId, [o]);
  };
  for (const o of await accountOrders(view.db, accountId)) {
    const l = onChain(o);
    if (l) add(l);
  }
  let nextId = await nextHistoryId(s);
  for (const tx of mempool) {
    if (tx.payload.type !== 'limitSwap') continue;
    const asset = await assetOf(tx.payload.assetHash);
    const l = asset && pending(tx, asset.id, nextId);
    if (l) {
      add(l);
      nextId++;
    }
  }
  return byAsset;
}
