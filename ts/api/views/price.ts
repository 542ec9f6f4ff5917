// The interface `Price` object (http-api.md "Value types"; exchange.md §4.3).
import { hexStr, int, named, num, obj } from '../schema.js';

export const Price = named(
  'Price',
  obj({
    precExponent10: int,
    exponent2: int,
    mantissa: int,
    hex: hexStr(6),
    doubleAdjusted: num,
    doubleRaw: num,
  }),
);
