// Amounts are bigint end to end. Text forms follow http-api-details.md §1.4.

export const U64_MAX = (1n << 64n) - 1n;
export const COIN_DECIMALS = 8;
/** 18,921,600 coins in E8 (consensus.md §1); P rejects any single amount or fee above it (§6.9). */
export const MAX_COIN_SUPPLY = 1_892_160_000_000_000n;

/** Formats a smallest-unit value with `decimals` fractional digits, as the reference does. */
export function formatUnits(v: bigint, decimals: number): string {
  if (v === 0n) return '0';
  const s = v.toString();
  if (decimals === 0) return s; // no trailing dot (the live reference 0.10.3, funds.cpp; an earlier build wrote "123.")
  const padded = s.padStart(decimals + 1, '0');
  return padded.slice(0, -decimals) + '.' + padded.slice(-decimals);
}

const AMOUNT_RE = /^(\d*)(?:\.(\d*))?$/;

/**
 * Parses an amount string (digits and at most one '.', at least one digit, at most 20 digits,
 * at most `decimals` fractional digits, no sign or exponent) into smallest units.
 * Returns null when malformed or above u64.
 */
export function parseUnits(text: string, decimals: number): bigint | null {
  const m = AMOUNT_RE.exec(text);
  if (!m) return null;
  const int = m[1],
    frac = m[2] ?? '';
  if (int.length + frac.length === 0 || int.length + frac.length > 20) return null;
  if (frac.length > decimals) return null;
  const v = BigInt((int || '0') + frac.padEnd(decimals, '0'));
  return v > U64_MAX ? null : v;
}

const UINT_RE = /^\d+$/;

/** Parses a base-10 unsigned integer of at most `bits` bits (leading zeros allowed); else null. */
export function parseUint(text: string, bits: number): bigint | null {
  if (!UINT_RE.test(text)) return null;
  const v = BigInt(text);
  return v < 1n << BigInt(bits) ? v : null;
}
