// The Mempool's bookkeeping (exchange.md §12.3): replacement, eviction of an account's cheaper
// transactions, capacity pruning (lowest fee, oldest first) and the reservation sums.
import { describe, expect, it } from 'vitest';
import { NodeError } from '../../ts/core/errors.js';
import { Mempool } from '../../ts/mempool/mempool.js';
import type { PendingTx } from '../../ts/mempool/pending.js';

let n = 0;
function tx(originId: bigint, nonceId: number, feeCode: number, amount: bigint): PendingTx {
  const hash = new Uint8Array(32);
  new DataView(hash.buffer).setUint32(0, ++n);
  return {
    hash,
    payload: { type: 'coinTransfer', toAddress: new Uint8Array(20), amount },
    originId,
    originAddress: new Uint8Array(20),
    pinHeight: 0,
    pinHash: new Uint8Array(32),
    nonceId,
    feeCode,
    feeE8: BigInt(feeCode),
    signature: new Uint8Array(65),
  };
}
const free = (v: bigint) => () => v;
const code = (e: unknown) => (e instanceof NodeError ? e.code : -1);

describe('Mempool', () => {
  it('reserves amount + fee and refuses what the free balance cannot cover', () => {
    const m = new Mempool();
    m.insert(tx(1n, 1, 100, 1000n), free(2000n));
    expect(m.reserved(1n, 0n)).toBe(1100n);
    expect(() => m.insert(tx(1n, 2, 50, 1000n), free(2000n))).toThrow(NodeError);
    expect(m.size).toBe(1);
    expect(m.reserved(1n, 0n)).toBe(1100n);
  });

  it("refuses another account's transaction with a pending txHash (EREFABORT), changing nothing", () => {
    const m = new Mempool();
    const a = tx(1n, 1, 100, 10n);
    m.insert(a, free(10_000n));
    const twin = { ...tx(2n, 1, 100, 10n), hash: a.hash };
    try {
      m.insert(twin, free(10_000n));
      expect.unreachable();
    } catch (e) {
      expect(code(e)).toBe(2002);
    }
    expect(m.size).toBe(1);
    expect(m.byTxHash(a.hash)).toBe(a);
    expect(m.reserved(2n, 0n)).toBe(0n);
  });

  it('replaces the same id only for a strictly higher fee', () => {
    const m = new Mempool();
    m.insert(tx(1n, 1, 100, 10n), free(10_000n));
    let err: unknown;
    try {
      m.insert(tx(1n, 1, 100, 20n), free(10_000n));
    } catch (e) {
      err = e;
    }
    expect(code(err)).toBe(26);
    const evicted = m.insert(tx(1n, 1, 101, 20n), free(10_000n));
    expect(evicted).toHaveLength(1);
    expect(m.all().map((t) => t.feeCode)).toEqual([101]);
    expect(m.reserved(1n, 0n)).toBe(121n);
  });

  it('evicts cheaper transactions of the same account, cheapest first, never pricier or others', () => {
    const m = new Mempool();
    m.insert(tx(1n, 1, 10, 400n), free(1000n)); // 410
    m.insert(tx(1n, 2, 20, 400n), free(1000n)); // 420
    m.insert(tx(2n, 1, 5, 400n), free(1000n)); // another account
    const evicted = m.insert(tx(1n, 3, 30, 500n), free(1000n)); // needs 530: drop the fee-10 one
    expect(evicted.map((t) => t.feeCode)).toEqual([10]);
    expect(m.ofAccount(1n).map((t) => t.feeCode)).toEqual([30, 20]);
    expect(m.ofAccount(2n)).toHaveLength(1);
    expect(() => m.insert(tx(1n, 4, 15, 600n), free(1000n))).toThrow(NodeError); // only pricier ones left
    expect(m.size).toBe(3);
  });

  it('prunes the lowest fee (oldest first) beyond capacity and reports the full threshold', () => {
    const m = new Mempool(3);
    expect(m.fullThreshold()).toBeNull();
    m.insert(tx(1n, 1, 7, 1n), free(1000n));
    m.insert(tx(2n, 1, 5, 1n), free(1000n));
    m.insert(tx(3n, 1, 5, 1n), free(1000n));
    expect(m.fullThreshold()).toBe(5);
    const out = m.insert(tx(4n, 1, 9, 1n), free(1000n));
    expect(out.map((t) => t.originId)).toEqual([2n]); // fee 5, the older one
    expect(m.all().map((t) => t.feeCode)).toEqual([9, 7, 5]);
    expect(m.reserved(2n, 0n)).toBe(0n);
    expect(m.removeBelow(8)).toBe(2);
    expect(m.size).toBe(1);
  });

  it('indexes what relay needs: by id key, the n highest in the order of all(), what entered since the last look', () => {
    const m = new Mempool();
    const fees = [5, 9, 5, 7, 9, 5, 3];
    fees.forEach((f, i) => m.insert(tx(BigInt(i + 1), 1, f, 1n), free(1000n)));
    for (const k of [0, 1, 3, 4, 7, 20]) expect(m.highest(k)).toEqual(m.all().slice(0, k));
    expect(m.byIdKey('2:0:1')?.feeCode).toBe(9);
    expect(m.byIdKey('2:0:2')).toBeUndefined();
    expect(m.takeAdded().map((t) => t.originId)).toEqual([1n, 2n, 3n, 4n, 5n, 6n, 7n]);
    expect(m.takeAdded()).toEqual([]);
    const replacement = tx(1n, 1, 6, 1n);
    m.insert(replacement, free(1000n));
    m.insert(tx(8n, 1, 4, 1n), free(1000n));
    m.remove(m.byIdKey('8:0:1')!);
    expect(m.takeAdded()).toEqual([replacement]); // the one that left meanwhile is not reported
  });

  it('fits reservations to new balances after a block', () => {
    const m = new Mempool();
    m.insert(tx(1n, 1, 10, 100n), free(1000n));
    m.insert(tx(1n, 2, 20, 100n), free(1000n));
    const out = m.fitToBalances(() => 150n);
    expect(out.map((t) => t.feeCode)).toEqual([10]);
    expect(m.reserved(1n, 0n)).toBe(120n);
  });

  // Each account's entries are kept in eviction order as they come and go (no sort per admission):
  // in a random run of admissions, evictions, capacity pruning and removals, every eviction is the
  // account's cheapest and oldest entries, as a sort of its pending entries at that moment gives.
  it('keeps each account in eviction order through a random run', () => {
    let seed = 7;
    const rnd = (k: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % k;
    };
    const m = new Mempool(60);
    const age = new Map<PendingTx, number>();
    let clock = 0;
    const cheaperFirst = (a: PendingTx, b: PendingTx) => a.feeCode - b.feeCode || age.get(a)! - age.get(b)!;
    for (let step = 0; step < 3000; step++) {
      const account = BigInt(1 + rnd(3));
      if (rnd(10) === 0 && m.size > 0) {
        const all = m.all();
        m.remove(all[rnd(all.length)]);
        continue;
      }
      const t = tx(account, rnd(1_000_000), 10 + rnd(40), BigInt(10 + rnd(200)));
      const before = m.ofAccount(account).sort(cheaperFirst);
      let evicted: PendingTx[];
      try {
        evicted = m.insert(t, free(2_000n));
      } catch {
        continue;
      }
      age.set(t, clock++);
      const ownEvicted = evicted.filter((e) => e.originId === account && e.nonceId !== t.nonceId);
      expect(ownEvicted.map((e) => age.get(e))).toEqual(before.slice(0, ownEvicted.length).map((e) => age.get(e)));
    }
    expect(m.size).toBeGreaterThan(0);
  });
});
