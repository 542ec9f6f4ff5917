// Hashrate estimate (http-api-details.md §5.9): the work of blocks lower+1 … h divided by the time
// between blocks lower and h, lower = max(1, h − n); 2^64 − 1 when timestamps do not increase.
import { U64_MAX } from '../core/amount.js';
import type { Chain } from './chain.js';

export function hashrateAt(chain: Chain, h: number, n: number): bigint {
  if (h < 2) return 0n;
  const lower = Math.max(1, h - n);
  const dt = chain.timestampAt(h) - chain.timestampAt(lower);
  if (dt <= 0) return U64_MAX;
  const rate = (chain.worksumAt(h) - chain.worksumAt(lower)) / BigInt(dt);
  return rate > U64_MAX ? U64_MAX : rate;
}
