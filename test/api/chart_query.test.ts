// The chart query rules (http-api-details.md §9.1, exchange.md §11.3): parsing, the order of the
// checks, and which entries each combination selects.
import { describe, expect, it } from 'vitest';
import { chartQuery, selectEntries } from '../../ts/api/chart_query.js';
import { NodeError } from '../../ts/core/errors.js';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as NodeError).code;
  }
  return 0;
};
const span = (from: bigint, to: bigint) => to - from;
const q = (query: Record<string, string | undefined>) => chartQuery(query, span);

describe('chartQuery', () => {
  it('reads from, to and n; n defaults to 100; empty counts as absent', () => {
    expect(q({})).toEqual({ from: null, to: null, n: 100 });
    expect(q({ from: '5', n: '7' })).toEqual({ from: 5n, to: null, n: 7 });
    expect(q({ from: '', to: '9', n: '' })).toEqual({ from: null, to: 9n, n: 100 });
    expect(q({ from: '3', to: '203' })).toEqual({ from: 3n, to: 203n, n: 100 });
  });

  it('refuses in the reference order: 94, n > 200 (322), all three (321), to < from (323), span (322)', () => {
    for (const bad of [{ n: 'x' }, { from: '-1' }, { to: '1e3' }, { n: '18446744073709551616' }]) expect(code(() => q(bad))).toBe(94);
    expect(code(() => q({ n: '201' }))).toBe(322);
    expect(code(() => q({ n: '200' }))).toBe(0);
    expect(code(() => q({ from: '1', to: '2', n: '201' }))).toBe(322);
    expect(code(() => q({ from: '1', to: '2', n: '3' }))).toBe(321);
    expect(code(() => q({ from: '5', to: '1', n: '3' }))).toBe(321);
    expect(code(() => q({ from: '5', to: '4' }))).toBe(323);
    expect(code(() => q({ from: '500', to: '100' }))).toBe(323);
    expect(code(() => q({ from: '0', to: '201' }))).toBe(322);
    expect(code(() => q({ from: '0', to: '200' }))).toBe(0);
    expect(code(() => chartQuery({ from: '0', to: String(300 * 201) }, (f, t) => (t - f) / 300n))).toBe(322);
    expect(code(() => chartQuery({ from: '0', to: String(300 * 201 - 1) }, (f, t) => (t - f) / 300n))).toBe(0);
  });
});

describe('selectEntries', () => {
  const items = Array.from({ length: 300 }, (_, i) => i * 2); // keys 0, 2, …, 598
  const sel = (query: Record<string, string>) => selectEntries(items, (x) => x, q(query));

  it('without bounds: the latest n', () => {
    expect(sel({})).toEqual(items.slice(200));
    expect(sel({ n: '3' })).toEqual([594, 596, 598]);
  });
  it('from only: the first n at or after it', () => {
    expect(sel({ from: '9', n: '3' })).toEqual([10, 12, 14]);
    expect(sel({ from: '596' })).toEqual([596, 598]);
  });
  it('to only: the last n at or before it', () => {
    expect(sel({ to: '9', n: '3' })).toEqual([4, 6, 8]);
    expect(sel({ to: '10', n: '3' })).toEqual([6, 8, 10]);
  });
  it('from and to: everything in between, inclusive', () => {
    expect(sel({ from: '10', to: '16' })).toEqual([10, 12, 14, 16]);
    expect(sel({ from: '11', to: '11' })).toEqual([]);
    expect(sel({ from: '1000', to: '1100' })).toEqual([]);
  });
});
