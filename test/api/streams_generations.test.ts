// The streams in the reference generations (clients.md §6): with --api=0.10, blocks in `/stream`
// events and on `/ws/chain_delta` have the WebSocket block form (BlockWS); with --api=0.8,
// `/ws/chain_delta` carries the 0.8 block of `/chain/block`. Every message is checked against the
// generation's stream schemas.
import { afterAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { StreamClient } from '../helpers/stream.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const X = TestWallet.fromSeed(41).addressText;
const nodes: TestNode[] = [];
const clients: StreamClient[] = [];
afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  for (const n of nodes) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

async function setup(api: '0.10' | '0.8') {
  const node = await startNode(['--regtest', `--api=${api}`]);
  nodes.push(node);
  const s = await StreamClient.open(node.url, '/stream', true, api);
  const d = await StreamClient.open(node.url, '/ws/chain_delta', true, api);
  clients.push(s, d);
  s.subscribe('chain');
  s.subscribe('account', { address: X });
  await s.next('chain.state');
  await s.next('account.state');
  return { node, s, d };
}

describe('streams in the reference generations', () => {
  it('0.10: blocks in their WebSocket form', async () => {
    const { node, s, d } = await setup('0.10');
    expect((await node.get(`/debug/fakemine/${X}`)).body.code).toBe(0);
    const b = (await s.next('chain.append')).event.newBlocks[0];
    expect(Object.keys(b)).toEqual(['header', 'body', 'timestamp', 'utc', 'confirmations', 'height']);
    expect(typeof b.header.difficulty).toBe('number');
    expect(b.header.pow).toHaveProperty(['verusV2.2']);
    expect(Object.keys(b.body)).toEqual([
      'rewards',
      'wartTransfers',
      'tokenTransfers',
      'newOrders',
      'matches',
      'liquidityDeposits',
      'liquidityWithdrawals',
      'assetCreations',
      'cancelations',
    ]);
    expect(b.body.rewards[0].transaction.data.toAddress).toBe(X);
    expect(b.body.rewards[0].historyId).toBe(1);
    const delta = (await d.next('blockAppend')).data;
    expect(delta.header.hash).toBe(b.header.hash);
    expect(delta.body.rewards).toEqual(b.body.rewards);
    const acc = (await s.next('account.delta')).event;
    expect(acc.history[0].body.rewards[0].transaction.data.toAddress).toBe(X);
    expect(acc.balance.total.E8).toBeGreaterThan(0);
    expect((await node.get('/debug/rollback')).body.code).toBe(0);
    expect((await d.next('rollback')).data).toEqual({ length: 0 });
    expect((await s.next('chain.fork')).event.rollbackLength).toBe(0);
    expect([...s.problems, ...d.problems]).toEqual([]);
  });

  it('0.8: /ws/chain_delta carries the 0.8 block', async () => {
    const { node, s, d } = await setup('0.8');
    expect((await node.get(`/debug/fakemine/${X}`)).body.code).toBe(0);
    const b = (await d.next('blockAppend')).data;
    expect(Object.keys(b)).toEqual(['header', 'body', 'timestamp', 'utc', 'confirmations', 'height']);
    expect(b.body.rewards[0].toAddress).toBe(X);
    expect(b.body.rewards[0].amountE8).toBeGreaterThan(0);
    expect(b.body.transfers).toEqual([]);
    expect(b).toEqual(await node.data('/chain/block/1'));
    expect((await s.next('chain.append')).event.newBlocks[0]).toEqual(b);
    expect([...s.problems, ...d.problems]).toEqual([]);
  });
});
