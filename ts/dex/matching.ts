// The matching algorithm of one asset (exchange.md §8.3–§8.5): find the fills (Bf, Qf) and the
// pool trade from the pool reserves and the price levels. Implemented literally, bisection paths
// and the persistent TR/FR registers included, since results depend on them; the degenerate-pool
// outcomes of §8.9 follow from `cmpRatio`. Where the reference 0.10.3 asserts (its release builds
// keep assertions, so it exits) we refuse with EREFABORT instead of continuing (not §14.3 P2), and
// reserve plus excess wraps at 2^64 as its u64 sum does. Settlement is in settlement.ts;
// `matchBook` (§8.6) and the `Market.match` preview (§8.8) are at the end.
import { fail } from '../core/errors.js';
import type { Reserves } from '../kernel/pool.js';
import type { Price } from '../kernel/price.js';
import { priceKey, type Book } from './book.js';
import { ceilDivPrice, ceilMulPrice, cmpRatio } from './price_math.js';
import type { BaseQuote, Clearing, Excess } from './clearing.js';
import { settle, type MatchResult } from './settlement.js';

const U64_LIMIT = 1n << 64n;

/** One step evaluation, reported to `onStep` in evaluation order (for tests and tracing). */
export interface StepTrace {
  readonly base: bigint;
  readonly quote: bigint;
  readonly price: Price;
  readonly excess: Excess;
  readonly verdict: boolean;
}

const sign = (x: bigint): -1 | 0 | 1 => (x < 0n ? -1 : x > 0n ? 1 : 0);

/** A reserve plus an amount as the reference adds them (pool.hpp:13, :22): a u64 sum, wrapping. */
const add64 = (reserve: bigint, amount: bigint): bigint => BigInt.asUintN(64, reserve + amount);

/** §8.3 excess(p) on (Bi, Qi): the matched part rounded up, so the excess is rounded down. */
export function excessAt(bi: bigint, qi: bigint, p: Price): Excess {
  const need = ceilMulPrice(bi, p);
  if (need !== null && need <= qi) return { isQuote: true, amount: qi - need };
  const d = ceilDivPrice(qi, p); // defined and ≤ Bi whenever Bi·p > Qi (the reference asserts it: types.hpp:37)
  if (d === null || d > bi) return fail('EREFABORT', 'excess: ⌈Qi/p⌉ out of range');
  return { isQuote: false, amount: bi - d };
}

/**
 * §8.3 verdict of a step with excess `x` at `p`: QUOTE: the pool after absorbing `x.amount`
 * quote is not above p; BASE: the pool after absorbing `x.amount` base is strictly below p.
 */
export function stepVerdict(pool: Reserves, x: Excess, p: Price): boolean {
  const rbrq = pool.base * pool.quote;
  return x.isQuote ? cmpRatio(add64(pool.quote, x.amount) ** 2n, rbrq, p) !== 1 : cmpRatio(rbrq, add64(pool.base, x.amount) ** 2n, p) === -1;
}

/**
 * §8.2–§8.5: the clearing of the book against the pool. Pure integer arithmetic; never aborts
 * (P2: the quote-direction assertion of the reference is not reproduced; the formulas continue).
 * `onStep` sees every step evaluation in order.
 */
export function findClearing(pool: Reserves, book: Book, onStep?: (s: StepTrace) => void): Clearing {
  const rb = pool.base,
    rq = pool.quote;
  if (rb < 0n || rq < 0n || rb >= U64_LIMIT || rq >= U64_LIMIT) fail('EBUG', 'pool reserves must be u64');
  const T = book.sellLevels,
    L = book.buyLevels;
  const J = T.length,
    I = L.length;
  if (I === 0 && J === 0) return { filled: { base: 0n, quote: 0n }, toPool: null, phase: 'empty', price: null };

  // §8.2 derived sums. SB[k] = s_k + … + s_{J−1}, SB[J] = 0, so BS_i = SB[c_i] in every case.
  const SB: bigint[] = new Array(J + 1);
  SB[J] = 0n;
  for (let k = J - 1; k >= 0; k--) SB[k] = SB[k + 1] + T[k].amount;
  const QA: bigint[] = new Array(I + 1); // QA[i] = b_0 + … + b_{i−1}
  QA[0] = 0n;
  for (let i = 0; i < I; i++) QA[i + 1] = QA[i] + L[i].amount;
  const c: number[] = new Array(I); // sell levels priced strictly above L_i
  for (let i = 0, k = 0; i < I; i++) {
    const key = priceKey(L[i].limit);
    while (k < J && priceKey(T[k].limit) > key) k++;
    c[i] = k;
  }
  const BS = (i: number): bigint => SB[c[i]];
  const rbrq = rb * rq;

  // Working state and the two registers; they persist over the whole run (§8.2).
  let Bi = 0n,
    Qi = 0n;
  let TR: Excess = { isQuote: true, amount: 0n };
  let FR: Excess = TR;

  /** §8.3 step(p) on the working state; the verdict also lands in TR or FR. */
  const step = (p: Price): boolean => {
    const x = excessAt(Bi, Qi, p);
    const verdict = stepVerdict(pool, x, p);
    if (verdict) TR = x;
    else FR = x;
    onStep?.({ base: Bi, quote: Qi, price: p, excess: x, verdict });
    return verdict;
  };

  /** §8.5 FIXED: bisect the marginal level's fill at the fixed price p; `var` is Bi or Qi. */
  const fixed = (isQuoteVar: boolean, f0: bigint, f1: bigint, p: Price): Clearing => {
    const set = (v: bigint): void => {
      if (isQuoteVar) Qi = v;
      else Bi = v;
    };
    let v0 = f0,
      v1 = f1;
    for (;;) {
      const t = v0 <= v1 ? v0 + (v1 - v0) / 2n : v0 - (v0 - v1) / 2n; // toward v0
      if (t === v0) break;
      set(t);
      if (step(p)) v0 = t;
      else v1 = t;
    }
    let delta: Excess;
    if (TR.isQuote) {
      // case I (the reference asserts FR is QUOTE too: matcher.hpp:101)
      if (!FR.isQuote) fail('EREFABORT', 'matching: FIXED case I with a BASE false register');
      set(v0);
      delta = TR;
    } else if (FR.isQuote) {
      // case II: the neighbour without pool interaction
      if (TR.amount === 0n) {
        set(v0);
        delta = TR;
      } else {
        if (FR.amount !== 0n) fail('EREFABORT', 'matching: FIXED case II without a zero register (matcher.hpp:121)');
        set(v1);
        delta = FR;
      }
    } else {
      set(v1);
      delta = FR;
    } // case III
    return {
      filled: { base: Bi, quote: Qi },
      toPool: delta.amount > 0n ? delta : null,
      phase: 'fixed',
      price: p,
    };
  };

  /**
   * §8.5 DYNAMIC: (Bi, Qi) fixed, the price lies between levels; split the excess with the pool.
   * The reference asserts that the two directions agree at 0 (matcher.cpp:131, :138) and that the
   * relation is not negative at H (:92); it exits where they fail, e.g. on a base-only pool with
   * Qi > 0, so such a block is refused.
   */
  const dynamic = (): Clearing => {
    const relB = (y: bigint) => sign(add64(rb, y) ** 2n * Qi - rbrq * (Bi - y));
    const relQ = (x: bigint) => sign(add64(rq, x) ** 2n * Bi - rbrq * (Qi - x));
    const quoteDir = relB(0n) > 0;
    if (quoteDir ? relQ(0n) >= 0 : relQ(0n) < 0) fail('EREFABORT', 'matching: the pool directions disagree (matcher.cpp:131)');
    const rel = quoteDir ? relQ : relB;
    const H = quoteDir ? Qi : Bi;
    let amount: bigint;
    if (H === 0n) amount = 0n;
    else if (rel(H) < 0) return fail('EREFABORT', 'matching: the pool relation is negative at H (matcher.cpp:92)');
    else if (rel(H) === 0) amount = H;
    else {
      // SPLIT(H)
      let lo = 0n,
        hi = H;
      for (;;) {
        const v = (lo + hi) / 2n;
        if (v === lo) break;
        if (rel(v) > 0) hi = v;
        else lo = v;
      }
      const takeLo = quoteDir ? rbrq * (Qi - lo) < add64(rq, hi) ** 2n * Bi : rbrq * (Bi - lo) < add64(rb, hi) ** 2n * Qi;
      amount = takeLo ? lo : hi;
    }
    return {
      filled: { base: Bi, quote: Qi },
      toPool: amount > 0n ? { isQuote: quoteDir, amount } : null,
      phase: 'dynamic',
      price: null,
    };
  };

  /** §8.4 SELLSEARCH(k_lo, k_hi) with Qi held. */
  const sellSearch = (kLo: number, kHi: number): Clearing => {
    let lo = kLo,
      hi = kHi;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      Bi = SB[mid]; // sell level at its own price: filled
      if (step(T[mid].limit)) lo = mid + 1;
      else hi = mid;
    }
    const g = hi;
    if (g === 0) return dynamic();
    const k = g - 1;
    Bi = SB[k + 1]; // SB_k − s_k: sell level k unfilled
    if (step(T[k].limit)) return dynamic();
    return fixed(false, SB[k], SB[k + 1], T[k].limit);
  };

  // §8.4 A1: bisection over buy levels, each at its own price and unfilled.
  let lo = 0,
    hi = I;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    Bi = BS(mid);
    Qi = QA[mid];
    if (step(L[mid].limit)) lo = mid + 1;
    else hi = mid;
  }
  const h = hi;

  // §8.4 dispatch.
  if (h === 0) {
    Qi = 0n;
    return sellSearch(0, I === 0 ? J : c[0]);
  }
  const i = h - 1;
  Bi = BS(i);
  Qi = QA[i + 1]; // buy level i filled
  if (step(L[i].limit)) return sellSearch(c[i], h < I ? c[h] : J);
  return fixed(true, QA[i], QA[i + 1], L[i].limit);
}

/** The whole match of one asset (§8.2–§8.7): clearing, pool trade and pro-rata settlement. */
export function matchBook(pool: Reserves, book: Book): MatchResult {
  return settle(pool, book, findClearing(pool, book));
}

/** The `Market.match` fields (§8.8): the fills (Bf, Qf) and what goes into the pool. */
export interface MarketMatch {
  readonly filled: BaseQuote;
  readonly toPool: Excess;
}

/**
 * The reference's §8.8 preview (not consensus; what `--api=0.10` sends, while the contract's
 * `Market.match` is the next block's own, mining/next_block.ts): §8.2–§8.5 on the given pool and
 * book, which no block matches as a whole (lazy_book.ts). The caller builds the book
 * from the on-chain open orders plus every mempool limitSwap of the asset (full amount), giving
 * mempool orders ids above all on-chain ids so that on-chain orders rank first at equal limits.
 * No pool interaction is reported as `{isQuote: false, amount: 0}`.
 */
export function previewMatch(pool: Reserves, book: Book): MarketMatch {
  const c = findClearing(pool, book);
  return { filled: c.filled, toPool: c.toPool ?? { isQuote: false, amount: 0n } };
}
