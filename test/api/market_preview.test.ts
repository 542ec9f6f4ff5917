// `/dex/market`'s `match`: what the next block's matching of the asset does, computed by the code
// that applies blocks (mining/next_block.ts), on a real regtest node. The book is one where a match
// over the whole book by remaining amounts (what the preview did before) and the block's lazily
// loaded book differ: a stored sell partly filled heads its price level, which the block's loader
// counts with its whole amount (dex/lazy_book.ts), so the fills walk on into the next ask. After
// every pending transaction the preview is compared with what the next mined block recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { parsePrice, priceFromHex, priceToBytes } from '../../ts/kernel/price.js';
import { fromHex } from '../../ts/core/hex.js';
import { assetNameBytes, type TransactionPayload } from '../../ts/core/transaction.js';
import { buildBook, type Order } from '../../ts/dex/book.js';
import { findClearing } from '../../ts/dex/matching.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const A = TestWallet.fromSeed(51),
  B = TestWallet.fromSeed(52),
  M = TestWallet.fromSeed(53);
const FEE_CODE = 0x4fa2;
let node: TestNode;
let genesis: Uint8Array;
let asset = '';
let nonce = 0;

const ok = async (w: TestWallet, payload: TransactionPayload): Promise<void> => {
  const r = await node.post(
    '/transaction/add',
    requestJson(signRequest(w.sk, payload, { pinHeight: 0, pinHash: genesis, nonceId: ++nonce, feeCode: FEE_CODE })),
  );
  expect(r.body.code, r.text).toBe(0);
};
const mine = () => node.data(`/debug/fakemine/${M.addressText}`);
const head = async () => (await node.data('/chain/head')).chainHead.height as number;
const limit = (price: string, side: 'floor' | 'ceil') => priceToBytes(parsePrice(price, 2)![side]);
const sell = (amount: bigint, price: string) => ok(B, { type: 'limitSwap', assetHash: fromHex(asset)!, isBuy: false, amount, limit: limit(price, 'ceil') });
const buy = (amount: bigint, price: string) => ok(A, { type: 'limitSwap', assetHash: fromHex(asset)!, isBuy: true, amount, limit: limit(price, 'floor') });

/** `Market.match` as integers. */
interface Preview {
  base: bigint;
  quote: bigint;
  toPool: bigint;
  isQuote: boolean;
}
const previewOf = (m: any): Preview => ({
  base: BigInt(m.match.filled.base.u64),
  quote: BigInt(m.match.filled.quote.E8),
  toPool: BigInt(m.match.toPool.isQuote ? m.match.toPool.amount.E8 : m.match.toPool.amount.u64),
  isQuote: m.match.toPool.isQuote,
});

/** What the block at `height` did in its match of the asset, in the same terms (all zero without one). */
async function blockMatch(height: number): Promise<Preview> {
  const matches = (await node.data(`/chain/block/${height}`)).body.match;
  if (!matches.length) return { base: 0n, quote: 0n, toPool: 0n, isQuote: false };
  const d = matches[0].transaction.data;
  const sum = (swaps: any[], f: (s: any) => number) => swaps.reduce((t, s) => t + BigInt(f(s)), 0n);
  const quoteIn = BigInt(d.poolAfter.quote.E8) - BigInt(d.poolBefore.quote.E8),
    baseIn = BigInt(d.poolAfter.base.u64) - BigInt(d.poolBefore.base.u64);
  return {
    base: sum(d.sellSwaps, (s) => s.swapped.base.u64),
    quote: sum(d.buySwaps, (s) => s.swapped.quote.E8),
    toPool: quoteIn > 0n ? quoteIn : baseIn > 0n ? baseIn : 0n,
    isQuote: quoteIn > 0n,
  };
}

/** The clearing of the whole book as listed (remaining amounts; on-chain orders first at a level), as the preview was computed before. */
function fullBookPreview(m: any): Preview {
  let id = 0n;
  const orders = (list: any[], isBuy: boolean): Order[] =>
    list.map((o) => ({
      id: (o.inMempool ? 1_000_000n : 0n) + ++id,
      isBuy,
      limit: priceFromHex(o.limit.hex)!,
      remaining: BigInt(o.amount.u64) - BigInt(o.filled.u64),
    }));
  const pool = { base: BigInt(m.liquidityPool.asset.u64), quote: BigInt(m.liquidityPool.coin.E8) };
  const c = findClearing(pool, buildBook([...orders(m.coinToAssetSwaps, true), ...orders(m.assetToCoinSwaps, false)]));
  return { base: c.filled.base, quote: c.filled.quote, toPool: c.toPool?.amount ?? 0n, isQuote: c.toPool?.isQuote ?? false };
}

/** The preview now, then the block mined next: they agree. */
async function previewThenMine(): Promise<{ market: any; preview: Preview }> {
  const market = await node.data(`/dex/market/${asset}`);
  const preview = previewOf(market);
  await mine();
  expect(await blockMatch(await head())).toEqual(preview);
  return { market, preview };
}

beforeAll(async () => {
  node = await startNode(['--regtest']);
  genesis = fromHex(await node.data('/chain/block/0/hash'))!;
  for (let i = 0; i < 4; i++) await node.data(`/debug/fakemine/${A.addressText}`);
  await node.data(`/debug/fakemine/${B.addressText}`);
  await ok(A, { type: 'assetCreation', supply: 1_000_000n, precision: 2, name: assetNameBytes('LAZY') });
  await mine();
  asset = (await node.data('/asset/complete?namePrefix=LAZY')).match[0].hash;
  await ok(A, { type: 'tokenTransfer', assetHash: fromHex(asset)!, isLiquidity: false, toAddress: B.address, amount: 200_000n });
  await mine();
});
afterAll(async () => {
  await node?.stop();
  if (node) await removeDir(node.dataDir);
});

describe("/dex/market match: the next block's matching, by the block's own code", () => {
  it('predicts no match when the next block carries no new order, though the book crosses the pool', async () => {
    // B's ask at 0.004 lies below the price the deposit gives the pool (0.005): the whole book
    // crosses, but a block matches only in a token section with new orders.
    await sell(5_000n, '0.004');
    await mine();
    await ok(A, { type: 'liquidityDeposit', assetHash: fromHex(asset)!, base: 100_000n, quote: 500_000_000n });
    await mine();
    const { market, preview } = await previewThenMine();
    expect(preview).toEqual({ base: 0n, quote: 0n, toPool: 0n, isQuote: false });
    expect(fullBookPreview(market)).toEqual({ base: 5_000n, quote: 0n, toPool: 5_000n, isQuote: false });
  });

  it("predicts the lazily loaded book's match, which differs from the whole book's", async () => {
    // A new sell of its own lets the stored ask at 0.004 match now; then asks at 0.006 and 0.008,
    // and a buy at 0.007 that takes the pool up to 0.006 and part of the 0.006 ask.
    await sell(1_000n, '0.004');
    await previewThenMine();
    await sell(10_000n, '0.006');
    await sell(10_000n, '0.008');
    await previewThenMine();
    await buy(100_000_000n, '0.007');
    await previewThenMine();
    const asks = (await node.data(`/dex/market/${asset}`)).assetToCoinSwaps;
    expect(asks.map((o: any) => [o.amount.u64, o.filled.u64 > 0])).toEqual([
      [10_000, true],
      [10_000, false],
    ]);
    // The next buy meets the partly filled ask heading its level.
    await buy(100_000_000n, '0.007');
    const market = await node.data(`/dex/market/${asset}`);
    // The whole book fills the 59.94 left of the 0.006 ask; the block's book counts that ask's
    // level as 100.00 and fills 40.06 of the 0.008 ask as well.
    expect(fullBookPreview(market)).toMatchObject({ base: 5_994n });
    const { preview } = await previewThenMine();
    expect(preview).toMatchObject({ base: 10_000n, quote: 100_000_000n, isQuote: true });
    const swaps = (await node.data(`/chain/block/${await head()}`)).body.match[0].transaction.data.sellSwaps;
    expect(swaps.map((s: any) => s.swapped.base.u64)).toEqual([5_994, 4_006]);
  });
});
