// The 16-bit fee codec through the WASM kernel: reference vectors (vectors/fee16.json), the table
// of consensus.md §11.8, closest rounding with ties, and input validation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FEE16_MAX_E8, fee16Decode, fee16Encode, fee16IsExact } from '../../ts/kernel/fee16.js';
import { initKernel } from '../../ts/kernel/instance.js';

interface Fee16Case {
  inputE8: bigint;
  roundedDownE8: bigint;
  code16: number;
}

// u64 values exceed 2^53: read the numbers as text so none is rounded through a double.
function loadCases(): Fee16Case[] {
  const text = readFileSync(join(import.meta.dirname, '../vectors/fee16.json'), 'utf8');
  const json = JSON.parse(text.replace(/("(?:inputE8|roundedDownE8)":\s*)(\d+)/g, '$1"$2"'));
  return json.cases.map((c: Record<string, string | number>) => ({
    inputE8: BigInt(c.inputE8),
    roundedDownE8: BigInt(c.roundedDownE8),
    code16: Number(c.code16),
  }));
}

beforeAll(async () => {
  await initKernel();
});

describe('fee16 reference vectors', () => {
  const cases = loadCases();
  it('has all 149 cases', () => expect(cases.length).toBe(149));
  it.each(cases.map((c) => [c.inputE8.toString(), c] as const))('%s', (_, c) => {
    expect(fee16Encode(c.inputE8, 'down')).toBe(c.code16);
    expect(fee16Decode(c.code16)).toBe(c.roundedDownE8);
    expect(fee16IsExact(c.inputE8)).toBe(c.inputE8 === c.roundedDownE8);
  });
});

describe('consensus.md §11.8', () => {
  const table: [bigint, number, bigint, number, bigint][] = [
    [0n, 0x0000, 1n, 0x0000, 1n],
    [1n, 0x0000, 1n, 0x0000, 1n],
    [1_023n, 0x27fe, 1_023n, 0x27fe, 1_023n],
    [1_024n, 0x2800, 1_024n, 0x2800, 1_024n],
    [2_049n, 0x2c00, 2_048n, 0x2c01, 2_050n],
    [5_002n, 0x30e2, 5_000n, 0x30e3, 5_004n],
    [9_992n, 0x34e1, 9_992n, 0x34e1, 9_992n],
    [100_000n, 0x421a, 99_968n, 0x421b, 100_032n],
    [1_000_448n, 0x4fa2, 1_000_448n, 0x4fa2, 1_000_448n],
  ];
  it.each(table)('%s', (v, dc, dv, uc, uv) => {
    expect(fee16Encode(v, 'down')).toBe(dc);
    expect(fee16Decode(dc)).toBe(dv);
    expect(fee16Encode(v, 'up')).toBe(uc);
    expect(fee16Decode(uc)).toBe(uv);
  });
  it('largest code', () => {
    expect(fee16Decode(0xffff)).toBe(18_437_736_874_454_810_624n);
    expect(FEE16_MAX_E8).toBe(18_437_736_874_454_810_624n);
    expect(fee16Encode((1n << 64n) - 1n, 'up')).toBe(0xffff);
    expect(fee16Encode(FEE16_MAX_E8 + 1n, 'up')).toBe(0xffff);
    expect(fee16Encode((1n << 64n) - 1n, 'down')).toBe(0xffff);
  });
});

describe("closest rounding (the contract's /tools/encode16bit)", () => {
  const closest = (v: bigint) => fee16Decode(fee16Encode(v, 'closest'));
  it.each([
    [0n, 1n],
    [1n, 1n],
    [2_047n, 2_047n],
    [2_049n, 2_050n],
    [2_051n, 2_052n],
    [4_098n, 4_100n],
    [5_002n, 5_004n],
    [100_000n, 100_032n], // ties → larger
    [4_097n, 4_096n],
    [4_099n, 4_100n],
    [5_001n, 5_000n],
    [5_003n, 5_004n],
    [99_999n, 99_968n],
    [100_001n, 100_032n],
    [1_000_448n, 1_000_448n],
    [(1n << 64n) - 1n, FEE16_MAX_E8],
  ])('%s → %s', (v, want) => expect(closest(v)).toBe(want));

  it('agrees with a bigint model on the vectors and around them', () => {
    for (const c of loadCases()) {
      for (const v of [c.inputE8, c.inputE8 + 1n, c.inputE8 > 0n ? c.inputE8 - 1n : 0n]) {
        if (v >= 1n << 64n) continue;
        const lo = fee16Decode(fee16Encode(v, 'down'));
        const hi = fee16Decode(fee16Encode(v, 'up'));
        const dist = (a: bigint) => (a > v ? a - v : v - a);
        expect(closest(v)).toBe(dist(lo) < dist(hi) ? lo : hi);
        expect(lo <= v || v === 0n).toBe(true);
        expect(hi >= v || v > FEE16_MAX_E8).toBe(true);
      }
    }
  });
});

describe('validation', () => {
  it('rejects values outside u64 and bad codes', () => {
    expect(() => fee16Encode(-1n, 'down')).toThrow(RangeError);
    expect(() => fee16Encode(1n << 64n, 'up')).toThrow(RangeError);
    expect(() => fee16Encode(5 as unknown as bigint, 'up')).toThrow(RangeError);
    expect(() => fee16Encode(5n, 'nearest' as never)).toThrow(RangeError);
    expect(() => fee16Encode(5n, 'toString' as never)).toThrow(RangeError);
    expect(() => fee16IsExact(-5n)).toThrow(RangeError);
    expect(() => fee16Decode(0x10000)).toThrow(RangeError);
    expect(() => fee16Decode(-1)).toThrow(RangeError);
    expect(() => fee16Decode(1.5)).toThrow(RangeError);
  });
  it('treats u64 values above 2^63 as unsigned', () => {
    expect(fee16Encode(1n << 63n, 'down')).toBe(64512);
    expect(fee16IsExact(1n << 63n)).toBe(true);
    expect(fee16IsExact(0n)).toBe(false);
  });
});
