// The hex codec (ts/core/hex.ts) against Node's own, at every length the node writes: empty, a hash,
// a transaction, and beyond the reused scratch buffer (4,096 bytes).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromHex, fromHexExact, toHex } from '../../ts/core/hex.js';

describe('toHex', () => {
  it('writes what Buffer writes, lowercase, for every byte value and length', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(toHex(all)).toBe(Buffer.from(all).toString('hex'));
    for (const n of [0, 1, 20, 32, 65, 99, 4095, 4096, 4097, 100_000]) {
      const b = randomBytes(n);
      expect(toHex(b)).toBe(b.toString('hex'));
      // A view into a larger buffer: only its own bytes.
      const view = new Uint8Array(b.buffer, b.byteOffset + Math.min(1, n), Math.max(0, n - 1));
      expect(toHex(view)).toBe(Buffer.from(view).toString('hex'));
    }
  });

  it('one result does not change when the next is written (the scratch buffer is reused)', () => {
    const a = toHex(Uint8Array.of(1, 2, 3));
    const b = toHex(Uint8Array.of(0xff, 0xee, 0xdd, 0xcc));
    expect([a, b]).toEqual(['010203', 'ffeeddcc']);
  });

  it('round-trips through fromHex; fromHex refuses what is no hex', () => {
    const b = randomBytes(32);
    expect(fromHexExact(toHex(b), 32)).toEqual(new Uint8Array(b));
    expect(fromHex(toHex(b).toUpperCase())).toEqual(new Uint8Array(b));
    for (const bad of ['0', 'zz', '0x00', ' 00']) expect(fromHex(bad)).toBeNull();
  });
});
