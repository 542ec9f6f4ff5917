// GET /transaction/lookup kept as written bytes (issue 20): a mined transaction's answer per block
// (its confirmations written per request), unaffected by the mempool moving; a pending one's per
// mempool version. Every answer served from memory equals the one the node builds afresh, also
// after the block is rolled back (the transaction pending again) and mined in another block.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { fromHex } from '../../ts/core/hex.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const A = TestWallet.fromSeed(51);
const B = TestWallet.fromSeed(52);
const M = TestWallet.fromSeed(53);
const FEE_CODE = 0x4fa2; // 0.01000448 coin, the default minimum
let node: TestNode;
let genesis: Uint8Array;

/** A signed transfer from A (pinned to the genesis, the default minimum fee), as POST /transaction/add takes it. */
function transferJson(nonceId: number, amount: bigint) {
  return requestJson(signRequest(A.sk, { type: 'coinTransfer', toAddress: B.address, amount }, { pinHeight: 0, pinHash: genesis, nonceId, feeCode: FEE_CODE }));
}

async function add(nonceId: number, amount = 1000n): Promise<string> {
  const r = await node.post('/transaction/add', transferJson(nonceId, amount));
  expect(r.body.code, r.text).toBe(0);
  return r.body.data.txHash;
}

const lookup = async (hash: string) => (await node.get(`/transaction/lookup/${hash}`)).body;
const head = async () => (await node.get('/chain/head')).body.data.chainHead as { height: number; hash: string };

beforeAll(async () => {
  node = await startNode(['--regtest']);
  genesis = fromHex((await node.get('/chain/block/0/hash')).body.data)!;
  for (let i = 0; i < 2; i++) expect((await node.get(`/debug/fakemine/${A.addressText}`)).body).toEqual({ code: 0 });
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

describe('/transaction/lookup between changes', () => {
  it('answers a mined transfer with the confirmations of the moment, whatever the mempool does', async () => {
    const hash = await add(1);
    const pending = await lookup(hash);
    expect(pending.data.confirmations).toBe(0);
    expect(pending.data.mined).toBeNull();
    expect(await lookup(hash)).toEqual(pending);
    expect((await node.get(`/debug/fakemine/${M.addressText}`)).body).toEqual({ code: 0 });
    const h = await head();
    const first = await lookup(hash);
    expect(first.data.confirmations).toBe(1);
    expect(first.data.mined.block).toMatchObject({ height: h.height, hash: h.hash });
    expect(first.data.transaction).toEqual(pending.data.transaction);
    expect(await lookup(hash)).toEqual(first); // built, then kept
    expect(await lookup(hash)).toEqual(first); // served from memory
    // The mempool moves: the mined answer stays.
    await add(2);
    expect(await lookup(hash)).toEqual(first);
    // Buried deeper: only the confirmations change.
    expect((await node.get(`/debug/fakemine/${M.addressText}`)).body).toEqual({ code: 0 });
    expect((await node.get(`/debug/fakemine/${M.addressText}`)).body).toEqual({ code: 0 });
    const deeper = await lookup(hash);
    expect(deeper.data.confirmations).toBe(3);
    expect({ ...deeper.data, confirmations: 1 }).toEqual(first.data);
    expect(await lookup(hash)).toEqual(deeper);
  });

  it('follows the transaction back into the mempool and into another block', async () => {
    const hash = await add(3, 4321n);
    expect((await node.get(`/debug/fakemine/${M.addressText}`)).body).toEqual({ code: 0 });
    const minedFirst = await lookup(hash);
    expect(minedFirst.data.confirmations).toBe(1);
    expect(await lookup(hash)).toEqual(minedFirst);
    // Rolled back: pending again, as the mempool lists it.
    expect((await node.get('/debug/rollback')).body).toEqual({ code: 0 });
    const again = await lookup(hash);
    expect(again.data.confirmations).toBe(0);
    expect(again.data.mined).toBeNull();
    expect(await lookup(hash)).toEqual(again);
    // Mined in another block (another miner: another hash) at the same height.
    expect((await node.get(`/debug/fakemine/${A.addressText}`)).body).toEqual({ code: 0 });
    const h = await head();
    expect(h.hash).not.toBe(minedFirst.data.mined.block.hash);
    const minedSecond = await lookup(hash);
    expect(minedSecond.data.confirmations).toBe(1);
    expect(minedSecond.data.mined.block).toMatchObject({ height: h.height, hash: h.hash });
    expect(await lookup(hash)).toEqual(minedSecond);
    // Rolled back again, the height left empty: nowhere but in the mempool.
    expect((await node.get('/debug/rollback')).body).toEqual({ code: 0 });
    expect((await lookup(hash)).data.mined).toBeNull();
  });
});
