// Block download from several peers at once (p2p.md §3.4, ts/p2p/sync.ts downloadBlocks): A mines a
// chain, B and C take it from A; a fresh node D connected to all three fetches the bodies from the
// leader and from the others, and ends on A's head. A peer on another branch (E) is probed and not
// punished.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { mine, sameHead, startPeerNode, waitFor } from '../helpers/peers.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const MINER = TestWallet.fromSeed(131);
const OTHER = TestWallet.fromSeed(132);
const nodes: TestNode[] = [];
let A: TestNode, B: TestNode, C: TestNode, E: TestNode;

beforeAll(async () => {
  A = await startPeerNode();
  E = await startPeerNode();
  nodes.push(A, E);
  await mine(A, MINER.addressText, 300);
  await mine(E, OTHER.addressText, 60);
  B = await startPeerNode([A]);
  C = await startPeerNode([A]);
  nodes.push(B, C);
  await sameHead(A, [B, C]);
}, 120_000);

afterAll(async () => {
  for (const n of nodes) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

describe('download from several peers', () => {
  it('a fresh node takes the bodies from the leader and the peers that hold the same branch', async () => {
    const D = await startPeerNode([A, B, C, E]);
    nodes.push(D);
    const h = await sameHead(A, [D]);
    expect(h.height).toBe(300);
    const line = await waitFor('the sync summary', async () =>
      D.output()
        .split('\n')
        .find((l) => l.includes('Synced to height 300')),
    );
    expect(line, D.output()).toMatch(/Synced to height 300 from 127\.0\.0\.1:\d+ and [23] other peers \(300 blocks in /);
    // E is probed where its chain stands; while it holds another branch it is not asked for blocks
    // (it may join A's branch meanwhile: A, B and C learn its address from D). Nobody is punished,
    // and E is still connected (by D's dial or E's dial back, whichever the mutual-dial rule kept).
    expect(D.output()).not.toMatch(/failed|offense/i);
    expect(await D.data('/peers/connected')).toHaveLength(4);
    expect(await D.data('/peers/offenses/1')).toEqual([]);
  }, 60_000);
});
