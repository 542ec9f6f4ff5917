// Matching throughput (exchange.md §8): one asset with 10,000 open orders on each side, limits
// spread ±5 % around the pool price, matched against a deep pool. A block's work is building the
// book (sort, levels), the clearing search and the settlement (median over 20 books); prints
// plain `dex …` lines.
import { initKernel } from '../ts/kernel/instance.js';
import { makePrice, type Price } from '../ts/kernel/price.js';
import { buildBook, type Order } from '../ts/dex/book.js';
import { matchBook } from '../ts/dex/matching.js';

const ORDERS_PER_SIDE = 10_000;
const BLOCKS = 20;
const UNIT = 100_000_000n; // 8-decimal asset: raw price = coin per unit

/** A fixed-seed xorshift32 in [0, 1): reproducible books. */
function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

/** The grid price at or below raw value v (> 0), m·2^(e−79) with m in [2^15, 2^16). */
function gridPrice(v: number): Price {
  const e = Math.floor(Math.log2(v)) - 15 + 79;
  let m = Math.floor(v * 2 ** (79 - e));
  if (m > 0xffff) m = 0xffff;
  return makePrice(Math.max(m, 0x8000), e)!;
}

function randomBook(seed: number): Order[] {
  const rnd = prng(seed);
  const orders: Order[] = [];
  let id = 1n;
  for (let i = 0; i < 2 * ORDERS_PER_SIDE; i++) {
    const isBuy = i % 2 === 0;
    const limit = gridPrice(1 + (rnd() - 0.5) * 0.1); // pool price 1.0 ± 5 %
    const units = BigInt(1 + Math.floor(rnd() * 1000));
    orders.push({ id: id++, isBuy, limit, remaining: units * UNIT }); // buys: coin, sells: units (price ≈ 1)
  }
  return orders;
}

export async function benchDex(): Promise<void> {
  await initKernel();
  const pool = { base: 10_000_000n * UNIT, quote: 10_000_000n * UNIT };
  const books = Array.from({ length: BLOCKS + 3 }, (_, i) => randomBook(1000 + i));
  for (const orders of books.slice(BLOCKS)) matchBook(pool, buildBook(orders)); // warm-up (JIT tiers)

  let matched = 0;
  const times: number[] = [];
  for (const orders of books.slice(0, BLOCKS)) {
    const t0 = performance.now();
    const r = matchBook(pool, buildBook(orders));
    times.push(performance.now() - t0);
    matched += r.buySwaps.length + r.sellSwaps.length;
  }
  const ms = times.sort((a, b) => a - b)[BLOCKS >> 1]; // median: robust to other load on the machine
  console.log(`dex matching ms/block (10,000 orders per side): ${ms.toFixed(1)}`);
  console.log(`dex orders matched/block: ${Math.round(matched / BLOCKS)}`);
  console.log(`dex orders matched/s: ${Math.round(((matched / BLOCKS) * 1000) / ms)}`);
}
