// The worked matching examples of exchange.md §9, every listed number (trace, fills, pool, dust),
// and the liquidity example of §6.5 through the kernel's pool math.
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { poolBuy, poolDeposit, poolSell, poolWithdraw } from '../../ts/kernel/pool.js';
import { buildBook, type Order } from '../../ts/dex/book.js';
import { findClearing, matchBook, previewMatch, type StepTrace } from '../../ts/dex/matching.js';
import type { Reserves } from '../../ts/kernel/pool.js';
import { buy, hex, sell } from './helpers.js';

beforeAll(async () => {
  await initKernel();
});

const E10 = 10_000_000_000n;
const Q = (amount: bigint) => ({ isQuote: true, amount });
const B = (amount: bigint) => ({ isQuote: false, amount });

/** Runs the match and records every step evaluation as [Bi, Qi, price hex, excess, verdict]. */
function run(pool: Reserves, orders: Order[]) {
  const steps: [bigint, bigint, string, { isQuote: boolean; amount: bigint }, boolean][] = [];
  const book = buildBook(orders);
  const clearing = findClearing(pool, book, (s: StepTrace) => steps.push([s.base, s.quote, s.price.hex, s.excess, s.verdict]));
  const result = matchBook(pool, book);
  expect(result.filled).toEqual(clearing.filled);
  expect(result.toPool).toEqual(clearing.toPool);
  expect(previewMatch(pool, book)).toEqual({ filled: clearing.filled, toPool: clearing.toPool ?? B(0n) });
  return { steps, clearing, result };
}

/** The fee-free pool price after absorbing `y` base (as a double, to compare the examples' decimals). */
const priceAfterBase = (p: Reserves, y: bigint) => Number(p.base * p.quote) / Number(p.base + y) ** 2;
const priceAfterQuote = (p: Reserves, x: bigint) => Number(p.quote + x) ** 2 / Number(p.base * p.quote);

describe('§9 Example 1 — no pool; uniform price; partial fill; dust', () => {
  const pool = { base: 0n, quote: 0n };
  const orders = [sell(1, E10, hex('800040')), sell(2, E10, hex('c00040')), buy(3, 2n * E10, hex('800041'))];

  it('levels', () => {
    const book = buildBook(orders);
    expect(book.buyLevels.map((l) => [l.limit.hex, l.amount])).toEqual([['800041', 2n * E10]]);
    expect(book.sellLevels.map((l) => [l.limit.hex, l.amount])).toEqual([
      ['c00040', E10],
      ['800040', E10],
    ]);
  });

  it('A1, dispatch, SELLSEARCH and FIXED evaluate as listed', () => {
    const { steps, clearing } = run(pool, orders);
    expect(steps.slice(0, 5)).toEqual([
      [2n * E10, 0n, '800041', B(2n * E10), true], // A1 mid = 0, h = 1
      [2n * E10, 2n * E10, '800041', B(E10), true], // dispatch i = 0
      [E10, 2n * E10, '800040', Q(E10), false], // SELLSEARCH mid = 1
      [2n * E10, 2n * E10, 'c00040', B(6_666_666_666n), true], // mid = 0, g = 1
      [E10, 2n * E10, 'c00040', Q(5_000_000_000n), false], // k = 0 unfilled → FIXED
    ]);
    const fixed = steps.slice(5);
    expect(fixed.every((s) => s[1] === 2n * E10 && s[2] === 'c00040')).toBe(true);
    // the bisection converges to v0 = 13,333,333,335 (BASE 1, true) and v1 = …334 (BASE 0, false)
    const lastTrue = fixed.filter((s) => s[4]).at(-1)!,
      lastFalse = fixed.filter((s) => !s[4]).at(-1)!;
    expect([lastTrue[0], lastTrue[3]]).toEqual([13_333_333_335n, B(1n)]);
    expect([lastFalse[0], lastFalse[3]]).toEqual([13_333_333_334n, B(0n)]);
    expect(clearing).toEqual({ filled: { base: 13_333_333_334n, quote: 2n * E10 }, toPool: null, phase: 'fixed', price: hex('c00040') });
  });

  it('settlement, dust and the match record', () => {
    const { result } = run(pool, orders);
    expect(result.returned).toEqual({ base: 13_333_333_334n, quote: 2n * E10 });
    expect(result.sellSwaps).toEqual([
      { id: 1n, base: E10, quote: 14_999_999_999n, remaining: 0n },
      { id: 2n, base: 3_333_333_334n, quote: 5_000_000_000n, remaining: 6_666_666_666n },
    ]);
    expect(result.buySwaps).toEqual([{ id: 3n, base: 13_333_333_334n, quote: 2n * E10, remaining: 0n }]);
    expect(result.dust).toEqual({ base: 0n, quote: 1n });
    expect(result.poolAfter).toEqual(pool);
    expect(result.poolOut).toBe(0n);
    expect(result.recorded).toBe(true);
  });

  it('variant: sell 100 at 1.0 and buy 150 coin at 2.0 fill completely at 1.5', () => {
    const { result } = run(pool, [sell(1, E10, hex('800040')), buy(2, 15_000_000_000n, hex('800041'))]);
    expect(result.filled).toEqual({ base: E10, quote: 15_000_000_000n });
    expect(result.toPool).toBeNull();
    expect(result.sellSwaps).toEqual([{ id: 1n, base: E10, quote: 15_000_000_000n, remaining: 0n }]);
    expect(result.buySwaps).toEqual([{ id: 2n, base: E10, quote: 15_000_000_000n, remaining: 0n }]);
    expect(result.dust).toEqual({ base: 0n, quote: 0n });
  });
});

describe('§9 Example 2 — with pool; marginal seller filled partially at its limit', () => {
  const pool = { base: 10n * E10, quote: 10n * E10 };
  const orders = [sell(1, 5n * E10, hex('c0003f')), buy(2, E10, hex('a00040'))];

  it('trace', () => {
    const { steps, clearing } = run(pool, orders);
    expect(steps.slice(0, 4)).toEqual([
      [5n * E10, 0n, 'a00040', B(5n * E10), true], // A1
      [5n * E10, E10, 'a00040', B(42_000_000_000n), true], // dispatch
      [5n * E10, E10, 'c0003f', B(36_666_666_666n), true], // SELLSEARCH mid = 0
      [0n, E10, 'c0003f', Q(E10), false], // k = 0 unfilled → FIXED(Bi: 5·10^10 → 0)
    ]);
    expect(priceAfterBase(pool, 5n * E10)).toBeCloseTo(0.444, 3);
    expect(priceAfterBase(pool, 42_000_000_000n)).toBeCloseTo(0.496, 3);
    expect(priceAfterBase(pool, 36_666_666_666n)).toBeCloseTo(0.535, 3);
    expect(priceAfterQuote(pool, E10)).toBeCloseTo(1.21, 12);
    const fixed = steps.slice(4);
    const lastTrue = fixed.filter((s) => s[4]).at(-1)!,
      lastFalse = fixed.filter((s) => !s[4]).at(-1)!;
    expect([lastTrue[0], lastTrue[3]]).toEqual([28_803_387_172n, B(15_470_053_838n)]);
    expect([lastFalse[0], lastFalse[3]]).toEqual([28_803_387_171n, B(15_470_053_837n)]);
    expect(priceAfterBase(pool, 15_470_053_838n)).toBeCloseTo(0.74999999999903, 13);
    expect(priceAfterBase(pool, 15_470_053_837n)).toBeCloseTo(0.75000000001202, 13);
    expect(clearing).toEqual({
      filled: { base: 28_803_387_171n, quote: E10 },
      toPool: B(15_470_053_837n),
      phase: 'fixed',
      price: hex('c0003f'),
    });
  });

  it('pool trade and distribution', () => {
    const { result } = run(pool, orders);
    // t = ⌈10^22 / 115,470,053,837⌉ = 86,602,540,380
    expect((10n ** 22n + 115_470_053_837n - 1n) / 115_470_053_837n).toBe(86_602_540_380n);
    expect(result.poolOut).toBe(13_330_472_321n);
    expect(result.poolAfter).toEqual({ base: 115_470_053_837n, quote: 86_669_527_679n });
    expect(result.returned).toEqual({ base: 13_333_333_334n, quote: 23_330_472_321n });
    expect(result.sellSwaps).toEqual([{ id: 1n, base: 28_803_387_171n, quote: 23_330_472_321n, remaining: 5n * E10 - 28_803_387_171n }]);
    expect(result.buySwaps).toEqual([{ id: 2n, base: 13_333_333_334n, quote: E10, remaining: 0n }]);
    expect(result.dust).toEqual({ base: 0n, quote: 0n });
  });
});

describe('§9 Example 3 — with pool; marginal buyer filled partially at its limit', () => {
  const pool = { base: 10n * E10, quote: 10n * E10 };
  const orders = [buy(1, 3n * E10, hex('a00040')), sell(2, E10, hex('800040')), sell(3, E10, hex('c00040'))];

  it('trace and clearing', () => {
    const { steps, clearing } = run(pool, orders);
    expect(steps.slice(0, 2)).toEqual([
      [E10, 0n, 'a00040', B(E10), true], // A1
      [E10, 3n * E10, 'a00040', Q(17_500_000_000n), false], // dispatch → FIXED(Qi: 0 → 3·10^10)
    ]);
    expect(priceAfterQuote(pool, 17_500_000_000n)).toBeCloseTo(1.38, 2);
    const fixed = steps.slice(2);
    expect(fixed.every((s) => s[0] === E10 && s[2] === 'a00040')).toBe(true);
    const lastTrue = fixed.filter((s) => s[4]).at(-1)!,
      lastFalse = fixed.filter((s) => !s[4]).at(-1)!;
    expect([lastTrue[1], lastTrue[3]]).toEqual([24_303_398_874n, Q(11_803_398_874n)]);
    expect(lastFalse[1]).toBe(24_303_398_875n);
    expect(priceAfterQuote(pool, 11_803_398_874n)).toBeCloseTo(1.24999999998, 11);
    expect(priceAfterQuote(pool, 11_803_398_875n)).toBeCloseTo(1.2500000000002, 12);
    expect(clearing).toEqual({
      filled: { base: E10, quote: 24_303_398_874n },
      toPool: Q(11_803_398_874n),
      phase: 'fixed',
      price: hex('a00040'),
    });
  });

  it('pool trade and distribution', () => {
    const { result } = run(pool, orders);
    expect((10n ** 22n + 111_803_398_874n - 1n) / 111_803_398_874n).toBe(89_442_719_101n); // t
    expect(result.poolOut).toBe(10_504_494_494n);
    expect(result.poolAfter).toEqual({ base: 89_495_505_506n, quote: 111_803_398_874n });
    expect(result.returned).toEqual({ base: 20_504_494_494n, quote: 12_500_000_000n });
    expect(result.sellSwaps).toEqual([{ id: 2n, base: E10, quote: 12_500_000_000n, remaining: 0n }]);
    expect(result.buySwaps).toEqual([{ id: 1n, base: 20_504_494_494n, quote: 24_303_398_874n, remaining: 3n * E10 - 24_303_398_874n }]);
    expect(result.dust).toEqual({ base: 0n, quote: 0n });
  });
});

describe('§9 Example 4 — DYNAMIC split (price between levels)', () => {
  const pool = { base: 1_000_000n, quote: 2_000_000n };
  const orders = [sell(1, 1000n, hex('800040')), buy(2, 1500n, hex('800041'))];
  const rbrq = pool.base * pool.quote;
  const relB = (y: bigint) => Math.sign(Number((pool.base + y) ** 2n * 1500n - rbrq * (1000n - y)));

  it('trace, split and tie-break', () => {
    const { steps, clearing } = run(pool, orders);
    expect(steps).toEqual([
      [1000n, 0n, '800041', B(1000n), true], // A1
      [1000n, 1500n, '800041', B(250n), true], // dispatch
      [1000n, 1500n, '800040', Q(500n), false], // SELLSEARCH: g = 0 → DYNAMIC
    ]);
    expect(priceAfterBase(pool, 250n)).toBeCloseTo(1.999, 3);
    expect(priceAfterQuote(pool, 500n)).toBeCloseTo(2.001, 3);
    expect([relB(0n), relB(1000n), relB(249n), relB(250n)]).toEqual([-1, 1, -1, 1]); // lo = 249, hi = 250
    expect(1500 / 751).toBeCloseTo(1.99734, 5);
    // tie-break: 2·10^12·(1000 − 249) < 1,000,250²·1500 is false → hi
    expect(rbrq * (1000n - 249n)).toBe(1_502_000_000_000_000n);
    expect(1_000_250n ** 2n * 1500n).toBe(1_500_750_093_750_000n);
    expect(clearing).toEqual({ filled: { base: 1000n, quote: 1500n }, toPool: B(250n), phase: 'dynamic', price: null });
  });

  it('settlement', () => {
    const { result } = run(pool, orders);
    expect((2_000_000_000_000n + 1_000_250n - 1n) / 1_000_250n).toBe(1_999_501n); // t
    expect(result.poolOut).toBe(496n);
    expect(result.poolAfter).toEqual({ base: 1_000_250n, quote: 1_999_504n });
    expect(result.returned).toEqual({ base: 750n, quote: 1996n });
    expect(result.sellSwaps).toEqual([{ id: 1n, base: 1000n, quote: 1996n, remaining: 0n }]);
    expect(result.buySwaps).toEqual([{ id: 2n, base: 750n, quote: 1500n, remaining: 0n }]);
    expect(result.dust).toEqual({ base: 0n, quote: 0n });
  });
});

describe('§9 Example 5 — no pool, marginal buyer one unit short', () => {
  const pool = { base: 0n, quote: 0n };
  const orders = [sell(1, E10, hex('800040')), buy(2, 5_000_000_000n, hex('800041')), buy(3, E10, hex('c00040'))];

  it('FIXED in quote mode at 1.5, case III', () => {
    const { steps, clearing } = run(pool, orders);
    const at15 = steps.filter((s) => s[2] === 'c00040' && s[0] === E10);
    const lastTrue = at15.filter((s) => s[4]).at(-1)!,
      lastFalse = at15.filter((s) => !s[4]).at(-1)!;
    expect([lastTrue[1], lastTrue[3]]).toEqual([14_999_999_998n, B(1n)]);
    expect([lastFalse[1], lastFalse[3]]).toEqual([14_999_999_999n, B(0n)]);
    expect(clearing).toEqual({ filled: { base: E10, quote: 14_999_999_999n }, toPool: null, phase: 'fixed', price: hex('c00040') });
  });

  it('outcome and dust', () => {
    const { result } = run(pool, orders);
    expect(result.sellSwaps).toEqual([{ id: 1n, base: E10, quote: 14_999_999_999n, remaining: 0n }]);
    expect(result.buySwaps).toEqual([
      { id: 2n, base: 3_333_333_333n, quote: 5_000_000_000n, remaining: 0n },
      { id: 3n, base: 6_666_666_666n, quote: 9_999_999_999n, remaining: 1n },
    ]);
    expect(result.dust).toEqual({ base: 1n, quote: 0n });
    expect(result.poolAfter).toEqual(pool);
  });
});

describe('§6.5 worked example (liquidity) through ts/kernel/pool.ts', () => {
  it('Alice deposits, Bob deposits unbalanced, Bob withdraws', () => {
    const alice = poolDeposit({ base: 0n, quote: 0n, shares: 0n }, 100_000_000_000n, 50_000_000_000n)!;
    expect(alice.minted).toBe(70_710_678_118n);
    const bob = poolDeposit(alice.after, E10, E10)!;
    expect(bob.after).toEqual({ base: 110_000_000_000n, quote: 60_000_000_000n, shares: 81_240_384_046n });
    expect(bob.minted).toBe(10_529_705_928n);
    expect(poolDeposit(alice.after, E10, 5_000_000_000n)!.minted).toBe(7_071_067_812n); // balanced, for comparison
    const out = poolWithdraw(bob.after, 10_529_705_928n)!;
    expect([out.base, out.quote]).toEqual([14_257_289_224n, 7_776_703_213n]);
    // in effect about 22.23 coin swapped for 42.57 units, fee-free
    expect(E10 - out.quote).toBe(2_223_296_787n);
    expect(out.base - E10).toBe(4_257_289_224n);
  });

  it('pool swaps used by settlement keep the product', () => {
    const p = { base: 10n * E10, quote: 10n * E10 };
    const s = poolSell(p, 15_470_053_837n)!,
      b = poolBuy(p, 11_803_398_874n)!;
    expect(s.after.base * s.after.quote >= p.base * p.quote).toBe(true);
    expect(b.after.base * b.after.quote >= p.base * p.quote).toBe(true);
  });
});
