// Immutable answers kept as written bytes (issue 20, answer_cache.ts): bounded in bytes, the block's
// confirmations written per request; block views served from it equal freshly built ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerCache } from '../../ts/api/answer_cache.js';
import { formatAddress } from '../../ts/core/address.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { wallet } from '../state/chain_fixture.js';

const num = (n: number) => String(n);

describe('AnswerCache', () => {
  it('writes the confirmations of the request, only where the whole field stood', () => {
    const c = new AnswerCache(1 << 20);
    const text = '{"code":0,"data":{"a":{"confirmations":1},"confirmations":1,"other":{"confirmations":12},"height":5}}';
    c.set({ key: 'k', confirmations: 1 }, text, num);
    expect(c.get({ key: 'k', confirmations: 1 }, num)?.toString()).toBe(text);
    const seven = text.replace(/"confirmations":1(?=[,}])/g, '"confirmations":7');
    expect(c.get({ key: 'k', confirmations: 7 }, num)?.toString()).toBe(seven);
    expect(c.get({ key: 'k', confirmations: 7 }, num)?.toString()).toBe(seven); // the last whole form, again
    expect(c.get({ key: 'k', confirmations: 1 }, num)?.toString()).toBe(text);
    expect(c.get({ key: 'k', confirmations: 7 }, num)?.toString()).toBe(seven);
    expect(c.get({ key: 'x', confirmations: 7 }, num)).toBeUndefined();
  });

  it('is bounded in bytes, least recently used out first', () => {
    const c = new AnswerCache(3000);
    const t = 'x'.repeat(1200); // ≈1,350 bytes each with the overhead
    c.set({ key: 'a' }, t, num);
    c.set({ key: 'b' }, t, num);
    expect(c.get({ key: 'a' }, num)?.toString()).toBe(t); // a is now the most recent
    c.set({ key: 'c' }, t, num);
    expect(c.size).toBe(2);
    expect(c.get({ key: 'b' }, num)).toBeUndefined();
    expect(c.get({ key: 'a' }, num)?.toString()).toBe(t);
    expect(c.bytes).toBeLessThanOrEqual(3000);
    c.set({ key: 'huge' }, 'y'.repeat(5000), num); // larger than the whole cache: not kept
    expect(c.get({ key: 'huge' }, num)).toBeUndefined();
  });

  it('keeps one answer per slot: a later key replaces the earlier, which is then a miss', () => {
    const c = new AnswerCache(1 << 20);
    c.set({ key: 'mine A 1', slot: 'mine A' }, 'one', num);
    c.set({ key: 'mine B 1', slot: 'mine B' }, 'other', num);
    expect(c.get({ key: 'mine A 1', slot: 'mine A' }, num)?.toString()).toBe('one');
    c.set({ key: 'mine A 2', slot: 'mine A' }, 'two', num);
    expect(c.size).toBe(2);
    expect(c.get({ key: 'mine A 1', slot: 'mine A' }, num)).toBeUndefined();
    expect(c.get({ key: 'mine A 2', slot: 'mine A' }, num)?.toString()).toBe('two');
    expect(c.get({ key: 'mine B 1', slot: 'mine B' }, num)?.toString()).toBe('other');
    // A key without its slot is another entry.
    expect(c.get({ key: 'mine A 2' }, num)).toBeUndefined();
  });
});

describe('answers under a chain state', () => {
  it("a later state drops the earlier one's answers; an answer of a state already left is not kept", () => {
    const c = new AnswerCache(1 << 20);
    c.set({ key: 'block 9' }, 'immutable', num);
    c.set({ key: 'url /a T1', state: 'T1' }, 'a1', num);
    c.set({ key: 'url /b T1', state: 'T1' }, 'b1', num);
    expect(c.size).toBe(3);
    c.set({ key: 'url /a T2', state: 'T2' }, 'a2', num);
    expect(c.size).toBe(2);
    expect(c.get({ key: 'url /b T1', state: 'T1' }, num)).toBeUndefined();
    expect(c.get({ key: 'url /a T2', state: 'T2' }, num)?.toString()).toBe('a2');
    expect(c.get({ key: 'block 9' }, num)?.toString()).toBe('immutable');
    // A request that read T1 and finishes after T2's answers arrived: its answer is not kept, T2's stay.
    c.set({ key: 'url /c T1', state: 'T1' }, 'c1', num);
    expect(c.get({ key: 'url /c T1', state: 'T1' }, num)).toBeUndefined();
    expect(c.get({ key: 'url /a T2', state: 'T2' }, num)?.toString()).toBe('a2');
    // A thousand states later the cache holds one state's answers and the immutable one.
    for (let i = 3; i < 1003; i++) c.set({ key: `url /a T${i}`, state: `T${i}` }, `a${i}`, num);
    expect(c.size).toBe(2);
    expect(c.bytes).toBeLessThan(1000);
  });
});

describe('block views from the answer cache', () => {
  let node: TestNode;
  const A = formatAddress(wallet(1).address);
  const mine = async (n = 1) => {
    for (let i = 0; i < n; i++) expect((await node.get(`/debug/fakemine/${A}`)).body).toEqual({ code: 0 });
  };
  beforeAll(async () => {
    node = await startNode(['--regtest']);
    await mine(3);
  });
  afterAll(async () => {
    await node.stop();
    await removeDir(node.dataDir);
  });

  it('answers repeated views alike, by height and by hash, with the confirmations of the moment', async () => {
    const first = await node.get('/chain/block/2');
    const again = await node.get('/chain/block/2');
    expect(again.body).toEqual(first.body);
    expect(first.body.data.confirmations).toBe(2);
    const byHash = await node.get(`/chain/block/${first.body.data.header.hash}`);
    expect(byHash.body).toEqual(first.body);
    const header = await node.get('/chain/block/2/header');
    expect((await node.get('/chain/block/2/header')).body).toEqual(header.body);
    await mine(2);
    const later = await node.get('/chain/block/2');
    expect(later.body.data.confirmations).toBe(4);
    expect({ ...later.body.data, confirmations: 2 }).toEqual(first.body.data);
    expect((await node.get('/chain/block/2/header')).body).toEqual(header.body);
    const binary = await node.get('/chain/block/2/binary');
    expect((await node.get('/chain/block/2/binary')).body).toEqual(binary.body);
    const latest = await node.get('/transaction/latest');
    expect((await node.get('/transaction/latest')).body).toEqual(latest.body);
    const txcache = await node.get('/chain/txcache');
    expect((await node.get('/chain/txcache')).body).toEqual(txcache.body);
    await mine(1);
    const newer = (await node.get('/transaction/latest')).body;
    expect(newer).not.toEqual(latest.body); // a new tip: built afresh, with the new block's reward
    expect(JSON.stringify(newer)).toContain(JSON.stringify(latest.body.data.perBlock?.[0] ?? '').slice(1, 40));
    expect((await node.get('/chain/block/99')).body.code).not.toBe(0);
  });

  it('answers kept per chain state move with the tip: richlist, history, balances, a hashrate chart', async () => {
    const urls = [
      '/account/richlist/0',
      `/account/${A}/history/18446744073709551615`,
      `/account/${A}/balance/0`,
      '/chart/hashrate/block/1/100/2',
      `/account/${A}/coin_balance`,
    ];
    const before = await Promise.all(urls.map(async (u) => (await node.get(u)).body));
    for (const [i, u] of urls.entries()) expect((await node.get(u)).body, u).toEqual(before[i]); // kept
    await mine(1);
    const after = await Promise.all(urls.map(async (u) => (await node.get(u)).body));
    for (const [i, u] of urls.entries()) {
      expect(after[i].code, u).toBe(0);
      expect(after[i], u).not.toEqual(before[i]); // the new block is in every one of them
    }
    // A query is part of what is kept: another query, another answer.
    const all = (await node.get('/chart/hashrate/block/1/100/2')).body.data.data.length;
    expect((await node.get('/chart/hashrate/block/1/3/2')).body.data.data.length).toBeLessThan(all);
  });
});
