// Transaction views of every type (http-api.md "Transaction"; http-api-details.md §10;
// exchange.md §5.3, §5.4, §6.4, §8.7), in process on the chain of exchange_scenario.ts: mined
// entries inside blocks (validated against the Block schema) and pending transactions of every
// payload type (validated against MempoolEntry), with their values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAddress } from '../../ts/core/address.js';
import { toHex } from '../../ts/core/hex.js';
import { assetNameBytes } from '../../ts/core/transaction.js';
import { priceFromBytes, priceView } from '../../ts/kernel/price.js';
import { validate } from '../../ts/api/schema.js';
import { Block, blockView } from '../../ts/api/views/block.js';
import { AnyTransaction, MempoolEntry, mempoolEntries, minedTransactionView, pendingAssets, pendingLookupView } from '../../ts/api/views/transaction.js';
import { blockTransactions, transactionByHash } from '../../ts/state/history_query.js';
import { dbReader } from '../../ts/state/ledger.js';
import { orderById } from '../../ts/state/orders.js';
import { removeDir } from '../helpers/node.js';
import { FEE_E8, exchangeScenario, limitOf, type ExchangeScenario } from '../state/exchange_scenario.js';

let sc: ExchangeScenario;
beforeAll(async () => {
  sc = await exchangeScenario();
});
afterAll(async () => {
  await sc.close();
  await removeDir(sc.dir);
});

const coin = (e8: bigint) => ({ str: e8 === 0n ? '0' : (Number(e8) / 1e8).toFixed(8), E8: e8 });
const tok = (u64: bigint, decimals: number, str: string) => ({ str, u64, decimals });

async function blockOf(h: number) {
  const b = (await sc.chain.block(h))!;
  const v = blockView(sc.chain, h, await blockTransactions(sc.db, h, b.firstHistoryId));
  expect(validate(Block.schema, v)).toEqual([]);
  return v;
}

describe('mined token-era transactions in blocks', () => {
  it("asset creations: name, supply in the asset's decimals, the new asset id", async () => {
    const b = await blockOf(6);
    expect(b.body.assetCreation.map((e) => e.transaction.data)).toEqual([
      { name: 'TOK', supply: tok(1_000_000n, 2, '10000.00') },
      { name: 'TOKEN', supply: tok(10n ** 15n, 8, '10000000.00000000') },
      { name: 'ZED', supply: tok(500n, 0, '500') },
    ]);
    const [t] = b.body.assetCreation;
    expect(t.transaction.processed).toEqual({ assetId: sc.tok.id });
    expect(t.transaction.hash).toBe(toHex(sc.tx.createTok.hash));
    expect(t.transaction.signedCommon).toEqual({
      originId: sc.ids.A,
      originAddress: formatAddress(sc.A.address),
      fee: coin(FEE_E8),
      nonceId: sc.tx.createTok.nonceId,
      pinHeight: 0,
    });
    expect(Object.keys(t.transaction)).toEqual(['data', 'hash', 'processed', 'signedCommon']);
  });

  it('token transfers and deposits', async () => {
    const b = await blockOf(7);
    const ref = { hash: toHex(sc.tok.hash), id: sc.tok.id, name: 'TOK', decimals: 2 };
    expect(b.body.tokenTransfer.map((e) => e.transaction.data)).toEqual([
      { toAddress: formatAddress(sc.B.address), amount: tok(200_000n, 2, '2000.00'), asset: ref, isLiquidity: false, tokenSpec: `asset:${toHex(sc.tok.hash)}` },
      {
        toAddress: formatAddress(sc.A.address),
        amount: tok(7n, 0, '7'),
        asset: { hash: toHex(sc.zed.hash), id: sc.zed.id, name: 'ZED', decimals: 0 },
        isLiquidity: false,
        tokenSpec: `asset:${toHex(sc.zed.hash)}`,
      },
    ]);
    expect(b.body.tokenTransfer[0].transaction.signedCommon.originId).toBe(sc.ids.A);
    expect(b.body.liquidityDeposit).toEqual([
      {
        historyId: expect.anything(),
        transaction: {
          data: { baseAsset: ref, deposited: { base: tok(100_000n, 2, '1000.00'), quote: coin(500_000_000n) } },
          hash: toHex(sc.tx.deposit.hash),
          processed: { sharesReceived: tok(7_071_067n, 8, '0.07071067') }, // liquidity tokens: 8 decimals
          signedCommon: expect.objectContaining({ originId: sc.ids.A }),
        },
      },
    ]);
  });

  it('limit swaps: buys in coin, sells in the asset, limit as a Price, current remaining', async () => {
    const b = await blockOf(8);
    const [sell, buy, bid, ask] = b.body.limitSwap.map((e) => e.transaction);
    const limit = (p: typeof sc.tx.sell) => priceView(priceFromBytes((p.payload as { limit: Uint8Array }).limit)!, 2);
    expect(sell.data).toEqual({
      baseAsset: expect.objectContaining({ id: sc.tok.id }),
      amount: tok(10_000n, 2, '100.00'),
      limit: limit(sc.tx.sell),
      buy: false,
    });
    expect(sell.processed).toEqual({ remaining: tok(0n, 2, '0') });
    expect(buy.data.amount).toEqual(tok(200_000_000n, 8, '2.00000000'));
    expect(buy.data.buy).toBe(true);
    expect(buy.data.limit.hex).toBe(toHex(limitOf('0.006', 2, 'floor')));
    expect(buy.data.limit.precExponent10).toBe(6);
    const open = (await orderById(dbReader(sc.db), b.body.limitSwap[1].historyId as bigint))!;
    expect(buy.processed.remaining).toEqual({ str: expect.any(String), u64: open.amount - open.filled, decimals: 8 });
    expect(bid.processed.remaining.u64).toBe(0n);
    expect(ask.processed.remaining).toEqual(tok(5_000n, 2, '50.00'));
    expect(buy.hash).toBe(toHex(sc.tx.buy.hash));
  });

  it("the match: pools before and after, swaps with their orders' history ids, no signedCommon", async () => {
    const b = await blockOf(8);
    const [m] = b.body.match;
    const t = m.transaction;
    expect(Object.keys(t)).toEqual(['data', 'hash']);
    expect(t.data.baseAsset.id).toBe(sc.tok.id);
    expect(t.data.poolBefore).toEqual({ base: tok(100_000n, 2, '1000.00'), quote: coin(500_000_000n) });
    expect(t.data.sellSwaps).toEqual([
      { swapped: { base: tok(10_000n, 2, '100.00'), quote: expect.objectContaining({ E8: expect.anything() }) }, historyId: b.body.limitSwap[0].historyId },
    ]);
    expect(t.data.buySwaps.map((s) => s.historyId)).toEqual([b.body.limitSwap[1].historyId]);
    const found = (await transactionByHash(sc.db, Buffer.from(t.hash, 'hex')))!;
    expect(found.kind).toBe('match');
    expect(found.id).toBe(m.historyId);
  });

  it('cancelations, liquidity transfers and withdrawals', async () => {
    const b = await blockOf(9);
    expect(b.body.cancelation.map((e) => e.transaction.data)).toEqual([
      { cancelTxid: { accountId: sc.ids.A, nonceId: sc.tx.bid.nonceId, pinHeight: 0 } },
      { cancelTxid: { accountId: sc.ids.B, nonceId: 9999, pinHeight: 0 } },
    ]);
    expect(b.body.cancelation.map((e) => e.transaction.processed)).toEqual([{ canceledTxHash: toHex(sc.tx.bid.hash) }, { canceledTxHash: null }]);
    const [shares] = b.body.tokenTransfer;
    expect(shares.transaction.data).toMatchObject({ amount: tok(500_000n, 8, '0.00500000'), isLiquidity: true, tokenSpec: `liquidity:${toHex(sc.tok.hash)}` });
    const [w] = b.body.liquidityWithdrawal;
    expect(w.transaction.data).toEqual({ baseAsset: expect.objectContaining({ id: sc.tok.id }), sharesRedeemed: tok(1_000_000n, 8, '0.01000000') });
    const mined = (await transactionByHash(sc.db, sc.tx.withdraw.hash))!;
    if (mined.kind !== 'liquidityWithdrawal') throw new Error(mined.kind);
    expect(w.transaction.processed.received).toEqual({
      base: expect.objectContaining({ u64: mined.received.base, decimals: 2 }),
      quote: coin(mined.received.quote),
    });
  });

  it('minedTransactionView gives every kind its type name and a lookup-valid transaction', async () => {
    const kinds = new Set<string>();
    for (let h = 6; h <= 9; h++) {
      const b = (await sc.chain.block(h))!;
      for (const t of await blockTransactions(sc.db, h, b.firstHistoryId)) {
        const v = minedTransactionView(t);
        expect(v.type).toBe(t.kind);
        expect(validate(AnyTransaction.schema, v.transaction), t.kind).toEqual([]);
        kinds.add(v.type);
      }
    }
    expect([...kinds].sort()).toEqual([
      'assetCreation',
      'cancelation',
      'limitSwap',
      'liquidityDeposit',
      'liquidityWithdrawal',
      'match',
      'reward',
      'tokenTransfer',
    ]);
  });
});

describe('pending transactions of every type', () => {
  it('have data, hash and signedCommon, no processed; a lookup shows processed null', async () => {
    const { A, B, tok: t } = sc;
    const p = await Promise.all([
      sc.submit(A, { type: 'coinTransfer', toAddress: B.address, amount: 12_345n }),
      sc.submit(B, { type: 'tokenTransfer', assetHash: t.hash, isLiquidity: true, toAddress: A.address, amount: 1_000n }),
      sc.submit(B, { type: 'limitSwap', assetHash: t.hash, isBuy: false, amount: 300n, limit: limitOf('0.007', 2, 'ceil') }),
      sc.submit(A, { type: 'liquidityDeposit', assetHash: t.hash, base: 1_000n, quote: 5_000_000n }),
      sc.submit(A, { type: 'liquidityWithdrawal', assetHash: t.hash, shares: 10_000n }),
      sc.submit(B, { type: 'cancelation', cancelHeight: 0, cancelNonceId: sc.tx.ask.nonceId }),
      sc.submit(A, { type: 'assetCreation', supply: 77n, precision: 1, name: assetNameBytes('NEW') }),
    ]);
    const entries = await mempoolEntries(dbReader(sc.db), p);
    for (const e of entries) expect(validate(MempoolEntry.schema, e), e.type).toEqual([]);
    expect(entries.map((e) => e.type)).toEqual([
      'coinTransfer',
      'tokenTransfer',
      'limitSwap',
      'liquidityDeposit',
      'liquidityWithdrawal',
      'cancelation',
      'assetCreation',
    ]);
    for (const e of entries) expect(Object.keys(e.transaction)).toEqual(['data', 'hash', 'signedCommon']);
    expect(entries.map((e) => e.transaction.data)).toEqual([
      { toAddress: formatAddress(B.address), amount: coin(12_345n) },
      {
        toAddress: formatAddress(A.address),
        amount: tok(1_000n, 8, '0.00001000'),
        asset: expect.objectContaining({ id: t.id }),
        isLiquidity: true,
        tokenSpec: `liquidity:${toHex(t.hash)}`,
      },
      {
        baseAsset: expect.objectContaining({ id: t.id }),
        amount: tok(300n, 2, '3.00'),
        limit: priceView(priceFromBytes(limitOf('0.007', 2, 'ceil'))!, 2),
        buy: false,
      },
      { baseAsset: expect.objectContaining({ id: t.id }), deposited: { base: tok(1_000n, 2, '10.00'), quote: coin(5_000_000n) } },
      { baseAsset: expect.objectContaining({ id: t.id }), sharesRedeemed: tok(10_000n, 8, '0.00010000') },
      { cancelTxid: { accountId: sc.ids.B, nonceId: sc.tx.ask.nonceId, pinHeight: 0 } },
      { name: 'NEW', supply: tok(77n, 1, '7.7') },
    ]);
    expect(entries[2].transaction.signedCommon).toEqual({
      originId: sc.ids.B,
      originAddress: formatAddress(B.address),
      fee: coin(FEE_E8),
      nonceId: p[2].nonceId,
      pinHeight: 0,
    });

    const assets = await pendingAssets(dbReader(sc.db), p);
    expect(assets.map((a) => a?.id ?? null)).toEqual([null, t.id, t.id, t.id, t.id, null, null]);
    const looked = p.map((tx, i) => pendingLookupView(tx, assets[i]));
    for (const l of looked) expect(validate(AnyTransaction.schema, l.transaction), l.type).toEqual([]);
    expect(looked.map((l) => ('processed' in l.transaction ? l.transaction.processed : 'absent'))).toEqual(['absent', 'absent', null, null, null, null, null]);
    expect(Object.keys(looked[2].transaction)).toEqual(['data', 'hash', 'processed', 'signedCommon']);
    for (const tx of p) sc.mempool.pool.remove(tx);
  });
});
