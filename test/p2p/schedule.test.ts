// The connection schedule's redial rules (p2p.md §4.2; issue 10): the reference admits one new
// connection per IP per 30 s (mainnet.md §5.2), so no non-loopback IP is dialled twice within 30 s,
// whatever the backoff says; loopback is exempt, as in the reference. An address found to be this
// node itself is never dialled again. Fake timers: the schedule is driven, nothing is dialled.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionSchedule, type ScheduleEntry } from '../../ts/p2p/schedule.js';

let dials: { address: string; at: number }[];
let schedule: ConnectionSchedule;
const start = Date.UTC(2026, 0, 1);

beforeEach(() => {
  vi.useFakeTimers({ now: start });
  dials = [];
  schedule = new ConnectionSchedule(
    (e) => dials.push({ address: e.address, at: Date.now() - start }),
    null,
    () => Date.now(),
  );
});
afterEach(() => {
  schedule.stop();
  vi.useRealTimers();
});

const dialsOf = (address: string) => dials.filter((d) => d.address === address).map((d) => d.at);
const entry = (address: string) => schedule.get(address) as ScheduleEntry;

describe('one dial per IP per 30 s', () => {
  it('two ports of one IP: the second waits 30 s', () => {
    schedule.add({ host: '10.0.0.1', port: 9186 }, true);
    schedule.add({ host: '10.0.0.1', port: 9187 }, true);
    schedule.start();
    vi.advanceTimersByTime(0);
    expect(dials.map((d) => d.at)).toEqual([0]);
    vi.advanceTimersByTime(29_999);
    expect(dials).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(dials.map((d) => d.at)).toEqual([0, 30_000]);
  });

  it('a failed attempt is retried after 30 s, not after the 200 ms backoff', () => {
    schedule.add({ host: '10.0.0.2', port: 9186 }, true);
    schedule.start();
    vi.advanceTimersByTime(0);
    vi.advanceTimersByTime(1_000);
    schedule.failed(entry('10.0.0.2:9186'), 'ECONNREFUSED');
    vi.advanceTimersByTime(60_000);
    expect(dialsOf('10.0.0.2:9186')).toEqual([0, 30_000]);
  });

  it('a closed connection is redialled 30 s after the last dial; backoff above 30 s is kept', () => {
    schedule.add({ host: '10.0.0.3', port: 9186 }, false); // unpinned: a pinned peer's backoff stops at 5 s
    schedule.start();
    vi.advanceTimersByTime(0);
    const e = entry('10.0.0.3:9186');
    schedule.connected(e);
    vi.advanceTimersByTime(5_000);
    schedule.closed(e, { name: 'ETIMEOUT' }, false);
    vi.advanceTimersByTime(40_000);
    expect(dialsOf('10.0.0.3:9186')).toEqual([0, 30_000]);
    // Failures double the backoff: from 200 ms it passes 30 s after eight more failures, and then rules.
    for (let i = 0; i < 9; i++) {
      schedule.failed(e, 'ECONNREFUSED');
      vi.advanceTimersByTime(200_000);
    }
    const at = dialsOf('10.0.0.3:9186');
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(30_000);
    expect(e.backoffMs).toBeGreaterThan(30_000);
  });

  it('a peer closed as too slow (ESLOWPEER) is redialled after 1 min; a pinned one at once', () => {
    schedule.add({ host: '127.0.0.1', port: 9190 }, false);
    schedule.add({ host: '127.0.0.1', port: 9191 }, true);
    schedule.start();
    vi.advanceTimersByTime(0);
    for (const a of ['127.0.0.1:9190', '127.0.0.1:9191']) schedule.connected(entry(a));
    vi.advanceTimersByTime(5_000);
    for (const a of ['127.0.0.1:9190', '127.0.0.1:9191']) schedule.closed(entry(a), { name: 'ESLOWPEER' }, false);
    vi.advanceTimersByTime(120_000);
    expect(dialsOf('127.0.0.1:9190')).toEqual([0, 65_000]);
    expect(dialsOf('127.0.0.1:9191')).toEqual([0, 5_500]);
  });

  it('a pinned peer that keeps refusing is retried at least every 5 s; an unpinned one backs off to 102.4 s', () => {
    schedule.add({ host: '127.0.0.1', port: 9192 }, true);
    schedule.add({ host: '127.0.0.1', port: 9193 }, false);
    for (const a of ['127.0.0.1:9192', '127.0.0.1:9193']) entry(a).verified = true;
    schedule.start();
    vi.advanceTimersByTime(0);
    // Every attempt fails at once, for ten minutes (a partition).
    for (let t = 0; t < 600_000; t += 100) {
      for (const d of dials.filter((x) => x.at === t)) schedule.failed(entry(d.address), 'ECONNREFUSED');
      vi.advanceTimersByTime(100);
    }
    const gaps = (a: string) =>
      dialsOf(a)
        .map((t, i, all) => (i ? t - all[i - 1] : 0))
        .slice(1);
    expect(Math.max(...gaps('127.0.0.1:9192'))).toBe(5_000);
    expect(Math.max(...gaps('127.0.0.1:9193'))).toBe(102_400);
  });

  it('loopback is exempt (the reference does not rate-limit it either)', () => {
    schedule.add({ host: '127.0.0.1', port: 9186 }, true);
    schedule.start();
    vi.advanceTimersByTime(0);
    schedule.failed(entry('127.0.0.1:9186'), 'ECONNREFUSED');
    vi.advanceTimersByTime(1_000);
    expect(dialsOf('127.0.0.1:9186')).toEqual([0, 200]);
  });
});

describe('an address that reaches this node itself', () => {
  it('is forgotten and never added again', () => {
    schedule.add({ host: '10.0.0.4', port: 9186 }, false);
    schedule.start();
    vi.advanceTimersByTime(0);
    schedule.forgetSelf(entry('10.0.0.4:9186'));
    expect(schedule.get('10.0.0.4:9186')).toBeUndefined();
    expect(schedule.add({ host: '10.0.0.4', port: 9186 }, false)).toBeNull();
    vi.advanceTimersByTime(120_000);
    expect(dialsOf('10.0.0.4:9186')).toEqual([0]);
  });
});

describe('closed as a duplicate', () => {
  it('waits 10 min, unless the connection kept in its place closes: then it is redialled (30 s per IP still holds)', () => {
    schedule.add({ host: '10.0.0.9', port: 9186 }, true);
    schedule.add({ host: '10.0.0.10', port: 9186 }, true);
    schedule.start();
    vi.advanceTimersByTime(0);
    for (const a of ['10.0.0.9:9186', '10.0.0.10:9186']) {
      schedule.connected(entry(a));
      schedule.closed(entry(a), { name: 'EDUPLICATECONNECTION' }, false);
    }
    vi.advanceTimersByTime(60_000);
    expect(dials).toHaveLength(2);
    schedule.twinClosed('10.0.0.9:9186');
    schedule.twinClosed('10.0.0.11:9186'); // unknown: nothing
    vi.advanceTimersByTime(1_000);
    expect(dialsOf('10.0.0.9:9186')).toEqual([0, 60_500]);
    expect(dialsOf('10.0.0.10:9186')).toEqual([0]);
    vi.advanceTimersByTime(10 * 60_000);
    expect(dialsOf('10.0.0.10:9186')).toEqual([0, 600_000]);
  });
});
