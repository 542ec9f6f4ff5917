// The 3-byte limit price (exchange.md §4, consensus.md §7.5): mantissa m (0x8000..0xffff) and
// exponent byte e (0..127), value m·2^(e−79) coin E8 per smallest asset unit; wire/hex form is
// m big-endian then e. Parsing, doubles and comparison come from the kernel.
import { callWithBuffers, kernel } from './instance.js';

interface PriceExports {
  price_parse(ptr: number, len: number, decimals: number, out: number): number;
  price_compare(m1: number, e1: number, m2: number, e2: number): number;
  price_double_raw(m: number, e: number): number;
  price_double_adjusted(m: number, e: number, decimals: number): number;
}

/** A valid limit price. `exponent` is the raw byte; the API's `exponent2` is exponent − 79. */
export interface Price {
  readonly mantissa: number;
  readonly exponent: number;
  readonly hex: string;
}

/** The interface `Price` object (http-api.md value types), keys in the contract's order. */
export interface PriceView {
  precExponent10: number;
  exponent2: number;
  mantissa: number;
  hex: string;
  doubleAdjusted: number;
  doubleRaw: number;
}

/** Largest asset precision (exchange.md §1.3). */
export const MAX_PRICE_DECIMALS = 18;

const hex2 = (b: number): string => b.toString(16).padStart(2, '0');

function isValid(mantissa: number, exponent: number): boolean {
  return Number.isInteger(mantissa) && mantissa >= 0x8000 && mantissa <= 0xffff && Number.isInteger(exponent) && exponent >= 0 && exponent <= 127;
}

/** The price (m, e), or null unless 0x8000 ≤ m ≤ 0xffff and 0 ≤ e ≤ 127 (§4.1 validity). */
export function makePrice(mantissa: number, exponent: number): Price | null {
  if (!isValid(mantissa, exponent)) return null;
  return { mantissa, exponent, hex: hex2(mantissa >> 8) + hex2(mantissa & 0xff) + hex2(exponent) };
}

/** Reads the 3 wire bytes (m big-endian, e); null for another length or an invalid price. */
export function priceFromBytes(bytes: Uint8Array): Price | null {
  return bytes.length === 3 ? makePrice((bytes[0] << 8) | bytes[1], bytes[2]) : null;
}

/** Parses the 6-hex-char form (either case); null when malformed or invalid. */
export function priceFromHex(hex: string): Price | null {
  if (!/^[0-9a-fA-F]{6}$/.test(hex)) return null;
  return makePrice(parseInt(hex.slice(0, 4), 16), parseInt(hex.slice(4), 16));
}

export function priceToBytes(p: Price): Uint8Array {
  checkPrice(p);
  return Uint8Array.of(p.mantissa >> 8, p.mantissa & 0xff, p.exponent);
}

function checkPrice(p: Price): void {
  if (!p || !isValid(p.mantissa, p.exponent)) throw new RangeError(`not a valid price: ${JSON.stringify(p)}`);
}

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_PRICE_DECIMALS) {
    throw new RangeError(`decimals must be an integer 0..${MAX_PRICE_DECIMALS}, got ${decimals}`);
  }
}

/** Numeric order: exponent first, then mantissa (never the hex or wire bytes). */
export function priceCompare(a: Price, b: Price): -1 | 0 | 1 {
  checkPrice(a);
  checkPrice(b);
  return kernel<PriceExports>().price_compare(a.mantissa, a.exponent, b.mantissa, b.exponent) as -1 | 0 | 1;
}

/** m·2^(e−79) as a double (exact): coin E8 per smallest asset unit. */
export function priceDoubleRaw(p: Price): number {
  checkPrice(p);
  return kernel<PriceExports>().price_double_raw(p.mantissa, p.exponent);
}

/** doubleRaw·10^(d−8): coins per whole unit of an asset with `decimals`, bit-exact as the reference. */
export function priceDoubleAdjusted(p: Price, decimals: number): number {
  checkPrice(p);
  checkDecimals(decimals);
  return kernel<PriceExports>().price_double_adjusted(p.mantissa, p.exponent, decimals);
}

/** The API object of a price for an asset with `decimals` (exchange.md §4.3). */
export function priceView(p: Price, decimals: number): PriceView {
  return {
    precExponent10: 8 - decimals,
    exponent2: p.exponent - 79,
    mantissa: p.mantissa,
    hex: p.hex,
    doubleAdjusted: priceDoubleAdjusted(p, decimals),
    doubleRaw: priceDoubleRaw(p),
  };
}

/**
 * The API object of a limit as a block carries it: any 3 bytes, since the reference reads them
 * unchecked (docs/reference-differences.md). A valid price goes through priceView; any other gets
 * the same formulas (m·2^(e−79), then ×10^(d−8)) outside the kernel, which takes valid prices only.
 */
export function limitView(bytes: Uint8Array, decimals: number): PriceView {
  const p = priceFromBytes(bytes);
  if (p) return priceView(p, decimals);
  checkDecimals(decimals);
  const mantissa = (bytes[0] << 8) | bytes[1],
    exponent = bytes[2];
  const doubleRaw = mantissa * 2 ** (exponent - 79); // a power of two: exact
  return {
    precExponent10: 8 - decimals,
    exponent2: exponent - 79,
    mantissa,
    hex: hex2(bytes[0]) + hex2(bytes[1]) + hex2(exponent),
    doubleAdjusted: doubleRaw * Number(`1e${decimals - 8}`),
    doubleRaw, // the kernel's table holds these literals
  };
}

/**
 * `/tools/parse_price` (exchange.md §4.4): the decimal price text (coins per whole unit) as the
 * largest grid price ≤ it (floor) and the smallest ≥ it (ceil). The text must be one whole
 * decimal number, `[-](digits[.digits]|.digits)[(e|E)[+|-]digits]` (no leading '+', spaces, hex,
 * inf or nan: the reference's `from_chars` refuses them).
 * Returns null when the text is refused, the number is not > 0, or either price falls outside
 * the exponent range. `decimals` outside 0..18 is a RangeError (callers validate it first).
 */
export function parsePrice(text: string, decimals: number): { floor: Price; ceil: Price } | null {
  if (typeof text !== 'string') throw new RangeError('price text must be a string');
  checkDecimals(decimals);
  const bytes = new TextEncoder().encode(text);
  const { out, status } = callWithBuffers([bytes], 6, ([p], o) => kernel<PriceExports>().price_parse(p, bytes.length, decimals, o));
  if (status !== 0) return null;
  return { floor: priceFromBytes(out.subarray(0, 3))!, ceil: priceFromBytes(out.subarray(3, 6))! };
}

/**
 * The exact decimal value of a grid price in coins per whole unit of an asset with `decimals`:
 * m·2^(e−79)·10^(decimals−8) has a finite decimal expansion, so a price prints without the noise
 * of a double (0.4, not 0.39999999999999997).
 */
export function priceDecimal(p: Price, decimals: number): string {
  checkPrice(p);
  checkDecimals(decimals);
  const shift = p.exponent - 79,
    ten = decimals - 8;
  // value = num / 10^places: a power of two in the denominator becomes 5^k over 10^k.
  let num = BigInt(p.mantissa) * (shift > 0 ? 2n ** BigInt(shift) : 1n) * (ten > 0 ? 10n ** BigInt(ten) : 1n);
  let places = 0;
  if (shift < 0) {
    num *= 5n ** BigInt(-shift);
    places -= shift;
  }
  if (ten < 0) places -= ten;
  const digits = num.toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places),
    frac = digits.slice(digits.length - places).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}
