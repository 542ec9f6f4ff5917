// The query rules of the market charts (http-api.md "Charts"; http-api-details.md §9.1;
// exchange.md §11.3): optional `from`, `to` (inclusive bounds) and `n` (default 100, at most 200),
// not all three; checked in the reference's order: a bad integer ⇒ 94, n > 200 ⇒ 322, all three
// ⇒ 321, to < from ⇒ 323, a from–to span of more than 200 entries ⇒ 322.
import { fail } from '../core/errors.js';
import { u64Param } from './params.js';

export const DEFAULT_CHART_ENTRIES = 100;
export const MAX_CHART_ENTRIES = 200;

export interface ChartQuery {
  from: bigint | null;
  to: bigint | null;
  n: number;
}

/**
 * Reads and checks the query; `span(from, to)` is how many entries a from–to range covers
 * (candles: (to − from) / interval, trades: to − from).
 */
export function chartQuery(query: Record<string, string | undefined>, span: (from: bigint, to: bigint) => bigint): ChartQuery {
  // An empty parameter counts as not given (http-api-details.md §1.1).
  const opt = (k: string) => (query[k] ? u64Param(query[k]!, k) : null);
  const from = opt('from'),
    to = opt('to'),
    n = opt('n');
  if (n !== null && n > BigInt(MAX_CHART_ENTRIES)) fail('ERANGETOOBIG', `n must be at most ${MAX_CHART_ENTRIES}`);
  if (from !== null && to !== null && n !== null) fail('EINVARGCOMB', 'give at most two of from, to and n');
  if (from !== null && to !== null) {
    if (to < from) fail('EINVRANGE', 'to is below from');
    if (span(from, to) > BigInt(MAX_CHART_ENTRIES)) fail('ERANGETOOBIG', `the range covers more than ${MAX_CHART_ENTRIES} entries`);
  }
  return { from, to, n: n === null ? DEFAULT_CHART_ENTRIES : Number(n) };
}

/**
 * The entries the query selects from `items` (ascending by `key`), ascending: with both bounds all
 * in [from, to]; with `from` only the first n at or after it; with `to` only the last n at or
 * before it; with neither the last n. Never more than 200.
 */
export function selectEntries<T>(items: readonly T[], key: (t: T) => number, q: ChartQuery): T[] {
  const after = (t: T) => q.from === null || BigInt(key(t)) >= q.from;
  const before = (t: T) => q.to === null || BigInt(key(t)) <= q.to;
  const inRange = items.filter((t) => after(t) && before(t));
  if (q.from !== null && q.to !== null) return inRange.slice(0, MAX_CHART_ENTRIES);
  return q.from !== null ? inRange.slice(0, q.n) : inRange.slice(Math.max(0, inRange.length - q.n));
}
