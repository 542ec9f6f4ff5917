// Exact liquidity-pool arithmetic from the kernel (exchange.md §6.2–§6.4): swaps with the 0.5 %
// fee, share minting on deposit, pro-rata withdrawal. All amounts are u64 bigints.
import { callWithBuffers, kernel, toI64 } from './instance.js';

interface PoolExports {
  pool_buy(base: bigint, quote: bigint, quoteIn: bigint, out: number): number;
  pool_sell(base: bigint, quote: bigint, baseIn: bigint, out: number): number;
  pool_deposit(base: bigint, quote: bigint, shares: bigint, baseIn: bigint, quoteIn: bigint, out: number): number;
  pool_withdraw(base: bigint, quote: bigint, shares: bigint, redeemed: bigint, out: number): number;
}

/** Base (asset) and quote (coin E8) reserves. */
export interface Reserves {
  base: bigint;
  quote: bigint;
}

/** A pool: reserves and the share total; a missing pool is all zero (§6.1). */
export interface PoolState extends Reserves {
  shares: bigint;
}

const U64_MAX = (1n << 64n) - 1n;

function u64(value: bigint, what: string): bigint {
  if (typeof value !== 'bigint' || value < 0n || value > U64_MAX) throw new RangeError(`${what} must be a u64 bigint, got ${String(value)}`);
  return toI64(value);
}

/** Runs an export that writes `n` little-endian u64s; null on a non-zero status. */
function run(n: number, fn: (x: PoolExports, out: number) => number): bigint[] | null {
  const x = kernel<PoolExports>();
  const { out, status } = callWithBuffers([], 8 * n, (_, o) => fn(x, o));
  if (status !== 0) return null;
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  return Array.from({ length: n }, (_, i) => view.getBigUint64(8 * i, true));
}

/**
 * poolBuy(x): `quoteIn` coin into the pool, base out (after the fee). An empty pool pays 0 and
 * keeps the input; a pool with quote 0 pays 99.5 % of its base. Null if the quote reserve would
 * exceed u64.
 */
export function poolBuy(pool: Reserves, quoteIn: bigint): { baseOut: bigint; after: Reserves } | null {
  const [b, q, i] = [u64(pool.base, 'base'), u64(pool.quote, 'quote'), u64(quoteIn, 'quoteIn')];
  const r = run(3, (x, o) => x.pool_buy(b, q, i, o));
  return r && { baseOut: r[0], after: { base: r[1], quote: r[2] } };
}

/** poolSell(y): `baseIn` asset into the pool, quote out (after the fee). Null if the base reserve would exceed u64. */
export function poolSell(pool: Reserves, baseIn: bigint): { quoteOut: bigint; after: Reserves } | null {
  const [b, q, i] = [u64(pool.base, 'base'), u64(pool.quote, 'quote'), u64(baseIn, 'baseIn')];
  const r = run(3, (x, o) => x.pool_sell(b, q, i, o));
  return r && { quoteOut: r[0], after: { base: r[1], quote: r[2] } };
}

/**
 * Liquidity deposit (§6.3): both amounts go into the pool. Minted = √(R_b·R_q) after the deposit
 * when the pool has no shares, else S·k1/k0 − S. Minting 0 is returned as such (the transaction
 * rules reject it). Null when a reserve or the share total would exceed u64, or the pool has
 * shares but a zero reserve product.
 */
export function poolDeposit(pool: PoolState, baseIn: bigint, quoteIn: bigint): { minted: bigint; after: PoolState } | null {
  const [b, q, s, bi, qi] = [u64(pool.base, 'base'), u64(pool.quote, 'quote'), u64(pool.shares, 'shares'), u64(baseIn, 'baseIn'), u64(quoteIn, 'quoteIn')];
  const r = run(4, (x, o) => x.pool_deposit(b, q, s, bi, qi, o));
  return r && { minted: r[0], after: { base: r[1], quote: r[2], shares: r[3] } };
}

/**
 * Liquidity withdrawal (§6.4) of `shares`: receives ⌊σ·R_b/S⌋ base and ⌊σ·R_q/S⌋ quote.
 * Null when σ > S or the pool has no shares.
 */
export function poolWithdraw(pool: PoolState, shares: bigint): { base: bigint; quote: bigint; after: PoolState } | null {
  const [b, q, s, redeemed] = [u64(pool.base, 'base'), u64(pool.quote, 'quote'), u64(pool.shares, 'shares'), u64(shares, 'shares redeemed')];
  const r = run(5, (x, o) => x.pool_withdraw(b, q, s, redeemed, o));
  return r && { base: r[0], quote: r[1], after: { base: r[2], quote: r[3], shares: r[4] } };
}
