// Candles from trades (exchange.md §11.2): buckets of 5m, 1h or 1d by block timestamp; a trade
// joins the latest candle when that candle begins at or after the trade's bucket (block timestamps
// need not increase), otherwise it starts a new one. No gap filling.
import type { Trade } from './trades.js';

/** Candle intervals in seconds, by their interface names. */
export const CANDLE_INTERVALS = { '5m': 300, '1h': 3600, '1d': 86400 } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;

export interface Candle {
  /** The bucket's start: ⌊ts / interval⌋ · interval (UTC seconds). */
  begin: number;
  /** Height of the candle's first trade. */
  height: number;
  /** Prices in coin per whole asset unit (quote / base of each trade). */
  open: number;
  high: number;
  low: number;
  close: number;
  /** Volumes: whole asset units and coin. */
  base: number;
  quote: number;
}

/** The candles of `trades` (ascending height, as the chain applied them). */
export function candlesOf(trades: readonly Trade[], intervalSeconds: number): Candle[] {
  const out: Candle[] = [];
  for (const t of trades) {
    const begin = Math.floor(t.timestamp / intervalSeconds) * intervalSeconds;
    const price = t.quote / t.base;
    const last = out[out.length - 1];
    if (last && last.begin >= begin) {
      last.close = price;
      last.high = Math.max(last.high, price);
      last.low = Math.min(last.low, price);
      last.base += t.base;
      last.quote += t.quote;
    } else {
      out.push({ begin, height: t.height, open: price, high: price, low: price, close: price, base: t.base, quote: t.quote });
    }
  }
  return out;
}
