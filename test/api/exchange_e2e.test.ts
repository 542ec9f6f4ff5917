// The exchange end to end through the HTTP interface only (regtest): create an asset, transfer it,
// deposit liquidity, place crossing buy and sell orders, mine (the CPU miner for one block), check
// market, open orders, balances (total, locked, mempool), history, candles and trades; cancel an
// order; withdraw liquidity; every token-era rejection; then roll back and find every earlier
// answer again.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { parsePrice, priceToBytes } from '../../ts/kernel/price.js';
import { fromHex } from '../../ts/core/hex.js';
import { assetNameBytes, type TransactionPayload } from '../../ts/core/transaction.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const A = TestWallet.fromSeed(41),
  B = TestWallet.fromSeed(42),
  M = TestWallet.fromSeed(43);
const FEE_CODE = 0x4fa2;
let node: TestNode;
let genesis: Uint8Array;
let nonce = 0;

const submit = async (w: TestWallet, payload: TransactionPayload, nonceId = ++nonce) => {
  const r = await node.post('/transaction/add', requestJson(signRequest(w.sk, payload, { pinHeight: 0, pinHash: genesis, nonceId, feeCode: FEE_CODE })));
  return r.body;
};
const ok = async (w: TestWallet, payload: TransactionPayload): Promise<string> => {
  const b = await submit(w, payload);
  expect(b.code, JSON.stringify(b)).toBe(0);
  return b.data.txHash;
};
const fakemine = () => node.data(`/debug/fakemine/${M.addressText}`);
const head = async () => (await node.data('/chain/head')).chainHead.height as number;
const balance = (w: TestWallet, spec: string) => node.data(`/account/${w.addressText}/balance/${spec}`);

/** The answers that must come back exactly after a rollback. */
async function snapshot(assetHash: string | null) {
  const routes = [
    `/account/${A.addressText}/coin_balance`,
    `/account/${B.addressText}/coin_balance`,
    '/transaction/latest',
    `/account/${A.addressText}/history/999999`,
  ];
  if (assetHash) {
    routes.push(
      `/dex/market/${assetHash}`,
      `/account/${A.addressText}/open_orders`,
      `/account/${B.addressText}/open_orders`,
      `/account/${A.addressText}/balance/asset:${assetHash}`,
      `/account/${B.addressText}/balance/asset:${assetHash}`,
      `/account/${A.addressText}/balance/liquidity:${assetHash}`,
      `/account/richlist/asset:${assetHash}`,
      `/chart/trades/${assetHash}`,
      `/chart/candles/${assetHash}/5m`,
      `/asset/lookup/${assetHash}`,
    );
  }
  const out: Record<string, string> = {};
  for (const r of routes) out[r] = (await node.get(r)).text;
  return out;
}

beforeAll(async () => {
  node = await startNode(['--regtest']);
  genesis = fromHex(await node.data('/chain/block/0/hash'))!;
  for (let i = 0; i < 4; i++) await node.data(`/debug/fakemine/${A.addressText}`);
  await node.data(`/debug/fakemine/${B.addressText}`);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

describe('the exchange through HTTP', () => {
  let asset = '';
  const snapshots: { height: number; answers: Record<string, string> }[] = [];
  const remember = async () => snapshots.push({ height: await head(), answers: await snapshot(asset || null) });

  it('creates an asset (mined by the CPU miner)', async () => {
    await remember();
    const hash = await ok(A, { type: 'assetCreation', supply: 1_000_000n, precision: 2, name: assetNameBytes('TOK') });
    expect((await node.data(`/transaction/lookup/${hash}`)).transaction.processed).toBeNull();
    const miner = join(import.meta.dirname, '../../dist/miner.mjs');
    const r = spawnSync(process.execPath, [miner, '--rpc', node.url, '--address', M.addressText, '--blocks', '1'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const l = await node.data(`/transaction/lookup/${hash}`);
    expect(l.confirmations).toBe(1);
    expect(l.transaction.data.name).toBe('TOK');
    asset = hash;
    const a = await node.data(`/asset/lookup/${asset}`);
    expect(a).toMatchObject({ hash: asset, name: 'TOK', decimals: 2, totalSupply: { u64: 1000000, decimals: 2, str: '10000.00' } });
    expect(l.transaction.processed).toEqual({ assetId: a.id });
    expect((await node.data(`/asset/complete?namePrefix=to`)).match.map((x: any) => x.hash)).toEqual([asset]);
    expect((await balance(A, `asset:${asset}`)).balance.total.u64).toBe(1000000);
    await remember();
  });

  it('transfers the asset and deposits liquidity', async () => {
    const h = fromHex(asset)!;
    await ok(A, { type: 'tokenTransfer', assetHash: h, isLiquidity: false, toAddress: B.address, amount: 200_000n });
    await ok(A, { type: 'liquidityDeposit', assetHash: h, base: 100_000n, quote: 500_000_000n });
    // Reserved while pending (exchange.md §12.2).
    expect((await balance(A, `asset:${asset}`)).balance.mempool.u64).toBe(300000);
    await fakemine();
    expect((await balance(B, `asset:${asset}`)).balance.total.u64).toBe(200000);
    const market = await node.data(`/dex/market/${asset}`);
    expect(market.liquidityPool).toEqual({
      asset: { str: '1000.00', u64: 100000, decimals: 2 },
      coin: { str: '5.00000000', E8: 500000000 },
      shares: { str: '0.07071067', u64: 7071067, decimals: 8 },
    });
    expect((await balance(A, `liquidity:${asset}`)).balance.total.u64).toBe(7071067);
    await remember();
  });

  it('matches crossing orders with the pool, then cancels the rest and withdraws', async () => {
    const h = fromHex(asset)!;
    const sellHash = await ok(B, { type: 'limitSwap', assetHash: h, isBuy: false, amount: 10_000n, limit: priceToBytes(parsePrice('0.004', 2)!.ceil) });
    const sellNonce = nonce;
    await ok(A, { type: 'limitSwap', assetHash: h, isBuy: true, amount: 20_000_000n, limit: priceToBytes(parsePrice('0.006', 2)!.floor) });
    const pending = await node.data(`/dex/market/${asset}`);
    expect(pending.assetToCoinSwaps.map((o: any) => o.inMempool)).toEqual([true]);
    expect(pending.match.filled.base.u64).toBeGreaterThan(0);
    await fakemine();
    const trades = await node.data(`/chart/trades/${asset}`);
    expect(trades).toHaveLength(1);
    expect(trades[0][0]).toBe(await head());
    expect(await node.data(`/chart/candles/${asset}/1h`)).toHaveLength(1);
    const block = await node.data(`/chain/block/${await head()}`);
    expect(block.body.match).toHaveLength(1);
    expect(block.body.limitSwap).toHaveLength(2);
    const sell = await node.data(`/transaction/lookup/${sellHash}`);
    const remaining = BigInt(sell.transaction.processed.remaining.u64);
    const bAsset = (await balance(B, `asset:${asset}`)).balance;
    expect(BigInt(bAsset.locked.u64)).toBe(remaining);
    expect(BigInt(bAsset.total.u64)).toBe(200_000n - (10_000n - remaining));
    const history = await node.data(`/account/${B.addressText}/history/999999`);
    expect(history.perBlock[0].body.match).toHaveLength(1);
    await remember();

    const cancelHash = await ok(B, { type: 'cancelation', cancelHeight: 0, cancelNonceId: sellNonce });
    await ok(A, { type: 'liquidityWithdrawal', assetHash: h, shares: 3_535_533n });
    await fakemine();
    const cancel = await node.data(`/transaction/lookup/${cancelHash}`);
    expect(cancel.transaction.processed.canceledTxHash).toBe(remaining > 0n ? sellHash : null);
    expect((await node.data(`/account/${B.addressText}/open_orders/${asset}`)).assetToCoinSwaps).toEqual([]);
    expect((await balance(B, `asset:${asset}`)).balance.locked.u64).toBe(0);
    expect((await node.data(`/dex/market/${asset}`)).liquidityPool.shares.u64).toBe(7071067 - 3535533);
    await remember();
  });

  it('refuses bad token-era transactions with their codes and changes nothing', async () => {
    const h = fromHex(asset)!;
    const before = await snapshot(asset);
    const unknown = new Uint8Array(32).fill(7);
    const cases: [number, TransactionPayload | Record<string, unknown>][] = [
      [185, { type: 'tokenTransfer', assetHash: unknown, isLiquidity: false, toAddress: B.address, amount: 1n }],
      [184, { type: 'tokenTransfer', assetHash: h, isLiquidity: true, toAddress: B.address, amount: 10n ** 15n }],
      [184, { type: 'limitSwap', assetHash: h, isBuy: false, amount: 10n ** 15n, limit: priceToBytes(parsePrice('1', 2)!.floor) }],
      [84, { type: 'limitSwap', assetHash: h, isBuy: true, amount: 0n, limit: priceToBytes(parsePrice('1', 2)!.floor) }],
      [183, { type: 'liquidityDeposit', assetHash: h, base: 0n, quote: 0n }],
      [84, { type: 'liquidityWithdrawal', assetHash: h, shares: 0n }],
      [180, { type: 'assetCreation', supply: 0n, precision: 2, name: assetNameBytes('ZERO') }],
      [188, { type: 'cancelation', cancelHeight: 32, cancelNonceId: 1 }],
    ];
    for (const [code, payload] of cases) {
      const b = await submit(A, payload as TransactionPayload);
      expect(b.code, `${JSON.stringify(payload, (_k, v) => (typeof v === 'bigint' ? String(v) : v))} → ${JSON.stringify(b)}`).toBe(code);
    }
    const base = requestJson(
      signRequest(
        A.sk,
        { type: 'limitSwap', assetHash: h, isBuy: true, amount: 1000n, limit: priceToBytes(parsePrice('1', 2)!.floor) },
        { pinHeight: 0, pinHash: genesis, nonceId: 9999, feeCode: FEE_CODE },
      ),
    );
    const json: [number, Record<string, unknown>][] = [
      [309, { ...base, assetHash: 'xyz' }],
      [311, { ...base, isBuy: 1 }],
      [129, { ...base, limit: '0000ff' }],
      [129, { ...base, limit: 'abc' }],
      [303, { ...base, amountU64: -5 }],
      [310, { ...base, type: 'tokenTransfer', isLiquidity: 'yes', toAddr: B.addressText, amountU64: 5 }],
      [316, { ...base, type: 'assetCreation', supplyU64: 5, precision: 19, name: 'AB' }],
      [182, { ...base, type: 'assetCreation', supplyU64: 5, precision: 2, name: 'TOOLONG' }],
      [313, { ...base, type: 'cancelation', cancelHeight: 5, cancelNonceId: 1 }],
      [312, { ...base, type: 'cancelation', cancelNonceId: 1 }],
    ];
    for (const [code, body] of json) {
      const r = await node.post('/transaction/add', body);
      expect(r.body.code, `${JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? String(v) : v))} → ${r.text}`).toBe(code);
    }
    expect(await snapshot(asset)).toEqual(before);
  });

  it('rolls back block by block to every earlier state', async () => {
    for (let i = snapshots.length - 1; i >= 0; i--) {
      while ((await head()) > snapshots[i].height) await node.data('/debug/rollback');
      // The mempool takes rolled-back transactions back; clear it to compare the ledger alone.
      await node.data('/settings/mempool/minfee/18446744073709551615');
      const now = await snapshot(i === 0 ? null : asset);
      for (const [route, text] of Object.entries(snapshots[i].answers)) expect(now[route], route).toBe(text);
      await node.data('/settings/mempool/minfee/1000448');
    }
  });
});
