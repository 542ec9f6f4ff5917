// `--api=0.10` where the running reference 0.10.3 (commit 58031328) answered otherwise than we did
// (found by scripts/defi-diff.mjs; docs/reference-differences.md lists what we keep on purpose):
// unknown accounts, error texts, doubles, void appends, account listings' order, the query-time
// `processed.remaining` of a block view, `toPool.amount`, the hashrate window, a pending cancelation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromHex } from '../../ts/core/hex.js';
import type { TransactionPayload } from '../../ts/core/transaction.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { parsePrice, priceToBytes } from '../../ts/kernel/price.js';
import { glazeNumber } from '../../ts/api/generations/v0_10.js';
import { buildExchangeChain, type ExchangeChain } from '../helpers/exchange_chain.js';
import { genesisHash, removeDir, startNode, type TestNode } from '../helpers/node.js';
import { mine } from '../helpers/peers.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const FEE_CODE = 0x4fa2;
let node: TestNode;
let x: ExchangeChain;
let genesis: Uint8Array;

beforeAll(async () => {
  node = await startNode(['--regtest', '--api=0.10']);
  x = await buildExchangeChain(node, 91);
  genesis = await genesisHash(node);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

const submit = async (w: TestWallet, nonceId: number, payload: TransactionPayload, feeCode = FEE_CODE): Promise<string> => {
  const r = await node.post('/transaction/add', requestJson(signRequest(w.sk, payload, { pinHeight: 0, pinHash: genesis, nonceId, feeCode })));
  expect(r.body.code, r.text).toBe(0);
  return r.body.data.txHash;
};
const fakemine = async () => expect((await node.get(`/debug/fakemine/${x.A.addressText}`)).body.code).toBe(0);
const price = (p: string) => priceToBytes(parsePrice(p, 2)!.floor);

describe('--api=0.10 as the running reference answers', () => {
  it('refuses open orders and the mempool of an address without an account (122) or an unknown id (123)', async () => {
    const fresh = TestWallet.fromSeed(5000).addressText;
    for (const path of [`/account/${fresh}/open_orders`, `/account/${fresh}/open_orders/${x.asset}`, `/account/${fresh}/mempool`]) {
      expect((await node.get(path)).text, path).toBe('{"code":122,"error":"Address not found"}');
    }
    for (const path of ['/account/999/open_orders', `/account/999/open_orders/${x.asset}`, '/account/999/mempool']) {
      expect((await node.get(path)).text, path).toBe('{"code":123,"error":"Account id not found"}');
    }
    // An account without orders has an empty list; balances of an unknown address stay zeros.
    expect((await node.get(`/account/${x.B.addressText}/mempool`)).body.code).toBe(0);
    expect((await node.get(`/account/${fresh}/wart_balance`)).body.data.account).toBeNull();
  });

  it("writes an error's own text, without our detail", async () => {
    expect((await node.get(`/transaction/lookup/${'ab'.repeat(32)}`)).text).toBe('{"code":56,"error":"Not found"}');
    expect((await node.get(`/dex/market/${'cd'.repeat(32)}`)).text).toBe('{"code":185,"error":"Asset hash not found"}');
  });

  it('writes doubles as the reference does: an exponent is E without +', async () => {
    expect([1.902189978864044e-7, 1e21, 1.5e300, -2.5e-9, 0.000001, 1.5, 40000, 18446744073709552000, 0].map(glazeNumber)).toEqual([
      '1.902189978864044E-7',
      '1E21',
      '1.5E300',
      '-2.5E-9',
      '0.000001',
      '1.5',
      '40000',
      '18446744073709552000',
      '0',
    ]);
    const r = await node.get('/tools/parse_price/0.00001/18');
    expect(r.text).toMatch(/"doubleRaw":\d(\.\d+)?E-\d+/);
    expect(r.text).not.toMatch(/e[-+]/);
  });

  it('gives toPool.amount as a token amount of 8 decimals when the coin goes to the pool', async () => {
    await submit(x.A, 9300, { type: 'limitSwap', assetHash: fromHex(x.asset)!, isBuy: true, amount: 10_000_000n, limit: price('1') });
    const m = await node.data(`/dex/market/${x.asset}`);
    expect(m.match.toPool.isQuote).toBe(true);
    expect(Object.keys(m.match.toPool.amount).sort()).toEqual(['decimals', 'str', 'u64']);
    expect(m.match.toPool.amount.decimals).toBe(8);
    await fakemine();
  });

  it('answers a void success to POST /chain/append: {"code":0,"error":"No error"} (0.8: "error":null)', async () => {
    const appended = async (n: TestNode) => {
      const replies: string[] = [];
      const post = n.post.bind(n);
      n.post = async (path, body) => {
        const r = await post(path, body);
        if (r.body.code === 0) replies.push(r.text);
        return r;
      };
      await mine(n, x.A.addressText, 1);
      n.post = post;
      return replies;
    };
    expect(await appended(node)).toEqual(['{"code":0,"error":"No error"}']);
    const old = await startNode(['--regtest', '--api=0.8']);
    try {
      expect(await appended(old)).toEqual(['{"code":0,"error":null}']);
    } finally {
      await old.stop();
      await removeDir(old.dataDir);
    }
  });

  it("lists an account's mempool by transaction id, not by fee", async () => {
    const W = TestWallet.fromSeed(91); // x.A
    const hashes = [
      await submit(W, 9003, { type: 'coinTransfer', toAddress: x.B.address, amount: 1n }, FEE_CODE + 2),
      await submit(W, 9001, { type: 'coinTransfer', toAddress: x.B.address, amount: 2n }, FEE_CODE),
      await submit(W, 9002, { type: 'coinTransfer', toAddress: x.B.address, amount: 3n }, FEE_CODE + 1),
    ];
    const listed = (await node.data(`/account/${x.A.addressText}/mempool`)).map((e: any) => e.transaction.hash);
    const ours = listed.filter((h: string) => hashes.includes(h));
    expect(ours).toEqual([hashes[1], hashes[2], hashes[0]]);
    const nonces = (await node.data(`/account/${x.A.addressText}/mempool`)).map((e: any) => [
      e.transaction.signedCommon.pinHeight,
      e.transaction.signedCommon.nonceId,
    ]);
    expect(nonces).toEqual([...nonces].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    await fakemine();
  });

  it('lists the mempool by fee, the latest arrival first among equal fees', async () => {
    const W = TestWallet.fromSeed(91); // x.A
    const older = await submit(W, 9011, { type: 'coinTransfer', toAddress: x.B.address, amount: 4n });
    const newer = await submit(W, 9012, { type: 'coinTransfer', toAddress: x.B.address, amount: 5n });
    const top = await submit(W, 9013, { type: 'coinTransfer', toAddress: x.B.address, amount: 6n }, FEE_CODE + 3);
    const listed = (await node.data('/transaction/mempool')).map((e: any) => e.transaction.hash);
    expect(listed.filter((h: string) => [older, newer, top].includes(h))).toEqual([top, newer, older]);
    await fakemine();
  });

  it('lists open orders by transaction id (all markets) and in book-entry order (one market); a block and a lookup show the query-time remaining', async () => {
    const C = TestWallet.fromSeed(7000);
    await submit(x.A, 9100, { type: 'coinTransfer', toAddress: C.address, amount: 500_000_000n });
    await fakemine();
    // Two buys far below the pool's price: the later one has the lower nonce.
    const first = await submit(C, 60, { type: 'limitSwap', assetHash: fromHex(x.asset)!, isBuy: true, amount: 30_000_000n, limit: price('0.002') });
    await fakemine();
    const height = (await node.data('/chain/head')).chainHead.height;
    const second = await submit(C, 50, { type: 'limitSwap', assetHash: fromHex(x.asset)!, isBuy: true, amount: 20_000_000n, limit: price('0.003') });
    await fakemine();
    const all = await node.data(`/account/${C.addressText}/open_orders`);
    expect(all[0].wartToAssetSwaps.map((o: any) => o.txHash)).toEqual([second, first]);
    const one = await node.data(`/account/${C.addressText}/open_orders/${x.asset}`);
    expect(one.wartToAssetSwaps.map((o: any) => o.txHash)).toEqual([first, second]);
    const remaining = async () =>
      (await node.data(`/chain/block/${height}`)).body.limitSwap.find((t: any) => t.transaction.hash === first).transaction.processed.remaining.u64;
    const looked = async () => BigInt((await node.data(`/transaction/lookup/${first}`)).transaction.processed.remaining.u64);
    expect(BigInt(await remaining())).toBe(30_000_000n);
    expect(await looked()).toBe(30_000_000n);
    // B sells into both buys; the block seen before now shows what remains of the first.
    await submit(x.B, 9200, {
      type: 'limitSwap',
      assetHash: fromHex(x.asset)!,
      isBuy: false,
      amount: 150_000n,
      limit: priceToBytes(parsePrice('0.0015', 2)!.ceil),
    });
    await fakemine();
    const left = (await node.data(`/account/${C.addressText}/open_orders/${x.asset}`)).wartToAssetSwaps.find((o: any) => o.txHash === first);
    const now = left ? BigInt(left.amount.u64) - BigInt(left.filled.u64) : 0n;
    expect(now).toBeLessThan(30_000_000n);
    expect(BigInt(await remaining())).toBe(now);
    expect(await looked()).toBe(now);
  });

  it('estimates the hashrate over the last n blocks up to the tip (nBlocks clamped, fewer than 2 ⇒ 325)', async () => {
    const length = (await node.data('/chain/head')).chainHead.height;
    expect((await node.get('/chain/hashrate/1')).text).toBe('{"code":325,"error":"Hashrate estimate needs at least 2 block times"}');
    expect((await node.data('/chain/hashrate/100000')).nBlocks).toBe(length);
    expect((await node.data('/chain/hashrate/3')).nBlocks).toBe(3);
  });

  it('gives a pending cancelation processed {canceledTxHash: null}', async () => {
    const h = await submit(x.A, 9400, { type: 'cancelation', cancelHeight: 0, cancelNonceId: 9300 });
    const t = await node.data(`/transaction/lookup/${h}`);
    expect(t.mined).toBeNull();
    expect(t.transaction.processed).toEqual({ canceledTxHash: null });
  });
});
