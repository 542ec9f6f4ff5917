// The order book of one asset as matching sees it (exchange.md §5.5, §7.3, §8.2): open orders in
// priority order per side, aggregated into price levels.
import { fail } from '../core/errors.js';
import type { Price } from '../kernel/price.js';

const U64_LIMIT = 1n << 64n;

/** An open order (§5.2): `remaining` is in the spend token (coin for buys, asset for sells). */
export interface Order {
  /** The history id of its limitSwap: later orders have larger ids. */
  readonly id: bigint;
  readonly isBuy: boolean;
  readonly limit: Price;
  /** amount − filled (§5.3), > 0 for an open order. */
  readonly remaining: bigint;
}

/**
 * All orders of one side with the same limit (§7.3); `amount` is the sum of their `remaining`,
 * except in the book a block's match loads (lazy_book.ts), where the reference counts more.
 */
export interface PriceLevel {
  readonly limit: Price;
  readonly amount: bigint;
}

export interface Book {
  /** Buy orders, best first: descending limit, then ascending id (§5.5). */
  readonly buys: readonly Order[];
  /** Sell orders, best first: ascending limit, then ascending id (§5.5). */
  readonly sells: readonly Order[];
  /** Buy levels in descending price, `L_0 > L_1 > …` (§8.2). */
  readonly buyLevels: readonly PriceLevel[];
  /** Sell levels in descending price, `T_0 > T_1 > …` (§8.2). */
  readonly sellLevels: readonly PriceLevel[];
}

/**
 * An exact integer sort key of a valid price: e·65536 + m (§4.1: exponent first, then mantissa,
 * which is numeric order; [H] stores limits under this key).
 */
export function priceKey(p: Price): number {
  return p.exponent * 65536 + p.mantissa;
}

/** Priority within one side (§5.5): negative when `a` ranks before `b`. */
export function comparePriority(a: Order, b: Order): number {
  const byLimit = priceKey(a.limit) - priceKey(b.limit);
  if (byLimit !== 0) return a.isBuy ? -byLimit : byLimit;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function checkOrder(o: Order): void {
  if (typeof o.id !== 'bigint' || o.id < 0n || o.id >= U64_LIMIT) fail('EBUG', `order id ${String(o.id)}`);
  // [proposal] §4.1/P1: invalid prices never reach the book
  const { mantissa: m, exponent: e } = o.limit ?? { mantissa: NaN, exponent: NaN };
  if (!Number.isInteger(m) || m < 0x8000 || m > 0xffff || !Number.isInteger(e) || e < 0 || e > 127) {
    fail('EBADPRICE', `order ${o.id}`);
  }
  if (typeof o.remaining !== 'bigint' || o.remaining <= 0n || o.remaining >= U64_LIMIT) {
    fail('EBUG', `order ${o.id} remaining ${String(o.remaining)}`);
  }
}

const byId = (a: Order, b: Order): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Ascending id, in place; insertion sort for the usual short level (it is cheaper than a sort call). */
function sortById(level: Order[]): void {
  if (level.length > 16) {
    level.sort(byId);
    return;
  }
  for (let i = 1; i < level.length; i++) {
    const o = level[i];
    let j = i - 1;
    for (; j >= 0 && level[j].id > o.id; j--) level[j + 1] = level[j];
    level[j + 1] = o;
  }
}

/** One side in priority order (§5.5) and its levels (§7.3), both best first. */
function prioritySide(side: readonly Order[], isBuy: boolean): { orders: Order[]; levels: PriceLevel[] } {
  const byKey = new Map<number, Order[]>();
  for (const o of side) {
    const key = priceKey(o.limit),
      level = byKey.get(key);
    if (level) level.push(o);
    else byKey.set(key, [o]);
  }
  const keys = Int32Array.from(byKey.keys()).sort();
  if (isBuy) keys.reverse();
  const orders: Order[] = [],
    levels: PriceLevel[] = [];
  let total = 0n;
  for (const key of keys) {
    const level = byKey.get(key)!;
    sortById(level);
    let amount = 0n;
    for (const o of level) {
      orders.push(o);
      amount += o.remaining;
    }
    levels.push({ limit: level[0].limit, amount });
    total += amount;
  }
  // §8.11: sums fit in u64 whenever the supplies do; a larger book cannot come from a valid chain
  if (total >= U64_LIMIT) fail('EBUG', 'book side total exceeds u64');
  return { orders, levels };
}

/**
 * The book of one asset from its open orders (any order): validates them (unique ids, valid
 * limits, 0 < remaining < 2^64), sorts each side by priority and aggregates the levels.
 */
export function buildBook(orders: Iterable<Order>): Book {
  const buys: Order[] = [],
    sells: Order[] = [];
  for (const o of orders) {
    checkOrder(o);
    (o.isBuy ? buys : sells).push(o);
  }
  const ids = new BigUint64Array(buys.length + sells.length);
  buys.forEach((o, i) => {
    ids[i] = o.id;
  });
  sells.forEach((o, i) => {
    ids[buys.length + i] = o.id;
  });
  ids.sort();
  for (let i = 1; i < ids.length; i++) if (ids[i] === ids[i - 1]) fail('EBUG', `duplicate order id ${ids[i]}`);
  const b = prioritySide(buys, true),
    s = prioritySide(sells, false);
  return { buys: b.orders, sells: s.orders, buyLevels: b.levels, sellLevels: s.levels.reverse() };
}
