// A partition: after 5 shared blocks, A and B run unconnected and mine separately, the lighter
// branch with a transfer whose sender was created in the shared part. Then B restarts with
// --connect to A. The heavier chain wins on both nodes (strictly more work, p2p.md §3.5), the
// other node rolls its branch back, and the orphaned transfer returns to its mempool, from where
// it is relayed and finally mined on the winning chain.
import { afterEach, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { fee16Encode } from '../../ts/kernel/fee16.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { head, mine, sameHead, startPeerNode, waitFor } from '../helpers/peers.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const MINER = TestWallet.fromSeed(201);
const PAYEE = TestWallet.fromSeed(202);
const LIGHT_ONLY = TestWallet.fromSeed(203);
const HEAVY_ONLY = TestWallet.fromSeed(204);
const FEE_CODE = fee16Encode(1_000_448n, 'up');
let nodes: TestNode[] = [];

afterEach(async () => {
  for (const n of nodes) {
    await n.stop();
    await removeDir(n.dataDir);
  }
  nodes = [];
});

const mempoolHashes = async (n: TestNode): Promise<string[]> => (await n.get('/transaction/mempool')).body.data.map((e: any) => e.transaction.hash);

describe.each([{ heavier: 'A' }, { heavier: 'B' }])('a partition where $heavier carries more work', ({ heavier }) => {
  it('ends on the heavier chain on both nodes, with the orphaned transfer back in the mempool', async () => {
    // Shared history: 5 blocks mined on A, synced by B; then B runs unconnected.
    let A = await startPeerNode();
    nodes.push(A);
    await mine(A, MINER.addressText, 5);
    let B = await startPeerNode([A]);
    nodes.push(B);
    await sameHead(A, [B]);
    B = await restart(B, [], ['--isolated']); // not even the peers it keeps in its address book
    const [heavy, light] = heavier === 'A' ? [A, B] : [B, A];

    // The branches: each starts with a block paying its own address, so they differ from height 6.
    await mine(light, LIGHT_ONLY.addressText, 1);
    await mine(heavy, HEAVY_ONLY.addressText, 1);
    // The lighter one: a transfer mined at height 8, 10 blocks in all.
    await mine(light, MINER.addressText, 1);
    const req = signRequest(
      MINER.sk,
      { type: 'coinTransfer', toAddress: PAYEE.address, amount: 5_000_000n },
      { pinHeight: 0, pinHash: REGTEST.genesisHash, nonceId: 1, feeCode: FEE_CODE },
    );
    const added = await light.post('/transaction/add', requestJson(req));
    expect(added.body.code, added.text).toBe(0);
    const txHash: string = added.body.data.txHash;
    await mine(light, MINER.addressText, 3);
    expect((await light.get(`/transaction/lookup/${txHash}`)).body.data.confirmations).toBe(3);
    // The heavier one: 15 blocks (equal targets on regtest: more blocks, more work).
    await mine(heavy, MINER.addressText, 9);
    const winner = await head(heavy);
    expect(winner.height).toBe(15);
    expect((await head(light)).height).toBe(10);

    // B restarts, connecting to A: both end on the heavier chain.
    B = await restart(B, [A]);
    const lightNow = heavier === 'A' ? B : A;
    const heavyNow = heavier === 'A' ? A : B;
    expect(await sameHead(A, [B])).toMatchObject({ height: 15, hash: winner.hash });
    // The log line follows the switch the head already shows: wait for it to come through the pipe.
    await waitFor('the switch in the log', async () => /Switched to the branch of .* at height 6: 5 block\(s\) rolled back/.test(lightNow.output()), 10_000);
    // The orphaned transfer is pending again on the node that rolled back, then on the other one.
    const lookup = await lightNow.get(`/transaction/lookup/${txHash}`);
    expect(lookup.body.data, lookup.text).toMatchObject({ confirmations: 0, mined: null });
    await waitFor('the transfer relayed to the winner', async () => (await mempoolHashes(heavyNow)).includes(txHash), 15_000);
    // Mined on the winning chain, seen by both.
    await mine(heavyNow, MINER.addressText, 1);
    await sameHead(heavyNow, [lightNow]);
    for (const n of [A, B]) {
      expect((await n.get(`/transaction/lookup/${txHash}`)).body.data.confirmations).toBe(1);
      expect((await head(n)).synced).toBe(true);
    }
  });
});

describe('a pinned peer that restarts', () => {
  it('is reconnected with backoff and followed again', async () => {
    const A = await startPeerNode();
    nodes.push(A);
    await mine(A, MINER.addressText, 3);
    const B = await startPeerNode([A]);
    nodes.push(B);
    await sameHead(A, [B]);
    // A restarts on the same port; they connect again (B dials its pinned A, or A its stored B:
    // of two nodes that dialled each other, the connection the lower port dialled was kept).
    const connections = () => (B.output().match(/Connected (to|from) peer/g) ?? []).length;
    const before = connections();
    await A.stop();
    const again = await startPeerNode([], A.dataDir, [`--bind=${A.p2p}`]);
    nodes = nodes.map((x) => (x === A ? again : x));
    await waitFor('B to reconnect', async () => connections() > before, 20_000);
    await mine(again, MINER.addressText, 2);
    expect((await sameHead(again, [B])).height).toBe(5);
  });
});

/** Stops `n` and starts it again on its data directory, connecting to `connect`. */
async function restart(n: TestNode, connect: TestNode[], extra: string[] = []): Promise<TestNode> {
  await n.stop();
  const again = await startPeerNode(connect, n.dataDir, extra);
  nodes = nodes.map((x) => (x === n ? again : x));
  return again;
}
