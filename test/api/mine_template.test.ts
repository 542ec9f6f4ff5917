// GET /chain/mine kept between changes (issue 20): the block's transactions are chosen once per
// chain state and mempool version and shared by every miner, each template paying its own reward
// address; the written answer is kept per reward address. A new tip or a new pending transaction
// gives a new template; every template served is one the node appends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { powCheck } from '../../ts/kernel/pow.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { parseHeader } from '../../ts/core/header.js';
import { bodyMerkleRoot, parseBody } from '../../ts/core/body.js';
import { REGTEST, powVersionAt } from '../../ts/consensus/params.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const A = TestWallet.fromSeed(41); // an account (fakemined to)
const B = TestWallet.fromSeed(42); // never an account: its template names it as a new address
const C = TestWallet.fromSeed(43); // an account, the recipient
const FEE_CODE = 0x4fa2;
const FEE = 1_000_448n; // FEE_CODE's amount, the default minimum
let node: TestNode;
let genesis: Uint8Array;

interface Template {
  header: string;
  body: string;
  merklePrefix: string;
  height: number;
  blockReward: { E8: number };
}

async function template(w: TestWallet): Promise<Template> {
  const r = await node.get(`/chain/mine/${w.addressText}`);
  expect(r.body.code, r.text).toBe(0);
  return r.body.data;
}

const parsed = (t: Template) => ({ header: parseHeader(fromHex(t.header)!), body: parseBody(fromHex(t.body)!, 'V4') });

/** The template with a nonce meeting the regtest target, as a miner submits it. */
function mined(t: Template) {
  const raw = fromHex(t.header)!;
  const v = new DataView(raw.buffer, raw.byteOffset);
  for (let n = 0; !powCheck(raw, powVersionAt(REGTEST, t.height)); n++) v.setUint32(76, n);
  return { height: t.height, header: toHex(raw), body: t.body };
}

async function tip() {
  const head = (await node.get('/chain/head')).body.data.chainHead as { height: number; hash: string };
  return { ...head, timestamp: (await node.get(`/chain/block/${head.height}`)).body.data.header.time.timestamp as number };
}

/** A signed transfer from A (pinned to the genesis, the default minimum fee), as POST /transaction/add takes it. */
function transferJson(nonceId: number, amount: bigint) {
  return requestJson(signRequest(A.sk, { type: 'coinTransfer', toAddress: C.address, amount }, { pinHeight: 0, pinHash: genesis, nonceId, feeCode: FEE_CODE }));
}

beforeAll(async () => {
  node = await startNode(['--regtest']);
  genesis = fromHex((await node.get('/chain/block/0/hash')).body.data)!;
  for (let i = 0; i < 2; i++) expect((await node.get(`/debug/fakemine/${A.addressText}`)).body).toEqual({ code: 0 });
  expect((await node.get(`/debug/fakemine/${C.addressText}`)).body).toEqual({ code: 0 });
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

describe('/chain/mine between changes', () => {
  it('pays each miner its own reward address, with the same transactions, each template valid', async () => {
    expect((await node.post('/transaction/add', transferJson(1, 5000n))).body.code).toBe(0);
    const before = Math.floor(Date.now() / 1000);
    const [a, b] = [await template(A), await template(B)];
    const after = Math.floor(Date.now() / 1000);
    const [pa, pb] = [parsed(a), parsed(b)];
    const t = await tip();
    for (const p of [pa, pb]) {
      expect(toHex(p.header.prevHash)).toBe(t.hash);
      expect(p.header.merkleRoot).toEqual(bodyMerkleRoot(p.body, true));
      expect(p.header.timestamp).toBeGreaterThanOrEqual(before);
      // The clock, or the earliest time the chain allows after its tip when that is later.
      expect(p.header.timestamp).toBeLessThanOrEqual(Math.max(after, t.timestamp + 1));
      expect(p.body.coinTransfers).toHaveLength(1);
    }
    expect(a.height).toBe(t.height + 1);
    expect(b.height).toBe(a.height);
    expect(pb.body.coinTransfers).toEqual(pa.body.coinTransfers);
    expect(a.blockReward).toEqual(b.blockReward);
    // A has an account: no new address; B is named as one, and the reward goes to its new id.
    expect(pa.body.newAddresses).toEqual([]);
    expect(pb.body.newAddresses.map(toHex)).toEqual([toHex(B.address)]);
    expect(pb.body.reward.toId).not.toBe(pa.body.reward.toId);
    expect(a.body).not.toBe(b.body);
    expect(a.merklePrefix).not.toBe(b.merklePrefix);
    // Asked again in the same state: the same transactions and reward (the header may be a second later).
    const again = await template(B);
    expect(again.body).toBe(b.body);
    expect(parseHeader(fromHex(again.header)!).merkleRoot).toEqual(pb.header.merkleRoot);
    // B's template is a block the node takes: B gets its account and the transfer is mined.
    const r = await node.post('/chain/append', mined(b));
    expect(r.body, r.text).toEqual({ code: 0, data: null });
    expect((await node.get('/transaction/mempool')).body.data).toEqual([]);
    expect((await node.get(`/account/${B.addressText}/coin_balance`)).body.data.coin.total.E8).toBe(b.blockReward.E8);
  });

  it('is built again when the tip moves', async () => {
    const old = await template(A);
    expect((await node.get(`/debug/fakemine/${C.addressText}`)).body).toEqual({ code: 0 });
    const t = await tip();
    const fresh = await template(A);
    expect(fresh.height).toBe(old.height + 1);
    expect(toHex(parsed(fresh).header.prevHash)).toBe(t.hash);
    // B has an account now: its template no longer names it as new.
    expect(parsed(await template(B)).body.newAddresses).toEqual([]);
    expect((await node.post('/chain/append', mined(fresh))).body.code).toBe(0);
  });

  it('is built again when the pending transactions change, for every miner', async () => {
    const [a0, b0] = [await template(A), await template(B)];
    expect(parsed(a0).body.coinTransfers).toEqual([]);
    expect((await node.post('/transaction/add', transferJson(2, 7000n))).body.code).toBe(0);
    const [a1, b1] = [await template(A), await template(B)];
    for (const [before, now] of [
      [a0, a1],
      [b0, b1],
    ]) {
      expect(now.height).toBe(before.height);
      expect(parsed(now).body.coinTransfers.map((e) => e.amount)).toEqual([7000n]);
      expect(now.blockReward.E8).toBe(before.blockReward.E8 + Number(FEE));
    }
    expect(parsed(b1).body.reward.toId).not.toBe(parsed(a1).body.reward.toId);
    expect((await node.post('/chain/append', mined(a1))).body.code).toBe(0);
    expect((await node.get('/transaction/mempool')).body.data).toEqual([]);
    expect(parsed(await template(B)).body.coinTransfers).toEqual([]);
  });
});
