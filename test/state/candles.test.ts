// Candles from trades (exchange.md §11.2): buckets, the merge rule for non-increasing
// timestamps, open/high/low/close and volumes, no gap filling.
import { describe, expect, it } from 'vitest';
import { candlesOf } from '../../ts/state/candles.js';

const trade = (height: number, timestamp: number, base: number, quote: number) => ({ height, timestamp, base, quote });

describe('candlesOf', () => {
  it('opens a candle per bucket, with the first trade\'s height, and leaves gaps empty', () => {
    const c = candlesOf([trade(10, 600, 2, 1), trade(11, 650, 1, 1), trade(30, 1500, 4, 1)], 300);
    expect(c).toEqual([
      { begin: 600, height: 10, open: 0.5, high: 1, low: 0.5, close: 1, base: 3, quote: 2 },
      { begin: 1500, height: 30, open: 0.25, high: 0.25, low: 0.25, close: 0.25, base: 4, quote: 1 },
    ]);
  });

  it('merges a trade whose bucket is not after the latest candle into that candle', () => {
    // Block 3's timestamp lies in an earlier bucket than block 2's: it joins block 2's candle.
    const c = candlesOf([trade(1, 100, 1, 1), trade(2, 400, 1, 2), trade(3, 250, 1, 4), trade(4, 610, 1, 3)], 300);
    expect(c.map((x) => [x.begin, x.height, x.open, x.high, x.low, x.close, x.base, x.quote])).toEqual([
      [0, 1, 1, 1, 1, 1, 1, 1],
      [300, 2, 2, 4, 2, 4, 2, 6],
      [600, 4, 3, 3, 3, 3, 1, 3],
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
});
