// History queries of the token-era entries (exchange.md §5.3, §5.4, §8.7, §10): every kind decodes
// with its asset, addresses and the values filled in at query time (a limitSwap's current
// remaining, a cancelation's canceled order hash), on the chain of exchange_scenario.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { U64_MAX } from '../../ts/core/amount.js';
import { concatBytes, toHex } from '../../ts/core/hex.js';
import { sha256 } from '../../ts/kernel/hash.js';
import { u64Value } from '../../ts/store/keys.js';
import { accountTransactions, blockTransactions, transactionByHash, type MinedTransaction } from '../../ts/state/history_query.js';
import { orderById } from '../../ts/state/orders.js';
import { dbReader } from '../../ts/state/ledger.js';
import { removeDir } from '../helpers/node.js';
import { exchangeScenario, type ExchangeScenario } from './exchange_scenario.js';

let sc: ExchangeScenario;
beforeAll(async () => {
  sc = await exchangeScenario();
});
afterAll(async () => {
  await sc.close();
  await removeDir(sc.dir);
});

const hex = (b: Uint8Array | null) => (b === null ? null : toHex(b));

async function block(h: number): Promise<MinedTransaction[]> {
  return blockTransactions(sc.db, h, (await sc.chain.block(h))!.firstHistoryId);
}

async function byHash<K extends MinedTransaction['kind']>(hash: Uint8Array, kind: K): Promise<Extract<MinedTransaction, { kind: K }>> {
  const t = await transactionByHash(sc.db, hash);
  if (!t || t.kind !== kind) throw new Error(`expected a ${kind}, got ${t?.kind}`);
  return t as Extract<MinedTransaction, { kind: K }>;
}

describe('token-era history entries', () => {
  it('lists a block in processing order (exchange.md §7.1)', async () => {
    expect((await block(6)).map((t) => t.kind)).toEqual(['reward', 'assetCreation', 'assetCreation', 'assetCreation']);
    expect((await block(7)).map((t) => t.kind)).toEqual(['reward', 'tokenTransfer', 'liquidityDeposit', 'tokenTransfer']);
    expect((await block(8)).map((t) => t.kind)).toEqual(['reward', 'limitSwap', 'limitSwap', 'limitSwap', 'limitSwap', 'match']);
    expect((await block(9)).map((t) => t.kind)).toEqual(['reward', 'cancelation', 'cancelation', 'tokenTransfer', 'liquidityWithdrawal']);
  });

  it('decodes asset creations with the new asset id', async () => {
    const t = await byHash(sc.tx.createTok.hash, 'assetCreation');
    expect(t).toMatchObject({ height: 6, assetId: sc.tok.id, name: 'TOK', pinHeight: 0, entry: { originId: sc.ids.A, supply: 1_000_000n, precision: 2 } });
    expect(hex(t.originAddress)).toBe(toHex(sc.A.address));
    expect((await byHash(sc.tx.createZed.hash, 'assetCreation')).assetId).toBe(sc.zed.id);
  });

  it('decodes asset and liquidity-token transfers', async () => {
    const t = await byHash(sc.tx.sendTok.hash, 'tokenTransfer');
    expect(t).toMatchObject({
      isLiquidity: false,
      asset: { id: sc.tok.id, name: 'TOK', decimals: 2 },
      entry: { kind: 'assetTransfer', amount: 200_000n, toId: sc.ids.B },
    });
    expect([hex(t.originAddress), hex(t.toAddress)]).toEqual([toHex(sc.A.address), toHex(sc.B.address)]);
    const z = await byHash(sc.tx.sendZed.hash, 'tokenTransfer');
    expect(z).toMatchObject({ isLiquidity: false, asset: { id: sc.zed.id }, entry: { amount: 7n, originId: sc.ids.B, toId: sc.ids.A } });
    const s = await byHash(sc.tx.sendShares.hash, 'tokenTransfer');
    expect(s).toMatchObject({ isLiquidity: true, asset: { id: sc.tok.id }, entry: { kind: 'shareTransfer', amount: 500_000n, toId: sc.ids.B } });
  });

  it('decodes a deposit with the shares it minted and a withdrawal with what it paid out', async () => {
    const d = await byHash(sc.tx.deposit.hash, 'liquidityDeposit');
    expect(d).toMatchObject({ sharesReceived: 7_071_067n, entry: { base: 100_000n, quote: 500_000_000n } }); // isqrt(5·10^13)
    const w = await byHash(sc.tx.withdraw.hash, 'liquidityWithdrawal');
    const [m] = (await block(8)).filter((t) => t.kind === 'match');
    if (m.kind !== 'match') throw new Error('no match');
    // §6.4 against the pool the match left: β = ⌊σ·R_b/S⌋, κ = ⌊σ·R_q/S⌋.
    const S = 7_071_067n,
      { base, quote } = m.record.poolAfter;
    expect(w).toMatchObject({
      asset: { id: sc.tok.id },
      entry: { shares: 1_000_000n },
      received: { base: (1_000_000n * base) / S, quote: (1_000_000n * quote) / S },
    });
  });

  it("reports each order's current remaining: 0 once filled or canceled (§5.3, P4)", async () => {
    const s = dbReader(sc.db);
    const sell = await byHash(sc.tx.sell.hash, 'limitSwap');
    const buy = await byHash(sc.tx.buy.hash, 'limitSwap');
    const bid = await byHash(sc.tx.bid.hash, 'limitSwap');
    const ask = await byHash(sc.tx.ask.hash, 'limitSwap');
    expect(sell).toMatchObject({ entry: { buy: false, amount: 10_000n }, remaining: 0n, asset: { id: sc.tok.id } });
    expect(await orderById(s, sell.id)).toBeNull();
    const open = (await orderById(s, buy.id))!;
    expect(open.filled).toBeGreaterThan(0n);
    expect(buy.remaining).toBe(open.amount - open.filled);
    expect(bid.remaining).toBe(0n); // canceled in block 9
    expect(ask.remaining).toBe(5_000n);
    expect(toHex(ask.entry.limit)).toBe(toHex(sc.tx.ask.payload.type === 'limitSwap' ? sc.tx.ask.payload.limit : new Uint8Array()));
  });

  it('decodes the match record, found by its derived hash (§8.7)', async () => {
    const sell = await byHash(sc.tx.sell.hash, 'limitSwap');
    const buy = await byHash(sc.tx.buy.hash, 'limitSwap');
    const hash = sha256(concatBytes(sc.chain.hashAt(8), u64Value(sc.tok.id)));
    const m = await byHash(hash, 'match');
    expect(m.asset.id).toBe(sc.tok.id);
    expect(m.record.poolBefore).toEqual({ base: 100_000n, quote: 500_000_000n });
    expect(m.record.sellSwaps.map((x) => x.historyId)).toEqual([sell.id]);
    expect(m.record.buySwaps.map((x) => x.historyId)).toEqual([buy.id]);
    expect(m.record.sellSwaps[0].base).toBe(10_000n); // the whole sell filled
    expect(m.record.poolAfter.base * m.record.poolAfter.quote).toBeGreaterThanOrEqual(100_000n * 500_000_000n);
  });

  it("names the canceled order's transaction, or null when nothing was canceled (§5.4)", async () => {
    const c = await byHash(sc.tx.cancelBid.hash, 'cancelation');
    expect(c).toMatchObject({ entry: { cancelHeight: 0, cancelNonceId: sc.tx.bid.nonceId, originId: sc.ids.A } });
    expect(hex(c.canceledTxHash)).toBe(toHex(sc.tx.bid.hash));
    const n = await byHash(sc.tx.cancelNothing.hash, 'cancelation');
    expect(n).toMatchObject({ canceledTxHash: null, entry: { cancelNonceId: 9999 } });
  });

  it('links a match to every account that received a fill', async () => {
    const kinds = async (id: bigint) => (await accountTransactions(sc.db, id, U64_MAX)).filter((t) => t.height === 8).map((t) => t.kind);
    expect(await kinds(sc.ids.A)).toEqual(['limitSwap', 'limitSwap', 'match']);
    expect(await kinds(sc.ids.B)).toEqual(['limitSwap', 'limitSwap', 'match']);
    expect(await kinds(sc.ids.M)).toEqual(['reward']);
  });

  it('fills remaining in at query time: a later cancelation zeroes it', async () => {
    const ask = sc.tx.ask;
    await sc.submit(sc.B, { type: 'cancelation', cancelHeight: ask.pinHeight, cancelNonceId: ask.nonceId });
    await sc.mine();
    expect((await byHash(ask.hash, 'limitSwap')).remaining).toBe(0n);
    await sc.chain.rollback();
    expect((await byHash(ask.hash, 'limitSwap')).remaining).toBe(5_000n);
  });
});
