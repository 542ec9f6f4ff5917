// The light node over HTTP (issue 14: where --ws-port is off), in Node.js against a real regtest
// node: it verifies every header it reads, follows new blocks, and on a reorg cuts back to the last
// header the node still has and verifies the new branch.
import { afterAll, expect, it } from 'vitest';
import { REGTEST } from '../../ts/consensus/params.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { HttpFollower } from '../../ts/web/http_follower.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { mine, waitFor } from '../helpers/peers.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();
let node: TestNode;
let follower: HttpFollower | undefined;
afterAll(async () => {
  follower?.close();
  await node?.stop();
  if (node) await removeDir(node.dataDir);
});

it('follows the chain over HTTP and shows a reorg', async () => {
  node = await startNode(['--regtest']);
  const [A, B] = [TestWallet.fromSeed(71), TestWallet.fromSeed(72)];
  await mine(node, A.addressText, 5);
  follower = new HttpFollower({ params: REGTEST, get: (path) => node.data(path), pollMs: 50 });
  const head = async () => (await node.data('/chain/head')).chainHead as { height: number; hash: string };
  await waitFor('5 headers verified', async () => follower!.status().verified === 5);
  expect(follower.status().verifiedHash).toBe((await head()).hash);

  // Blocks 4 and 5 are replaced by a longer branch paying B.
  for (let i = 0; i < 2; i++) expect((await node.get('/debug/rollback')).body.code).toBe(0);
  await mine(node, B.addressText, 3);
  await waitFor('the new branch verified', async () => follower!.status().verified === 6 && follower!.status().verifiedHash === (await head()).hash, 20_000);
  const s = follower.status();
  expect(s.reorgs.at(-1)).toBe(3);
  expect(s.error).toBeNull();
  expect(s.peerLength).toBe(6);
}, 60_000);
