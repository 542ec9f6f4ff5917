// Candles from trades (exchange.md §11.2): buckets, the merge rule for non-increasing
// timestamps, open/high/low/close and volumes, no gap filling; exact (integer pairs and sums) and
// as the reference's doubles.
import { describe, expect, it } from 'vitest';
import { candlesOf } from '../../ts/state/candles.js';

/** A trade of `base` smallest units of a 0-decimal asset for `quote` coin E8 (doubles as §11.1 converts them). */
const trade = (height: number, timestamp: number, base: number, quote: number) => ({
  height,
  timestamp,
  base: BigInt(base),
  quote: BigInt(quote),
  reference: { base, quote: quote * 1e-8 },
});
/** The exact price pair of a trade. */
const p = (base: number, quote: number) => ({ base: BigInt(base), quote: BigInt(quote) });

describe('candlesOf', () => {
  it("opens a candle per bucket, with the first trade's height, and leaves gaps empty", () => {
    const c = candlesOf([trade(10, 600, 2, 1), trade(11, 650, 1, 1), trade(30, 1500, 4, 1)], 300);
    expect(c.map(({ reference, ...exact }) => exact)).toEqual([
      { begin: 600, height: 10, open: p(2, 1), high: p(1, 1), low: p(2, 1), close: p(1, 1), base: 3n, quote: 2n },
      { begin: 1500, height: 30, open: p(4, 1), high: p(4, 1), low: p(4, 1), close: p(4, 1), base: 4n, quote: 1n },
    ]);
    expect(c.map((x) => x.reference)).toEqual([
      { open: 0.5e-8, high: 1e-8, low: 0.5e-8, close: 1e-8, base: 3, quote: 2e-8 },
      { open: 0.25e-8, high: 0.25e-8, low: 0.25e-8, close: 0.25e-8, base: 4, quote: 1e-8 },
    ]);
  });

  it('merges a trade whose bucket is not after the latest candle into that candle', () => {
    // Block 3's timestamp lies in an earlier bucket than block 2's: it joins block 2's candle.
    const c = candlesOf([trade(1, 100, 1, 1), trade(2, 400, 1, 2), trade(3, 250, 1, 4), trade(4, 610, 1, 3)], 300);
    expect(c.map((x) => [x.begin, x.height, x.open, x.high, x.low, x.close, x.base, x.quote])).toEqual([
      [0, 1, p(1, 1), p(1, 1), p(1, 1), p(1, 1), 1n, 1n],
      [300, 2, p(1, 2), p(1, 4), p(1, 2), p(1, 4), 2n, 6n],
      [600, 4, p(1, 3), p(1, 3), p(1, 3), p(1, 3), 1n, 3n],
    ]);
  });

  it('uses the interval for the buckets', () => {
    const ts = [0, 299, 300, 3599, 3600, 86399, 86400];
    const trades = ts.map((t, i) => trade(i + 1, t, 1, 1));
    expect(candlesOf(trades, 300).map((c) => c.begin)).toEqual([0, 300, 3300, 3600, 86100, 86400]);
    expect(candlesOf(trades, 3600).map((c) => c.begin)).toEqual([0, 3600, 82800, 86400]);
    expect(candlesOf(trades, 86400).map((c) => c.begin)).toEqual([0, 86400]);
    expect(candlesOf([], 300)).toEqual([]);
  });

  it('orders prices exactly where their doubles tie', () => {
    // 1/3 and 3333333333333333/10^16 are the same double; exactly, 1/3 is higher.
    expect(1 / 3).toBe(3333333333333333 / 1e16);
    const c = candlesOf([trade(1, 0, 1e16, 3333333333333333), trade(2, 1, 3, 1)], 300);
    expect(c[0].high).toEqual(p(3, 1));
    expect(c[0].low).toEqual(p(1e16, 3333333333333333));
  });
});
