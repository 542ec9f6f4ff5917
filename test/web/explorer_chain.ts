// A regtest chain for the explorer page, built through the HTTP API as users build one: over a
// hundred blocks mined to A (so that A's history has more than one page), two assets named DEMO
// (A's and B's) and one named GOLD, a pool in A's DEMO, trades in three blocks (B sells into the
// pool, A buys from it), token and coin transfers, a cancelation, a withdrawal, open orders on both
// sides of the book, and transactions left pending in the mempool.
import { fromHex } from '../../ts/core/hex.js';
import { assetNameBytes, type TransactionPayload } from '../../ts/core/transaction.js';
import { parsePrice, priceToBytes } from '../../ts/kernel/price.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

/** What the builder needs of a node: GET and POST answering `{body, text}` (body parsed exactly). */
export interface ApiClient {
  get(path: string): Promise<{ body: any; text: string }>;
  post(path: string, body: unknown): Promise<{ body: any; text: string }>;
}

const FEE_CODE = 0x4fa2;
/** Blocks mined to A before anything else: A's history has more than 100 entries (one page). */
export const FIRST_BLOCKS = 110;

export interface ExplorerChain {
  A: TestWallet;
  B: TestWallet;
  /** A's DEMO (2 decimals), with the pool and the trades. */
  demo: string;
  /** B's DEMO (also 2 decimals): the same name, another asset. */
  demo2: string;
  /** A's GOLD (0 decimals). */
  gold: string;
  /** Mined transaction hashes, by what they are. */
  tx: {
    coinTransfer: string;
    tokenTransfer: string;
    deposit: string;
    sellIntoPool: string;
    buyFromPool: string;
    openBuy: string;
    openSell: string;
    canceled: string;
    cancelation: string;
    withdrawal: string;
  };
  /** Pending in the mempool. */
  pending: { coinTransfer: string };
}

export async function buildExplorerChain(node: ApiClient, seed: number): Promise<ExplorerChain> {
  const A = TestWallet.fromSeed(seed),
    B = TestWallet.fromSeed(seed + 1);
  const mine = async (w: TestWallet, n = 1) => {
    for (let i = 0; i < n; i++) {
      const r = await node.get(`/debug/fakemine/${w.addressText}`);
      if (r.body.code !== 0) throw new Error(`fakemine: ${r.text}`);
    }
  };
  let nonce = 0;
  const submit = async (w: TestWallet, payload: TransactionPayload): Promise<{ hash: string; pinHeight: number; nonceId: number }> => {
    const head = (await node.get('/chain/head')).body.data.chainHead;
    const o = { pinHeight: head.pinHeight, pinHash: fromHex(head.pinHash)!, nonceId: ++nonce, feeCode: FEE_CODE };
    const r = await node.post('/transaction/add', requestJson(signRequest(w.sk, payload, o)));
    if (r.body.code !== 0) throw new Error(`${payload.type}: ${r.text}`);
    return { hash: r.body.data.txHash, pinHeight: o.pinHeight, nonceId: o.nonceId };
  };
  const price = (p: string, decimals: number) => priceToBytes(parsePrice(p, decimals)!.floor);

  await mine(A, FIRST_BLOCKS);
  await mine(B, 3);
  const demo = (await submit(A, { type: 'assetCreation', supply: 10_000_000n, precision: 2, name: assetNameBytes('DEMO') })).hash;
  const demo2 = (await submit(B, { type: 'assetCreation', supply: 50_000n, precision: 2, name: assetNameBytes('DEMO') })).hash;
  const gold = (await submit(A, { type: 'assetCreation', supply: 21_000n, precision: 0, name: assetNameBytes('GOLD') })).hash;
  await mine(A);
  const h = fromHex(demo)!;
  const tx = {} as ExplorerChain['tx'];
  tx.tokenTransfer = (await submit(A, { type: 'tokenTransfer', assetHash: h, isLiquidity: false, toAddress: B.address, amount: 1_000_000n })).hash;
  // 400.00 DEMO against 200 coin: the pool's price is 0.5 coin per DEMO.
  tx.deposit = (await submit(A, { type: 'liquidityDeposit', assetHash: h, base: 40_000n, quote: 20_000_000_000n })).hash;
  tx.coinTransfer = (await submit(A, { type: 'coinTransfer', toAddress: B.address, amount: 1_234_567_890n })).hash;
  await mine(A);
  // Three blocks with a trade each: B sells 10.00 DEMO at 0.4 or more, A buys with 3 coin up to 0.6, B sells again.
  tx.sellIntoPool = (await submit(B, { type: 'limitSwap', assetHash: h, isBuy: false, amount: 1_000n, limit: price('0.4', 2) })).hash;
  await mine(A);
  tx.buyFromPool = (await submit(A, { type: 'limitSwap', assetHash: h, isBuy: true, amount: 300_000_000n, limit: price('0.6', 2) })).hash;
  await mine(A);
  await submit(B, { type: 'limitSwap', assetHash: h, isBuy: false, amount: 2_500n, limit: price('0.45', 2) });
  // Open orders far from the pool's price stay in the book: A buys at 0.1, B sells at 2.5.
  tx.openBuy = (await submit(A, { type: 'limitSwap', assetHash: h, isBuy: true, amount: 500_000_000n, limit: price('0.1', 2) })).hash;
  tx.openSell = (await submit(B, { type: 'limitSwap', assetHash: h, isBuy: false, amount: 7_500n, limit: price('2.5', 2) })).hash;
  const canceled = await submit(A, { type: 'limitSwap', assetHash: h, isBuy: true, amount: 100_000_000n, limit: price('0.2', 2) });
  tx.canceled = canceled.hash;
  await mine(A);
  tx.cancelation = (await submit(A, { type: 'cancelation', cancelHeight: canceled.pinHeight, cancelNonceId: canceled.nonceId })).hash;
  tx.withdrawal = (await submit(A, { type: 'liquidityWithdrawal', assetHash: h, shares: 1_000_000n })).hash;
  await mine(A);
  const pending = { coinTransfer: (await submit(B, { type: 'coinTransfer', toAddress: A.address, amount: 50_000_000n })).hash };
  return { A, B, demo, demo2, gold, tx, pending };
}
