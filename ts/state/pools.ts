// Liquidity pools (exchange.md §6.1): one per asset; a missing pool is (0, 0, 0).
import { Reader, Writer } from '../core/bytes.js';
import type { PoolState } from '../kernel/pool.js';
import { poolKey } from '../store/keys.js';
import type { KeyReader, KeyWriter } from './ledger.js';

export const EMPTY_POOL: PoolState = { base: 0n, quote: 0n, shares: 0n };

export async function poolOf(s: KeyReader, assetId: bigint): Promise<PoolState> {
  const v = await s.get(poolKey(assetId));
  if (!v) return EMPTY_POOL;
  const r = new Reader(v);
  return { base: r.u64(), quote: r.u64(), shares: r.u64() };
}

/** Whether the asset's pool row exists (it is created the first time the pool is non-zero). */
export async function hasPool(s: KeyReader, assetId: bigint): Promise<boolean> {
  return (await s.get(poolKey(assetId))) !== undefined;
}

/** Stores the pool; the row is created the first time any of the three is non-zero. */
export async function setPool(s: KeyWriter, assetId: bigint, p: PoolState): Promise<void> {
  const exists = (await s.get(poolKey(assetId))) !== undefined;
  if (!exists && p.base === 0n && p.quote === 0n && p.shares === 0n) return;
  await s.put(poolKey(assetId), new Writer(24).u64(p.base).u64(p.quote).u64(p.shares).finish());
}
