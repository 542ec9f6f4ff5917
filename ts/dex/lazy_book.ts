// The book one match of the reference 0.10.3 sees (block_applier.cpp:88–212, lazy_matching.hpp).
// The reference does not match the whole book: it loads orders one at a time, per side in priority
// order, merging the stored orders with the section's new ones and skipping orders the block
// canceled, and it stops loading once the clearing price is bracketed. Matching then runs on the
// loaded price levels, and fills walk the loaded orders. Two details change results:
//  - a level's amount starts from its first order's *total* amount, not what remains of it, and
//    adds the remaining of the others (block_applier.cpp:155–160). After a partial fill the
//    partly filled order heads its level, so the level claims its filled part again; fills then
//    run on into the next loaded order, the first one of the next level, at the clearing terms;
//  - each side keeps the next order loaded (the lookahead) and the merge keeps one stored order
//    read ahead. Reading a stored order whose limit is no grid price makes the reference exit.
import { fail } from '../core/errors.js';
import type { Reserves } from '../kernel/pool.js';
import type { Price } from '../kernel/price.js';
import { priceKey, type Book, type Order, type PriceLevel } from './book.js';
import { isGridPrice } from './limit.js';
import { excessAt, stepVerdict } from './matching.js';

const U64_MAX = (1n << 64n) - 1n;

/** An order as the loader sees it; `limit` may be any 3 bytes' worth (limit.ts). */
export interface LoadableOrder {
  readonly id: bigint;
  readonly limit: Price;
  /** The order's total amount, in its spend token. */
  readonly amount: bigint;
  readonly filled: bigint;
}

/** One side's orders: stored before the block, and new in this token section. */
export interface SideOrders {
  readonly stored: readonly LoadableOrder[];
  readonly fresh: readonly LoadableOrder[];
}

/** Priority within a side (the stored orders' index order, block_applier.cpp:49): limit, then id. */
function ranksBefore(a: LoadableOrder, b: LoadableOrder, isBuy: boolean): boolean {
  const d = priceKey(a.limit) - priceKey(b.limit);
  if (d !== 0) return isBuy ? d > 0 : d < 0;
  return a.id < b.id;
}

function sumU64(a: bigint, b: bigint): bigint {
  const s = a + b;
  if (s > U64_MAX) fail('EREFABORT', 'a book sum overflows u64');
  return s;
}

/** One side's loader: the merge of stored and new orders, aggregated into levels on demand. */
class SideLoader {
  /** Every order taken so far, in priority order; the last one is the lookahead. */
  readonly loaded: LoadableOrder[] = [];
  private drained = false;
  private readonly stored: LoadableOrder[];
  private readonly fresh: LoadableOrder[];
  private storedAt = 0;
  private freshAt = 0;
  private heldStored: LoadableOrder | null = null;
  private heldFresh: LoadableOrder | null = null;

  constructor(
    side: SideOrders,
    private readonly isBuy: boolean,
    private readonly skip: ReadonlySet<bigint>,
  ) {
    const order = (a: LoadableOrder, b: LoadableOrder) => (ranksBefore(a, b, isBuy) ? -1 : 1);
    this.stored = [...side.stored].sort(order);
    this.fresh = [...side.fresh].sort(order);
    this.loadNext();
  }

  /** The next order of the merge; a stored one is read (and its limit checked) one step ahead. */
  private next(): LoadableOrder | null {
    if (!this.heldFresh && this.freshAt < this.fresh.length) this.heldFresh = this.fresh[this.freshAt++];
    if (!this.heldStored && this.storedAt < this.stored.length) {
      const o = this.stored[this.storedAt++];
      if (!isGridPrice(o.limit)) fail('EREFABORT', `stored order ${o.id} has limit ${o.limit.hex}, no valid price`);
      this.heldStored = o;
    }
    let o: LoadableOrder | null;
    if (this.heldStored && (!this.heldFresh || ranksBefore(this.heldStored, this.heldFresh, this.isBuy))) {
      o = this.heldStored;
      this.heldStored = null;
    } else {
      o = this.heldFresh;
      this.heldFresh = null;
    }
    return o;
  }

  private loadNext(): void {
    if (this.drained) return;
    for (;;) {
      const o = this.next();
      if (!o) {
        this.drained = true;
        return;
      }
      if (!this.skip.has(o.id)) {
        this.loaded.push(o);
        return;
      }
    }
  }

  /** The limit of the next level, or null when the side is exhausted. */
  nextLimit(): Price | null {
    return this.drained ? null : this.loaded[this.loaded.length - 1].limit;
  }

  /** Takes the next level: its first order's total plus the others' remaining (see above). */
  takeLevel(): PriceLevel {
    const head = this.loaded[this.loaded.length - 1];
    let amount = head.amount;
    for (;;) {
      this.loadNext();
      const last = this.loaded[this.loaded.length - 1];
      if (this.drained || priceKey(last.limit) !== priceKey(head.limit)) break;
      amount = sumU64(amount, last.amount - last.filled);
    }
    return { limit: head.limit, amount };
  }
}

const toOrder = (o: LoadableOrder, isBuy: boolean): Order => ({ id: o.id, isBuy, limit: o.limit, remaining: o.amount - o.filled });

/**
 * The book one match runs on (lazy_matching.hpp:10–103): the levels the reference loads around
 * the clearing price, and the loaded orders (levels plus each side's lookahead) that fills walk.
 * `skip` holds the orders this block canceled.
 */
export function loadBook(pool: Reserves, sells: SideOrders, buys: SideOrders, skip: ReadonlySet<bigint>): Book {
  const sl = new SideLoader(sells, false, skip);
  const bl = new SideLoader(buys, true, skip);
  const S: PriceLevel[] = []; // ascending
  const B: PriceLevel[] = []; // descending
  const result = (): Book => {
    // each side's total must fit u64 too (the reference's book sums it with add_assert)
    for (const side of [S, B]) side.reduce((t, l) => sumU64(t, l.amount), 0n);
    return {
      sells: sl.loaded.map((o) => toOrder(o, false)),
      buys: bl.loaded.map((o) => toOrder(o, true)),
      buyLevels: B,
      sellLevels: [...S].reverse(),
    };
  };
  const price = bl.nextLimit() ?? sl.nextLimit();
  if (price === null) return result();
  const key = priceKey(price);
  let fb = 0n,
    fq = 0n;
  let lower: Price | null = null,
    upper: Price | null = null;
  // The sell levels at or below the best bid (or the best ask when there are no bids).
  for (let p = sl.nextLimit(); p !== null; p = sl.nextLimit()) {
    if (priceKey(p) > key) {
      upper = p;
      break;
    }
    const l = sl.takeLevel();
    S.push(l);
    lower = l.limit;
    fb = sumU64(fb, l.amount);
  }
  let sellsIn = S.length;
  // The buy levels strictly above it: none, as it is the best bid, but the bound `lower` moves.
  for (let p = bl.nextLimit(); p !== null; p = bl.nextLimit()) {
    if (priceKey(p) <= key) {
      if (lower === null || priceKey(lower) < priceKey(p)) lower = p;
      break;
    }
    const l = bl.takeLevel();
    B.push(l);
    if (upper === null || priceKey(upper) > priceKey(l.limit)) upper = l.limit;
    fq = sumU64(fq, l.amount);
  }
  let buysIn = B.length;
  // Whether at `p` the filled amounts want more quote or less base (the step verdict).
  const wantsQuote = (p: Price) => stepVerdict(pool, excessAt(fb, fq, p), p);
  if (upper !== null && !wantsQuote(upper)) {
    for (let np = sl.nextLimit(); np !== null; np = sl.nextLimit()) {
      while (buysIn !== 0 && priceKey(B[buysIn - 1].limit) <= priceKey(np)) fq -= B[--buysIn].amount;
      if (wantsQuote(np)) break;
      const l = sl.takeLevel();
      S.push(l);
      fb = sumU64(fb, l.amount);
    }
  } else if (lower !== null && wantsQuote(lower)) {
    for (let np = bl.nextLimit(); np !== null; np = bl.nextLimit()) {
      while (sellsIn !== 0 && priceKey(S[sellsIn - 1].limit) > priceKey(np)) fb -= S[--sellsIn].amount;
      if (!wantsQuote(np)) break;
      const l = bl.takeLevel();
      B.push(l);
      fq = sumU64(fq, l.amount);
    }
  }
  return result();
}
