// What the matching algorithm (matching.ts, exchange.md §8.3–§8.5) finds and settlement
// (settlement.ts) carries out: the clearing of one asset's book against its pool. Its own file so
// that matching depends on settlement and not the other way round.
import type { Price } from '../kernel/price.js';

export interface BaseQuote {
  readonly base: bigint;
  readonly quote: bigint;
}

/** An excess or pool delta `(side, amount)` (§8.3): `isQuote` = QUOTE side, else BASE. */
export interface Excess {
  readonly isQuote: boolean;
  readonly amount: bigint;
}

/** The result of §8.4–§8.5. */
export interface Clearing {
  /** (Bf, Qf): base paid by the filled sells, quote paid by the filled buys. */
  readonly filled: BaseQuote;
  /** What goes into the pool (QUOTE: poolBuy, BASE: poolSell); null when nothing (amount 0). */
  readonly toPool: Excess | null;
  /** How phase B ended: FIXED at a level price, DYNAMIC between levels, or an empty book. */
  readonly phase: 'fixed' | 'dynamic' | 'empty';
  /** The level price of a FIXED result, else null. */
  readonly price: Price | null;
}
