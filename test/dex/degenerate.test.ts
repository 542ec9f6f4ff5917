// Degenerate pools (exchange.md §8.9), the quote-direction abort of §8.5 (the reference exits: refused),
// empty and one-sided books, zero credits, and the exact price arithmetic of §8.2.
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { NodeError } from '../../ts/core/errors.js';
import { buildBook, comparePriority, type Order } from '../../ts/dex/book.js';
import { findClearing, matchBook, stepVerdict, type StepTrace } from '../../ts/dex/matching.js';
import { bitlen, ceilDivPrice, ceilMulPrice, cmpRatio } from '../../ts/dex/price_math.js';
import type { Price } from '../../ts/kernel/price.js';
import { buy, hex, pm, sell, XorShift } from './helpers.js';

beforeAll(async () => {
  await initKernel();
});

const EMPTY = { base: 0n, quote: 0n };
const match = (pool: { base: bigint; quote: bigint }, orders: Order[]) => matchBook(pool, buildBook(orders));

describe('§8.9 empty-pool verdict table', () => {
  const rng = new XorShift(0x89n);
  const table = (isQuote: boolean, a: bigint, p: Price): boolean => {
    const e = p.exponent;
    if (isQuote) return a > 0n ? bitlen(a * a) < e - 79 : e >= 79;
    return a > 0n ? bitlen(a * a * BigInt(p.mantissa)) + e >= 79 : e > 79;
  };
  it('step verdicts on (0, 0) reduce to the table', () => {
    for (let i = 0; i < 4000; i++) {
      const p = pm(0x8000 + rng.below(0x8000), rng.below(128));
      const a = rng.chance(0.1) ? 0n : rng.bits(64);
      const isQuote = rng.chance(0.5);
      expect(stepVerdict(EMPTY, { isQuote, amount: a }, p)).toBe(table(isQuote, a, p));
    }
  });
});

describe('§8.9 worked degenerate cases', () => {
  it('a lone sell of 14 units at (43946, 36) fills completely into the empty pool for 0 coin', () => {
    const r = match(EMPTY, [sell(1, 14n, pm(43946, 36))]);
    expect(r.filled).toEqual({ base: 14n, quote: 0n });
    expect(r.toPool).toEqual({ isQuote: false, amount: 14n });
    expect(r.sellSwaps).toEqual([{ id: 1n, base: 14n, quote: 0n, remaining: 0n }]);
    expect(r.poolAfter).toEqual({ base: 14n, quote: 0n }); // one-sided now
    expect(r.dust).toEqual({ base: 0n, quote: 0n });
    expect(r.recorded).toBe(true);
  });

  it('a lone sell of 10^18 at (56294, 30) loses 70,711 units to the empty pool', () => {
    const r = match(EMPTY, [sell(1, 10n ** 18n, pm(56294, 30))]);
    expect(r.filled).toEqual({ base: 70_711n, quote: 0n });
    expect(r.toPool).toEqual({ isQuote: false, amount: 70_711n });
    expect(r.sellSwaps).toEqual([{ id: 1n, base: 70_711n, quote: 0n, remaining: 10n ** 18n - 70_711n }]);
    expect(r.poolAfter).toEqual({ base: 70_711n, quote: 0n });
  });

  it('pool (1000, 0) and a lone buy of 1 coin at (40000, 90): 31 quote in, 995 base out', () => {
    const pool = { base: 1000n, quote: 0n };
    const c = findClearing(pool, buildBook([buy(1, 100_000_000n, pm(40000, 90))]));
    expect(c).toEqual({ filled: { base: 0n, quote: 31n }, toPool: { isQuote: true, amount: 31n }, phase: 'fixed', price: pm(40000, 90) });
    const r = match(pool, [buy(1, 100_000_000n, pm(40000, 90))]);
    expect(r.buySwaps).toEqual([{ id: 1n, base: 995n, quote: 31n, remaining: 100_000_000n - 31n }]);
    expect(r.poolAfter).toEqual({ base: 5n, quote: 31n });
  });

  it('ordinary prices on an empty pool: lone orders do not fill', () => {
    for (const o of [sell(1, 10n ** 10n, hex('800040')), buy(1, 10n ** 10n, hex('800040'))]) {
      const r = match(EMPTY, [o]);
      expect(r.filled).toEqual({ base: 0n, quote: 0n });
      expect(r.toPool).toBeNull();
      expect(r.recorded).toBe(false);
      expect([r.buySwaps, r.sellSwaps]).toEqual([[], []]);
    }
  });

  it('non-crossing orders on an empty pool do not fill', () => {
    const r = match(EMPTY, [sell(1, 10n ** 10n, hex('800041')), buy(2, 10n ** 10n, hex('800040'))]);
    expect(r.recorded).toBe(false);
  });

  it('high raw prices: a buy too small for one unit pays into nothing (literal cmp, reference outcome)', () => {
    // e = 105: the QUOTE verdict on (0, 0) is true for any excess with bitlen(a²) < 26, so the
    // search ends in DYNAMIC with (Bi, Qi) = (0, 3314); no base is bought, the quote is dust
    const c = findClearing(EMPTY, buildBook([buy(1, 3314n, pm(48034, 105)), sell(2, 36_723_697_927_513n, pm(35003, 105))]));
    expect(c).toEqual({ filled: { base: 0n, quote: 3314n }, toPool: null, phase: 'dynamic', price: null });
    const r = match(EMPTY, [buy(1, 3314n, pm(48034, 105)), sell(2, 36_723_697_927_513n, pm(35003, 105))]);
    expect(r.buySwaps).toEqual([{ id: 1n, base: 0n, quote: 3314n, remaining: 0n }]); // a zero credit (§3.3 hazard)
    expect(r.sellSwaps).toEqual([]);
    expect(r.dust).toEqual({ base: 0n, quote: 3314n });
  });
});

describe('§8.5 quote direction on a base-only pool: the reference asserts and exits, so the block is refused', () => {
  // matcher.cpp:131 asserts relQ(0) < 0 when the quote direction is taken; with R_q = 0 it is 0.
  // §14.3 P2 proposed to continue; that would accept blocks no reference node can hold.
  const refusal = (pool: { base: bigint; quote: bigint }, orders: Order[]) => {
    try {
      findClearing(pool, buildBook(orders));
    } catch (e) {
      if (e instanceof NodeError) return e.errorName;
      throw e;
    }
    return 'none';
  };
  it('Bi = 0', () => {
    expect(refusal({ base: 1000n, quote: 0n }, [buy(1, 1000n, pm(0x8000, 127))])).toBe('EREFABORT');
  });

  it('Bi > 0', () => {
    expect(refusal({ base: 1527n, quote: 0n }, [buy(1, 68_106n, pm(37370, 70)), sell(2, 2576n, pm(37853, 68))])).toBe('EREFABORT');
  });

  it('the same books on a quote-only or a two-sided pool match', () => {
    expect(refusal({ base: 0n, quote: 1000n }, [buy(1, 1000n, pm(0x8000, 127))])).toBe('none');
    expect(refusal({ base: 1527n, quote: 1n }, [buy(1, 68_106n, pm(37370, 70)), sell(2, 2576n, pm(37853, 68))])).toBe('none');
  });
});

describe('§8.5 FIXED case II: the neighbour without pool interaction', () => {
  /** The registers at the end: the last true and the last false step. */
  const registers = (pool: { base: bigint; quote: bigint }, orders: Order[]) => {
    let tr: StepTrace | null = null,
      fr: StepTrace | null = null;
    const c = findClearing(pool, buildBook(orders), (s) => {
      if (s.verdict) tr = s;
      else fr = s;
    });
    return { c, tr: tr as unknown as StepTrace, fr: fr as unknown as StepTrace };
  };

  it('TR = (BASE, a > 0), FR = (QUOTE, 0): v1, no pool trade', () => {
    const { c, tr, fr } = registers(EMPTY, [buy(1, 7400n, hex('c00040')), sell(2, 11_900n, hex('800040'))]);
    expect([tr.base, tr.excess, fr.base, fr.excess]).toEqual([7401n, { isQuote: false, amount: 1n }, 7400n, { isQuote: true, amount: 0n }]);
    expect(c).toEqual({ filled: { base: 7400n, quote: 7400n }, toPool: null, phase: 'fixed', price: hex('800040') });
  });

  it('TR = (BASE, 0): v0, so FR = (QUOTE, 10600) does not go to the pool ([P] took v1/FR)', () => {
    // e = 80 > 79: on an empty pool (BASE, 0) is a true verdict (§8.9), so one unit fills
    const { c, tr, fr } = registers(EMPTY, [buy(1, 10_600n, hex('800051')), sell(2, 400n, hex('800050'))]);
    expect([tr.base, tr.excess, fr.base, fr.excess]).toEqual([1n, { isQuote: false, amount: 0n }, 0n, { isQuote: true, amount: 10_600n }]);
    expect(c).toEqual({ filled: { base: 1n, quote: 10_600n }, toPool: null, phase: 'fixed', price: hex('800050') });
  });
});

describe('one-sided books against a pool', () => {
  const pool = { base: 10n ** 11n, quote: 10n ** 11n }; // price 1.0
  // the fee-free marginal price after the trade (§6.2: matching sizes by it; the fee stays in the pool)
  const afterBase = (y: bigint) => Number(pool.base * pool.quote) / Number(pool.base + y) ** 2;
  const afterQuote = (x: bigint) => Number(pool.quote + x) ** 2 / Number(pool.base * pool.quote);

  it('a lone sell below the pool price sells into the pool down to its limit', () => {
    const r = match(pool, [sell(1, 10n ** 11n, hex('c0003f'))]); // 0.75
    expect(r.toPool?.isQuote).toBe(false);
    expect(r.filled.quote).toBe(0n);
    expect(r.sellSwaps[0].quote).toBe(r.poolOut);
    expect(afterBase(r.toPool!.amount)).toBeGreaterThanOrEqual(0.75);
    expect(afterBase(r.toPool!.amount)).toBeCloseTo(0.75, 9);
    expect(afterBase(r.toPool!.amount + 1n)).toBeLessThan(0.75);
  });

  it('a lone buy above the pool price buys from the pool up to its limit', () => {
    const r = match(pool, [buy(1, 10n ** 11n, hex('a00040'))]); // 1.25
    expect(r.toPool?.isQuote).toBe(true);
    expect(r.filled.base).toBe(0n);
    expect(r.buySwaps[0].base).toBe(r.poolOut);
    expect(afterQuote(r.toPool!.amount)).toBeLessThanOrEqual(1.25);
    expect(afterQuote(r.toPool!.amount)).toBeCloseTo(1.25, 9);
    expect(afterQuote(r.toPool!.amount + 1n)).toBeGreaterThan(1.25);
  });

  it('lone orders on the far side of the pool price do not trade', () => {
    expect(match(pool, [sell(1, 10n ** 10n, hex('a00040'))]).recorded).toBe(false);
    expect(match(pool, [buy(1, 10n ** 10n, hex('c0003f'))]).recorded).toBe(false);
  });

  it('an empty book is the empty result', () => {
    expect(findClearing(pool, buildBook([]))).toEqual({ filled: { base: 0n, quote: 0n }, toPool: null, phase: 'empty', price: null });
    const r = match(pool, []);
    expect(r.recorded).toBe(false);
    expect(r.poolAfter).toEqual(pool);
  });
});

describe('book input checks and ordering (§4.1 P1, §5.5, §7.3)', () => {
  const err = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return (e as NodeError).errorName;
    }
    return null;
  };
  it('invalid prices, zero remaining and duplicate ids are refused', () => {
    const bad = { mantissa: 0x7fff, exponent: 64, hex: '7fff40' };
    expect(err(() => buildBook([sell(1, 5n, bad)]))).toBe('EBADPRICE');
    expect(err(() => buildBook([sell(1, 5n, { ...bad, mantissa: 0x8000, exponent: 128 })]))).toBe('EBADPRICE');
    expect(err(() => buildBook([sell(1, 0n, hex('800040'))]))).toBe('EBUG');
    expect(err(() => buildBook([sell(1, 1n << 64n, hex('800040'))]))).toBe('EBUG');
    expect(err(() => buildBook([sell(1, 5n, hex('800040')), buy(1, 5n, hex('800040'))]))).toBe('EBUG');
    expect(err(() => buildBook([sell(1, 1n << 63n, hex('800040')), sell(2, 1n << 63n, hex('800040'))]))).toBe('EBUG');
    expect(err(() => findClearing({ base: 1n << 64n, quote: 1n }, buildBook([])))).toBe('EBUG');
  });

  it('priority: best limit first, then ascending id; levels aggregate remaining', () => {
    const book = buildBook([
      sell(5, 1n, hex('800040')),
      sell(2, 2n, hex('c0003f')),
      sell(3, 4n, hex('800040')),
      sell(9, 8n, hex('800041')),
      buy(7, 1n, hex('800040')),
      buy(4, 2n, hex('800041')),
      buy(6, 4n, hex('800040')),
      buy(8, 8n, hex('c0003f')),
    ]);
    expect(book.sells.map((o) => o.id)).toEqual([2n, 3n, 5n, 9n]);
    expect(book.buys.map((o) => o.id)).toEqual([4n, 6n, 7n, 8n]);
    expect([...book.sells].sort(comparePriority)).toEqual(book.sells);
    expect([...book.buys].reverse().sort(comparePriority)).toEqual(book.buys);
    expect(book.sellLevels.map((l) => [l.limit.hex, l.amount])).toEqual([
      ['800041', 8n],
      ['800040', 5n],
      ['c0003f', 2n],
    ]);
    expect(book.buyLevels.map((l) => [l.limit.hex, l.amount])).toEqual([
      ['800041', 2n],
      ['800040', 5n],
      ['c0003f', 8n],
    ]);
  });

  it('at an equal limit the older order fills first', () => {
    const r = match(EMPTY, [sell(3, 10n ** 10n, hex('800040')), sell(2, 10n ** 10n, hex('800040')), buy(4, 10n ** 10n, hex('800040'))]);
    expect(r.sellSwaps.map((s) => [s.id, s.base])).toEqual([[2n, 10n ** 10n]]);
  });
});

describe('§8.2 price arithmetic', () => {
  const rng = new XorShift(0x82n);
  /** val(p) = num/den exactly. */
  const frac = (p: Price) =>
    p.exponent >= 79 ? { num: BigInt(p.mantissa) << BigInt(p.exponent - 79), den: 1n } : { num: BigInt(p.mantissa), den: 1n << BigInt(79 - p.exponent) };
  const ceil = (a: bigint, b: bigint) => (a + b - 1n) / b;

  it('bitlen', () => {
    expect([0n, 1n, 2n, 3n, 255n, 256n, (1n << 127n) - 1n, 1n << 127n].map(bitlen)).toEqual([0, 1, 2, 2, 8, 9, 127, 128]);
  });

  it('⌈a·p⌉ and ⌈a/p⌉ are exact, undefined from 2^64', () => {
    for (let i = 0; i < 3000; i++) {
      const p = pm(0x8000 + rng.below(0x8000), rng.below(128)),
        a = rng.bits(64);
      const { num, den } = frac(p);
      const mul = ceil(a * num, den),
        div = ceil(a * den, num);
      expect(ceilMulPrice(a, p)).toBe(mul < 1n << 64n ? mul : null);
      expect(ceilDivPrice(a, p)).toBe(div < 1n << 64n ? div : null);
    }
    expect(ceilMulPrice(3n, hex('c00040'))).toBe(5n); // ⌈4.5⌉
    expect(ceilDivPrice(2n * 10n ** 10n, hex('c00040'))).toBe(13_333_333_334n);
  });

  it('cmp(N, D; p) orders N/D against val(p) for N, D > 0', () => {
    for (let i = 0; i < 3000; i++) {
      const p = pm(0x8000 + rng.below(0x8000), rng.below(128));
      const n = rng.bits(127) + 1n,
        d = rng.bits(127) + 1n;
      const { num, den } = frac(p);
      const l = n * den,
        r = d * num;
      expect(cmpRatio(n, d, p)).toBe(l < r ? -1 : l > r ? 1 : 0);
    }
    expect(cmpRatio(3n, 2n, hex('c00040'))).toBe(0);
    expect(cmpRatio(0n, 0n, pm(0x8000, 79))).toBe(0); // keys (0, 0) and (0, 0)
    expect(cmpRatio(0n, 0n, pm(0x8000, 80))).toBe(-1);
    expect(cmpRatio(0n, 0n, pm(0x8000, 78))).toBe(1);
  });
});
