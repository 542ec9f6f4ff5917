import { describe, expect, it } from 'vitest';
import { ByteRing } from '../../ts/core/byte_ring.js';

const rec = (b: number) => Uint8Array.of(b, b + 1, b + 2);

describe('ByteRing', () => {
  it('keeps the newest `capacity` records, the oldest written first out', () => {
    const r = new ByteRing<string>(3, 3);
    for (const [k, b] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      r.set(k, rec(b));
    expect(r.size).toBe(3);
    r.set('d', rec(4));
    expect(r.get('a')).toBeUndefined();
    expect([...(r.get('b') ?? [])]).toEqual([2, 3, 4]);
    expect([...(r.get('d') ?? [])]).toEqual([4, 5, 6]);
    expect(r.size).toBe(3);
  });

  it('writes a record again as the newest; its old slot is overwritten in turn without losing it', () => {
    const r = new ByteRing<number>(3, 3);
    r.set(1, rec(10));
    r.set(2, rec(20));
    r.set(1, rec(30)); // slot 0 orphaned, 1 moves to slot 2
    expect(r.size).toBe(2);
    r.set(3, rec(40)); // overwrites the orphaned slot 0: nothing is lost
    expect([...(r.get(1) ?? [])]).toEqual([30, 31, 32]);
    expect([...(r.get(2) ?? [])]).toEqual([20, 21, 22]);
    r.set(4, rec(50)); // overwrites slot 1: 2 goes
    expect(r.get(2)).toBeUndefined();
    expect([...(r.get(1) ?? [])]).toEqual([30, 31, 32]);
    expect(r.size).toBe(3);
  });

  it('joins the parts of a record, and refuses a record of another size without changing anything', () => {
    const r = new ByteRing<string>(2, 4);
    r.set('x', Uint8Array.of(1), Uint8Array.of(2, 3, 4));
    expect([...(r.get('x') ?? [])]).toEqual([1, 2, 3, 4]);
    expect(() => r.set('y', Uint8Array.of(1, 2, 3))).toThrow(RangeError);
    expect(() => r.set('x', new Uint8Array(5))).toThrow(RangeError);
    expect(r.get('y')).toBeUndefined();
    expect([...(r.get('x') ?? [])]).toEqual([1, 2, 3, 4]);
    expect(r.size).toBe(1);
  });
});
