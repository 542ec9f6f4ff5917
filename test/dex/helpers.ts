// Shared helpers of the dex tests: prices by hex or (m, e), orders, a seeded xorshift PRNG.
import { makePrice, priceFromHex, type Price } from '../../ts/kernel/price.js';
import type { Order } from '../../ts/dex/book.js';

export const hex = (h: string): Price => priceFromHex(h)!;
export const pm = (m: number, e: number): Price => makePrice(m, e)!;

export const sell = (id: number, amount: bigint, limit: Price): Order => ({ id: BigInt(id), isBuy: false, limit, remaining: amount });
export const buy = (id: number, amount: bigint, limit: Price): Order => ({ id: BigInt(id), isBuy: true, limit, remaining: amount });

/** xorshift64 with a fixed seed: reproducible random books. */
export class XorShift {
  private s: bigint;
  constructor(seed: bigint) {
    this.s = BigInt.asUintN(64, seed) || 1n;
  }
  next(): bigint {
    let x = this.s;
    x = BigInt.asUintN(64, x ^ (x << 13n));
    x ^= x >> 7n;
    x = BigInt.asUintN(64, x ^ (x << 17n));
    return (this.s = x);
  }
  /** Uniform in [0, n) for n ≥ 1 (a negligible modulo bias is fine for tests). */
  below(n: number): number {
    return Number(this.next() % BigInt(n));
  }
  /** Uniform in [0, n). */
  belowBig(n: bigint): bigint {
    return this.next() % n;
  }
  /** An integer of a random bit length up to `bits` (spreads values over magnitudes). */
  bits(bits: number): bigint {
    return this.next() >> BigInt(64 - 1 - this.below(bits));
  }
  chance(p: number): boolean {
    return this.below(1_000_000) < p * 1_000_000;
  }
}

const U60 = 1n << 60n;

/** val(p)·a, floored: quote worth of `a` base at `p` (for building pools near a price). */
function worth(a: bigint, p: Price): bigint {
  const x = a * BigInt(p.mantissa),
    s = p.exponent - 79;
  return s >= 0 ? x << BigInt(s) : x >> BigInt(-s);
}

/** A random limit within a few grid exponents of `e0`, sometimes from a small set (shared levels). */
function randomLimit(rng: XorShift, e0: number, shared: Price[]): Price {
  if (shared.length > 0 && rng.chance(0.4)) return shared[rng.below(shared.length)];
  const e = Math.max(0, Math.min(127, e0 + rng.below(3) - 1));
  return makePrice(0x8000 + rng.below(0x8000), e)!;
}

/**
 * A random book and pool: prices anywhere on the grid, pools empty, one-sided, tiny or deep near
 * the book's prices, amounts from 1 unit to ~2^50, shared price levels, 0–12 orders per side.
 */
export function randomCase(rng: XorShift): { pool: { base: bigint; quote: bigint }; orders: Order[] } {
  const e0 = rng.chance(0.7) ? 50 + rng.below(30) : rng.below(128);
  const ref = makePrice(0x8000 + rng.below(0x8000), e0)!;
  let pool = { base: 0n, quote: 0n };
  const kind = rng.below(10);
  if (kind === 1) pool = { base: rng.bits(40) + 1n, quote: 0n };
  else if (kind === 2) pool = { base: 0n, quote: rng.bits(40) + 1n };
  else if (kind >= 3) {
    const base = rng.bits(56) + 1n,
      quote = worth(base, ref);
    pool = { base, quote: quote >= U60 ? U60 : quote };
  }
  const shared = Array.from({ length: rng.below(4) }, () => randomLimit(rng, e0, []));
  const amount = () => (rng.chance(0.3) ? rng.bits(12) : rng.bits(50)) + 1n;
  const orders: Order[] = [];
  let id = 1 + rng.below(1000);
  const nb = rng.below(13),
    ns = rng.below(13);
  for (let i = 0; i < nb + ns; i++) {
    const isBuy = i < nb;
    orders.push({ id: BigInt(id), isBuy, limit: randomLimit(rng, e0, shared), remaining: amount() });
    id += 1 + rng.below(3);
  }
  // placement order is not priority order: shuffle
  for (let i = orders.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [orders[i], orders[j]] = [orders[j], orders[i]];
  }
  return { pool, orders };
}
