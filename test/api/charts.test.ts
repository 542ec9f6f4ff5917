// /chart/hashrate/block/:from/:to/:window and /chart/hashrate/time/:from/:to/:interval
// (http-api-details.md §9.2, §9.3) on a chain with chosen timestamps (built through Chain.append,
// served by a started node), checked against the §5.9 formula computed here.
import { describe, expect, it } from 'vitest';
import { REGTEST, TARGET_V2_REGTEST_GENESIS } from '../../ts/consensus/params.js';
import { decodeTarget, targetWork } from '../../ts/consensus/target.js';
import { sharedNode } from '../helpers/shared_node.js';
import { ChainBuilder, FIRST_TIMESTAMP, wallet } from '../state/chain_fixture.js';
import { expectError } from './expect_error.js';

const LENGTH = 300;
const U64_MAX_DOUBLE = 2 ** 64;
/** Every block has the regtest minimum target (no retarget before height 720). */
const WORK = Number(targetWork(decodeTarget(TARGET_V2_REGTEST_GENESIS, 'V2')));
const ts: number[] = [0]; // ts[h] = timestamp of block h

// Blocks 1–100 are 20 s apart; 101–290 share one timestamp, 60 s before a multiple M of 600; 291
// is at M and 292–300 follow 60 s apart. The time chart's sample at M then lands on block 291,
// whose one-hour window (blocks 111–291) spans 60 s.
const node = sharedNode(['--regtest'], async () => {
  const c = await ChainBuilder.create({ params: REGTEST });
  const miner = wallet(1).address;
  const t100 = FIRST_TIMESTAMP + 99 * 20;
  const m = Math.ceil((t100 + 61) / 600) * 600;
  const timestampOf = (h: number) => (h <= 100 ? FIRST_TIMESTAMP + 20 * (h - 1) : h <= 290 ? m - 60 : m + 60 * (h - 291));
  for (let h = 1; h <= LENGTH; h++) {
    await c.mine(miner, { timestamp: timestampOf(h) });
    ts.push(c.chain.timestampAt(h));
  }
  expect(ts.slice(1, 3)).toEqual([FIRST_TIMESTAMP, FIRST_TIMESTAMP + 20]);
  await c.close();
  return c.dir;
});

const get = (path: string) => node().data(path);

/** §5.9 with n blocks at height h: work of lower+1..h over ts(h) − ts(lower), lower = max(1, h − n). */
function estimate(h: number, n: number): { exact: number; lower: number } {
  const lower = Math.max(1, h - n);
  const dt = ts[h] - ts[lower];
  return { exact: dt <= 0 ? U64_MAX_DOUBLE : ((h - lower) * WORK) / dt, lower };
}

describe('GET /chart/hashrate/block/:from/:to/:window', () => {
  it('gives one estimate per height of [max(from, 2), min(to, tip)]', async () => {
    for (const [from, to, window] of [
      [1, 1000, 10],
      [50, 120, 30],
      [205, 215, 3],
      [290, 300, 500],
      [2, 2, 0],
    ]) {
      const r = await get(`/chart/hashrate/block/${from}/${to}/${window}`);
      const begin = Math.max(from, 2),
        end = Math.min(to, LENGTH);
      expect(r.range).toEqual({ begin, end });
      expect(r.data.length).toBe(end - begin + 1);
      r.data.forEach((v: number | bigint, i: number) => expect(Number(v), `h ${begin + i}`).toBeCloseTo(estimate(begin + i, window).exact, 9));
    }
  });

  it('reports 2^64 − 1 where timestamps do not increase, and doubles otherwise', async () => {
    const r = await get('/chart/hashrate/block/205/206/3');
    expect(r.data.map(Number)).toEqual([U64_MAX_DOUBLE, U64_MAX_DOUBLE]); // ts(202..206) are equal
    expect((await get('/chart/hashrate/block/291/291/180')).data).toEqual([(180 * WORK) / 60]);
    expect((await get('/chart/hashrate/block/2/2/1')).data).toEqual([WORK / 20]);
  });

  it('is empty when the range is inverted or beyond the tip', async () => {
    expect(await get('/chart/hashrate/block/10/5/3')).toEqual({ range: { begin: 10, end: 5 }, data: [] });
    expect(await get('/chart/hashrate/block/301/400/3')).toEqual({ range: { begin: 301, end: 300 }, data: [] });
  });

  it('refuses bad input', async () => {
    await expectError(node(), '/chart/hashrate/block/0/10/3', 72);
    await expectError(node(), '/chart/hashrate/block/1/0/3', 72);
    for (const p of ['x/10/3', '1/x/3', '1/10/x', '-1/10/3', '1/10/-3', '1/10/4294967296', '1.5/10/3']) {
      await expectError(node(), `/chart/hashrate/block/${p}`, 94);
    }
  });
});

describe('GET /chart/hashrate/time/:from/:to/:interval', () => {
  /** The expected samples, computed directly from the timestamps (details §9.3). */
  function samples(from: number, to: number, interval: number) {
    const begin = Math.max(from, ts[1]);
    const end = Math.floor(Math.min(to, ts[LENGTH]) / interval) * interval;
    const out = [];
    for (let t = end; t >= begin && t > 0; t -= interval) {
      let h = 1;
      while (ts[h] < t) h++;
      const { exact } = estimate(h, 180);
      out.push({ hashrate: h < 2 ? 0 : exact === U64_MAX_DOUBLE ? 18446744073709551615n : Math.floor(exact), height: h, timestamp: t });
    }
    return out.reverse();
  }

  it('samples every interval back from the floored end, ascending', async () => {
    const r = await get('/chart/hashrate/time/0/4000000000/600');
    expect(Object.keys(r)).toEqual(['range', 'interval', 'data']);
    expect(r.range).toEqual({ begin: 0, end: 4000000000 });
    expect(r.interval).toBe(600);
    const want = samples(0, 4000000000, 600);
    expect(want.length).toBeGreaterThan(3);
    expect(r.data).toEqual(want);
    for (const d of r.data) expect(d.timestamp % 600).toBe(0);
    expect(r.data.at(-1)).toEqual({ hashrate: 3, height: 291, timestamp: ts[291] }); // 180 blocks in 60 s
  });

  it('honours from and to, and a longer interval', async () => {
    const from = ts[50],
      to = ts[250];
    expect((await get(`/chart/hashrate/time/${from}/${to}/600`)).data).toEqual(samples(from, to, 600));
    const r = await get(`/chart/hashrate/time/${from}/${to}/1200`);
    expect(r.interval).toBe(1200);
    expect(r.data).toEqual(samples(from, to, 1200));
  });

  it('raises intervals below 600 s to 600 s', async () => {
    for (const i of [0, 1, 599]) {
      const r = await get(`/chart/hashrate/time/0/4000000000/${i}`);
      expect(r.interval).toBe(600);
      expect(r.data).toEqual(samples(0, 4000000000, 600));
    }
  });

  it("is empty outside the chain's time span or for an inverted range", async () => {
    expect((await get(`/chart/hashrate/time/${ts[LENGTH] + 600}/4000000000/600`)).data).toEqual([]);
    expect((await get(`/chart/hashrate/time/0/${ts[1] - 1}/600`)).data).toEqual([]);
    expect(await get(`/chart/hashrate/time/${ts[200]}/${ts[100]}/600`)).toEqual({ range: { begin: ts[200], end: ts[100] }, interval: 600, data: [] });
  });

  it('refuses bad input', async () => {
    for (const p of ['x/1/600', '1/x/600', '1/1/x', '-1/1/600', '1/4294967296/600', '1/1/6e2']) {
      await expectError(node(), `/chart/hashrate/time/${p}`, 94);
    }
  });
});
