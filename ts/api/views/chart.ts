// Chart rows (http-api.md "Charts"): candles `[begin, height, open, high, low, close, base, quote]`
// and trades `[height, timestamp, base, quote]`. The contract fixes no type for prices and volumes,
// so it gets them exact, as decimal texts computed from the integers: volumes in asset and coin
// units, prices (coin per whole asset unit) divided out of a trade's totals to CHART_PRICE_DIGITS
// significant digits. The reference's doubles of the same rows are built here as well, for the
// generation that sends them (generations/v0_10.ts).
import { COIN_DECIMALS, formatUnits } from '../../core/amount.js';
import { unitPrice } from '../../core/ratio.js';
import type { Candle, TradePrice } from '../../state/candles.js';
import type { Trade } from '../../state/trades.js';
import { arr, int, named, strMatching, tuple, type Infer } from '../schema.js';

/**
 * Significant digits of a chart price: more than a double holds (17), so the text is never less
 * precise than the reference's double; a quotient with at most this many digits prints exactly.
 */
export const CHART_PRICE_DIGITS = 18;

/** A non-negative decimal text without exponent. */
const decimal = named('Decimal', strMatching('^(0|[1-9][0-9]*)(\\.[0-9]+)?$'));

export const Candles = named('Candles', arr(tuple(int, int, decimal, decimal, decimal, decimal, decimal, decimal)));
export const Trades = named('Trades', arr(tuple(int, int, decimal, decimal)));

const priceText = (p: TradePrice, decimals: number): string => unitPrice(p.quote, p.base, decimals, CHART_PRICE_DIGITS)!.text;

export function candleRows(candles: readonly Candle[], decimals: number): Infer<typeof Candles> {
  return candles.map((c) => [
    c.begin,
    c.height,
    ...([c.open, c.high, c.low, c.close].map((p) => priceText(p, decimals)) as [string, string, string, string]),
    formatUnits(c.base, decimals),
    formatUnits(c.quote, COIN_DECIMALS),
  ]);
}

export function tradeRows(trades: readonly Trade[], decimals: number): Infer<typeof Trades> {
  return trades.map((t) => [t.height, t.timestamp, formatUnits(t.base, decimals), formatUnits(t.quote, COIN_DECIMALS)]);
}

/** The reference's candle rows: its doubles (exchange.md §11.2). */
export function referenceCandleRows(candles: readonly Candle[]): number[][] {
  return candles.map(({ begin, height, reference: r }) => [begin, height, r.open, r.high, r.low, r.close, r.base, r.quote]);
}

/** The reference's trade rows, `[height, timestamp, base, quote]` in doubles (exchange.md §11.1). */
export function referenceTradeRows(trades: readonly Trade[]): number[][] {
  return trades.map((t) => [t.height, t.timestamp, t.reference.base, t.reference.quote]);
}
