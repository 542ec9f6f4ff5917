// The exchange through mempool admission, block templates and block application, in process on
// regtest: asset creation, asset transfer, liquidity deposit, crossing orders matched with the
// pool, cancelation, withdrawal; every balance invariant checked; rollback restores each state.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { digest } from '../helpers/digest.js';
import { parsePrice, priceToBytes } from '../../ts/kernel/price.js';
import { Chain } from '../../ts/chain/chain.js';
import { buildTemplate } from '../../ts/mining/template.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { assetNameBytes, type TransactionPayload } from '../../ts/core/transaction.js';
import { NodeError } from '../../ts/core/errors.js';
import { MinFeePolicy } from '../../ts/mempool/fee_policy.js';
import { MempoolService } from '../../ts/mempool/service.js';
import { openDatabase } from '../../ts/store/database.js';
import { assetByHash } from '../../ts/state/assets.js';
import { accountIdOf, balanceOf, dbReader } from '../../ts/state/ledger.js';
import { accountOrders } from '../../ts/state/orders.js';
import { poolOf } from '../../ts/state/pools.js';
import { COIN_TOKEN_ID, assetTokenId, liquidityTokenId } from '../../ts/state/tokens.js';
import { tradesOf } from '../../ts/state/trades.js';
import { matchTxHash } from '../../ts/state/history.js';
import { transactionByHash } from '../../ts/state/history_query.js';
import { tradeKey } from '../../ts/store/keys.js';
import { TestWallet, signRequest } from '../helpers/wallet.js';

await initKernel();

const A = TestWallet.fromSeed(31),
  B = TestWallet.fromSeed(32),
  M = TestWallet.fromSeed(33);
const FEE_CODE = 0x4fa2; // 0.01000448, the default minimum
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('the exchange end to end (in process)', () => {
  it('creates, transfers, pools, matches, cancels, withdraws, and rolls back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wartnode-dex-'));
    dirs.push(dir);
    const { db } = await openDatabase(dir);
    const chain = await Chain.open(db, REGTEST);
    const mempool = new MempoolService(chain, new MinFeePolicy());
    const s = dbReader(db);
    let now = 1_700_000_000,
      nonce = 0;
    const mine = async (to = M) => {
      now += 20;
      const t = await chain.locked(() => buildTemplate(chain, db, to.address, now, mempool.pool.all()));
      return chain.append(t.header, t.body, { now, skipPow: true });
    };
    const submit = (w: TestWallet, payload: TransactionPayload) =>
      mempool.add(signRequest(w.sk, payload, { pinHeight: 0, pinHash: chain.hashAt(0), nonceId: ++nonce, feeCode: FEE_CODE }));
    const bal = async (w: TestWallet, token: bigint) => balanceOf(s, (await accountIdOf(s, w.address))!, token);

    for (let i = 0; i < 4; i++) await mine(A); // A: 12 coins
    await mine(B); // B: 3 coins
    const digests: string[] = [await digest(db)];

    // Asset creation (exchange.md §2): the asset's hash is the creation's txHash.
    const created = await submit(A, { type: 'assetCreation', supply: 1_000_000n, precision: 2, name: assetNameBytes('TOK') });
    await mine();
    digests.push(await digest(db));
    const asset = (await assetByHash(s, created.hash))!;
    expect(asset).toMatchObject({ name: 'TOK', decimals: 2, supply: 1_000_000n, height: chain.length });
    const AT = assetTokenId(asset.id),
      LT = liquidityTokenId(asset.id);
    expect((await bal(A, AT)).total).toBe(1_000_000n);

    // Asset transfer to B, deposit by A (100,000 units + 5 coins).
    await submit(A, { type: 'tokenTransfer', assetHash: asset.hash, isLiquidity: false, toAddress: B.address, amount: 200_000n });
    await submit(A, { type: 'liquidityDeposit', assetHash: asset.hash, base: 100_000n, quote: 500_000_000n });
    await mine();
    digests.push(await digest(db));
    expect((await bal(B, AT)).total).toBe(200_000n);
    expect((await bal(A, AT)).total).toBe(700_000n);
    const pool0 = await poolOf(s, asset.id);
    expect(pool0).toEqual({ base: 100_000n, quote: 500_000_000n, shares: 7_071_067n }); // isqrt(5·10^13)
    expect((await bal(A, LT)).total).toBe(7_071_067n);

    // The pool prices 0.005 coin/unit. B sells 100 units (10,000 smallest) at ≥ 0.004 coin/unit;
    // A buys for 2 coins at ≤ 0.006 coin/unit: they cross each other and the pool.
    const sellLimit = priceToBytes(parsePrice('0.004', 2)!.ceil);
    const buyLimit = priceToBytes(parsePrice('0.006', 2)!.floor);
    const sell = await submit(B, { type: 'limitSwap', assetHash: asset.hash, isBuy: false, amount: 10_000n, limit: sellLimit });
    await submit(A, { type: 'limitSwap', assetHash: asset.hash, isBuy: true, amount: 200_000_000n, limit: buyLimit });
    expect((await bal(B, AT)).locked).toBe(0n);
    expect(mempool.pool.reserved((await accountIdOf(s, B.address))!, AT)).toBe(10_000n);
    await mine();
    digests.push(await digest(db));
    const pool1 = await poolOf(s, asset.id);
    expect(pool1.base * pool1.quote).toBeGreaterThanOrEqual(pool0.base * pool0.quote);
    // Locks equal the open orders' remaining (exchange.md §3.1 invariant).
    for (const [w, token] of [
      [A, COIN_TOKEN_ID],
      [B, AT],
    ] as const) {
      const id = (await accountIdOf(s, w.address))!;
      const open = await accountOrders(db, id);
      const spend = open.filter((o) => (token === COIN_TOKEN_ID) === o.isBuy).reduce((x, o) => x + o.amount - o.filled, 0n);
      expect((await bal(w, token)).locked).toBe(spend);
    }
    // The block's trade: exact totals, the swaps of its match entry summed (both sides), beside the
    // reference's doubles; a record of the older layout (timestamp and doubles) gets the same totals.
    const hashAt = (h: number) => chain.hashAt(h);
    const [trade] = await tradesOf(db, asset.id, hashAt);
    const matched = await transactionByHash(db, matchTxHash(chain.hashAt(chain.length), asset.id));
    const swaps = matched?.kind === 'match' ? [...matched.record.buySwaps, ...matched.record.sellSwaps] : [];
    expect(swaps.length).toBeGreaterThan(1);
    expect(trade).toMatchObject({ height: chain.length, base: swaps.reduce((t, x) => t + x.base, 0n), quote: swaps.reduce((t, x) => t + x.quote, 0n) });
    expect(trade.reference.base).toBeCloseTo(Number(trade.base) / 100, 6);
    const record = (await db.get(tradeKey(asset.id, chain.length)))!;
    await db.put(tradeKey(asset.id, chain.length), record.subarray(0, 20));
    expect(await tradesOf(db, asset.id, hashAt)).toEqual([trade]);
    await db.put(tradeKey(asset.id, chain.length), record);
    // Both orders crossed each other and the pool: B sold, A bought.
    expect((await bal(B, AT)).total).toBeLessThan(200_000n);
    expect((await bal(B, COIN_TOKEN_ID)).total).toBeGreaterThan(300_000_000n - 2n * 1_000_448n);
    expect((await bal(A, AT)).total).toBeGreaterThan(700_000n);

    // B cancels whatever is left of its sell order; A withdraws half its shares.
    const open = await accountOrders(db, (await accountIdOf(s, B.address))!);
    await submit(B, { type: 'cancelation', cancelHeight: sell.pinHeight, cancelNonceId: sell.nonceId });
    await submit(A, { type: 'liquidityWithdrawal', assetHash: asset.hash, shares: 3_535_533n });
    await mine();
    digests.push(await digest(db));
    expect(await accountOrders(db, (await accountIdOf(s, B.address))!)).toEqual([]);
    expect((await bal(B, AT)).locked).toBe(0n);
    if (open.length) expect((await bal(B, AT)).total).toBe(200_000n - open[0].filled);
    expect((await poolOf(s, asset.id)).shares).toBe(7_071_067n - 3_535_533n);

    // Bad withdrawals never reach a block: more shares than owned is refused at admission.
    await expect(submit(A, { type: 'liquidityWithdrawal', assetHash: asset.hash, shares: 10n ** 12n })).rejects.toSatisfy(
      (e) => e instanceof NodeError && e.code === 184,
    );

    // Rollback restores every earlier state exactly.
    for (let i = digests.length - 1; i > 0; i--) {
      await chain.rollback();
      expect(await digest(db)).toBe(digests[i - 1]);
    }
    await db.close();
  }, 120_000);
});
