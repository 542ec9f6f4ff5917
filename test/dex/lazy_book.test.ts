// The book a match of the reference 0.10.3 sees (lazy_book.ts): orders loaded lazily around the
// clearing price, levels headed by a partly filled order counted with its total, fills walking
// the loaded orders, stored limits checked when read. The expected values were produced by the
// reference's own matching code (lazy_matching.hpp, the live build's orderbook.o and matcher.o,
// block_applier.cpp's loader and fill walk) on the same inputs.
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { buildBook } from '../../ts/dex/book.js';
import { loadBook, type LoadableOrder } from '../../ts/dex/lazy_book.js';
import { excessAt, matchBook } from '../../ts/dex/matching.js';
import { bitlen, ceilDivPrice, ceilMulPrice, cmpRatio } from '../../ts/dex/price_math.js';
import type { MatchResult } from '../../ts/dex/settlement.js';
import { errorOf } from '../helpers/error_of.js';

beforeAll(async () => {
  await initKernel();
});

const o = (id: number, amount: number | bigint, filled: number, m: number, e: number): LoadableOrder => ({
  id: BigInt(id),
  limit: { mantissa: m, exponent: e, hex: '' },
  amount: BigInt(amount),
  filled: BigInt(filled),
});

interface Case {
  pool: [number | bigint, number | bigint];
  storedSells?: LoadableOrder[];
  newSells?: LoadableOrder[];
  storedBuys?: LoadableOrder[];
  newBuys?: LoadableOrder[];
  skip?: number[];
}

function run(c: Case): MatchResult {
  const pool = { base: BigInt(c.pool[0]), quote: BigInt(c.pool[1]) };
  return matchBook(
    pool,
    loadBook(
      pool,
      { stored: c.storedSells ?? [], fresh: c.newSells ?? [] },
      { stored: c.storedBuys ?? [], fresh: c.newBuys ?? [] },
      new Set((c.skip ?? []).map(BigInt)),
    ),
  );
}

/** The reference's summary: filled, pool after, and each fill as id:base:quote. */
function summary(r: MatchResult): string {
  const fills = (tag: string, xs: readonly { id: bigint; base: bigint; quote: bigint }[]) =>
    xs.length ? ` ${tag} ${xs.map((s) => `${s.id}:${s.base}:${s.quote}`).join(' ')}` : '';
  return `${r.filled.base} ${r.filled.quote} ${r.poolAfter.base} ${r.poolAfter.quote}${fills('S', r.sellSwaps)}${fills('B', r.buySwaps)}`;
}

function refusal(c: Case): string {
  return errorOf(() => run(c));
}

/** The same orders matched as one full book by their remaining amounts (what we did before). */
function fullBook(c: Case): string {
  const pool = { base: BigInt(c.pool[0]), quote: BigInt(c.pool[1]) };
  const side = (xs: LoadableOrder[] | undefined, isBuy: boolean) =>
    (xs ?? []).map((x) => ({ id: x.id, isBuy, limit: x.limit, remaining: x.amount - x.filled }));
  return summary(
    matchBook(pool, buildBook([...side(c.storedSells, false), ...side(c.newSells, false), ...side(c.storedBuys, true), ...side(c.newBuys, true)])),
  );
}

describe('a level headed by a partly filled order counts its total amount', () => {
  // Bid level (43353, 65): order 4 (638, 480 filled) heads it, so the level claims 638 + 241 where
  // 158 + 241 remain; the fill walk pays 480 more from order 5, the lookahead of the next level
  // down (59860, 61), at the clearing terms.
  const c: Case = {
    pool: [452, 288],
    storedSells: [o(1, 34, 0, 59860, 61), o(3, 365, 159, 59860, 61), o(2, 786, 576, 43353, 65)],
    newSells: [o(7, 980, 0, 43353, 65), o(8, 58, 0, 43353, 65)],
    storedBuys: [o(4, 638, 480, 43353, 65), o(6, 241, 0, 43353, 65), o(5, 822, 0, 59860, 61)],
    newBuys: [o(9, 903, 0, 59860, 61)],
  };
  it('fills run into the next loaded order (the reference)', () => {
    expect(summary(run(c))).toBe('240 879 231 569 S 1:34:84 3:206:513 B 4:82:158 6:126:241 5:251:480');
  });
  it('which a full-book match by remaining amounts does not do', () => {
    expect(fullBook(c)).toBe('240 399 329 397 S 1:34:41 3:206:248 B 4:143:158 6:219:241');
  });

  it('on the sell side as well', () => {
    const s: Case = {
      pool: [639, 75],
      storedSells: [o(2, 261, 0, 52019, 58), o(3, 673, 308, 37452, 59), o(1, 177, 0, 42652, 60)],
      newSells: [o(9, 458, 0, 42652, 60), o(8, 659, 0, 60313, 62)],
      storedBuys: [o(5, 591, 0, 42652, 60), o(6, 458, 0, 62421, 59), o(4, 560, 0, 37452, 59), o(7, 924, 0, 37452, 59)],
      newBuys: [o(10, 519, 0, 37452, 59)],
    };
    expect(summary(run(s))).toBe('1569 118 757 65 S 2:261:21 3:365:29 1:177:14 9:458:37 8:308:25 B 5:1451:118');
    expect(fullBook(s)).toBe('1261 93 756 65 S 2:261:21 3:365:29 1:177:14 9:458:37 B 5:1144:93');
  });

  it('fills beyond the loaded orders make the reference exit (EREFABORT)', () => {
    // one price level on both sides: the bid level claims 200 + 671 already filled
    expect(
      refusal({
        pool: [16, 297],
        storedSells: [o(1, 962, 113, 58125, 68)],
        newSells: [o(4, 956, 0, 58125, 68), o(5, 193, 0, 58125, 68)],
        storedBuys: [o(2, 644, 200, 58125, 68), o(3, 895, 671, 58125, 68)],
        newBuys: [o(6, 776, 0, 58125, 68), o(7, 944, 0, 58125, 68)],
      }),
    ).toBe('EREFABORT');
  });
});

describe('canceled orders are skipped while loading (block_applier.cpp:189)', () => {
  it('a canceled bid neither fills nor counts', () => {
    const c: Case = { pool: [1000, 1000], storedBuys: [o(1, 3000, 0, 40000, 90)], newSells: [o(2, 10, 0, 0x8000, 60)] };
    expect(run(c).buySwaps.map((s) => s.id)).toEqual([1n]);
    expect(run({ ...c, skip: [1] }).buySwaps).toEqual([]);
  });
});

describe('limits that are no grid price', () => {
  it('a new order matches with its raw mantissa and exponent', () => {
    expect(summary(run({ pool: [1000, 1000], newBuys: [o(2, 3000, 0, 40000, 90)] }))).toBe('0 3000 254 4000 B 2:746:3000'); // valid
    expect(summary(run({ pool: [1000, 1000], newBuys: [o(2, 3000, 0, 20000, 81)] }))).toBe('0 3000 254 4000 B 2:746:3000');
    expect(summary(run({ pool: [1000, 1000], newBuys: [o(2, 3000, 0, 0, 81)] }))).toBe('0 0 1000 1000');
    expect(summary(run({ pool: [1000, 1000], newSells: [o(2, 300, 0, 0, 0)] }))).toBe('300 0 1300 772 S 2:300:228');
    expect(summary(run({ pool: [1000, 1000], newSells: [o(2, 300, 0, 16384, 80)] }))).toBe('0 0 1000 1000');
  });

  it('a stored one makes the reference exit when it is read, one order ahead of the merge', () => {
    const invalid = o(3, 400, 0, 50000, 200);
    // read at once: it is the best ask
    expect(refusal({ pool: [1000, 1000], storedSells: [o(1, 500, 0, 1, 200)], newSells: [o(2, 300, 0, 50000, 79)] })).toBe('EREFABORT');
    // read while the level of order 1 is taken, although its price is far away
    expect(refusal({ pool: [1000, 1000], storedSells: [o(1, 500, 0, 50000, 79), invalid], newSells: [o(2, 300, 0, 60000, 79)] })).toBe('EREFABORT');
    // never read: a better new ask leaves stored order 1 as the held read-ahead and loading stops
    expect(refusal({ pool: [1000, 1000], storedSells: [o(1, 500, 0, 50000, 79), invalid], newSells: [o(2, 300, 0, 40000, 79)] })).toBe('none');
  });
});

describe('roundings of the live build where a shift by 64 bits is one by 0 (x86)', () => {
  it('⌈a·val(p)⌉ at e = 15 rounds up an exact product of 2^64 or more', () => {
    const p = { mantissa: 0x8000, exponent: 15, hex: '' }; // val = 2^−49
    expect(ceilMulPrice(3n << 49n, p)).toBe(4n); // exactly 3
    expect(ceilMulPrice(3n << 48n, p)).toBe(2n); // 1.5: right, as it is inexact anyway
    expect(excessAt(3n << 49n, 100n, p)).toEqual({ isQuote: true, amount: 96n });
  });
  it('⌈a/val(p)⌉ of 2^63 or more rounds up an exact quotient', () => {
    const p = { mantissa: 0x8000, exponent: 52, hex: '' }; // val = 2^−12
    expect(ceilDivPrice(1n << 51n, p)).toBe((1n << 63n) + 1n); // exactly 2^63
    expect(ceilDivPrice((1n << 51n) - 1n, p)).toBe((1n << 63n) - 4096n); // below 2^63: exact
    expect(excessAt((1n << 64n) - 1n, 1n << 51n, p)).toEqual({ isQuote: false, amount: (1n << 63n) - 2n });
  });
});

describe('the reference aligns D·m of 128 bits wrongly (cmpRatio)', () => {
  it('compares ((L + W) mod 2^64, W) instead of (L, W): N/D < val(p) is reported greater', () => {
    // numerator and denominator as products of two u64s, as the pool ratios are
    const n = 899163091439644164n * 49019650258293053n,
      d = 11901542845370770n * 812869936572451318n;
    const p = { mantissa: 33753, exponent: 67, hex: '' };
    expect(bitlen(d * 33753n)).toBe(128);
    expect(n * (1n << 79n) < d * 33753n * (1n << 67n)).toBe(true); // exactly: less
    expect(cmpRatio(n, d, p)).toBe(1); // the live build: greater
  });

  it('which changes a match: an ask into a pool of 3.3·10^16 units', () => {
    expect(
      summary(
        run({ pool: [33433640473985025n, 64556538527745n], newSells: [o(1, 52100773483380737n, 0, 63340, 52)], newBuys: [o(2, 69030009, 0, 47968, 55)] }),
      ),
    ).toBe('39861009656794490 69030009 73294503855898368 29623319375540 S 1:39861009656794490:34933288182214 B 2:146274881147:69030009');
  });
});
