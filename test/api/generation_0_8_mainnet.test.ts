// `--api=0.8` answers where the live mainnet reference 0.8.20 (scripts/mainnet-diff.mjs) showed what
// its source did not: a balance without an account names no address; the latest transactions come
// newest first, blocks and the transfers within each, `count` counting entries; a history page
// before an id of 2^63 or more is empty (the reference binds the id as a signed 64-bit integer); a
// transfer reusing a pending one's nonce without a higher fee is a duplicate nonce before any balance.
import { describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { genesisHash } from '../helpers/node.js';
import { sharedNode } from '../helpers/shared_node.js';
import { mine } from '../helpers/peers.js';
import { TestWallet, requestJson, signRequest } from '../helpers/wallet.js';

await initKernel();

const node = sharedNode(['--regtest-mainnet', '--api=0.8']);
const A = TestWallet.fromSeed(81),
  B = TestWallet.fromSeed(82),
  C = TestWallet.fromSeed(83);
const FEE = 0x4fa2;

/** Three transfers from A in one block (to B, C, B), after two blocks paying A. */
async function chain(): Promise<string[]> {
  await mine(node(), A.addressText, 2);
  const genesis = await genesisHash(node());
  const hashes: string[] = [];
  for (const [i, to] of [B, C, B].entries()) {
    const r = await node().post(
      '/transaction/add',
      requestJson(
        signRequest(
          A.sk,
          { type: 'coinTransfer', toAddress: to.address, amount: 1000n + BigInt(i) },
          { pinHeight: 0, pinHash: genesis, nonceId: 10 + i, feeCode: FEE + i },
        ),
      ),
    );
    expect(r.body.code, r.text).toBe(0);
    hashes.push(r.body.data.txHash);
  }
  await mine(node(), C.addressText, 1);
  return hashes;
}

describe('--api=0.8 as the live 0.8.20 answers', () => {
  let transfers: string[] = [];

  it('lists the latest transactions newest first: blocks, and the transfers within a block; count counts entries', async () => {
    transfers = await chain();
    const latest = await node().data('/transaction/latest');
    expect(latest.perBlock.map((b: any) => b.height)).toEqual([3, 2, 1]);
    const newest = latest.perBlock[0].body;
    const inBlock = (await node().data('/chain/block/3')).body.transfers.map((t: any) => t.txHash);
    expect(new Set(inBlock)).toEqual(new Set(transfers));
    expect(newest.transfers.map((t: any) => t.txHash)).toEqual([...inBlock].reverse());
    expect(latest.count).toBe(3 + 3); // three rewards, three transfers
    expect(latest.fromId).toBe(1);
  });

  it('answers a balance without an account with address and accountId null', async () => {
    const unknown = TestWallet.fromSeed(84).addressText;
    expect(await node().data(`/account/${unknown}/balance`)).toEqual({ balance: '0', balanceE8: 0, address: null, accountId: null });
    expect(await node().data('/account/9999/balance')).toEqual({ balance: '0', balanceE8: 0, address: null, accountId: null });
    const b = await node().data(`/account/${B.addressText}/balance`);
    expect([b.address, b.balanceE8]).toEqual([B.addressText, 2002]);
    expect(typeof b.accountId).toBe('number');
  });

  it("refuses a transfer reusing a pending one's nonce with a fee not higher as a duplicate nonce, before its balance", async () => {
    const genesis = await genesisHash(node());
    const balance = BigInt((await node().data(`/account/${A.addressText}/balance`)).balanceE8);
    const send = (amount: bigint) =>
      node().post(
        '/transaction/add',
        requestJson(signRequest(A.sk, { type: 'coinTransfer', toAddress: B.address, amount }, { pinHeight: 0, pinHash: genesis, nonceId: 50, feeCode: FEE })),
      );
    const first = await send(balance - 2_000_000n);
    expect(first.body.code, first.text).toBe(0);
    // More than the balance, and the same (pinHeight, nonceId) as the pending one: 0.8.20 says 27 first.
    expect((await send(balance + 1n)).body).toEqual({ code: 27, error: 'duplicate transaction nonce' });
    expect((await send(balance - 3_000_000n)).body).toEqual({ code: 27, error: 'duplicate transaction nonce' });
  });

  it('answers a history page before an id of 2^63 or more as empty, with the balance', async () => {
    const all = await node().data(`/account/${A.addressText}/history/9223372036854775807`);
    expect(all.perBlock.map((b: any) => b.height)).toEqual([3, 2, 1]);
    expect(all.fromId).toBe(1);
    for (const id of ['9223372036854775808', '18446744073709551615']) {
      expect(await node().data(`/account/${A.addressText}/history/${id}`)).toEqual({ perBlock: [], fromId: 0, balance: all.balance, balanceE8: all.balanceE8 });
    }
  });
});
