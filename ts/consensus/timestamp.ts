// Timestamp rules for a new block (consensus.md §5.3). The local clock is an argument; rule 4 is the
// only non-deterministic one (a block failing only it may become valid later). R's "no time drop"
// rule never triggers and is not a rule of the chain.
import { fail } from '../core/errors.js';
import { FUTURE_TOLERANCE, MEDIAN_N } from './params.js';

const MEDIAN_RANK = 26; // at least 26 of the 50 previous timestamps must be ≤ t

/**
 * The smallest timestamp the median rule allows after `previous` (the timestamps of the up to 50
 * blocks before the new one, in any order; missing ones near the chain start count as 0): the
 * 26th smallest of the 50.
 */
export function medianRuleMinimum(previous: readonly number[]): number {
  const last = previous.slice(-MEDIAN_N);
  const all = new Float64Array(MEDIAN_N); // zeros in front; a typed array sorts numerically, fast (header sync runs this per header)
  all.set(last, MEDIAN_N - last.length);
  return all.sort()[MEDIAN_RANK - 1];
}

/**
 * t ≥ medianRuleMinimum(previous), counted instead of sorted (header sync checks it per header):
 * at least 26 of the 50 timestamps, missing ones as 0, are ≤ t.
 */
function passesMedianRule(t: number, previous: readonly number[]): boolean {
  const from = Math.max(0, previous.length - MEDIAN_N);
  let atMost = MEDIAN_N - (previous.length - from);
  for (let i = from; i < previous.length; i++) if (previous[i] <= t) atMost++;
  return atMost >= MEDIAN_RANK;
}

/** The smallest timestamp satisfying rules 1–3. */
export function minimumTimestamp(previous: readonly number[], retargetFloorTimestamp: number): number {
  return Math.max(1, medianRuleMinimum(previous), retargetFloorTimestamp + 1);
}

export interface TimestampContext {
  /** Timestamps of the blocks before the new one (at least the last 50 when the chain has them). */
  previous: readonly number[];
  /** Timestamp of block rf(h − 1), the latest retarget block below (0 for h = 1). */
  retargetFloorTimestamp: number;
  /** Local clock in Unix seconds; rule 4 is skipped when omitted. */
  now?: number;
}

/** Rules 1–3 fail with ETIMESTAMP, rule 4 (more than 10 minutes ahead) with ECLOCKTOLERANCE. */
export function checkTimestamp(t: number, ctx: TimestampContext): void {
  if (t === 0) fail('ETIMESTAMP', 'zero timestamp');
  if (!passesMedianRule(t, ctx.previous)) fail('ETIMESTAMP', 'below the median of the last 50 blocks');
  if (t <= ctx.retargetFloorTimestamp) fail('ETIMESTAMP', 'not after the latest retarget block');
  if (ctx.now !== undefined && t > ctx.now + FUTURE_TOLERANCE) fail('ECLOCKTOLERANCE', `${t - ctx.now} s in the future`);
}
