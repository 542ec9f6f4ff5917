// Reward schedule and supply (consensus.md §5.4).
import { describe, expect, it } from 'vitest';
import { BASE_REWARD, HALVING_INTERVAL, MAX_COIN_SUPPLY, blockReward, maxRewardClaim, scheduledSupply } from '../../ts/consensus/reward.js';

describe('block reward', () => {
  it('3 coins until the first halving at 3,153,601', () => {
    expect(blockReward(1)).toBe(300_000_000n);
    expect(blockReward(3_153_600)).toBe(300_000_000n);
    expect(blockReward(3_153_601)).toBe(150_000_000n);
    expect(blockReward(6_307_200)).toBe(150_000_000n);
    expect(blockReward(6_307_201)).toBe(75_000_000n);
  });
  it('floors after many halvings and is 0 from the 64th on', () => {
    expect(blockReward(1 + 29 * HALVING_INTERVAL)).toBe(0n); // 3e8 / 2^29 < 1
    expect(blockReward(1 + 28 * HALVING_INTERVAL)).toBe(1n);
    expect(blockReward(1 + 64 * HALVING_INTERVAL)).toBe(0n);
    expect(blockReward(0)).toBe(0n);
  });
  it('the claim limit adds the fees', () => {
    expect(maxRewardClaim(1, 12_345n)).toBe(300_012_345n);
  });
});

describe('supply', () => {
  it('MAX_COIN_SUPPLY = 2·BASE_REWARD·HALVING_INTERVAL', () => {
    expect(MAX_COIN_SUPPLY).toBe(2n * BASE_REWARD * BigInt(HALVING_INTERVAL));
  });
  it('sums the schedule exactly and stays below the maximum', () => {
    expect(scheduledSupply(0)).toBe(0n);
    expect(scheduledSupply(10)).toBe(3_000_000_000n);
    expect(scheduledSupply(HALVING_INTERVAL + 1)).toBe(BASE_REWARD * BigInt(HALVING_INTERVAL) + 150_000_000n);
    let all = 0n;
    for (let k = 0n; k < 64n; k++) all += (BASE_REWARD >> k) * BigInt(HALVING_INTERVAL);
    expect(scheduledSupply(70 * HALVING_INTERVAL)).toBe(all);
    expect(all < MAX_COIN_SUPPLY).toBe(true);
  });
});
