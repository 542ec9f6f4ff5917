// Candles from trades (exchange.md §11.2): buckets of 5m, 1h or 1d by block timestamp; a trade
// joins the latest candle when that candle begins at or after the trade's bucket (block timestamps
// need not increase), otherwise it starts a new one. No gap filling. A candle is kept exactly (a
// price is a trade's quote/base pair of integers, compared by cross-multiplication; volumes are
// integer sums) and as the reference computes it in doubles (`reference`, for `--api=0.10`).
import type { Trade } from './trades.js';

/** Candle intervals in seconds, by their interface names. */
export const CANDLE_INTERVALS = { '5m': 300, '1h': 3600, '1d': 86400 } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;

/** A trade's price as the pair it is divided out of: quote E8 per `base` smallest asset units. */
export interface TradePrice {
  base: bigint;
  quote: bigint;
}

export interface Candle {
  /** The bucket's start: ⌊ts / interval⌋ · interval (UTC seconds). */
  begin: number;
  /** Height of the candle's first trade. */
  height: number;
  open: TradePrice;
  high: TradePrice;
  low: TradePrice;
  close: TradePrice;
  /** Volumes: smallest asset units and coin E8. */
  base: bigint;
  quote: bigint;
  /** The same candle in doubles, as the reference computes it: prices in coin per whole asset unit (quote / base of each trade). */
  reference: { open: number; high: number; low: number; close: number; base: number; quote: number };
}

/** Order of two trade prices (a positive base each). */
const comparePrice = (a: TradePrice, b: TradePrice): number => {
  const l = a.quote * b.base,
    r = b.quote * a.base;
  return l < r ? -1 : l > r ? 1 : 0;
};

/** The candles of `trades` (ascending height, as the chain applied them). */
export function candlesOf(trades: readonly Trade[], intervalSeconds: number): Candle[] {
  const out: Candle[] = [];
  for (const t of trades) {
    const begin = Math.floor(t.timestamp / intervalSeconds) * intervalSeconds;
    const price: TradePrice = { base: t.base, quote: t.quote };
    const double = t.reference.quote / t.reference.base;
    const last = out[out.length - 1];
    if (last && last.begin >= begin) {
      last.close = price;
      if (comparePrice(price, last.high) > 0) last.high = price;
      if (comparePrice(price, last.low) < 0) last.low = price;
      last.base += t.base;
      last.quote += t.quote;
      const r = last.reference;
      r.close = double;
      r.high = Math.max(r.high, double);
      r.low = Math.min(r.low, double);
      r.base += t.reference.base;
      r.quote += t.reference.quote;
    } else {
      out.push({
        begin,
        height: t.height,
        open: price,
        high: price,
        low: price,
        close: price,
        base: t.base,
        quote: t.quote,
        reference: { open: double, high: double, low: double, close: double, base: t.reference.base, quote: t.reference.quote },
      });
    }
  }
  return out;
}
