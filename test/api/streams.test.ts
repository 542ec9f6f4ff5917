// The WebSocket streams of a running regtest node (clients.md §6): `/stream` topics chain, log,
// minerdist, account and connection, and `/ws/chain_delta`, through mining, rollback, a
// rollback-and-replace reorg, peers joining and leaving, clients disconnecting, malformed
// requests, and a client that never reads (dropped; the node stays responsive). Every message is
// validated against its declared schema by the client helper.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { mine, startPeerNode, waitFor } from '../helpers/peers.js';
import { StreamClient } from '../helpers/stream.js';
import { TestWallet } from '../helpers/wallet.js';
import { writeJson } from '../../ts/api/json.js';
import { CLOSE_TOO_SLOW } from '../../ts/api/streams/subscriber.js';

await initKernel();

const X = TestWallet.fromSeed(21).addressText;
const Y = TestWallet.fromSeed(22).addressText;

let node: TestNode;
const clients: StreamClient[] = [];
beforeAll(async () => {
  node = await startPeerNode();
});
afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  await node.stop();
  await removeDir(node.dataDir);
});

async function open(path: '/stream' | '/ws/chain_delta', keep = true): Promise<StreamClient> {
  const c = await StreamClient.open(node.url, path, keep);
  clients.push(c);
  return c;
}

const fakemine = async (address: string) => expect((await node.get(`/debug/fakemine/${address}`)).body.code).toBe(0);

describe('streams', () => {
  let s: StreamClient;
  let d: StreamClient;

  it('sends each topic state on subscribe', async () => {
    s = await open('/stream');
    d = await open('/ws/chain_delta');
    for (const t of ['chain', 'log', 'minerdist', 'connection']) s.subscribe(t);
    s.subscribe('account', { address: X });
    const chain = (await s.next('chain.state')).event;
    expect(chain.head.height).toBe(0);
    expect(chain.latestBlocks).toEqual([]);
    expect((await s.next('log.state')).event.some((l: any) => /RPC endpoint is/.test(l.message))).toBe(true);
    expect((await s.next('minerdist.state')).event).toEqual({ counts: [] });
    expect((await s.next('connection.state')).event).toEqual({ connections: [], total: 0 });
    expect((await s.next('account.state')).event).toEqual({ address: X, history: [] });
  });

  it('reports mined blocks on every topic', async () => {
    for (let i = 0; i < 3; i++) await fakemine(X);
    // Changes published together (at most one publication per 100 ms, FLUSH_MS) share one event per topic.
    const blocks: any[] = [];
    while (blocks.length < 3) {
      const a = (await s.next('chain.append')).event;
      expect(a.head.height).toBe(a.newBlocks[a.newBlocks.length - 1].height);
      expect(a.head.hash).toBe(a.newBlocks[a.newBlocks.length - 1].header.hash);
      blocks.push(...a.newBlocks);
    }
    expect(blocks.map((b) => b.height)).toEqual([1, 2, 3]);
    const hashes = blocks.map((b) => b.header.hash);
    expect(hashes).toEqual(await Promise.all([1, 2, 3].map((h) => node.data(`/chain/block/${h}/hash`))));
    for (let h = 1; h <= 3; h++) {
      const b = (await d.next('blockAppend')).data;
      expect([b.height, b.header.hash]).toEqual([h, hashes[h - 1]]);
    }
    let mined = 0;
    while (mined < 3) {
      const deltas = (await s.next('minerdist.delta')).event.deltas;
      expect(deltas.map((x: any) => x.address)).toEqual([X]);
      mined += deltas[0].count;
    }
    expect(mined).toBe(3);
    const history: number[] = [];
    while (history.length < 3) {
      const acc = (await s.next('account.delta')).event;
      expect(acc.address).toBe(X);
      expect(acc.balance.total.E8).toBeGreaterThan(0);
      history.push(...acc.history.map((x: any) => x.height));
    }
    expect(history).toEqual([1, 2, 3]);
    const line = await s.next('log.line');
    expect(line.event.message).toMatch(/Faked new block #1/);
  });

  it('reports a rollback and the replacing block (reorg)', async () => {
    const before = (await node.data('/chain/head')).chainHead;
    expect((await node.get('/debug/rollback')).body.code).toBe(0);
    const fork = (await s.next('chain.fork')).event;
    expect(fork.rollbackLength).toBe(2);
    expect(fork.head.height).toBe(2);
    expect(fork.latestBlocks.map((b: any) => b.height)).toEqual([1, 2]);
    expect(fork.latestBlocks.map((b: any) => b.confirmations)).toEqual([2, 1]);
    expect((await d.next('rollback')).data).toEqual({ length: 2 });
    expect((await s.next('minerdist.delta')).event.deltas).toEqual([{ address: X, count: -1 }]);
    const acc = (await s.next('account.delta')).event;
    expect(acc.history).toEqual([]);

    await fakemine(Y);
    const a = (await s.next('chain.append')).event;
    expect(a.newBlocks[0].height).toBe(3);
    expect(a.newBlocks[0].header.hash).not.toBe(before.hash);
    expect((await d.next('blockAppend')).data.header.hash).toBe(a.newBlocks[0].header.hash);
    expect((await s.next('minerdist.delta')).event.deltas).toEqual([{ address: Y, count: 1 }]);
    // Y is not subscribed: X hears nothing about block 3 (only of blocks 1–3 and the rollback).
    expect(s.all('account.delta').flatMap((m) => m.event.history.map((x: any) => x.height))).toEqual([1, 2, 3]);
  });

  it('a late subscriber gets the current state, with every block confirmed', async () => {
    const late = await open('/stream');
    late.subscribe('chain');
    late.subscribe('minerdist');
    const st = (await late.next('chain.state')).event;
    expect(st.latestBlocks.map((b: any) => [b.height, b.confirmations])).toEqual([
      [1, 3],
      [2, 2],
      [3, 1],
    ]);
    const counts = (await late.next('minerdist.state')).event.counts;
    expect(new Map(counts.map((c: any) => [c.address, c.count]))).toEqual(
      new Map([
        [X, 2],
        [Y, 1],
      ]),
    );
    late.close();
  });

  it('stops sending a topic on unsubscribe; subscribing again sends its state', async () => {
    s.send({ action: 'unsubscribe', topic: 'chain' });
    await fakemine(X);
    s.subscribe('chain');
    const st = (await s.next('chain.state')).event;
    expect(st.head.height).toBe(4);
    // Block 4's chain.append comes only if the unsubscribe arrived after it was published.
    const heights = s.all('chain.append').flatMap((m) => m.event.newBlocks.map((b: any) => b.height));
    expect(heights).toEqual(expect.arrayContaining([1, 2, 3]));
    expect(heights.every((h) => h <= 4)).toBe(true);
    expect((await d.next('blockAppend')).data.height).toBe(4);
  });

  it('reports peers joining and leaving, and a sync of many blocks', async () => {
    const peer = await startPeerNode([node]);
    try {
      const add = (await s.next('connection.add')).event;
      expect(add.total).toBe(1);
      expect(add.connection.peerAddr).toMatch(/^127\.0\.0\.1:\d+$/);
      // The peer syncs; then it mines 12 blocks that come back to us in one or more changes.
      await waitFor('peer synced', async () => (await peer.data('/chain/head')).chainHead.height === 4);
      const from = s.received.length;
      // With real proof of work: /debug/fakemine blocks pass a peer's PoW check only by chance.
      await mine(peer, Y, 12);
      await waitFor('16 blocks', async () => (await node.data('/chain/head')).chainHead.height === 16);
      const isChain = (m: { type: string }) => m.type === 'chain.append' || m.type === 'chain.state';
      await waitFor('head 16 on the stream', async () => s.received.slice(from).some((m) => isChain(m) && m.event.head.height === 16));
      // Blocks come a few per change (chain.append) or many at once (chain.state, the last 10 only);
      // /ws/chain_delta below has every one.
      const seen = new Set<number>();
      for (const m of s.received.slice(from).filter(isChain)) {
        for (const b of m.type === 'chain.append' ? m.event.newBlocks : m.event.latestBlocks) seen.add(b.height);
      }
      for (let h = 7; h <= 16; h++) expect(seen.has(h), `block ${h}`).toBe(true);
      s.skipAll();
      for (let h = 5; h <= 16; h++) expect((await d.next('blockAppend')).data.height).toBe(h);
    } finally {
      await peer.stop();
      await removeDir(peer.dataDir);
    }
    // Both directions may have been connected (we dial a peer's listen address too): all go.
    while ((await s.next('connection.remove')).event.total !== 0);
    expect(s.all('connection.remove').length).toBe(s.all('connection.add').length);
  });

  it('closes a client that sends a malformed request with 1002', async () => {
    for (const bad of [
      'not json',
      '{"action":"subscribe","topic":"nope"}',
      '{"action":"jump","topic":"chain"}',
      '{"action":"subscribe","topic":"account","params":{"address":"00"}}',
    ]) {
      const c = await open('/stream');
      c.send(bad);
      expect((await c.waitClosed()).code, bad).toBe(1002);
    }
  });

  it('forgets clients that disconnect and keeps serving the others', async () => {
    const gone = await open('/stream');
    gone.subscribe('chain');
    await gone.next('chain.state');
    gone.ws.terminate();
    await fakemine(X);
    expect((await d.next('blockAppend')).data.height).toBe(17);
    expect((await s.next('chain.append')).event.head.height).toBe(17);
  });

  it('drops a client that never reads; the node stays responsive', async () => {
    const probe = await open('/stream');
    probe.subscribe('chain');
    const stateBytes = writeJson(await probe.next('chain.state')).length;
    probe.close();
    const slow = await open('/stream', false);
    slow.ws.pause();
    // Every subscribe answers with the chain state (10 blocks): the node's queue for this client fills.
    for (let i = 0; i < 3000; i++) slow.subscribe('chain');
    await waitFor('the slow client dropped', async () => /stream client #\d+ too slow: dropped/.test(node.output()), 60_000);
    expect((await node.get('/chain/head')).body.code).toBe(0);
    await fakemine(X);
    expect((await s.next('chain.append')).event.head.height).toBe(18);
    slow.ws.resume();
    const closed = await slow.waitClosed();
    expect([CLOSE_TOO_SLOW, 1006]).toContain(closed.code);
    // What reached it is bounded: the kernel's socket buffers plus the node's per-client bound.
    expect(slow.bytes).toBeLessThan((3000 * stateBytes) / 2);
  });

  it('every message matched its schema', () => {
    for (const c of clients) expect(c.problems).toEqual([]);
    expect(s.received.length).toBeGreaterThan(30);
  });
});
