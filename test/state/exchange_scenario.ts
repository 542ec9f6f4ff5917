// A regtest chain with every transaction type, built in process through mempool admission, block
// templates and Chain.append (no proof of work), for the history, view and route tests:
//   1–4  rewards to A, 5 a reward to B
//   6    A creates TOK (2 decimals) and TOKEN (8), B creates ZED (0); the miner M is new
//   7    A sends 200,000 TOK to B, B sends 7 ZED to A, A deposits 100,000 TOK + 5 coins in TOK's pool
//   8    B sells 10,000 TOK at ≥ 0.004 and A buys for 2 coins at ≤ 0.006 (they cross each other and
//        the pool: a match and a trade); A bids 1 coin at ≤ 0.001, B asks 5,000 at ≥ 0.01 (both stay open)
//   9    A cancels its bid, B cancels an id that names nothing, A withdraws 1,000,000 shares and
//        sends 500,000 shares (liquidity tokens) to B
// The data directory can afterwards be served by a started node (close() first).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chain, type StoredBlock } from '../../ts/chain/chain.js';
import { buildTemplate } from '../../ts/mining/template.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { assetNameBytes, type TransactionPayload } from '../../ts/core/transaction.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { parsePrice, priceToBytes } from '../../ts/kernel/price.js';
import { MinFeePolicy } from '../../ts/mempool/fee_policy.js';
import { MempoolService } from '../../ts/mempool/service.js';
import type { PendingTx } from '../../ts/mempool/pending.js';
import { assetByHash, type Asset } from '../../ts/state/assets.js';
import { accountIdOf, dbReader } from '../../ts/state/ledger.js';
import { openDatabase, type Db } from '../../ts/store/database.js';
import { TestWallet, signRequest } from '../helpers/wallet.js';

await initKernel();

export const FEE_CODE = 0x4fa2; // 0.01000448 coin, the default minimum
export const FEE_E8 = 1_000_448n;
export const FIRST_TIME = 1_700_000_020;

export const limitOf = (price: string, decimals: number, side: 'floor' | 'ceil') => priceToBytes(parsePrice(price, decimals)![side]);

export interface ExchangeScenario {
  dir: string;
  db: Db;
  chain: Chain;
  mempool: MempoolService;
  A: TestWallet;
  B: TestWallet;
  M: TestWallet;
  ids: { A: bigint; B: bigint; M: bigint };
  tok: Asset;
  token: Asset;
  zed: Asset;
  /** The signed transactions by name, as admitted. */
  tx: Record<
    | 'createTok'
    | 'createToken'
    | 'createZed'
    | 'sendTok'
    | 'sendZed'
    | 'deposit'
    | 'sell'
    | 'buy'
    | 'bid'
    | 'ask'
    | 'cancelBid'
    | 'cancelNothing'
    | 'withdraw'
    | 'sendShares',
    PendingTx
  >;
  /** Signs and admits a transaction (pinned to the genesis, a fresh nonce id). */
  submit(w: TestWallet, payload: TransactionPayload): Promise<PendingTx>;
  /** Mines the mempool into the next block, paying M. */
  mine(to?: TestWallet): Promise<StoredBlock>;
  close(): Promise<void>;
}

export async function exchangeScenario(): Promise<ExchangeScenario> {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-exchange-'));
  const { db } = await openDatabase(dir);
  const chain = await Chain.open(db, REGTEST);
  const mempool = new MempoolService(chain, new MinFeePolicy());
  const A = TestWallet.fromSeed(41),
    B = TestWallet.fromSeed(42),
    M = TestWallet.fromSeed(43);
  let nonce = 0;
  const submit = (w: TestWallet, payload: TransactionPayload) =>
    mempool.add(signRequest(w.sk, payload, { pinHeight: 0, pinHash: chain.hashAt(0), nonceId: ++nonce, feeCode: FEE_CODE }));
  const mine = async (to = M) => {
    const now = FIRST_TIME + 20 * chain.length;
    const t = await chain.locked(() => buildTemplate(chain, db, to.address, now, mempool.pool.all()));
    const b = await chain.append(t.header, t.body, { now, skipPow: true });
    if (mempool.pool.size) throw new Error(`block ${b.height} left ${mempool.pool.size} transactions pending`);
    return b;
  };
  const s = dbReader(db);

  for (let i = 0; i < 4; i++) await mine(A);
  await mine(B);

  const createTok = await submit(A, { type: 'assetCreation', supply: 1_000_000n, precision: 2, name: assetNameBytes('TOK') });
  const createToken = await submit(A, { type: 'assetCreation', supply: 10n ** 15n, precision: 8, name: assetNameBytes('TOKEN') });
  const createZed = await submit(B, { type: 'assetCreation', supply: 500n, precision: 0, name: assetNameBytes('ZED') });
  await mine();
  const tok = (await assetByHash(s, createTok.hash))!,
    token = (await assetByHash(s, createToken.hash))!,
    zed = (await assetByHash(s, createZed.hash))!;

  const sendTok = await submit(A, { type: 'tokenTransfer', assetHash: tok.hash, isLiquidity: false, toAddress: B.address, amount: 200_000n });
  const sendZed = await submit(B, { type: 'tokenTransfer', assetHash: zed.hash, isLiquidity: false, toAddress: A.address, amount: 7n });
  const deposit = await submit(A, { type: 'liquidityDeposit', assetHash: tok.hash, base: 100_000n, quote: 500_000_000n });
  await mine();

  const sell = await submit(B, { type: 'limitSwap', assetHash: tok.hash, isBuy: false, amount: 10_000n, limit: limitOf('0.004', 2, 'ceil') });
  const buy = await submit(A, { type: 'limitSwap', assetHash: tok.hash, isBuy: true, amount: 200_000_000n, limit: limitOf('0.006', 2, 'floor') });
  const bid = await submit(A, { type: 'limitSwap', assetHash: tok.hash, isBuy: true, amount: 100_000_000n, limit: limitOf('0.001', 2, 'floor') });
  const ask = await submit(B, { type: 'limitSwap', assetHash: tok.hash, isBuy: false, amount: 5_000n, limit: limitOf('0.01', 2, 'ceil') });
  await mine();

  const cancelBid = await submit(A, { type: 'cancelation', cancelHeight: bid.pinHeight, cancelNonceId: bid.nonceId });
  const cancelNothing = await submit(B, { type: 'cancelation', cancelHeight: 0, cancelNonceId: 9999 });
  const withdraw = await submit(A, { type: 'liquidityWithdrawal', assetHash: tok.hash, shares: 1_000_000n });
  const sendShares = await submit(A, { type: 'tokenTransfer', assetHash: tok.hash, isLiquidity: true, toAddress: B.address, amount: 500_000n });
  await mine();

  const ids = { A: (await accountIdOf(s, A.address))!, B: (await accountIdOf(s, B.address))!, M: (await accountIdOf(s, M.address))! };
  return {
    dir,
    db,
    chain,
    mempool,
    A,
    B,
    M,
    ids,
    tok,
    token,
    zed,
    tx: { createTok, createToken, createZed, sendTok, sendZed, deposit, sell, buy, bid, ask, cancelBid, cancelNothing, withdraw, sendShares },
    submit,
    mine,
    close: async () => {
      await chain.idle();
      await db.close();
    },
  };
}
