// Exact price arithmetic of the matching algorithm (exchange.md §8.2): ⌈a·p⌉, ⌈a/p⌉ and the
// ratio comparison `cmp(N, D; p)` on val(m, e) = m·2^(e−79) (§4.1). Integers only, never doubles.
import { fail } from '../core/errors.js';
import type { Price } from '../kernel/price.js';

const U64_LIMIT = 1n << 64n;
/** The exponent at which val(m, e) = m (§4.1). */
const BIAS = 79;

export type Ordering = -1 | 0 | 1;

/** Number of significant bits; bitlen(0) = 0 (exchange.md conventions). */
export function bitlen(n: bigint): number {
  if (n === 0n) return 0;
  const s = n.toString(16);
  return (s.length - 1) * 4 + (32 - Math.clz32(parseInt(s[0], 16)));
}

/**
 * ⌈a·val(p)⌉ for a ≥ 0, or null when the result is ≥ 2^64 (undefined in §8.2), as the live
 * reference computes it: at e = 15 (a shift right by exactly 64 bits) it rounds up whenever the
 * product m·a reaches 2^64, even when exact (prod.hpp:87: `upper << 64` is `upper << 0` on x86).
 */
export function ceilMulPrice(a: bigint, p: Price): bigint | null {
  const am = a * BigInt(p.mantissa);
  const shift = p.exponent - BIAS;
  if (shift === -64 && am >> 64n !== 0n) {
    const r = (am >> 64n) + 1n;
    return r < U64_LIMIT ? r : null;
  }
  const r = shift >= 0 ? am << BigInt(shift) : (am + (1n << BigInt(-shift)) - 1n) >> BigInt(-shift);
  return r < U64_LIMIT ? r : null;
}

/**
 * ⌈a / val(p)⌉ for a ≥ 0, or null when the result is ≥ 2^64 (undefined in §8.2), as the live
 * reference computes it: when ⌊a / val(p)⌋ ≥ 2^63 it rounds up even when exact (price.hpp:269:
 * `d << 64` is `d << 0` on x86), and null if that reaches 2^64.
 */
export function ceilDivPrice(a: bigint, p: Price): bigint | null {
  const m = BigInt(p.mantissa);
  if (m === 0n) fail('EREFABORT', 'a division by a zero mantissa'); // an integer division by 0 kills the reference
  const shift = BIAS - p.exponent;
  const [num, den] = shift >= 0 ? [a << BigInt(shift), m] : [a, m << BigInt(-shift)];
  const floor = num / den;
  const r = floor >= 1n << 63n ? floor + 1n : (num + den - 1n) / den;
  return r < U64_LIMIT ? r : null;
}

/**
 * cmp(N, D; p) of §8.2, literally: key(N) = (bitlen(N), N/2^bitlen(N)) against
 * key'(D) = (bitlen(D·m) + e − 79, D·m/2^bitlen(D·m)), lexicographically, the second components
 * as exact fractions (0 for a zero argument). For N, D > 0 this orders N/D against val(p); for
 * zero arguments the rule itself decides (§8.9), so 0/0 is not special.
 *
 * One defect of the reference is reproduced: it aligns D·m (192 bits, words U:L:W) to the top with
 * shifts that, by a whole number of words (bitlen 128 or 192), add the next lower word instead of
 * moving it (price.hpp:310 through prod.hpp:212–219; x86 masks the count of `w >> 64` to 0, as
 * the live build's compare_fraction does). So at bitlen(D·m) = 128 the compared value is
 * ((L + W) mod 2^64)·2^128 + W·2^64 instead of L·2^128 + W·2^64.
 */
export function cmpRatio(n: bigint, d: bigint, p: Price): Ordering {
  const pd = d * BigInt(p.mantissa);
  const bn = bitlen(n),
    bp = bitlen(pd);
  const kd = bp + p.exponent - BIAS;
  if (bn !== kd) return bn < kd ? -1 : 1;
  // both aligned to the top of 192 bits
  const l = n === 0n ? 0n : n << BigInt(192 - bn);
  const r = alignedAsReference(pd, bp);
  return l < r ? -1 : l > r ? 1 : 0;
}

const WORD = (1n << 64n) - 1n;

/** D·m shifted left to fill 192 bits, as the reference's Prod192 shift computes it. */
function alignedAsReference(pd: bigint, bits: number): bigint {
  if (pd === 0n) return 0n;
  const [u, l, w] = [pd >> 128n, (pd >> 64n) & WORD, pd & WORD];
  if (bits === 192) return (((u + l) & WORD) << 128n) | (((l + w) & WORD) << 64n) | w;
  if (bits === 128) return (((l + w) & WORD) << 128n) | (w << 64n);
  return pd << BigInt(192 - bits);
}
