// The published testnet block 1 (consensus.md §11.6), appended without proof of work to a testnet
// chain and served by a started node: every header, pow, reward and binary value of the vector.
import { describe, expect, it } from 'vitest';
import { TESTNET } from '../../ts/consensus/params.js';
import { fromHex } from '../../ts/core/hex.js';
import { sharedNode } from '../helpers/shared_node.js';
import { TESTNET_BLOCK_1 as V } from '../core/vectors.js';
import { ChainBuilder } from '../state/chain_fixture.js';

const TIMESTAMP = 0x6948246d;

const node = sharedNode(['--testnet'], async () => {
  const c = await ChainBuilder.create({ params: TESTNET });
  await c.chain.append(fromHex(V.header)!, fromHex(V.body)!, { now: TIMESTAMP, skipPow: true });
  await c.close();
  return c.dir;
});

const get = (path: string) => node().data(path);

describe('testnet block 1 (consensus.md §11.6)', () => {
  it('has the vector header values', async () => {
    const { header } = await get('/chain/block/1');
    expect(header).toEqual({
      hash: V.hash,
      prevHash: 'b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537',
      merkleroot: V.merkleRoot,
      nonce: '00000000',
      version: '00000003',
      target: '077fffff',
      raw: V.header,
      time: { UTC: '2025-12-21 16:46:37 UTC', timestamp: TIMESTAMP },
      pow: {
        floatSha256t: expect.any(Number),
        floatVerus: expect.any(Number),
        hashSha256t: '353389ceb7bccd1efe58d3ff45b97c4efd99d0a460070d554a2f78edd92482b7',
        // Testnet height 1 is Janus7: VerusHash v2.1.
        hashVerus: '2443706cf33a161fd811fa69c7180787f4ddbc518f9e8cacd4efef29b3cc22a9',
        verusV2_2: false,
      },
    });
    // F(h) reads the hash as a binary fraction: 0x35… ≈ 0.2078, 0x24… ≈ 0.1416.
    expect(header.pow.floatSha256t).toBeCloseTo(0x353389ce / 2 ** 32, 8);
    expect(header.pow.floatVerus).toBeCloseTo(0x2443706c / 2 ** 32, 8);
    expect((await get(`/chain/block/${V.hash}/header`)).header.time).toBe(TIMESTAMP);
  });

  it('pays the reward to the new account 1 with the vector reward hash', async () => {
    const blk = await get('/chain/block/1');
    expect(blk.body.reward).toEqual({
      historyId: 1,
      transaction: { data: { toAddress: V.displayAddress, amount: { str: '3.00000000', E8: 300_000_000 } }, hash: V.rewardHash },
    });
    expect((await get('/account/1/coin_balance')).account).toEqual({ accountId: 1, address: V.displayAddress });
  });

  it('serves the 58 body bytes with their structure', async () => {
    const r = await get(`/chain/block/${V.hash}/binary`);
    expect(r.bytes).toBe(V.body);
    const flat = r.structure.map((n: { tag: string; beginOffset: number; endOffset: number }) => [n.tag, n.beginOffset, n.endOffset]);
    expect(flat).toEqual([
      ['extraNonce', 0, 10],
      ['newAddresses', 10, 32],
      ['reward', 32, 48],
      ['coinTransfer', 48, 52],
      ['cancelation', 52, 54],
      ['tokenSections', 54, 56],
      ['assetCreation', 56, 58],
    ]);
  });
});
