// How this node describes its chain (p2p.md §3.1) and answers requests (§2.4 codes 6–11) on a real
// chain: Append after growth, Fork with descriptor + 1 and the first changed height after a reorg,
// replies for the announced chain until the announcement is made, and replaced chains kept for
// 10 minutes so that requests with an old descriptor are still answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainDescription } from '../../ts/p2p/chain_description.js';
import { serveRequest } from '../../ts/p2p/serving.js';
import { removeDir } from '../helpers/node.js';
import { ChainBuilder, wallet } from '../state/chain_fixture.js';

let b: ChainBuilder;
let clock = 1_000_000;
let desc: ChainDescription;
const W1 = wallet(1),
  W2 = wallet(2),
  W3 = wallet(3);

beforeAll(async () => {
  b = await ChainBuilder.create();
  await b.mineMany(5, () => W1.address);
  desc = new ChainDescription(b.chain, () => clock);
  b.chain.onChange((e) => desc.onEvent(e));
});
afterAll(async () => {
  await b.close();
  await removeDir(b.dir);
});

const c = () => b.chain;
const headers = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => c().rawHeaderAt(from + i));
const batch = (descriptor: number, start: number, count: number) => serveRequest(desc, { kind: 'Batchreq' as const, nonce: 1, descriptor, start, count });
const blocks = (descriptor: number, first: number, last: number) => serveRequest(desc, { kind: 'Blockreq' as const, nonce: 2, first, last, descriptor });
const probe = (descriptor: number, height: number) => serveRequest(desc, { kind: 'Probereq' as const, nonce: 3, descriptor, height });

describe('the chain description', () => {
  let old: { headers: Uint8Array[]; bodies: Uint8Array[] };

  it('starts at descriptor 0 and announces growth with Append', async () => {
    expect(desc.init(true)).toMatchObject({ kind: 'Init', v3: true, descriptor: 0, length: 5, worksum: c().worksum, grid: [], flags: 0 });
    expect(desc.init(false).flags).toBeNull();
    expect(desc.flush()).toBeNull();
    await b.mineMany(2, () => W1.address);
    expect(desc.flush()).toEqual({ kind: 'Append', length: 7, worksum: c().worksum, grid: [] });
    expect(desc.flush()).toBeNull();
    old = { headers: headers(1, 7), bodies: [] };
    for (let h = 1; h <= 7; h++) old.bodies.push((await c().block(h))!.body);
  });

  it('answers for the announced chain until the Fork is announced, then for both', async () => {
    await c().rollback();
    await c().rollback();
    await b.mineMany(3, () => W2.address);
    // Not announced yet: descriptor 0 still means the old 7 blocks.
    expect(await probe(0, 6)).toEqual({ kind: 'Proberep', nonce: 3, descriptor: 0, requested: old.headers[5], current: old.headers[5] });
    expect((await batch(0, 1, 100)).headers).toEqual(old.headers);
    expect(desc.flush()).toEqual({ kind: 'Fork', descriptor: 1, length: 8, worksum: c().worksum, forkHeight: 6, grid: [] });
    expect(await probe(0, 7)).toEqual({ kind: 'Proberep', nonce: 3, descriptor: 1, requested: old.headers[6], current: c().rawHeaderAt(7) });
    expect(await probe(1, 9)).toEqual({ kind: 'Proberep', nonce: 3, descriptor: 1, requested: null, current: null });
    expect((await batch(0, 4, 10)).headers).toEqual(old.headers.slice(3));
    expect((await batch(1, 4, 10)).headers).toEqual(headers(4, 8));
    expect((await blocks(0, 6, 7)).bodies).toEqual(old.bodies.slice(5));
    expect((await blocks(0, 5, 8)).bodies).toEqual([]); // beyond that chain: all or nothing
    expect((await blocks(9, 1, 1)).bodies).toEqual([]); // unknown descriptor
    expect((await blocks(1, 8, 8)).bodies).toEqual([(await c().block(8))!.body]);
  });

  it('keeps every replaced chain intact through a deeper reorg, for 10 minutes', async () => {
    const second = headers(1, 8);
    for (let i = 0; i < 4; i++) await c().rollback();
    await b.mineMany(5, () => W3.address);
    expect(desc.flush()).toMatchObject({ kind: 'Fork', descriptor: 2, length: 9, forkHeight: 5 });
    expect((await batch(0, 1, 100)).headers).toEqual(old.headers);
    expect((await batch(1, 1, 100)).headers).toEqual(second);
    expect((await batch(2, 1, 100)).headers).toEqual(headers(1, 9));
    expect((await blocks(0, 5, 7)).bodies).toEqual(old.bodies.slice(4));
    clock += 10 * 60_000;
    expect(desc.flush()).toBeNull();
    expect((await batch(0, 1, 100)).headers).toEqual([]);
    expect((await batch(1, 1, 100)).headers).toEqual([]);
    expect((await batch(2, 1, 100)).headers.length).toBe(9);
  });
});
