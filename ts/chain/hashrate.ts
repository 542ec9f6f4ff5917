// Hashrate estimate (http-api-details.md §5.9): the work of blocks lower+1 … h divided by the time
// between blocks lower and h, lower = max(1, h − n); 2^64 − 1 when timestamps do not increase.
import { U64_MAX } from '../core/amount.js';
import type { ChainReadState } from './read_view.js';

/** Work and seconds of the window ending at h; null before block 2, seconds ≤ 0 when time stood still. */
function window(chain: ChainReadState, h: number, n: number): { work: bigint; seconds: number } | null {
  if (h < 2) return null;
  const lower = Math.max(1, h - n);
  return { work: chain.worksumAt(h) - chain.worksumAt(lower), seconds: chain.timestampAt(h) - chain.timestampAt(lower) };
}

/** The integer estimate of `/chain/head` and `/chain/hashrate/:window`. */
export function hashrateAt(chain: ChainReadState, h: number, n: number): bigint {
  const w = window(chain, h, n);
  if (!w) return 0n;
  if (w.seconds <= 0) return U64_MAX;
  const rate = w.work / BigInt(w.seconds);
  return rate > U64_MAX ? U64_MAX : rate;
}

/** The unrounded estimate of the block chart (details §9.2: divided in floating point). */
export function hashrateDoubleAt(chain: ChainReadState, h: number, n: number): number {
  const w = window(chain, h, n);
  if (!w) return 0;
  return w.seconds <= 0 ? Number(U64_MAX) : Number(w.work) / w.seconds;
}

/**
 * The estimate as the reference 0.10.3 computes it for `/chain/head` and `/chain/hashrate/:window`
 * (its header chain's `hashrate_at`, commit 58031328): the window is the last n blocks up to h
 * (lower = h + 1 − n, at least 1) and `nBlocks` = h + 1 − lower; fewer than 2 blocks ⇒ null; if
 * time did not advance from lower to h ⇒ 2^64 − 1; else the work of blocks lower+1 … h, as a double,
 * divided by the seconds, truncated.
 */
export function hashrateWindowAt(chain: ChainReadState, h: number, n: number): { nBlocks: number; estimate: bigint } | null {
  const lower = h > n ? h + 1 - n : 1;
  const nBlocks = h + 1 - lower;
  if (h < 1 || nBlocks < 2) return null;
  const seconds = chain.timestampAt(h) - chain.timestampAt(lower);
  if (seconds <= 0) return { nBlocks, estimate: U64_MAX };
  const rate = Math.trunc(Number(chain.worksumAt(h) - chain.worksumAt(lower)) / seconds);
  return { nBlocks, estimate: rate >= 2 ** 64 ? U64_MAX : BigInt(rate) };
}
