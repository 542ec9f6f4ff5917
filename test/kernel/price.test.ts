// Limit prices through the WASM kernel: every case of vectors/prices.json (doubles compared
// exactly), exchange.md §4.1 table and §4.3 example, ordering, the text grammar and validation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import {
  limitView,
  makePrice,
  parsePrice,
  priceCompare,
  priceDecimal,
  priceDoubleAdjusted,
  priceDoubleRaw,
  priceFromBytes,
  priceFromHex,
  priceToBytes,
  priceView,
  type PriceView,
} from '../../ts/kernel/price.js';

interface PriceCase {
  price: string;
  decimals: string;
  error?: true;
  floor?: PriceView;
  ceil?: PriceView;
}

const cases: PriceCase[] = JSON.parse(readFileSync(join(import.meta.dirname, '../vectors/prices.json'), 'utf8')).cases;

/** The route's decimals rule: a base-10 integer (http-api-details.md §1.5), then 0..18. */
function decimalsOf(text: string): number | null {
  if (!/^\d+$/.test(text)) return null;
  const d = Number(text);
  return d <= 18 ? d : null;
}

beforeAll(async () => {
  await initKernel();
});

describe('vectors/prices.json', () => {
  it('has 80 answers and 19 refusals', () => {
    expect(cases.length).toBe(99);
    expect(cases.filter((c) => c.error).length).toBe(19);
  });
  it.each(cases.map((c) => [`${JSON.stringify(c.price)} / ${JSON.stringify(c.decimals)}`, c] as const))('%s', (_, c) => {
    const d = decimalsOf(c.decimals);
    const parsed = d === null ? null : parsePrice(c.price, d);
    if (c.error) {
      expect(parsed).toBeNull();
      return;
    }
    expect(parsed).not.toBeNull();
    const floor = priceView(parsed!.floor, d!),
      ceil = priceView(parsed!.ceil, d!);
    // toEqual uses Object.is on numbers: doubles must match bit for bit; key order as the contract
    expect(floor).toEqual(c.floor);
    expect(ceil).toEqual(c.ceil);
    expect(Object.keys(floor)).toEqual(['precExponent10', 'exponent2', 'mantissa', 'hex', 'doubleAdjusted', 'doubleRaw']);
    expect(JSON.stringify(floor)).toBe(JSON.stringify(c.floor));
    expect(priceCompare(parsed!.floor, parsed!.ceil)).toBeLessThanOrEqual(0);
  });
});

describe('exchange.md §4.1 and §4.3', () => {
  it.each([
    ['800040', 0x8000, 64, 1],
    ['c00040', 0xc000, 64, 1.5],
    ['a00040', 0xa000, 64, 1.25],
    ['c0003f', 0xc000, 63, 0.75],
    ['800041', 0x8000, 65, 2],
    ['c0e74d', 49383, 77, 12345.75],
  ] as const)('%s', (hex, m, e, raw) => {
    const p = priceFromHex(hex)!;
    expect(p).toEqual({ mantissa: m, exponent: e, hex });
    expect(priceFromHex(hex.toUpperCase())).toEqual(p);
    expect(priceDoubleRaw(p)).toBe(raw);
    expect(priceFromBytes(priceToBytes(p))).toEqual(p);
  });
  it('display values', () => {
    expect(priceDoubleAdjusted(priceFromHex('c0e74d')!, 4)).toBe(1.234575);
    expect(priceView(priceFromHex('fa0049')!, 4)).toEqual({
      precExponent10: 4,
      exponent2: -6,
      mantissa: 64000,
      hex: 'fa0049',
      doubleAdjusted: 0.1,
      doubleRaw: 1000,
    });
    // consensus.md §7.5's 0.123455 is the decimal value; the reference double is raw·1e−5
    expect(priceDoubleAdjusted(priceFromHex('c0e64d')!, 3)).toBe(12345.5 * 1e-5);
  });
});

describe('validity and order', () => {
  it('rejects invalid encodings', () => {
    expect(priceFromHex('7fff40')).toBeNull(); // mantissa without its top bit
    expect(priceFromHex('800080')).toBeNull(); // exponent 128
    expect(priceFromHex('80004')).toBeNull();
    expect(priceFromHex('80004g')).toBeNull();
    expect(priceFromBytes(Uint8Array.of(0x80, 0, 0x40, 0))).toBeNull();
    expect(makePrice(0x8000, 127)).not.toBeNull();
    expect(makePrice(0x10000, 0)).toBeNull();
    expect(makePrice(0x8000, -1)).toBeNull();
  });
  it('compares exponent first, then mantissa', () => {
    const a = priceFromHex('ffff3f')!,
      b = priceFromHex('800040')!,
      c = priceFromHex('800140')!;
    expect(priceCompare(a, b)).toBe(-1); // hex order would say the opposite
    expect(priceCompare(b, b)).toBe(0);
    expect(priceCompare(c, b)).toBe(1);
    expect(priceDoubleRaw(a) < priceDoubleRaw(b)).toBe(true);
  });
  it('range ends', () => {
    expect(priceDoubleRaw(makePrice(0x8000, 0)!)).toBe(2 ** -64);
    expect(priceDoubleRaw(makePrice(0xffff, 127)!)).toBe(65535 * 2 ** 48);
  });
  it('throws on misuse', () => {
    const bad = { mantissa: 1, exponent: 64, hex: '000140' };
    expect(() => priceDoubleRaw(bad)).toThrow(RangeError);
    expect(() => priceCompare(bad, bad)).toThrow(RangeError);
    expect(() => priceView(priceFromHex('800040')!, 19)).toThrow(RangeError);
    expect(() => parsePrice('1', 19)).toThrow(RangeError);
    expect(() => parsePrice('1', -1)).toThrow(RangeError);
    expect(() => parsePrice('1', 1.5)).toThrow(RangeError);
  });
});

describe('price text', () => {
  it.each(['1', '1.', '.5', '1e5', '1E5', '1e+5', '1e-15', '0001.50'])('accepts %s', (t) => {
    expect(parsePrice(t, 8)).not.toBeNull();
  });
  it.each([
    '',
    '.',
    '-1',
    '-0',
    '0',
    '+1',
    '+.5',
    '1e',
    '1.5.5',
    ' 1',
    '1 ',
    '%201',
    '0x10',
    '0x1p3',
    'inf',
    'Infinity',
    'nan',
    '1,5',
    'abc',
    '١',
    '1e-400',
    '1e400',
  ])('refuses %j', (t) => expect(parsePrice(t, 8)).toBeNull());
  it('floor and ceil around a carry', () => {
    const r = parsePrice((2 - 2 ** -52).toString(), 8)!;
    expect(r.floor).toEqual({ mantissa: 0xffff, exponent: 64, hex: 'ffff40' });
    expect(r.ceil).toEqual({ mantissa: 0x8000, exponent: 65, hex: '800041' });
    expect(parsePrice('2', 8)).toEqual({ floor: r.ceil, ceil: r.ceil });
  });
  it('range', () => {
    expect(parsePrice((65535 * 2 ** 48).toString(), 8)!.ceil.hex).toBe('ffff7f');
    expect(parsePrice('1e20', 8)).toBeNull();
    expect(parsePrice((2 ** -64).toExponential(), 8)).not.toBeNull();
    expect(parsePrice('5e-20', 8)).toBeNull();
  });
});

describe('priceDecimal: the exact decimal of a grid price', () => {
  it('prints what the double rounds, and nothing of its noise', () => {
    const cases: [string, number, string, number][] = [
      // hex, decimals, exact decimal, the double the API shows
      ['c35052', 2, '0.4', 0.39999999999999997],
      ['ea604e', 3, '0.3', 0.30000000000000004],
      ['89804a', 3, '0.011', 0.011000000000000001],
      ['88b850', 2, '0.07', 0.06999999999999999],
      ['c0e64d', 2, '0.0123455', 0.012345499999999999],
      ['dac14c', 3, '0.07000125', 0.07000125],
    ];
    for (const [hex, decimals, text, double] of cases) {
      const p = priceFromHex(hex)!;
      expect(priceDecimal(p, decimals), hex).toBe(text);
      expect(priceDoubleAdjusted(p, decimals), hex).toBe(double);
      // The decimal is the value itself: parsed back it gives the same grid price from either side.
      const back = parsePrice(text, decimals)!;
      expect([back.floor.hex, back.ceil.hex], hex).toEqual([hex, hex]);
    }
  });

  it('range ends: an integer and a fraction of 79 binary places, exactly', () => {
    expect(priceDecimal(priceFromHex('ffff7f')!, 8)).toBe((0xffffn << 48n).toString());
    const tiny = priceDecimal(priceFromHex('800000')!, 8); // 2^15·2^−79 = 2^−64
    expect(tiny).toBe('0.' + (5n ** 64n).toString().padStart(64, '0'));
    expect(priceDecimal(priceFromHex('800000')!, 18)).toBe(
      '0.' +
        (5n ** 64n)
          .toString()
          .padStart(64, '0')
          .replace(/^0{10}/, ''),
    );
  });
});

describe('limitView: a limit as a block may carry it', () => {
  it('a valid price is priceView; any other 3 bytes get the same formulas', () => {
    const valid = priceFromHex('c35052')!;
    expect(limitView(priceToBytes(valid), 2)).toEqual(priceView(valid, 2));
    // mantissa without its top bit, and an exponent byte above 127: the reference reads both unchecked.
    expect(limitView(Uint8Array.of(0x00, 0x03, 0x4f), 2)).toEqual({
      precExponent10: 6,
      exponent2: 0,
      mantissa: 3,
      hex: '00034f',
      doubleAdjusted: 3 * 1e-6,
      doubleRaw: 3,
    });
    expect(limitView(Uint8Array.of(0x80, 0x00, 0xc8), 8)).toMatchObject({ exponent2: 121, hex: '8000c8', doubleRaw: 2 ** 136 });
  });
});
