// Order limits as consensus reads them. A block's order carries any 3 bytes as its limit: the
// reference 0.10.3 reads mantissa (u16, big-endian) and exponent (u8) without a check
// (price.cpp:4), matches the order with those raw values, and stores it. Its store validates on
// reading (type_conv.hpp:123): an order whose limit is no grid price (m < 0x8000 or e > 127) makes
// every later read of it throw, and the reference exits. Our mempool and API refuse such limits
// (exchange.md §4.1); blocks carry them.
import { fail } from '../core/errors.js';
import type { Price } from '../kernel/price.js';

const hex2 = (b: number): string => b.toString(16).padStart(2, '0');

/** The limit exactly as the 3 bytes give it, valid grid price or not. */
export function rawLimit(bytes: Uint8Array): Price {
  if (bytes.length !== 3) fail('EBUG', `a limit is 3 bytes, got ${bytes.length}`);
  return { mantissa: (bytes[0] << 8) | bytes[1], exponent: bytes[2], hex: hex2(bytes[0]) + hex2(bytes[1]) + hex2(bytes[2]) };
}

/** Whether the limit is a grid price (§4.1): what the reference's store accepts when reading. */
export function isGridPrice(p: Price): boolean {
  return p.mantissa >= 0x8000 && p.mantissa <= 0xffff && p.exponent >= 0 && p.exponent <= 127;
}

/** An order's limit read back from the store: the reference exits on a limit that is no grid price. */
export function storedLimit(bytes: Uint8Array): Price {
  const p = rawLimit(bytes);
  if (!isGridPrice(p)) fail('EREFABORT', `stored order limit ${p.hex} is no valid price`);
  return p;
}
