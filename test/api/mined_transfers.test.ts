// Blocks with signed coin transfers (built through Chain.append, then served by a started node):
// /chain/block/:id, /chain/block/:id/binary, /transaction/latest, account history across
// partial blocks, and coin balances after transfers and fees.
import { describe, expect, it } from 'vitest';
import { formatAddress } from '../../ts/core/address.js';
import { GENESIS_HASH } from '../../ts/consensus/params.js';
import { toHex } from '../../ts/core/hex.js';
import { txHash } from '../../ts/core/transaction.js';
import { sharedNode } from '../helpers/shared_node.js';
import { ChainBuilder, wallet } from '../state/chain_fixture.js';

const A = wallet(1),
  B = wallet(2);
const a = formatAddress(A.address),
  b = formatAddress(B.address);
const COIN = 100_000_000;
const FEE1 = 1_000_448,
  FEE2 = 5_000; // both exact 16-bit fees
const E8 = (v: number) => ({ str: v === 0 ? '0' : (v / COIN).toFixed(8), E8: v });

// Block 1 pays A (history id 1), block 2 pays B (2), block 3 pays A (3) with A→B 1 coin (4) and
// A→B 0.5 coin (5), block 4 pays B (6) with B→A 0.25 coin (7).
const node = sharedNode(['--regtest'], async () => {
  const c = await ChainBuilder.create();
  await c.mine(A.address);
  await c.mine(B.address);
  await c.mine(A.address, {
    transfers: [
      { from: A, to: B.address, amount: 100_000_000n, feeE8: BigInt(FEE1), nonceId: 7 },
      { from: A, to: B.address, amount: 50_000_000n, feeE8: BigInt(FEE2), nonceId: 8 },
    ],
  });
  await c.mine(B.address, { transfers: [{ from: B, to: A.address, amount: 25_000_000n, feeE8: BigInt(FEE1), nonceId: 1 }] });
  await c.close();
  return c.dir;
});

const get = (path: string) => node().data(path);

/** The signed hash of a transfer pinned to the genesis (http-api.md: SHA256 of the signed bytes). */
const hashOf = (to: Uint8Array, amount: bigint, fee: number, nonceId: number) =>
  toHex(txHash({ pinHash: GENESIS_HASH, pinHeight: 0, nonceId, feeE8: BigInt(fee) }, { type: 'coinTransfer', toAddress: to, amount }));

describe('a block with coin transfers', () => {
  it('lists them after the reward, with signedCommon and their signed hashes', async () => {
    const blk = await get('/chain/block/3');
    expect(blk.body.reward).toEqual({
      historyId: 3,
      transaction: { data: { toAddress: a, amount: E8(3 * COIN + FEE1 + FEE2) }, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(blk.body.coinTransfer).toEqual([
      {
        historyId: 4,
        transaction: {
          data: { toAddress: b, amount: E8(COIN) },
          hash: hashOf(B.address, 100_000_000n, FEE1, 7),
          signedCommon: { originId: 1, originAddress: a, fee: E8(FEE1), nonceId: 7, pinHeight: 0 },
        },
      },
      {
        historyId: 5,
        transaction: {
          data: { toAddress: b, amount: E8(COIN / 2) },
          hash: hashOf(B.address, 50_000_000n, FEE2, 8),
          signedCommon: { originId: 1, originAddress: a, fee: E8(FEE2), nonceId: 8, pinHeight: 0 },
        },
      },
    ]);
    expect(Object.keys(blk.body.coinTransfer[0].transaction)).toEqual(['data', 'hash', 'signedCommon']);
    expect(Object.keys(blk.body.coinTransfer[0].transaction.signedCommon)).toEqual(['originId', 'originAddress', 'fee', 'nonceId', 'pinHeight']);
  });

  it('annotates each 99-byte transfer entry in the binary form', async () => {
    const r = await get('/chain/block/3/binary');
    const section = r.structure.find((n: { tag: string }) => n.tag === 'coinTransfer');
    expect(section.children.map((n: { tag: string }) => n.tag)).toEqual(['length', 'coinTransfer', 'coinTransfer']);
    const [, e1, e2] = section.children;
    expect(e1.endOffset - e1.beginOffset).toBe(99);
    expect(e2.beginOffset).toBe(e1.endOffset);
    expect(e1.children.map((n: { tag: string }) => n.tag)).toEqual(['originAccountId', 'pinNonce', 'compactFee', 'toAccountId', 'coin', 'signature']);
    const coin = e1.children[4];
    expect(parseInt(r.bytes.slice(2 * coin.beginOffset, 2 * coin.endOffset), 16)).toBe(COIN);
    expect(r.structure.at(-1).endOffset).toBe(r.bytes.length / 2);
  });

  it('appears in /transaction/latest as in /chain/block/:id', async () => {
    const r = await get('/transaction/latest');
    expect(r.fromId).toBe(1);
    expect(r.perBlock.map((x: { height: number }) => x.height)).toEqual([1, 2, 3, 4]);
    for (const blk of r.perBlock) expect(blk).toEqual(await get(`/chain/block/${blk.height}`));
  });
});

describe('account history with transfers', () => {
  type Blk = { height: number; body: { reward: { historyId: number } | null; coinTransfer: { historyId: number }[] } };
  const summary = (p: { perBlock: Blk[] }) => p.perBlock.map((x) => [x.height, x.body.reward?.historyId ?? null, x.body.coinTransfer.map((t) => t.historyId)]);

  it("shows both sides of a transfer; blocks hold only the account's entries", async () => {
    const pa = await get(`/account/${a}/history/100`);
    expect(summary(pa)).toEqual([
      [4, null, [7]],
      [3, 3, [4, 5]],
      [1, 1, []],
    ]);
    expect(pa.fromId).toBe(1);
    const pb = await get(`/account/${b}/history/100`);
    expect(summary(pb)).toEqual([
      [4, 6, [7]],
      [3, null, [4, 5]],
      [2, 2, []],
    ]);
    expect(pb.fromId).toBe(2);
    // An entry looks the same wherever it is shown.
    expect(pb.perBlock[1].body.coinTransfer).toEqual((await get('/chain/block/3')).body.coinTransfer);
  });

  it('may end a page inside a block', async () => {
    const p = await get(`/account/${a}/history/5`);
    expect(summary(p)).toEqual([
      [3, 3, [4]],
      [1, 1, []],
    ]);
    expect(p.fromId).toBe(1);
  });
});

describe('coin balances after transfers', () => {
  it('debit amount plus fee, credit the amount, and pay the fees to the miner', async () => {
    const balA = 3 * COIN + (3 * COIN + FEE1 + FEE2) - (COIN + FEE1) - (COIN / 2 + FEE2) + COIN / 4;
    const balB = 3 * COIN + COIN + COIN / 2 + (3 * COIN + FEE1) - (COIN / 4 + FEE1);
    expect((await get(`/account/${a}/coin_balance`)).coin.total).toEqual(E8(balA));
    expect((await get(`/account/${b}/coin_balance`)).coin).toEqual({ locked: E8(0), mempool: E8(0), total: E8(balB) });
  });
});
