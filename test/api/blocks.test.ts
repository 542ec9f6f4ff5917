// /chain/block/:id, /chain/block/:id/header, /chain/block/:id/binary and /transaction/latest
// against a started regtest node whose blocks come from /debug/fakemine/:address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAddress } from '../../ts/core/address.js';
import { bodyMerkleRoot, parseBody } from '../../ts/core/body.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { rewardHash } from '../../ts/core/transaction.js';
import { GENESIS_HASH } from '../../ts/consensus/params.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { wallet } from '../state/chain_fixture.js';
import { expectError } from './expect_error.js';

const A = formatAddress(wallet(1).address),
  B = formatAddress(wallet(2).address);
const REWARD = { str: '3.00000000', E8: 300_000_000 };
const EMPTY_TOKEN_ERA = {
  tokenTransfer: [],
  limitSwap: [],
  match: [],
  liquidityDeposit: [],
  liquidityWithdrawal: [],
  assetCreation: [],
  cancelation: [],
};
let node: TestNode;

const get = (path: string) => node.data(path);
const tip = async (): Promise<number> => (await get('/chain/head')).chainHead.height;
const mine = async (address: string, n = 1) => {
  for (let i = 0; i < n; i++) expect((await node.get(`/debug/fakemine/${address}`)).body).toEqual({ code: 0 });
};

beforeAll(async () => {
  node = await startNode(['--regtest']);
  await mine(A, 2);
  await mine(B);
  await mine(A, 2);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

describe('GET /chain/block/:id', () => {
  it('shows the reward of each block with its history id, and empty token-era lists', async () => {
    const addresses = [A, A, B, A, A];
    for (let h = 1; h <= 5; h++) {
      const b = await get(`/chain/block/${h}`);
      expect(Object.keys(b)).toEqual(['header', 'body', 'confirmations', 'height']);
      expect(Object.keys(b.body)).toEqual(['reward', 'coinTransfer', ...Object.keys(EMPTY_TOKEN_ERA)]);
      expect(b.height).toBe(h);
      expect(b.confirmations).toBe(5 - h + 1);
      expect(b.body).toEqual({ reward: { historyId: h, transaction: expect.any(Object) }, coinTransfer: [], ...EMPTY_TOKEN_ERA });
      const tx = b.body.reward.transaction;
      expect(Object.keys(tx)).toEqual(['data', 'hash']); // implicit: no signedCommon
      expect(tx.data).toEqual({ toAddress: addresses[h - 1], amount: REWARD });
      expect(tx.hash).toBe(toHex(rewardHash(fromHex(addresses[h - 1].slice(0, 40))!, 300_000_000n, h)));
    }
  });

  it('has header fields consistent with the raw header and the chain (consensus.md §2.1)', async () => {
    let prev = toHex(GENESIS_HASH);
    for (let h = 1; h <= 5; h++) {
      const { header } = await get(`/chain/block/${h}`);
      expect(Object.keys(header)).toEqual(['hash', 'prevHash', 'merkleroot', 'nonce', 'version', 'target', 'raw', 'time', 'pow']);
      const raw: string = header.raw;
      expect(header.prevHash).toBe(prev);
      expect(raw.slice(0, 64)).toBe(header.prevHash);
      expect(raw.slice(64, 72)).toBe(header.target);
      expect(raw.slice(72, 136)).toBe(header.merkleroot);
      expect(raw.slice(136, 144)).toBe(header.version);
      expect(parseInt(raw.slice(144, 152), 16)).toBe(header.time.timestamp);
      expect(raw.slice(152, 160)).toBe(header.nonce);
      expect(header.target).toBe('003fffff'); // regtest minimum target until the first retarget
      // Regtest follows testnet: version 3 and Janus7 (VerusHash v2.1) at heights 1–2, then 4 and Janus8 (v2.2).
      expect(header.version).toBe(h <= 2 ? '00000003' : '00000004');
      expect(Object.keys(header.pow)).toEqual(['floatSha256t', 'floatVerus', 'hashSha256t', 'hashVerus', 'verusV2_2']);
      expect(header.pow.verusV2_2).toBe(h > 2);
      expect(header.pow.floatSha256t).toBeGreaterThanOrEqual(0);
      expect(header.pow.floatSha256t).toBeLessThan(1);
      expect(header.hash).toBe(await get(`/chain/block/${h}/hash`));
      const iso = new Date(header.time.timestamp * 1000).toISOString();
      expect(header.time.UTC).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`);
      prev = header.hash;
    }
  });

  it('finds a block by its hash, in either case', async () => {
    for (let h = 1; h <= 5; h++) {
      const byHeight = await get(`/chain/block/${h}`);
      expect(await get(`/chain/block/${byHeight.header.hash}`)).toEqual(byHeight);
      expect(await get(`/chain/block/${byHeight.header.hash.toUpperCase()}`)).toEqual(byHeight);
    }
    expect((await get('/chain/block/0003')).height).toBe(3); // leading zeros are allowed
  });

  it('counts confirmations from the tip', async () => {
    const before = (await get('/chain/block/2')).confirmations;
    await mine(B);
    expect((await get('/chain/block/2')).confirmations).toBe(before + 1);
    expect((await get(`/chain/block/${await tip()}`)).confirmations).toBe(1);
  });
});

describe('GET /chain/block/:id/header', () => {
  it('is the block header with Unix time and the `verusV2.2` key (http-api.md)', async () => {
    for (const h of [1, 3]) {
      const b = await get(`/chain/block/${h}`);
      const r = await get(`/chain/block/${b.header.hash}/header`);
      expect(Object.keys(r)).toEqual(['header', 'height']);
      expect(r.height).toBe(h);
      const { time, pow, ...rest } = b.header;
      expect(r.header).toEqual({
        ...rest,
        time: time.timestamp,
        pow: { floatSha256t: pow.floatSha256t, floatVerus: pow.floatVerus, hashSha256t: pow.hashSha256t, hashVerus: pow.hashVerus, 'verusV2.2': pow.verusV2_2 },
      });
      expect(await get(`/chain/block/${h}/header`)).toEqual(r);
    }
  });
});

describe('GET /chain/block/:id/binary', () => {
  it('is the body bytes with a structure whose top-level nodes cover them in order', async () => {
    for (let h = 1; h <= 5; h++) {
      const r = await get(`/chain/block/${h}/binary`);
      const b = await get(`/chain/block/${h}`);
      const bytes = fromHex(r.bytes)!;
      // Only the body: its merkle root is the header's (testnet rules: new type, §6.7).
      expect(toHex(bodyMerkleRoot(parseBody(bytes, 'V4'), true))).toBe(b.header.merkleroot);
      const tags = r.structure.map((n: { tag: string }) => n.tag);
      expect(tags).toEqual(['extraNonce', 'newAddresses', 'reward', 'coinTransfer', 'cancelation', 'tokenSections', 'assetCreation']);
      let at = 0;
      const walk = (nodes: { tag: string; beginOffset: number; endOffset: number; children: any[] }[], begin: number, end: number) => {
        let pos = begin;
        for (const n of nodes) {
          expect(n.beginOffset).toBeGreaterThanOrEqual(pos);
          expect(n.endOffset).toBeGreaterThanOrEqual(n.beginOffset);
          expect(n.endOffset).toBeLessThanOrEqual(end);
          walk(n.children, n.beginOffset, n.endOffset);
          pos = n.endOffset;
        }
      };
      walk(r.structure, 0, bytes.length);
      for (const n of r.structure) {
        expect(n.beginOffset).toBe(at);
        at = n.endOffset;
      }
      expect(at).toBe(bytes.length);
      const reward = r.structure[2];
      expect(reward.children.map((c: { tag: string }) => c.tag)).toEqual(['toAccountId', 'coin']);
      const coin = reward.children[1];
      expect(BigInt('0x' + r.bytes.slice(2 * coin.beginOffset, 2 * coin.endOffset))).toBe(300_000_000n);
    }
  });

  it('announces the new address of a first-time miner', async () => {
    const r = await get('/chain/block/1/binary');
    const na = r.structure[1];
    expect(na).toMatchObject({ tag: 'newAddresses', beginOffset: 10, endOffset: 32 });
    expect(r.bytes.slice(24, 64)).toBe(A.slice(0, 40));
    expect((await get('/chain/block/2/binary')).structure[1]).toMatchObject({ beginOffset: 10, endOffset: 12 });
  });
});

describe('bad block ids', () => {
  it('answers 56 for unknown blocks, 94 for bad integers and 300 for bad hex', async () => {
    const t = await tip();
    for (const suffix of ['', '/header', '/binary']) {
      for (const id of ['0', String(t + 1), '4294967295', '0'.repeat(64), 'ab'.repeat(32)]) await expectError(node, `/chain/block/${id}${suffix}`, 56);
      for (const id of ['abc', '-1', '1.5', '4294967296', '0x1', 'a'.repeat(63), 'a'.repeat(65)]) await expectError(node, `/chain/block/${id}${suffix}`, 94);
      for (const id of ['zz'.repeat(32), 'g'.repeat(64)]) await expectError(node, `/chain/block/${id}${suffix}`, 300);
    }
  });

  it('forgets the hash of a rolled-back block', async () => {
    const t = await tip();
    const hash = (await get(`/chain/block/${t}`)).header.hash;
    expect((await node.get('/debug/rollback')).body).toEqual({ code: 0 });
    await expectError(node, `/chain/block/${hash}`, 56);
    await expectError(node, `/chain/block/${t}`, 56);
    await mine(A);
    const again = await get(`/chain/block/${t}`);
    expect(again.body.reward.transaction.data.toAddress).toBe(A);
    expect(again.header.hash).not.toBe(hash);
  });
});

describe('GET /transaction/latest', () => {
  it('groups the last history entries into blocks, oldest first', async () => {
    const t = await tip();
    const r = await get('/transaction/latest');
    expect(Object.keys(r)).toEqual(['fromId', 'perBlock']);
    expect(r.fromId).toBe(1);
    expect(r.perBlock.map((b: { height: number }) => b.height)).toEqual(Array.from({ length: t }, (_, i) => i + 1));
    for (const b of r.perBlock) expect(b).toEqual(await get(`/chain/block/${b.height}`));
  });

  it('covers the last 100 history ids', async () => {
    await mine(B, 105 - (await tip()));
    const r = await get('/transaction/latest');
    expect(r.fromId).toBe(6); // one reward per block: ids 6..105
    expect(r.perBlock.map((b: { height: number }) => b.height)).toEqual(Array.from({ length: 100 }, (_, i) => i + 6));
    expect(r.perBlock[0].body.reward.historyId).toBe(6);
    expect(r.perBlock[99].confirmations).toBe(1);
  });
});
