// After a block is only appended, the mempool drops what the block made invalid without reading the
// ledger for every pending transaction (service.ts): its own transactions, another transaction of
// one's id, and the cheapest transactions of a signer whose free balance the block lowered; the
// others stay untouched. After a rollback every pending transaction is checked again.
import { afterAll, describe, expect, it } from 'vitest';
import { buildTemplate } from '../../ts/mining/template.js';
import { MinFeePolicy } from '../../ts/mempool/fee_policy.js';
import { MempoolService } from '../../ts/mempool/service.js';
import type { PendingTx } from '../../ts/mempool/pending.js';
import { balanceOf, dbReader } from '../../ts/state/ledger.js';
import { signRequest } from '../helpers/wallet.js';
import { exchangeScenario, FEE_CODE, FIRST_TIME } from '../state/exchange_scenario.js';

const s = await exchangeScenario();
afterAll(() => s.close());

const hashes = (txs: PendingTx[]) => txs.map((t) => Buffer.from(t.hash).toString('hex')).sort();

describe('the mempool after a block', () => {
  it('drops the block’s transactions, a transaction of a taken id, and what a signer can no longer pay; keeps the rest', async () => {
    // A second mempool on the same chain: the transactions another node mined, never seen here.
    const elsewhere = new MempoolService(s.chain, new MinFeePolicy());
    const sign = (w: typeof s.A, nonceId: number, amount: bigint, feeCode = FEE_CODE) =>
      signRequest(w.sk, { type: 'coinTransfer', toAddress: s.M.address, amount }, { pinHeight: 0, pinHash: s.chain.hashAt(0), nonceId, feeCode });

    // B's free coin balance, nearly all of it reserved here by two transfers; one more of B's elsewhere.
    const free = await balanceOf(dbReader(s.db), s.ids.B, 0n);
    const third = (free.total - free.locked) / 3n;
    const bKeep = await s.mempool.add(sign(s.B, 5001, third, FEE_CODE + 2));
    const bCheap = await s.mempool.add(sign(s.B, 5002, third));
    expect(hashes(s.mempool.pool.all())).toContain(hashes([bCheap])[0]);
    const bThere = await elsewhere.add(sign(s.B, 5003, third + 1n));
    // A: one transfer mined from here, one whose id the block takes with another fee, one untouched.
    const aMined = await s.mempool.add(sign(s.A, 5101, 1n));
    const aTwin = await s.mempool.add(sign(s.A, 5102, 2n));
    const aTaken = await elsewhere.add(sign(s.A, 5102, 3n, FEE_CODE + 1));
    const aStays = await s.mempool.add(sign(s.A, 5103, 4n));
    expect(aTwin.hash).not.toEqual(aTaken.hash);

    const now = FIRST_TIME + 20 * s.chain.length;
    const t = await s.chain.locked(() => buildTemplate(s.chain, s.db, s.M.address, now, [aMined, aTaken, bThere]));
    await s.chain.append(t.header, t.body, { now, skipPow: true });

    // B's free balance now covers one of its two pending transfers: the cheaper one left.
    expect(hashes(s.mempool.pool.all())).toEqual(hashes([bKeep, aStays]));
    expect(elsewhere.pool.size).toBe(0);
  });

  it('after a rollback, checks every pending transaction again: the rolled-back ones return', async () => {
    const before = hashes(s.mempool.pool.all());
    await s.chain.rollback();
    const after = hashes(s.mempool.pool.all());
    // The block's three transactions came back where still valid; what was pending stays.
    for (const h of before) expect(after).toContain(h);
    expect(after.length).toBe(before.length + 3);
  });
});
