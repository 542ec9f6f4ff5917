// Numbers and times as the explorer prints them. Amounts come from the API's exact decimal texts;
// grid prices from their 3-byte code (exact decimals, kernel/price.ts); a ratio of two integer
// amounts (a pool's price, a swap's price) by bigint division (core/ratio.ts).
import { ratioDecimal, unitPrice } from '../core/ratio.js';
import { priceDecimal, priceFromHex } from '../kernel/price.js';

/** The coin's ticker. */
export const COIN = 'WART';
export const COIN_DECIMALS = 8;

/** An API amount's exact text, without the reference formatter's trailing dot of 0-decimal tokens ("21000." → "21000"). */
export function amountStr(a: { str: string }): string {
  return a.str.endsWith('.') ? a.str.slice(0, -1) : a.str;
}

/** The exact decimal of a grid price (its `hex`) in coins per whole unit of an asset with `decimals`. */
export function priceStr(p: { hex: string }, decimals: number): string {
  const price = priceFromHex(p.hex);
  if (!price) throw new Error(`not a price: ${p.hex}`);
  return priceDecimal(price, decimals);
}

/** Numeric order of two grid prices (by their hex: exponent, then mantissa). */
export function comparePriceHex(a: string, b: string): number {
  const ea = parseInt(a.slice(4), 16),
    eb = parseInt(b.slice(4), 16);
  return ea !== eb ? ea - eb : parseInt(a.slice(0, 4), 16) - parseInt(b.slice(0, 4), 16);
}

/**
 * The price in coins per whole asset unit of `quoteE8` coin E8 against `base` smallest asset
 * units: exact when it has at most `sig` significant digits, else rounded and marked with "≈".
 */
export function ratioPrice(quoteE8: bigint, base: bigint, decimals: number, sig = 10): string {
  const r = unitPrice(quoteE8, base, decimals, sig);
  if (!r) return '–';
  return r.exact ? r.text : `≈ ${r.text}`;
}

/** An API decimal text (at most `decimals` fractional digits) in smallest units. */
export function smallestUnits(text: string, decimals: number): bigint {
  const [whole, frac = ''] = text.split('.');
  return BigInt(whole + frac.padEnd(decimals, '0'));
}

/** An API decimal text (a candle's price, to 18 digits) shortened to `sig` significant digits, marked with "≈" when that rounds it. */
export function decimalStr(text: string, sig = 10): string {
  const frac = text.split('.')[1] ?? '';
  const r = ratioDecimal(smallestUnits(text, frac.length), 10n ** BigInt(frac.length), sig)!;
  return r.exact ? r.text : `≈ ${r.text}`;
}

/** A Unix time as "YYYY-MM-DD HH:MM:SS UTC" (the API's Timepoint form). */
export function utc(seconds: number): string {
  return new Date(seconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

/** How long ago `seconds` was at `now` (ms): "12 s ago", "5 min ago", "3 h ago", "2 d ago"; "in the future" when ahead. */
export function age(seconds: number, now = Date.now()): string {
  const d = Math.round(now / 1000 - seconds);
  if (d < -5) return 'in the future';
  if (d < 60) return `${Math.max(d, 0)} s ago`;
  if (d < 3600) return `${Math.floor(d / 60)} min ago`;
  if (d < 86_400) return `${Math.floor(d / 3600)} h ago`;
  return `${Math.floor(d / 86_400)} d ago`;
}

/** A long hex string shortened for tables: the first and last 8 characters. */
export function short(hex: string): string {
  return hex.length > 20 ? `${hex.slice(0, 8)}…${hex.slice(-8)}` : hex;
}
