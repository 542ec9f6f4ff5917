// The explorer's number formatting: exact grid prices, exact or marked ratios, doubles of integer
// amounts given back exactly, no binary-float noise.
import { describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { parsePrice } from '../../ts/kernel/price.js';
import { amountStr, comparePriceHex, decimalStr, priceStr, ratioPrice, smallestUnits, utc } from '../../ts/web/format.js';

await initKernel();

describe('explorer number formatting', () => {
  it('prints grid prices as their exact decimal', () => {
    expect(priceStr(parsePrice('0.4', 2)!.floor, 2)).toBe('0.4');
    expect(priceStr({ hex: 'c35050' }, 2)).toBe('0.1'); // doubleAdjusted 0.09999999999999999
    expect(priceStr({ hex: 'dbba52' }, 2)).toBe('0.45'); // doubleAdjusted 0.44999999999999996
    expect(priceStr(parsePrice('2.5', 2)!.floor, 2)).toBe('2.499968'); // the grid's price below 2.5
    expect(priceStr(parsePrice('0.25', 2)!.floor, 2)).toBe('0.25');
    expect(() => priceStr({ hex: 'zz' }, 2)).toThrow();
  });

  it('orders grid prices by value', () => {
    const p = (t: string) => parsePrice(t, 2)!.floor.hex;
    expect(['2.5', '0.1', '0.45', '1'].map(p).sort(comparePriceHex)).toEqual(['0.1', '0.45', '1', '2.5'].map(p));
  });

  it('prints ratios of amounts exactly, or to 10 significant digits marked with \u2248', () => {
    // 200 coin against 400.00 of a 2-decimal asset: 0.5 coin per unit.
    expect(ratioPrice(20_000_000_000n, 40_000n, 2)).toBe('0.5');
    expect(ratioPrice(834_105_501n, 1_784n, 2)).toBe('≈ 0.4675479266');
  });

  it('reads the API\u2019s decimal texts', () => {
    expect(smallestUnits('14.60', 2)).toBe(1460n);
    expect(smallestUnits('0.99999999', 8)).toBe(99_999_999n);
    expect(smallestUnits('21000', 0)).toBe(21000n);
    expect(smallestUnits('0', 8)).toBe(0n);
    expect(decimalStr('0.4')).toBe('0.4');
    expect(decimalStr('0.485365853658536585')).toBe('≈ 0.4853658537');
    expect(decimalStr('1234.5')).toBe('1234.5');
  });

  it('drops the reference formatter\u2019s trailing dot and prints times in UTC', () => {
    expect(amountStr({ str: '21000.' })).toBe('21000');
    expect(amountStr({ str: '12.34567890' })).toBe('12.34567890');
    expect(utc(1795647525)).toBe('2026-11-25 22:58:45 UTC');
  });
});
