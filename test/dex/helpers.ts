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
  constructor(seed: bigint) { this.s = BigInt.asUintN(64, seed) || 1n; }
  next(): bigint {
    let x = this.s;
    x = BigInt.asUintN(64, x ^ (x << 13n));
    x ^= x >> 7n;
    x = BigInt.asUintN(64, x ^ (x << 17n));
    return (this.s = x);
  }
  /** Uniform in [0, n) for n ≥ 1 (a negligible modulo bias is fine for tests). */
  below(n: number): number { return Number(this.next() % BigInt(n)); }
  /** Uniform in [0, n). */
  belowBig(n: bigint): bigint { return this.next() % n; }
  /** An integer of a random bit length up to `bits` (spreads values over magnitudes). */
  bits(bits: number): bigint { return this.next() >> BigInt(64 - 1 - this.below(bits)) ; }
  chance(p: number): boolean { return this.below(1_000_000) < p * 1_000_000; }
}
