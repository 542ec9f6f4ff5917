// Numbers and times as the explorer prints them. Amounts come from the API's exact `str` fields;
// grid prices from their 3-byte code (exact decimals, kernel/price.ts); a ratio of two integer
// amounts (a pool's price, a swap's price) by bigint division; the few values the API gives only
// as doubles (candle prices and volumes, trade totals) are rounded to what they can be.
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
  const ea = parseInt(a.slice(4), 16), eb = parseInt(b.slice(4), 16);
  return ea !== eb ? ea - eb : parseInt(a.slice(0, 4), 16) - parseInt(b.slice(0, 4), 16);
}

/**
 * num / den as a decimal of `sig` significant digits (rounded half up), trailing zeros dropped;
 * `exact` when that is the whole value. Null when den is 0.
 */
export function ratioDecimal(num: bigint, den: bigint, sig = 10): { text: string; exact: boolean } | null {
  if (den <= 0n || num < 0n) return null;
  if (num === 0n) return { text: '0', exact: true };
  const intDigits = (num / den).toString();
  let places: number;
  if (num >= den) places = Math.max(0, sig - intDigits.length);
  else {
    let zeros = 0; // zeros after the point before the first significant digit
    while (num * 10n ** BigInt(zeros + 1) < den) zeros++;
    places = zeros + sig;
  }
  const scale = 10n ** BigInt(places);
  const exact = (num * scale) % den === 0n;
  const scaled = (num * scale * 2n + den) / (2n * den);
  return { text: decimalOf(scaled, places), exact };
}

/** `v / 10^places` as decimal text, trailing fractional zeros dropped. */
function decimalOf(v: bigint, places: number): string {
  const s = v.toString().padStart(places + 1, '0');
  const whole = s.slice(0, s.length - places), frac = s.slice(s.length - places).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/**
 * The price in coins per whole asset unit of `quoteE8` coin E8 against `base` smallest asset
 * units: exact when it has at most `sig` significant digits, else rounded and marked with "≈".
 */
export function ratioPrice(quoteE8: bigint, base: bigint, decimals: number, sig = 10): string {
  const r = ratioDecimal(quoteE8 * 10n ** BigInt(decimals), base * 10n ** BigInt(COIN_DECIMALS), sig);
  if (!r) return '–';
  return r.exact ? r.text : `≈ ${r.text}`;
}

/**
 * A double the API computed from integer amounts of `decimals` places (candle and trade volumes):
 * printed with those places. The true value is a whole number of smallest units and the double is
 * within half a unit of it, so the rounding gives it back exactly (14.600000000000001 → "14.60").
 */
export function unitsFromDouble(v: number, decimals: number): string {
  if (!Number.isFinite(v)) return '–';
  return v.toFixed(decimals);
}

/** A double with no integer behind it (a candle's price: a ratio of volumes), to `sig` significant digits without exponent noise. */
export function significant(v: number, sig = 8): string {
  if (!Number.isFinite(v)) return '–';
  if (v === 0) return '0';
  const digits = Math.max(0, sig - 1 - Math.floor(Math.log10(Math.abs(v))));
  return v.toFixed(Math.min(digits, 100)).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** A Unix time as "YYYY-MM-DD HH:MM:SS UTC" (the API's Timepoint form). */
export function utc(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
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
