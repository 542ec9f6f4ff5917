// A regtest chain with every transaction type, built through HTTP on a node of any API generation
// (requests use the contract's names, which every generation accepts): an asset, a token transfer,
// a pool, crossing orders that match, a cancelation, a withdrawal, coin transfers, an open order,
// and pending transactions left in the mempool.
import { fromHex } from '../../ts/core/hex.js';
import { assetNameBytes, type TransactionPayload } from '../../ts/core/transaction.js';
import { parsePrice, priceToBytes } from '../../ts/kernel/price.js';
import { genesisHash, type TestNode } from './node.js';
import { TestWallet, requestJson, signRequest } from './wallet.js';

const FEE_CODE = 0x4fa2;

export interface ExchangeChain {
  A: TestWallet;
  B: TestWallet;
  /** Hash of the asset (also its creation's txHash). */
  asset: string;
  /** txHash of one mined transaction of each type, by contract type name. */
  mined: Record<string, string>;
  /** txHashes left pending: a coin transfer and a limit swap. */
  pending: { coinTransfer: string; limitSwap: string };
}

export async function buildExchangeChain(node: TestNode, seed: number): Promise<ExchangeChain> {
  const A = TestWallet.fromSeed(seed),
    B = TestWallet.fromSeed(seed + 1);
  const fakemine = async (w: TestWallet) => {
    const r = await node.get(`/debug/fakemine/${w.addressText}`);
    if (r.body.code !== 0 || (r.body.data && r.body.data.code)) throw new Error(`fakemine: ${r.text}`);
  };
  for (let i = 0; i < 4; i++) await fakemine(A);
  await fakemine(B);
  const genesis = await genesisHash(node);
  let nonce = 0;
  const submit = async (w: TestWallet, payload: TransactionPayload): Promise<string> => {
    const r = await node.post(
      '/transaction/add',
      requestJson(signRequest(w.sk, payload, { pinHeight: 0, pinHash: genesis, nonceId: ++nonce, feeCode: FEE_CODE })),
    );
    if (r.body.code !== 0) throw new Error(`${payload.type}: ${r.text}`);
    return r.body.data.txHash;
  };
  const mined: Record<string, string> = {};
  mined.assetCreation = await submit(A, { type: 'assetCreation', supply: 1_000_000n, precision: 2, name: assetNameBytes('TOK') });
  await fakemine(A);
  const asset = mined.assetCreation;
  const h = fromHex(asset)!;
  const price = (p: string) => priceToBytes(parsePrice(p, 2)!.floor);
  mined.tokenTransfer = await submit(A, { type: 'tokenTransfer', assetHash: h, isLiquidity: false, toAddress: B.address, amount: 200_000n });
  mined.liquidityDeposit = await submit(A, { type: 'liquidityDeposit', assetHash: h, base: 100_000n, quote: 500_000_000n });
  mined.coinTransfer = await submit(A, { type: 'coinTransfer', toAddress: B.address, amount: 12_345_678n });
  await fakemine(A);
  const sellNonce = nonce + 1;
  mined.limitSwap = await submit(B, { type: 'limitSwap', assetHash: h, isBuy: false, amount: 10_000n, limit: priceToBytes(parsePrice('0.004', 2)!.ceil) });
  await submit(A, { type: 'limitSwap', assetHash: h, isBuy: true, amount: 20_000_000n, limit: price('0.006') });
  await fakemine(A);
  mined.cancelation = await submit(B, { type: 'cancelation', cancelHeight: 0, cancelNonceId: sellNonce });
  mined.liquidityWithdrawal = await submit(A, { type: 'liquidityWithdrawal', assetHash: h, shares: 3_535_533n });
  // An order far below the pool's price stays open.
  await submit(A, { type: 'limitSwap', assetHash: h, isBuy: true, amount: 10_000_000n, limit: price('0.001') });
  await fakemine(A);
  const pending = {
    coinTransfer: await submit(A, { type: 'coinTransfer', toAddress: B.address, amount: 1_000n }),
    limitSwap: await submit(B, { type: 'limitSwap', assetHash: h, isBuy: false, amount: 1_000n, limit: price('0.05') }),
  };
  return { A, B, asset, mined, pending };
}
