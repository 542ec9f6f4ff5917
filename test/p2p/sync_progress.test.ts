// The sync log lines (issue 9 §3): progress at most every few seconds during a bulk download,
// with height, target, percent and blocks/s; each block once when following a live chain.
import { describe, expect, it } from 'vitest';
import { newBlockLine, progressLine, PROGRESS_INTERVAL_MS, SyncProgress } from '../../ts/p2p/sync_progress.js';

describe('progress lines', () => {
  it('name height, target, percent, blocks/s and the peer', () => {
    expect(progressLine(1_234, 5_000, 412.345, '10.0.0.1:9186')).toBe('Sync progress: height 1234 of 5000 (24.68%), 412.3 blocks/s, from 10.0.0.1:9186');
    expect(progressLine(7, 0, 0, 'p')).toContain('(100.00%)');
  });

  it('come at most once per interval, with the rate since the previous line', () => {
    const p = new SyncProgress(100, 0);
    expect(p.line(130, 1_000, 1_000, 'p')).toBeNull();
    expect(p.line(160, 1_000, PROGRESS_INTERVAL_MS - 1, 'p')).toBeNull();
    expect(p.line(200, 1_000, PROGRESS_INTERVAL_MS, 'p')).toBe('Sync progress: height 200 of 1000 (20.00%), 20.0 blocks/s, from p');
    expect(p.line(260, 1_000, PROGRESS_INTERVAL_MS + 1_000, 'p')).toBeNull();
    // 10 s later: 300 more blocks at 30 blocks/s.
    expect(p.line(500, 1_000, 3 * PROGRESS_INTERVAL_MS, 'p')).toBe('Sync progress: height 500 of 1000 (50.00%), 30.0 blocks/s, from p');
  });

  it('a new block of a followed chain is one line with its hash', () => {
    expect(newBlockLine(42, 'ab'.repeat(32), '127.0.0.1:9386')).toBe(`New block #42 ${'ab'.repeat(32)} from 127.0.0.1:9386`);
  });
});
