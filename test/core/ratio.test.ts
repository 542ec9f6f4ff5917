// Quotients of integer amounts as decimal text (core/ratio.ts): exact where the quotient has at
// most the digits asked for, rounded half up beyond, never through a double.
import { describe, expect, it } from 'vitest';
import { ratioDecimal, unitPrice } from '../../ts/core/ratio.js';

describe('ratioDecimal', () => {
  it('divides integers exactly, or rounds to the significant digits asked for and says so', () => {
    expect(ratioDecimal(1n, 4n, 10)).toEqual({ text: '0.25', exact: true });
    expect(ratioDecimal(2n, 3n, 10)).toEqual({ text: '0.6666666667', exact: false });
    expect(ratioDecimal(1n, 3000n, 10)).toEqual({ text: '0.0003333333333', exact: false });
    expect(ratioDecimal(123456789012n, 1n, 10)).toEqual({ text: '123456789012', exact: true });
    expect(ratioDecimal(0n, 7n, 10)).toEqual({ text: '0', exact: true });
    expect(ratioDecimal(1n, 0n, 10)).toBeNull();
    expect(ratioDecimal(2n, 3n, 18)).toEqual({ text: '0.666666666666666667', exact: false });
  });
});

describe('unitPrice', () => {
  it('gives coins per whole asset unit of a coin E8 amount against smallest asset units', () => {
    // 0.4 coin for 1.00 of a 2-decimal asset: no 0.39999999999999997.
    expect(unitPrice(40_000_000n, 100n, 2, 18)).toEqual({ text: '0.4', exact: true });
    // 1 E8 against 3 units of a 0-decimal asset.
    expect(unitPrice(1n, 3n, 0, 18)).toEqual({ text: '0.00000000333333333333333333', exact: false });
    // 18 decimals: 1 coin against 10^18 smallest units is 1 coin per unit.
    expect(unitPrice(100_000_000n, 10n ** 18n, 18, 18)).toEqual({ text: '1', exact: true });
  });
});
