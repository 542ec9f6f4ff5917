// The bounds-checked big-endian reader and the writer (consensus.md §0.2).
import { describe, expect, it } from 'vitest';
import { Reader, Writer } from '../../ts/core/bytes.js';
import { NodeError } from '../../ts/core/errors.js';
import { toHex } from '../../ts/core/hex.js';

const code = (f: () => unknown): number | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof NodeError ? e.code : -1;
  }
  return undefined;
};

describe('Writer', () => {
  it('writes big-endian integers and bytes', () => {
    const w = new Writer(2).u8(0xab).u16(0x1234).u32(0xdeadbeef).u64(0x0102030405060708n).bytes(Uint8Array.of(9, 10));
    expect(toHex(w.finish())).toBe('ab1234deadbeef0102030405060708090a');
    expect(w.length).toBe(17);
  });
  it('keeps every value written as the buffer grows, a u8 that fills it included', () => {
    for (let before = 0; before < 40; before++) {
      const w = new Writer(16).bytes(new Uint8Array(before).fill(7)).u8(0x5a).u16(0xbeef).u8(0x01);
      expect(toHex(w.finish())).toBe('07'.repeat(before) + '5abeef01');
    }
  });
  it('hands out bytes no later write changes, whether the capacity was exact or not', () => {
    for (const capacity of [16, 32]) {
      const w = new Writer(capacity).bytes(new Uint8Array(16).fill(1));
      const first = w.finish();
      w.u8(2);
      expect(toHex(first)).toBe('01'.repeat(16));
      expect(toHex(w.finish())).toBe('01'.repeat(16) + '02');
    }
  });
  it('reset starts over in the same buffer; written() is a view of what was written since', () => {
    const w = new Writer(8);
    w.u32(0x01020304).u32(5);
    expect([...w.written()]).toEqual([1, 2, 3, 4, 0, 0, 0, 5]);
    w.reset().u16(0x0a0b);
    expect([...w.written()]).toEqual([10, 11]);
    expect(w.length).toBe(2);
    w.reset().bytes(new Uint8Array(20).fill(7)); // grows past the capacity
    expect([...w.written()]).toEqual(new Array(20).fill(7));
  });

  it('writes the extremes of every width', () => {
    const w = new Writer()
      .u8(255)
      .u16(65535)
      .u32(2 ** 32 - 1)
      .u64((1n << 64n) - 1n);
    expect(toHex(w.finish())).toBe('ff'.repeat(15));
  });
  it('refuses values out of range and wrong sizes (EBUG)', () => {
    expect(code(() => new Writer().u8(256))).toBe(2000);
    expect(code(() => new Writer().u16(-1))).toBe(2000);
    expect(code(() => new Writer().u32(2 ** 32))).toBe(2000);
    expect(code(() => new Writer().u32(1.5))).toBe(2000);
    expect(code(() => new Writer().u64(1n << 64n))).toBe(2000);
    expect(code(() => new Writer().u64(-1n))).toBe(2000);
    expect(code(() => new Writer().bytes(new Uint8Array(3), 4))).toBe(2000);
  });
});

describe('Reader', () => {
  const bytes = Uint8Array.from([0xab, 0x12, 0x34, 0xde, 0xad, 0xbe, 0xef, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 1, 2]);
  it('reads what the writer wrote', () => {
    const r = new Reader(bytes);
    expect(r.u8()).toBe(0xab);
    expect(r.u16()).toBe(0x1234);
    expect(r.u32()).toBe(0xdeadbeef);
    expect(r.u64()).toBe(0xfffffffffffffffen);
    expect(r.remaining).toBe(2);
    expect(Array.from(r.bytes(2))).toEqual([1, 2]);
    expect(r.offset).toBe(17);
    r.end();
  });
  it('fails with EINV_BODY when reading past the end', () => {
    const r = new Reader(Uint8Array.of(1, 2, 3));
    expect(code(() => r.u32())).toBe(89);
    expect(r.offset).toBe(0); // nothing consumed
    expect(code(() => new Reader(new Uint8Array(7)).u64())).toBe(89);
    expect(code(() => new Reader(new Uint8Array(0)).u8())).toBe(89);
    expect(code(() => new Reader(new Uint8Array(4)).bytes(5))).toBe(89);
    expect(code(() => new Reader(new Uint8Array(4)).need(5))).toBe(89);
  });
  it('end() rejects trailing bytes with EEXCESSBYTES', () => {
    const r = new Reader(Uint8Array.of(1, 2));
    r.u8();
    expect(code(() => r.end())).toBe(190);
  });
  it('bytes() returns a copy', () => {
    const src = Uint8Array.of(1, 2, 3);
    const got = new Reader(src).bytes(3);
    src[0] = 9;
    expect(got[0]).toBe(1);
  });
});
