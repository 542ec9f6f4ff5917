// Fork ranges (p2p.md §3.2): [lower, upper] brackets the first height at which two chains differ:
// every height below `lower` is equal, at `upper` they differ (or one of them has ended there).
// Pure: the grids give the first range, probes narrow it, the "balanced" rule says when to stop.
import { fail } from '../core/errors.js';
import { equalBytes } from '../core/hex.js';
import { BATCH_SIZE } from './protocol.js';

export interface ForkRange {
  lower: number;
  upper: number;
}

/** Binary search over the common grid slots for the first differing one. */
export function gridForkRange(ourGrid: (slot: number) => Uint8Array, ourLength: number, theirGrid: Uint8Array[], theirLength: number): ForkRange {
  const common = Math.min(Math.floor(ourLength / BATCH_SIZE), theirGrid.length);
  let lo = 0,
    hi = common; // slots < lo are equal; slot hi differs (or hi = common)
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (equalBytes(ourGrid(mid), theirGrid[mid])) lo = mid + 1;
    else hi = mid;
  }
  if (lo < common) return { lower: lo * BATCH_SIZE + 1, upper: (lo + 1) * BATCH_SIZE };
  return { lower: common * BATCH_SIZE + 1, upper: Math.min(ourLength, theirLength) + 1 };
}

/** A probe at `height`: a match moves `lower` above it, a mismatch moves `upper` to it. */
export function applyProbe(r: ForkRange, height: number, match: boolean): ForkRange {
  if (match) {
    if (height >= r.upper) fail('EBADMATCH', `match at ${height}, known mismatch at ${r.upper}`);
    return { lower: height + 1, upper: r.upper };
  }
  if (height < r.lower) fail('EBADMISMATCH', `mismatch at ${height}, known match below ${r.lower}`);
  return { lower: r.lower, upper: height };
}

/**
 * The "balanced" rule for a download up to `bound`: download when (bound + 1 − lower) < 20 or
 * 2·(upper − lower) < (bound + 1 − lower); otherwise probe at the returned midpoint.
 */
export function probeHeight(r: ForkRange, bound: number): number | null {
  const span = bound + 1 - r.lower;
  if (span < 20 || 2 * (r.upper - r.lower) < span) return null;
  return r.lower + Math.floor((r.upper - r.lower) / 2);
}
