// Applying a clearing (exchange.md §8.6) and the content of the `match` record (§8.7): the pool
// trade through the kernel's exact pool math, then pro-rata floor shares per order; the rounding
// remainder (dust) is credited to nobody. Fills walk the orders the book was loaded from, in
// priority order (block_applier.cpp:250, :290); where the reference asserts (a u64 overflow, fills
// beyond the loaded orders) it exits, so the block is refused (EREFABORT).
import { fail } from '../core/errors.js';
import { poolBuy, poolSell, type Reserves } from '../kernel/pool.js';
import type { Book, Order } from './book.js';
import type { BaseQuote, Clearing, Excess } from './clearing.js';

const U64_MAX = (1n << 64n) - 1n;

/**
 * One order's fill (§8.7 `swapped`, plus its remaining after the match). Buys: `base` credited,
 * `quote` debited; sells: `base` debited, `quote` credited. The caller maps `id` to the record's
 * `historyId` (the order id is its limitSwap's history id). A credit can be 0 (§3.3 hazard).
 */
export interface Swap {
  readonly id: bigint;
  readonly base: bigint;
  readonly quote: bigint;
  /** remaining − paid: 0 means the order is complete and leaves the book (§8.6 step 5). */
  readonly remaining: bigint;
}

export interface MatchResult {
  /** (Bf, Qf) = (Σ sellSwaps.base, Σ buySwaps.quote). */
  readonly filled: BaseQuote;
  readonly toPool: Excess | null;
  readonly poolBefore: Reserves;
  readonly poolAfter: Reserves;
  /** What the pool paid out: base for a QUOTE trade, quote for a BASE trade, else 0. */
  readonly poolOut: bigint;
  /** The amounts shared out: `(Bf, Qf)` after the pool trade (§8.6 step 1). */
  readonly returned: BaseQuote;
  /** Buy orders that received a fill, in fill (priority) order. */
  readonly buySwaps: readonly Swap[];
  /** Sell orders that received a fill, in fill (priority) order. */
  readonly sellSwaps: readonly Swap[];
  /** `returned` minus everything credited: destroyed (§8.6 step 4). */
  readonly dust: BaseQuote;
  /** Whether a match history entry is written: Bf > 0 or Qf > 0 (§8.6 step 6). */
  readonly recorded: boolean;
}

/**
 * Walks one side in priority order, each order paying min(rem, remaining) of `total`. A level
 * loaded with more than its orders hold (lazy_book.ts) lets the walk reach past the level; fills
 * beyond the last loaded order abort the reference (block_applier.cpp:282, :322).
 */
function distribute(orders: readonly Order[], total: bigint, pot: bigint, isBuy: boolean): { swaps: Swap[]; credited: bigint } {
  const swaps: Swap[] = [];
  let rem = total,
    credited = 0n;
  for (const o of orders) {
    if (rem === 0n) break;
    const paid = rem < o.remaining ? rem : o.remaining;
    const got = (paid * pot) / total; // ⌊paid · returned / filled⌋
    swaps.push(
      isBuy ? { id: o.id, base: got, quote: paid, remaining: o.remaining - paid } : { id: o.id, base: paid, quote: got, remaining: o.remaining - paid },
    );
    rem -= paid;
    credited += got;
  }
  if (rem !== 0n) fail('EREFABORT', 'the clearing fills more than the loaded orders hold');
  return { swaps, credited };
}

/** §8.6 steps 1–4 and 6 for a clearing of `book` against `pool` (the kernel must be initialised when the pool trades). */
export function settle(pool: Reserves, book: Book, clearing: Clearing): MatchResult {
  const { filled, toPool } = clearing;
  const poolBefore: Reserves = { base: pool.base, quote: pool.quote };
  let poolAfter = poolBefore,
    poolOut = 0n;
  let rBase = filled.base,
    rQuote = filled.quote;
  if (toPool !== null && toPool.isQuote) {
    const r = poolBuy(pool, toPool.amount) ?? fail('EREFABORT', 'pool quote reserve overflow');
    rQuote -= toPool.amount;
    rBase += r.baseOut;
    if (rBase > U64_MAX) fail('EREFABORT', 'returned base overflows');
    poolOut = r.baseOut;
    poolAfter = r.after;
  } else if (toPool !== null) {
    const r = poolSell(pool, toPool.amount) ?? fail('EREFABORT', 'pool base reserve overflow');
    rBase -= toPool.amount;
    rQuote += r.quoteOut;
    if (rQuote > U64_MAX) fail('EREFABORT', 'returned quote overflows');
    poolOut = r.quoteOut;
    poolAfter = r.after;
  }
  const sells = filled.base > 0n ? distribute(book.sells, filled.base, rQuote, false) : { swaps: [], credited: 0n };
  const buys = filled.quote > 0n ? distribute(book.buys, filled.quote, rBase, true) : { swaps: [], credited: 0n };
  return {
    filled,
    toPool,
    poolBefore,
    poolAfter,
    poolOut,
    returned: { base: rBase, quote: rQuote },
    buySwaps: buys.swaps,
    sellSwaps: sells.swaps,
    dust: { base: rBase - buys.credited, quote: rQuote - sells.credited },
    recorded: filled.base > 0n || filled.quote > 0n,
  };
}
