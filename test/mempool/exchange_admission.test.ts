// Transactions a block cannot carry never reach one: the mempool refuses an order or a deposit that
// alone would make the next block invalid by the exchange's own rules (a credit of 0 to an account
// without a row of the token: the reference's mempool admits it, then refuses its own template),
// and the block template leaves out any such transaction that got into the mempool otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTemplate } from '../../ts/mining/template.js';
import { parseBody } from '../../ts/core/body.js';
import { NodeError } from '../../ts/core/errors.js';
import { dbReader } from '../../ts/state/ledger.js';
import { poolOf } from '../../ts/state/pools.js';
import { BlockLab } from '../state/block_lab.js';

const AT_0_4 = Uint8Array.of(0xc3, 0x50, 0x52); // 0.4 coin per unit at 2 decimals

let lab: BlockLab;
beforeAll(async () => {
  lab = await BlockLab.create();
});
afterAll(async () => {
  await lab?.close();
});

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'none';
  } catch (e) {
    if (e instanceof NodeError) return `${e.errorName}: ${e.message}`;
    throw e;
  }
};
const bid = () => ({ type: 'limitSwap' as const, assetHash: lab.tok.hash, isBuy: true, amount: 100_000_000n, limit: AT_0_4 });

describe('exchange transactions a block cannot carry', () => {
  it('the template leaves out such a transaction that is pending anyway, and its block is valid', async () => {
    const cBid = await lab.pending(lab.C, bid());
    const transfer = await lab.pending(lab.A, { type: 'coinTransfer', toAddress: lab.C.address, amount: 5n });
    // TOK has no pool: the bid would put 1 E8 into it for 0 units, and C holds no TOK
    const now = lab.tick();
    const t = await lab.chain.locked(() => buildTemplate(lab.chain, lab.db, lab.M.address, now, [cBid, transfer]));
    const body = parseBody(t.body, 'V4');
    expect([body.coinTransfers.length, body.tokenSections.length]).toEqual([1, 0]);
    await lab.chain.append(t.header, t.body, { now, skipPow: true });
  });
  it('a bid that would credit 0 units to an account without the asset is refused at admission', async () => {
    // TOK has no pool: a lone bid puts 1 E8 into it for 0 units; C holds no TOK
    expect(await refusal(lab.submit(lab.C, bid()))).toMatch(/^EIDNOTREFERENCED: .*holds no balance of it/);
    expect(lab.mempool.pool.size).toBe(0);
    // a one-sided first deposit mints 0 shares: the reference exits recording it
    expect(await refusal(lab.submit(lab.C, { type: 'liquidityDeposit', assetHash: lab.tok.hash, base: 0n, quote: 1_000n }))).toMatch(
      /^EREFABORT: .*mints 0 liquidity shares/,
    );
    // B holds TOK: its bid is admitted and mined
    await lab.submit(lab.B, bid());
    await lab.mineMempool();
    expect(lab.mempool.pool.size).toBe(0);
    expect(await poolOf(dbReader(lab.db), lab.tok.id)).toEqual({ base: 0n, quote: 1n, shares: 0n });
  });
});
