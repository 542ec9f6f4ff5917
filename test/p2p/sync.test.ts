// Three regtest nodes in a line, A ← B ← C (each connects to the previous one): blocks mined on A
// with real proof of work reach B and C through header-first sync; a transaction submitted to C
// travels C → B → A (Txnotify / Txreq / Txrep), is mined by A and is seen as mined by all three.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { fee16Encode } from '../../ts/kernel/fee16.js';
import { fromHex } from '../../ts/core/hex.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { head, mine, sameHead, startPeerNode, waitFor } from '../helpers/peers.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const MINER = TestWallet.fromSeed(101);
const PAYEE = TestWallet.fromSeed(102);
const FEE_CODE = fee16Encode(1_000_448n, 'up');
const nodes: TestNode[] = [];
let A: TestNode, B: TestNode, C: TestNode;

beforeAll(async () => {
  A = await startPeerNode();
  nodes.push(A);
  await mine(A, MINER.addressText, 200);
  B = await startPeerNode([A]);
  nodes.push(B);
  C = await startPeerNode([B]);
  nodes.push(C);
});

afterAll(async () => {
  for (const n of nodes) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

describe('three nodes', () => {
  it('B and C reach the head A mined, and report synced', async () => {
    const h = await sameHead(A, [B, C]);
    expect(h.height).toBe(200);
    for (const n of [A, B, C]) expect((await head(n)).synced).toBe(true);
    expect((await B.get('/chain/block/200/hash')).body.data).toBe(h.hash);
    expect(B.output()).toMatch(/Synced to height 200 from 127\.0\.0\.1:\d+/);
  });

  it('new blocks on A are announced and follow; a following node logs each new block once', async () => {
    for (let i = 0; i < 3; i++) {
      await mine(A, MINER.addressText, 1);
      await sameHead(A, [B, C]);
    }
    expect((await sameHead(A, [B, C])).height).toBe(203);
    for (let h = 201; h <= 203; h++) {
      const hash = (await A.get(`/chain/block/${h}/hash`)).body.data;
      const lines = B.output()
        .split('\n')
        .filter((l) => l.includes(`New block #${h} `));
      expect(lines, `block ${h}`).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`New block #${h} ${hash} from 127\\.0\\.0\\.1:\\d+$`));
    }
  });

  it('a burst of blocks reaches the peers without their asking for anything twice (no throttling)', async () => {
    const before = (await head(A)).height;
    await mine(A, MINER.addressText, 40);
    expect((await sameHead(A, [B, C])).height).toBe(before + 40);
    // Re-fetching headers after every announcement made A throttle B (p2p.md §3.8), holding a burst back for tens of seconds.
    expect(await A.data('/peers/throttled')).toEqual([]);
    expect(await B.data('/peers/throttled')).toEqual([]);
  });

  it('a transaction submitted to C is relayed to A, mined there and seen by all', async () => {
    const pinHash = fromHex((await C.get('/chain/block/32/hash')).body.data)!;
    const req = signRequest(
      MINER.sk,
      { type: 'coinTransfer', toAddress: PAYEE.address, amount: 12_345_678n },
      { pinHeight: 32, pinHash, nonceId: 7, feeCode: FEE_CODE },
    );
    const added = await C.post('/transaction/add', requestJson(req));
    expect(added.body.code, added.text).toBe(0);
    const txHash = added.body.data.txHash;
    // C → B → A (or C → A directly once C has learnt A's address from B's pong: B then has it from either).
    for (const n of [A, B]) await waitFor('the transaction in the mempool', async () => (await n.get(`/transaction/lookup/${txHash}`)).body.code === 0, 15_000);
    expect((await B.get(`/transaction/lookup/${txHash}`)).body.data.confirmations).toBe(0);
    await mine(A, MINER.addressText, 1);
    const h = await sameHead(A, [B, C]);
    for (const n of [A, B, C]) {
      const l = (await n.get(`/transaction/lookup/${txHash}`)).body.data;
      expect(l.confirmations).toBe(1);
      expect(l.mined.block.height).toBe(h.height);
      expect((await n.get('/transaction/mempool')).body.data).toEqual([]);
      expect((await n.get(`/account/${PAYEE.addressText}/coin_balance`)).body.data.coin.total.E8).toBe(12_345_678);
    }
  });

  it('a node started later fills its mempool from its peer', async () => {
    const pinHash = fromHex((await A.get('/chain/block/32/hash')).body.data)!;
    const req = signRequest(
      MINER.sk,
      { type: 'coinTransfer', toAddress: PAYEE.address, amount: 1_000n },
      { pinHeight: 32, pinHash, nonceId: 8, feeCode: FEE_CODE },
    );
    const added = await A.post('/transaction/add', requestJson(req));
    expect(added.body.code, added.text).toBe(0);
    await waitFor('the transaction on C', async () => (await C.get(`/transaction/lookup/${added.body.data.txHash}`)).body.code === 0, 15_000);
    const D = await startPeerNode([A]);
    nodes.push(D);
    await sameHead(A, [D]);
    await waitFor("the transaction in D's mempool", async () => (await D.get(`/transaction/lookup/${added.body.data.txHash}`)).body.code === 0, 15_000);
  });
});
