// Block reward and supply (consensus.md §5.4): 3 coins, halved every 3,153,600 blocks.
import { MAX_COIN_SUPPLY } from '../core/amount.js';

export { MAX_COIN_SUPPLY };
export const BASE_REWARD = 300_000_000n;
export const HALVING_INTERVAL = 3_153_600;

/** reward(h) = floor(3 coins / 2^k), k = floor((h − 1) / 3,153,600); 0 from k = 64 on (R undefined). */
export function blockReward(h: number): bigint {
  if (h < 1) return 0n;
  const k = Math.floor((h - 1) / HALVING_INTERVAL);
  return k >= 64 ? 0n : BASE_REWARD >> BigInt(k);
}

/** The most a block's reward entry may claim: reward(h) plus all fees of the block. */
export function maxRewardClaim(h: number, totalFees: bigint): bigint {
  return blockReward(h) + totalFees;
}

/** Σ reward(1..h): the supply minted through height h if every block claimed its full subsidy. */
export function scheduledSupply(h: number): bigint {
  let total = 0n;
  for (let k = 0, start = 1; start <= h && k < 64; k++, start += HALVING_INTERVAL) {
    const end = Math.min(h, start + HALVING_INTERVAL - 1);
    total += BigInt(end - start + 1) * (BASE_REWARD >> BigInt(k));
  }
  return total;
}
