// A quotient of two integer amounts as decimal text (a price divided out of a pool's reserves or a
// trade's totals): computed on the integers, so it carries no binary-float noise, and rounded only
// where the quotient has more significant digits than asked for.

/**
 * num / den as a decimal of `sig` significant digits (rounded half up), trailing zeros dropped;
 * `exact` when that is the whole value. Null when den is 0.
 */
export function ratioDecimal(num: bigint, den: bigint, sig: number): { text: string; exact: boolean } | null {
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
  const whole = s.slice(0, s.length - places),
    frac = s.slice(s.length - places).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/**
 * The price, in coins per whole asset unit, of `quoteE8` coin E8 against `base` smallest units of
 * an asset with `decimals`: quoteE8·10^decimals / (base·10^8) to `sig` significant digits.
 */
export function unitPrice(quoteE8: bigint, base: bigint, decimals: number, sig: number): { text: string; exact: boolean } | null {
  return ratioDecimal(quoteE8 * 10n ** BigInt(decimals), base * 10n ** 8n, sig);
}
