// /account/:account/coin_balance and /account/:account/history/:beforeId against a started
// regtest node whose blocks come from /debug/fakemine/:address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAddress } from '../../ts/core/address.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { wallet } from '../state/chain_fixture.js';
import { expectError } from './expect_error.js';

const A = formatAddress(wallet(1).address),
  B = formatAddress(wallet(2).address);
const NOBODY = formatAddress(wallet(3).address);
const NEWEST = '18446744073709551615';
let node: TestNode;

const get = (path: string) => node.data(path);
const mine = async (address: string, n: number) => {
  for (let i = 0; i < n; i++) expect((await node.get(`/debug/fakemine/${address}`)).body).toEqual({ code: 0 });
};

// Blocks 1–60 and 62–121 pay A, block 61 pays B: one reward entry each, history id = height.
beforeAll(async () => {
  node = await startNode(['--regtest']);
  await mine(A, 60);
  await mine(B, 1);
  await mine(A, 60);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

describe('GET /account/:account/coin_balance', () => {
  it('reports the total of the rewards, nothing locked and nothing pending', async () => {
    const r = await get(`/account/${A}/coin_balance`);
    expect(r).toEqual({
      account: { accountId: 1, address: A },
      coin: { locked: { str: '0', E8: 0 }, mempool: { str: '0', E8: 0 }, total: { str: '360.00000000', E8: 36_000_000_000 } },
    });
    expect((await get(`/account/${B}/coin_balance`)).coin.total).toEqual({ str: '3.00000000', E8: 300_000_000 });
  });

  it('accepts an account id, and an address in either case', async () => {
    expect(await get('/account/1/coin_balance')).toEqual(await get(`/account/${A}/coin_balance`));
    expect(await get('/account/0002/coin_balance')).toEqual(await get(`/account/${B}/coin_balance`));
    expect(await get(`/account/${A.toUpperCase()}/coin_balance`)).toEqual(await get(`/account/${A}/coin_balance`));
  });

  it('reports account: null and zero balances for an address or id without an account, as the reference (details §7.2)', async () => {
    // The recorded reference answers the same for an unknown address and for account id 0.
    for (const who of [NOBODY, '3', '0', '18446744073709551615']) {
      expect(await get(`/account/${who}/coin_balance`)).toEqual({
        account: null,
        coin: { locked: { str: '0', E8: 0 }, mempool: { str: '0', E8: 0 }, total: { str: '0', E8: 0 } },
      });
    }
  });

  it('refuses bad accounts', async () => {
    const badChecksum = A.slice(0, 40) + (A.slice(40) === '00000000' ? '00000001' : '00000000');
    for (const a of [badChecksum, 'zz'.repeat(24), '-'.repeat(48)]) await expectError(node, `/account/${a}/coin_balance`, 71);
    for (const a of [A.slice(0, 40), A.slice(0, 47), A + '0', 'abc', '-1', '18446744073709551616']) await expectError(node, `/account/${a}/coin_balance`, 94);
  });
});

describe('GET /account/:account/history/:beforeId', () => {
  type Page = { fromId: number; perBlock: { height: number; body: { reward: { historyId: number } | null } }[] };
  const idsOf = (p: Page) => p.perBlock.map((b) => b.body.reward!.historyId);

  it('pages back through 100 entries at a time, newest block first', async () => {
    const p1: Page = await get(`/account/${A}/history/${NEWEST}`);
    const ids1 = idsOf(p1);
    expect(ids1.length).toBe(100);
    expect(ids1).toEqual([...ids1].sort((a, b) => b - a)); // descending
    expect(ids1[0]).toBe(121);
    expect(p1.fromId).toBe(Math.min(...ids1));
    expect(p1.fromId).toBe(21); // 121..62 and 60..21: B's block 61 is not A's
    expect(ids1).not.toContain(61);

    const p2: Page = await get(`/account/${A}/history/${p1.fromId}`);
    expect(idsOf(p2)).toEqual(Array.from({ length: 20 }, (_, i) => 20 - i));
    expect(p2.fromId).toBe(1);

    const p3 = await get(`/account/${A}/history/${p2.fromId}`);
    expect(p3).toEqual({ fromId: 0, perBlock: [] });
  });

  it("shows each block as /chain/block/:id shows it, with only the account's entries", async () => {
    const p: Page = await get(`/account/${B}/history/${NEWEST}`);
    expect(p.fromId).toBe(61);
    expect(p.perBlock.length).toBe(1);
    expect(p.perBlock[0]).toEqual(await get('/chain/block/61'));
    const byId: Page = await get('/account/2/history/62');
    expect(byId).toEqual(p);
    expect(await get('/account/2/history/61')).toEqual({ fromId: 0, perBlock: [] });
  });

  it('selects ids strictly below beforeId', async () => {
    expect(idsOf(await get(`/account/${A}/history/5`))).toEqual([4, 3, 2, 1]);
    expect(await get(`/account/${A}/history/0`)).toEqual({ fromId: 0, perBlock: [] });
  });

  it('refuses bad input', async () => {
    for (const before of ['x', '-1', '18446744073709551616', '1.0']) await expectError(node, `/account/${A}/history/${before}`, 94);
    await expectError(node, `/account/${'zz'.repeat(24)}/history/1`, 71);
    await expectError(node, `/account/${NOBODY}/history/${NEWEST}`, 56);
    await expectError(node, `/account/99/history/${NEWEST}`, 56);
  });
});
