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

  // Issue 19: what a following reference asks after each Append (its communication.log, 0.10.3):
  // Batchreq [1,N] (the whole tip slot while its fork range stays at the slot start), Blockreq [N,N],
  // sometimes the same Blockreq once more when its stage changed.
  it('a peer following our announcements re-fetches the tip slot and the last bodies without being throttled', () => {
    const th = new Throttle();
    let now = 1_000;
    th.announced(3);
    th.request('headers', 1, 3, 0, now);
    th.request('blocks', 1, 3, 0, now);
    for (let n = 4; n <= 40; n++) {
      now += 1_000;
      th.announced(n);
      th.request('headers', n <= 20 ? 1 : 10, n, 0, now);
      th.request('blocks', n, n, 0, now);
      th.request('blocks', n, n, 0, now);
      expect(th.delayMs(now), `block ${n}`).toBe(0);
    }
    expect(th.headers).toMatchObject({ h1: 40, h2: 40 });
  });

  it('without an announcement, or beyond the tip region, a re-request is charged in full', () => {
    const th = new Throttle();
    th.announced(50);
    th.request('headers', 1, 50, 0, 0);
    th.request('headers', 1, 50, 0, 0); // the free re-request of this announcement
    expect(th.delayMs(0)).toBe(0);
    th.request('headers', 1, 50, 0, 0); // a second one: throttled
    expect(th.delayMs(0)).toBe(2_000);

    const b = new Throttle();
    b.announced(100);
    b.request('blocks', 1, 100, 0, 0);
    b.request('blocks', 61, 90, 0, 0); // not among the tip's last 30 heights
    expect(b.delayMs(0)).toBe(2_000);

    const h = new Throttle();
    h.announced(9_000);
    h.request('headers', 1, 8_640, 0, 0);
    h.request('headers', 8_641, 9_000, 0, 0);
    h.request('headers', 1, 8_640, 0, 0); // a complete slot below the tip's slot
    expect(h.delayMs(0)).toBe(2_000);
  });

  it('free re-requests do not pile up beyond a few announcements', () => {
    const th = new Throttle();
    th.request('blocks', 1, 10, 0, 0);
    for (let i = 0; i < 10; i++) th.announced(10);
    for (let i = 0; i < 3; i++) th.request('blocks', 10, 10, 0, 0);
    expect(th.delayMs(0)).toBe(0);
    th.request('blocks', 10, 10, 0, 0);
    expect(th.delayMs(0)).toBe(2_000);
  });
});

describe('transmission statistics (§4.5)', () => {
  it('sums bytes per host in aligned minute and hour buckets, the current one merged in', () => {
    let now = 7_200 + 30;
    const s = new TransmissionStats(null, () => now);
    s.count('10.0.0.1', 100, 5);
    now += 60;
    s.count('10.0.0.1', 1, 2);
    expect(s.view('m')).toEqual({
      '10.0.0.1': [
        { begin: 7_200, rx: 100, tx: 5 },
        { begin: 7_260, rx: 1, tx: 2 },
      ],
    });
    expect(s.view('h')).toEqual({ '10.0.0.1': [{ begin: 7_200, rx: 101, tx: 7 }] });
  });
});

describe('connection schedule (§4.2)', () => {
  it('drops a failed non-pinned feeler, retries a pinned one with doubling backoff', () => {
    const s = new ConnectionSchedule(
      () => {},
      null,
      () => 0,
    );
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
