// Timestamp rules (consensus.md §5.3) on constructed sequences; the clock is an argument.
import { describe, expect, it } from 'vitest';
import { checkTimestamp, medianRuleMinimum, minimumTimestamp } from '../../ts/consensus/timestamp.js';
import { errorOf } from '../helpers/error_of.js';

describe('median rule', () => {
  it('is the 26th smallest of the last 50 timestamps', () => {
    const ts = Array.from({ length: 50 }, (_, i) => 1000 + 10 * i); // 1000 … 1490
    expect(medianRuleMinimum(ts)).toBe(1250);
    expect(medianRuleMinimum([...ts].reverse())).toBe(1250);
    expect(medianRuleMinimum([5, 6, ...ts])).toBe(1250); // only the last 50 count
  });
  it('counts missing timestamps near the start as 0', () => {
    expect(medianRuleMinimum([])).toBe(0);
    expect(medianRuleMinimum(Array.from({ length: 25 }, (_, i) => 100 + i))).toBe(100); // 25 zeros + 25 values
    expect(medianRuleMinimum(Array.from({ length: 24 }, (_, i) => 100 + i))).toBe(0);
  });
  it('allows equality: at least 26 values ≤ t', () => {
    const ts = Array.from({ length: 50 }, (_, i) => 1000 + i);
    expect(errorOf(() => checkTimestamp(1025, { previous: ts, retargetFloorTimestamp: 0 }))).toBe('none');
    expect(errorOf(() => checkTimestamp(1024, { previous: ts, retargetFloorTimestamp: 0 }))).toBe('ETIMESTAMP');
    // the new block may be older than its predecessor
    expect(errorOf(() => checkTimestamp(1030, { previous: ts, retargetFloorTimestamp: 0 }))).toBe('none');
  });
});

describe('rules 1, 3 and 4', () => {
  const previous = [100, 200, 300];
  it('t ≠ 0', () => {
    expect(errorOf(() => checkTimestamp(0, { previous: [], retargetFloorTimestamp: 0 }))).toBe('ETIMESTAMP');
    expect(errorOf(() => checkTimestamp(1, { previous: [], retargetFloorTimestamp: 0 }))).toBe('none');
  });
  it('t strictly after the latest retarget block', () => {
    expect(errorOf(() => checkTimestamp(300, { previous, retargetFloorTimestamp: 300 }))).toBe('ETIMESTAMP');
    expect(errorOf(() => checkTimestamp(301, { previous, retargetFloorTimestamp: 300 }))).toBe('none');
  });
  it('at most 600 s ahead of the given clock (ECLOCKTOLERANCE), unchecked without a clock', () => {
    expect(errorOf(() => checkTimestamp(1600, { previous, retargetFloorTimestamp: 100, now: 1000 }))).toBe('none');
    expect(errorOf(() => checkTimestamp(1601, { previous, retargetFloorTimestamp: 100, now: 1000 }))).toBe('ECLOCKTOLERANCE');
    expect(errorOf(() => checkTimestamp(10 ** 9, { previous, retargetFloorTimestamp: 100 }))).toBe('none');
  });
  it('minimumTimestamp satisfies rules 1–3 and nothing smaller does', () => {
    const ts = Array.from({ length: 50 }, (_, i) => 1000 + 3 * i);
    for (const floor of [0, 500, 1100, 2000]) {
      const m = minimumTimestamp(ts, floor);
      expect(errorOf(() => checkTimestamp(m, { previous: ts, retargetFloorTimestamp: floor }))).toBe('none');
      expect(errorOf(() => checkTimestamp(m - 1, { previous: ts, retargetFloorTimestamp: floor }))).toBe('ETIMESTAMP');
    }
    expect(minimumTimestamp([], 0)).toBe(1);
  });
  it('the median rule holds exactly from the 26th smallest of the last 50 on, for any order and count', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 300; round++) {
      const ts = Array.from({ length: round % 61 }, () => 1 + (next() % 400));
      const m = medianRuleMinimum(ts);
      for (const t of [m - 1, m, m + 1]) {
        if (t < 1) continue;
        expect(errorOf(() => checkTimestamp(t, { previous: ts, retargetFloorTimestamp: 0 }))).toBe(t >= m ? 'none' : 'ETIMESTAMP');
      }
    }
  });
});
