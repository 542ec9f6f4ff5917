// Pure parts of peer management: the request throttler (p2p.md §3.8), transmission buckets (§4.5)
// and the connection schedule's rules for failed attempts (§4.2).
import { describe, expect, it } from 'vitest';
import { RequestThrottler, Throttle } from '../../ts/p2p/throttle.js';
import { TransmissionStats } from '../../ts/p2p/transmission.js';
import { ConnectionSchedule } from '../../ts/p2p/schedule.js';

describe('throttling (§3.8)', () => {
  it('allows each height about once; a repeated range is throttled', () => {
    const t = new RequestThrottler(600);
    expect(t.request(1, 30, 0)).toBe(false);
    expect(t.request(31, 60, 0)).toBe(false);
    expect(t.request(31, 60, 0)).toBe(true);
    expect(t.request(31, 60, 100)).toBe(false); // slack allows re-fetching
  });
  it('a throttled request adds 20 s to the bucket; the delay is a tenth, at most 20 s', () => {
    const th = new Throttle();
    th.request('blocks', 1, 30, 0, 1_000);
    expect(th.delayMs(1_000)).toBe(0);
    th.request('blocks', 1, 30, 0, 1_000);
    expect(th.delayMs(1_000)).toBe(2_000);
    expect(th.delayMs(21_000)).toBe(0);
  });
});

describe('transmission statistics (§4.5)', () => {
  it('sums bytes per host in aligned minute and hour buckets, the current one merged in', () => {
    let now = 7_200 + 30;
    const s = new TransmissionStats(null, () => now);
    s.count('10.0.0.1', 100, 5);
    now += 60;
    s.count('10.0.0.1', 1, 2);
    expect(s.view('m')).toEqual({ '10.0.0.1': [{ begin: 7_200, rx: 100, tx: 5 }, { begin: 7_260, rx: 1, tx: 2 }] });
    expect(s.view('h')).toEqual({ '10.0.0.1': [{ begin: 7_200, rx: 101, tx: 7 }] });
  });
});

describe('connection schedule (§4.2)', () => {
  it('drops a failed non-pinned feeler, retries a pinned one with doubling backoff', () => {
    const s = new ConnectionSchedule(() => {}, null, () => 0);
    const feeler = s.add({ host: '10.0.0.1', port: 1 }, false)!;
    const pinned = s.add({ host: '10.0.0.2', port: 2 }, true)!;
    s.failed(feeler, 'ECONNREFUSED');
    expect(s.get('10.0.0.1:1')).toBeUndefined();
    s.failed(pinned, 'ECONNREFUSED');
    s.failed(pinned, 'ECONNREFUSED');
    expect(pinned).toMatchObject({ sleepMs: 400, lastError: 'ECONNREFUSED', verified: false });
    s.connected(pinned);
    expect(s.view().connectedVerified).toEqual([pinned]);
    s.closed(pinned, { name: 'EDUPLICATECONNECTION' }, false);
    expect(s.view().disconnectedVerified).toEqual([pinned]);
    expect(pinned.sleepMs).toBe(10 * 60_000);
  });
});
