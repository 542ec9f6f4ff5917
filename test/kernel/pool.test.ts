// Pool math through the WASM kernel: exchange.md §6.5 worked example, swaps, the degenerate
// pools of §6.2, deposits, withdrawals and overflow reporting.
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { poolBuy, poolDeposit, poolSell, poolWithdraw } from '../../ts/kernel/pool.js';

const U64_MAX = (1n << 64n) - 1n;
const EMPTY = { base: 0n, quote: 0n, shares: 0n };

beforeAll(async () => {
  await initKernel();
});

describe('exchange.md §6.5 worked example', () => {
  it('Alice deposits, Bob deposits unbalanced, Bob withdraws', () => {
    const alice = poolDeposit(EMPTY, 100_000_000_000n, 50_000_000_000n)!;
    expect(alice.minted).toBe(70_710_678_118n);
    expect(alice.after).toEqual({ base: 100_000_000_000n, quote: 50_000_000_000n, shares: 70_710_678_118n });

    const bob = poolDeposit(alice.after, 10_000_000_000n, 10_000_000_000n)!;
    expect(bob.minted).toBe(10_529_705_928n);
    expect(bob.after).toEqual({ base: 110_000_000_000n, quote: 60_000_000_000n, shares: 81_240_384_046n });
    expect(poolDeposit(alice.after, 10_000_000_000n, 5_000_000_000n)!.minted).toBe(7_071_067_812n);

    const out = poolWithdraw(bob.after, 10_529_705_928n)!;
    expect([out.base, out.quote]).toEqual([14_257_289_224n, 7_776_703_213n]);
    expect(out.after.shares).toBe(70_710_678_118n);
    const rest = poolWithdraw(out.after, 70_710_678_118n)!;
    expect(rest.after).toEqual(EMPTY);
    expect(rest.base + out.base).toBe(110_000_000_000n);
  });
});

describe('swaps (§6.2)', () => {
  const pool = { base: 1_000_000n, quote: 2_000_000n };
  it('buy and sell with the 0.5 % fee', () => {
    expect(poolBuy(pool, 10_000n)).toEqual({ baseOut: 4_950n, after: { base: 995_050n, quote: 2_010_000n } });
    expect(poolSell(pool, 10_000n)).toEqual({ quoteOut: 19_701n, after: { base: 1_010_000n, quote: 1_980_299n } });
    expect(poolBuy(pool, 0n)).toEqual({ baseOut: 0n, after: pool });
    expect(poolSell(pool, 0n)).toEqual({ quoteOut: 0n, after: pool });
  });
  it('matches a bigint model and never lowers the product', () => {
    const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
    let s = 0x1234_5678n;
    const next = () => (s = (s * 6364136223846793005n + 1442695040888963407n) & U64_MAX);
    for (let i = 0; i < 300; i++) {
      const b = next() >> (next() % 64n),
        q = next() >> (next() % 64n),
        x = next() >> (next() % 64n);
      const buy = poolBuy({ base: b, quote: q }, x);
      if (q + x > U64_MAX) {
        expect(buy).toBeNull();
        continue;
      }
      const t = x === 0n ? b : ceilDiv(b * q, q + x);
      const want = x === 0n ? 0n : ((b - t) * 9950n) / 10000n;
      expect(buy!.baseOut).toBe(want);
      expect(buy!.after.base * buy!.after.quote >= b * q).toBe(true);
    }
  });
  it('degenerate pools', () => {
    expect(poolBuy({ base: 0n, quote: 0n }, 500n)).toEqual({ baseOut: 0n, after: { base: 0n, quote: 500n } });
    expect(poolSell({ base: 0n, quote: 0n }, 500n)).toEqual({ quoteOut: 0n, after: { base: 500n, quote: 0n } });
    expect(poolBuy({ base: 1_000n, quote: 0n }, 1n)).toEqual({ baseOut: 995n, after: { base: 5n, quote: 1n } });
    expect(poolBuy({ base: 1_000n, quote: 0n }, U64_MAX)!.baseOut).toBe(995n);
    expect(poolSell({ base: 0n, quote: 1_000n }, 1n)).toEqual({ quoteOut: 995n, after: { base: 1n, quote: 5n } });
    expect(poolSell({ base: 1_000n, quote: 0n }, 7n)).toEqual({ quoteOut: 0n, after: { base: 1_007n, quote: 0n } });
  });
  it('128-bit products and overflow', () => {
    const r = poolBuy({ base: U64_MAX, quote: 1n << 62n }, 1n << 62n)!;
    expect(r.baseOut).toBe((((1n << 63n) - 1n) * 9950n) / 10000n);
    expect(poolBuy({ base: 1n, quote: U64_MAX }, 1n)).toBeNull();
    expect(poolSell({ base: U64_MAX, quote: 1n }, 1n)).toBeNull();
  });
});

describe('deposits and withdrawals (§6.3, §6.4)', () => {
  it('first and one-sided deposits', () => {
    expect(poolDeposit(EMPTY, 1_000n, 0n)).toEqual({ minted: 0n, after: { base: 1_000n, quote: 0n, shares: 0n } });
    expect(poolDeposit({ base: 1_000n, quote: 0n, shares: 0n }, 0n, 4_000n)).toEqual({
      minted: 2_000n,
      after: { base: 1_000n, quote: 4_000n, shares: 2_000n },
    });
    expect(poolDeposit(EMPTY, U64_MAX, U64_MAX)!.minted).toBe(U64_MAX);
  });
  it('reports overflow and undefined cases', () => {
    expect(poolDeposit({ base: U64_MAX, quote: 1n, shares: 1n }, 1n, 0n)).toBeNull();
    expect(poolDeposit({ base: 1n, quote: 1n, shares: U64_MAX }, 3n, 3n)).toBeNull();
    expect(poolDeposit({ base: 0n, quote: 5n, shares: 3n }, 1n, 1n)).toBeNull();
    expect(poolWithdraw({ base: 1_000n, quote: 3_000n, shares: 7n }, 8n)).toBeNull();
    expect(poolWithdraw({ base: 5n, quote: 5n, shares: 0n }, 0n)).toBeNull();
  });
  it('withdrawal rounds in favour of the pool', () => {
    expect(poolWithdraw({ base: 1_000n, quote: 3_000n, shares: 7n }, 2n)).toEqual({
      base: 285n,
      quote: 857n,
      after: { base: 715n, quote: 2_143n, shares: 5n },
    });
    expect(poolWithdraw({ base: U64_MAX, quote: U64_MAX, shares: U64_MAX }, U64_MAX - 1n)!.base).toBe(U64_MAX - 1n);
  });
  it('validates u64 inputs', () => {
    expect(() => poolBuy({ base: -1n, quote: 0n }, 1n)).toThrow(RangeError);
    expect(() => poolSell({ base: 0n, quote: 0n }, 1n << 64n)).toThrow(RangeError);
    expect(() => poolDeposit({ base: 0n, quote: 0n, shares: 1 as unknown as bigint }, 1n, 1n)).toThrow(RangeError);
    expect(() => poolWithdraw(EMPTY, -1n)).toThrow(RangeError);
  });
});
