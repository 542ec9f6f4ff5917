// History queries (exchange.md §10; http-api-details.md §4.4, §7.3) on a real chain built through
// Chain.append: rewards and signed coin transfers, decoded and with addresses resolved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryTxHash } from '../../ts/core/entry.js';
import { U64_MAX } from '../../ts/core/amount.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { rewardHash } from '../../ts/core/transaction.js';
import { accountTransactions, blockTransactions, latestTransactions, type MinedTransaction } from '../../ts/state/history_query.js';
import { accountHistoryIds } from '../../ts/state/history.js';
import { accountHistoryKey, readU64 } from '../../ts/store/keys.js';
import { accountIdOf, dbReader } from '../../ts/state/ledger.js';
import { removeDir } from '../helpers/node.js';
import { ChainBuilder, wallet } from './chain_fixture.js';

const A = wallet(1),
  B = wallet(2);
const COIN = 100_000_000n;
const FEE = 1_000_448n; // exactly representable (0x4fa2)
let c: ChainBuilder;
let idA: bigint, idB: bigint;

const ids = (txs: MinedTransaction[]) => txs.map((t) => Number(t.id));

beforeAll(async () => {
  c = await ChainBuilder.create();
  await c.mine(A.address); // 1: reward id 1
  await c.mine(B.address); // 2: reward id 2
  await c.mine(A.address, {
    // 3: reward id 3, transfers 4 and 5
    transfers: [
      { from: A, to: B.address, amount: 1n * COIN, feeE8: FEE, nonceId: 1 },
      { from: A, to: B.address, amount: 2n * COIN, feeE8: FEE, nonceId: 2 },
    ],
  });
  idA = (await accountIdOf(dbReader(c.db), A.address))!;
  idB = (await accountIdOf(dbReader(c.db), B.address))!;
});
afterAll(async () => {
  await c.close();
  await removeDir(c.dir);
});

describe('blockTransactions', () => {
  it('decodes the reward and the transfers of one block, in history-id order', async () => {
    const b = (await c.chain.block(3))!;
    expect(b.firstHistoryId).toBe(3n);
    const txs = await blockTransactions(c.db, 3, b.firstHistoryId);
    expect(ids(txs)).toEqual([3, 4, 5]);
    const [reward, t1, t2] = txs;
    if (reward.kind !== 'reward' || t1.kind !== 'coinTransfer' || t2.kind !== 'coinTransfer') throw new Error('kinds');
    expect(reward).toMatchObject({ height: 3, toId: idA, amount: 3n * COIN + 2n * FEE });
    expect(toHex(reward.toAddress)).toBe(toHex(A.address));
    expect(toHex(reward.hash)).toBe(toHex(rewardHash(A.address, 3n * COIN + 2n * FEE, 3)));
    expect(t1).toMatchObject({ height: 3, pinHeight: 0 });
    expect([toHex(t1.originAddress), toHex(t1.toAddress)]).toEqual([toHex(A.address), toHex(B.address)]);
    expect(t1.entry).toMatchObject({ originId: idA, toId: idB, amount: COIN, pinNonce: { nonceId: 1 } });
    expect(toHex(t1.hash)).toBe(toHex(entryTxHash(t1.entry, 3, c.chain.hashAt(0), { toAddress: B.address })));
    expect(t2.entry.amount).toBe(2n * COIN);
  });

  it('stops at the block boundary', async () => {
    expect(ids(await blockTransactions(c.db, 1, 1n))).toEqual([1]);
    expect(ids(await blockTransactions(c.db, 2, 2n))).toEqual([2]);
  });
});

describe('latestTransactions', () => {
  it('returns ids [max(1, next − n), next) with that lower bound as fromId', async () => {
    const all = await latestTransactions(c.db);
    expect(all.fromId).toBe(1n);
    expect(ids(all.transactions)).toEqual([1, 2, 3, 4, 5]);
    const two = await latestTransactions(c.db, 2);
    expect(two.fromId).toBe(4n);
    expect(ids(two.transactions)).toEqual([4, 5]);
  });
});

describe('accountTransactions', () => {
  it('lists the entries linked to an account, both sides of a transfer', async () => {
    expect(ids(await accountTransactions(c.db, idA, U64_MAX))).toEqual([1, 3, 4, 5]);
    expect(ids(await accountTransactions(c.db, idB, U64_MAX))).toEqual([2, 4, 5]);
  });

  it('selects the newest entries below beforeId, at most `limit`', async () => {
    expect(ids(await accountTransactions(c.db, idA, 4n))).toEqual([1, 3]);
    expect(ids(await accountTransactions(c.db, idA, U64_MAX, 2))).toEqual([4, 5]);
    expect(ids(await accountTransactions(c.db, idA, 1n))).toEqual([]);
    expect(ids(await accountTransactions(c.db, idA, 0n))).toEqual([]);
    expect(ids(await accountTransactions(c.db, 99n, U64_MAX))).toEqual([]);
  });

  it('are linked by one record per account and block, keyed by its first id there (issue 29)', async () => {
    const records = async (account: bigint) =>
      (await c.db.iterator({ gte: accountHistoryKey(account, 0n), lte: accountHistoryKey(account, U64_MAX) }).all()).map(([k, v]) => [
        Number(readU64(k, 9)),
        toHex(v),
      ]);
    // A: block 1 (id 1), block 3 (ids 3, 4, 5: differences 1 and 1); B: block 2, block 3 (4, 5)
    expect(await records(idA)).toEqual([
      [1, ''],
      [3, '0000000100000001'],
    ]);
    expect(await records(idB)).toEqual([
      [2, ''],
      [4, '00000001'],
    ]);
    expect(accountHistoryIds(7n, fromHex('0000000200000100')!)).toEqual([7n, 9n, 265n]);
    expect(() => accountHistoryIds(7n, Uint8Array.of(1, 2))).toThrow();
  });

  it('reads a store written before, with one empty record per entry, as the same pages', async () => {
    const x = await ChainBuilder.create();
    try {
      await x.mine(A.address);
      await x.mine(B.address);
      await x.mine(A.address, { transfers: [1, 2, 3].map((n) => ({ from: A, to: B.address, amount: COIN, feeE8: FEE, nonceId: n })) });
      await x.mine(A.address);
      const a = (await accountIdOf(dbReader(x.db), A.address))!;
      const pages = async () => [U64_MAX, 7n, 4n, 3n, 2n].map(async (before) => ids(await accountTransactions(x.db, a, before, 2)));
      const now = await Promise.all(await pages());
      expect(now).toEqual([[6, 7], [5, 6], [1, 3], [1], [1]]);
      // the old layout: each id its own record with an empty value
      const old = (await x.db.iterator({ gte: accountHistoryKey(a, 0n), lte: accountHistoryKey(a, U64_MAX) }).all()).flatMap(([k, v]) =>
        accountHistoryIds(readU64(k, 9), v),
      );
      expect(old.map(Number)).toEqual([1, 3, 4, 5, 6, 7]);
      await x.db.batch(old.map((id) => ({ type: 'put' as const, key: accountHistoryKey(a, id), value: new Uint8Array(0) })));
      expect((await x.db.iterator({ gte: accountHistoryKey(a, 0n), lte: accountHistoryKey(a, U64_MAX) }).all()).length).toBe(6);
      expect(await Promise.all(await pages())).toEqual(now);
    } finally {
      await x.close();
      await removeDir(x.dir);
    }
  });
});

describe('after a rollback', () => {
  it('the rolled-back entries are gone and their ids are reused', async () => {
    await c.chain.rollback();
    expect(ids((await latestTransactions(c.db)).transactions)).toEqual([1, 2]);
    expect(ids(await accountTransactions(c.db, idB, U64_MAX))).toEqual([2]);
    await c.mine(B.address);
    const txs = await blockTransactions(c.db, 3, 3n);
    expect(txs).toMatchObject([{ id: 3n, kind: 'reward', toId: idB }]);
  });
});
