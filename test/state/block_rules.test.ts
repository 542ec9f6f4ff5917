// Block rules of the exchange as the live reference 0.10.3 applies them, defects included
// (docs/reference-differences.md): which blocks it refuses, with which error, and every balance
// effect of the surprising cases. Blocks are assembled by hand (block_lab.ts); the tests run in
// order on one chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetNameBytes } from '../../ts/core/transaction.js';
import { assetById, type Asset } from '../../ts/state/assets.js';
import { dbReader, nextStateId } from '../../ts/state/ledger.js';
import { accountOrders } from '../../ts/state/orders.js';
import { poolOf } from '../../ts/state/pools.js';
import { COIN_TOKEN_ID, assetTokenId, liquidityTokenId } from '../../ts/state/tokens.js';
import { TestWallet } from '../helpers/wallet.js';
import { BlockLab, FEE_E8 } from './block_lab.js';

const AT_0_4 = Uint8Array.of(0xc3, 0x50, 0x52); // 0.4 coin per unit at 2 decimals (m 50000, e 82)
const AT_9 = Uint8Array.of(0x90, 0x00, 0x57); // about 9 coins per unit (m 36864, e 87)
const NO_PRICE = Uint8Array.of(0x00, 0x01, 0xc8); // m 1, e 200: no grid price

let lab: BlockLab;
let AT: bigint, LT: bigint;
beforeAll(async () => {
  lab = await BlockLab.create();
  AT = assetTokenId(lab.tok.id);
  LT = liquidityTokenId(lab.tok.id);
});
afterAll(async () => {
  await lab?.close();
});

const order = (isBuy: boolean, amount: bigint, limit: Uint8Array, asset = lab.tok) => ({
  type: 'limitSwap' as const,
  assetHash: asset.hash,
  isBuy,
  amount,
  limit,
});
const deposit = (base: bigint, quote: bigint, asset = lab.tok) => ({ type: 'liquidityDeposit' as const, assetHash: asset.hash, base, quote });
const withdraw = (shares: bigint) => ({ type: 'liquidityWithdrawal' as const, assetHash: lab.tok.hash, shares });
const pool = (asset = lab.tok) => poolOf(dbReader(lab.db), asset.id);
const openOrders = async (w: TestWallet) => accountOrders(lab.db, await lab.id(w));

/** Creates an asset of A in its own block and returns it. */
async function newAsset(name: string): Promise<Asset> {
  const id = await nextStateId(dbReader(lab.db)); // no new accounts in the block: the asset takes the next id
  await lab.append({ assetCreations: [await lab.entry(lab.A, { type: 'assetCreation', supply: 1_000_000n, precision: 2, name: assetNameBytes(name) })] });
  return (await assetById(dbReader(lab.db), id))!;
}

describe('orders and pools', () => {
  it('a buyer credited 0 units without a row of the asset makes the block invalid (EIDNOTREFERENCED)', async () => {
    // The lone bid on an empty pool puts 1 E8 into it and receives ⌊1·0/1⌋ = 0 units (as block 64
    // of the reference's own chain); C holds no TOK row (block_applier.cpp:980).
    expect(await lab.refusal({ tokenSections: [lab.section([await lab.entry(lab.C, order(true, 100_000_000n, AT_0_4))])] })).toBe('EIDNOTREFERENCED');
    // B holds TOK: the same bid is valid, and B's credit of 0 units changes nothing
    const coin = await lab.balance(lab.B, COIN_TOKEN_ID);
    await lab.append({ tokenSections: [lab.section([await lab.entry(lab.B, order(true, 100_000_000n, AT_0_4))])] });
    expect(await pool()).toEqual({ base: 0n, quote: 1n, shares: 0n });
    expect(await lab.balance(lab.B, COIN_TOKEN_ID)).toEqual({ total: coin.total - FEE_E8 - 1n, locked: 100_000_000n - 1n });
    expect(await lab.balance(lab.B, AT)).toEqual({ total: 100_000n, locked: 0n });
  });

  it('a deposit that mints 0 shares aborts the reference, for any depositor (EREFABORT)', async () => {
    // A's first deposit: the shares are ⌊√(R_b·R_q)⌋ of the pool after it (its 1 E8 included)
    await lab.append({ tokenSections: [lab.section([await lab.entry(lab.A, deposit(100_000n, 500_000_000n))])] });
    expect(await pool()).toEqual({ base: 100_000n, quote: 500_000_001n, shares: 7_071_067n });
    expect((await lab.balance(lab.A, LT)).total).toBe(7_071_067n);
    // 1 E8 more mints ⌊S·s1/s0⌋ − S = 0 shares: its history entry asserts non-zero shares
    expect(await lab.refusal({ tokenSections: [lab.section([await lab.entry(lab.B, deposit(0n, 1n))])] })).toBe('EREFABORT');
    expect(await lab.refusal({ tokenSections: [lab.section([await lab.entry(lab.A, deposit(0n, 1n))])] })).toBe('EREFABORT');
    expect(await lab.refusal({ tokenSections: [lab.section([await lab.entry(lab.A, deposit(0n, 20_000n))])] })).toBe('none');
    expect((await pool()).shares).toBe(7_071_067n + 142n);
  });

  it('a stored order with a fill heading its level: the next match claims the fill again and aborts the reference', async () => {
    // B's bid (10^8, 1 filled) now crosses the pool; its level counts 10^8 where 10^8 − 1 remain
    // (block_applier.cpp:155), so the clearing fills more than the loaded orders hold (:322).
    expect(await lab.refusal({ tokenSections: [lab.section([await lab.entry(lab.A, order(false, 5n, AT_9))])] })).toBe('EREFABORT');
    // B cancels it: the remaining 10^8 − 1 is unlocked
    const [bid] = await openOrders(lab.B);
    expect([bid.amount, bid.filled]).toEqual([100_000_000n, 1n]);
    await lab.append({ cancelations: [await lab.entry(lab.B, { type: 'cancelation', cancelHeight: bid.pinHeight, cancelNonceId: bid.nonceId })] });
    expect(await openOrders(lab.B)).toEqual([]);
    expect((await lab.balance(lab.B, COIN_TOKEN_ID)).locked).toBe(0n);
  });

  it('withdrawals: more than the pool issued is EPOOLREDEEM, more than the account holds EBALANCE', async () => {
    const { shares } = await pool();
    expect(await lab.refusal({ tokenSections: [lab.section([await lab.entry(lab.A, withdraw(shares + 1n))])] })).toBe('EPOOLREDEEM');
    await lab.append({
      tokenSections: [
        lab.section([await lab.entry(lab.A, { type: 'tokenTransfer', assetHash: lab.tok.hash, isLiquidity: true, toAddress: lab.B.address, amount: 1_000n })]),
      ],
    });
    expect(await lab.refusal({ tokenSections: [lab.section([await lab.entry(lab.B, withdraw(1_001n))])] })).toBe('EBALANCE');
  });

  it('two sections of one asset each start from the pool before the block; the last one is written', async () => {
    // A withdraws 1,000,000 shares in each of two sections: A is debited and credited twice, the
    // pool loses one withdrawal (block_applier.cpp:1128–1159 reads it per section).
    const p0 = await pool();
    const part = (x: bigint) => (1_000_000n * x) / p0.shares;
    const [coin, tok, lt] = [await lab.balance(lab.A, COIN_TOKEN_ID), await lab.balance(lab.A, AT), await lab.balance(lab.A, LT)];
    await lab.append({
      tokenSections: [lab.section([await lab.entry(lab.A, withdraw(1_000_000n))]), lab.section([await lab.entry(lab.A, withdraw(1_000_000n))])],
    });
    expect(await pool()).toEqual({ base: p0.base - part(p0.base), quote: p0.quote - part(p0.quote), shares: p0.shares - 1_000_000n });
    expect((await lab.balance(lab.A, LT)).total).toBe(lt.total - 2_000_000n);
    expect((await lab.balance(lab.A, AT)).total).toBe(tok.total + 2n * part(p0.base));
    expect((await lab.balance(lab.A, COIN_TOKEN_ID)).total).toBe(coin.total - 2n * FEE_E8 + 2n * part(p0.quote));
  });

  let zed: Asset;
  it('two sections of one asset that both insert its pool abort the reference (EREFABORT)', async () => {
    zed = await newAsset('ZED');
    const dep = async () => lab.section([await lab.entry(lab.A, deposit(10n, 1_000n, zed))], zed.id);
    expect(await lab.refusal({ tokenSections: [await dep(), await dep()] })).toBe('EREFABORT');
    expect(await lab.refusal({ tokenSections: [await dep()] })).toBe('none');
  });

  it('a new order filled partly in a section after one with limit swaps aborts the reference (EREFABORT)', async () => {
    // ZED's pool (10 units, 1,000 E8) sells to this bid only up to its limit: a partial fill
    const zedBid = async () => lab.section([await lab.entry(lab.A, order(true, 1_000_000n, AT_9, zed))], zed.id);
    const tokAsk = async () => lab.section([await lab.entry(lab.A, order(false, 5n, AT_9))]);
    expect(await lab.refusal({ tokenSections: [await tokAsk(), await zedBid()] })).toBe('EREFABORT');
    expect(await lab.refusal({ tokenSections: [await zedBid(), await tokAsk()] })).toBe('none');
    const [bidLeft] = (await openOrders(lab.A)).filter((o) => o.assetId === zed.id);
    expect(bidLeft.filled).toBeGreaterThan(0n);
    expect(bidLeft.filled).toBeLessThan(bidLeft.amount);
  });
});

describe('cancelations', () => {
  it('canceling one order twice in a block is valid and unlocks its remaining twice', async () => {
    const first = await lab.entry(lab.B, order(false, 1_000n, AT_9));
    const second = await lab.entry(lab.B, order(false, 2_000n, AT_9));
    await lab.append({ tokenSections: [lab.section([first, second])] });
    expect((await lab.balance(lab.B, AT)).locked).toBe(3_000n);
    const [stored] = await openOrders(lab.B);
    const cancel = () => lab.entry(lab.B, { type: 'cancelation', cancelHeight: stored.pinHeight, cancelNonceId: stored.nonceId });
    await lab.append({ cancelations: [await cancel(), await cancel()] });
    // the second order stays open with nothing locked for it any more
    expect((await openOrders(lab.B)).map((o) => o.amount)).toEqual([2_000n]);
    expect((await lab.balance(lab.B, AT)).locked).toBe(1_000n);
  });

  it('a cancelation may cancel the id an earlier cancelation of the block carries, not a later one', async () => {
    const c1 = await lab.entry(lab.B, { type: 'cancelation', cancelHeight: 0, cancelNonceId: 987_654 });
    const pinHeight = 32 * Math.floor(lab.chain.length / 32);
    const c2 = await lab.entry(lab.B, { type: 'cancelation', cancelHeight: pinHeight, cancelNonceId: c1.pinNonce.nonceId });
    expect(await lab.refusal({ cancelations: [c2, c1] })).toBe('ENONCE');
    expect(await lab.refusal({ cancelations: [c1, c2] })).toBe('none');
  });
});

describe('limits that are no price', () => {
  it('are carried, stay open, and abort the reference when read back', async () => {
    const tok = await newAsset('BAD');
    await lab.append({ tokenSections: [lab.section([await lab.entry(lab.A, order(false, 500n, NO_PRICE, tok))], tok.id)] });
    expect((await openOrders(lab.A)).filter((o) => o.assetId === tok.id).map((o) => o.amount)).toEqual([500n]);
    // a later order on the asset loads the stored book, the invalid limit first
    expect(await lab.refusal({ tokenSections: [lab.section([await lab.entry(lab.A, order(false, 5n, AT_9, tok))], tok.id)] })).toBe('EREFABORT');
    // and so does its cancelation (the store is read by transaction id)
    const [stored] = (await openOrders(lab.A)).filter((o) => o.assetId === tok.id);
    expect(
      await lab.refusal({ cancelations: [await lab.entry(lab.A, { type: 'cancelation', cancelHeight: stored.pinHeight, cancelNonceId: stored.nonceId })] }),
    ).toBe('EREFABORT');
  });
});

describe('assets and accounts', () => {
  it('an asset supply must be at least one whole unit (EINV_SUPPLY)', async () => {
    const create = (supply: bigint) => lab.entry(lab.A, { type: 'assetCreation', supply, precision: 2, name: assetNameBytes('TINY') });
    expect(await lab.refusal({ assetCreations: [await create(99n)] })).toBe('EINV_SUPPLY');
    expect(await lab.refusal({ assetCreations: [await create(100n)] })).toBe('none');
  });

  it('ids: a new account may not spend (EBALANCE), must receive (EIDPOLICY); unknown ids', async () => {
    const D = TestWallet.fromSeed(65);
    const dId = await nextStateId(dbReader(lab.db));
    const pay = await lab.entry(lab.A, { type: 'coinTransfer', toAddress: D.address, amount: 1_000n }, { toId: dId });
    expect(await lab.refusal({ newAddresses: [D.address] })).toBe('EIDPOLICY');
    // a new account signing: its fee is a debit on its new coin row
    const byD = await lab.entry(D, { type: 'cancelation', cancelHeight: 0, cancelNonceId: 5 }, { originId: dId });
    expect(await lab.refusal({ newAddresses: [D.address], coinTransfers: [pay], cancelations: [byD] })).toBe('EBALANCE');
    const toUnassigned = await lab.entry(lab.A, { type: 'coinTransfer', toAddress: D.address, amount: 1_000n }, { toId: dId + 5n });
    expect(await lab.refusal({ coinTransfers: [toUnassigned] })).toBe('EIDPOLICY');
    const toAsset = await lab.entry(lab.A, { type: 'coinTransfer', toAddress: D.address, amount: 1_000n }, { toId: lab.tok.id });
    expect(await lab.refusal({ coinTransfers: [toAsset] })).toBe('EACCIDNOTFOUND');
  });
});

describe('pins', () => {
  it('the entries of one block pinned to different heights are each checked against their own pinned hash', async () => {
    while (lab.chain.length < 40) await lab.append({});
    const transfer = { type: 'coinTransfer' as const, toAddress: lab.B.address, amount: 1_000n };
    const at0 = await lab.entry(lab.A, transfer, { pinHeight: 0 });
    const at32 = await lab.entry(lab.A, transfer, { pinHeight: 32 });
    const alsoAt0 = await lab.entry(lab.A, transfer, { pinHeight: 0 });
    // signed over pin 32's hash, carried as pinned at 0: another key recovers
    const moved = { ...at32, pinNonce: { ...at32.pinNonce, relativePin: at0.pinNonce.relativePin } };
    expect(await lab.refusal({ coinTransfers: [at0, moved] })).toBe('EINVSIG');
    expect(await lab.refusal({ coinTransfers: [at32, moved] })).toBe('EINVSIG');
    expect(await lab.refusal({ coinTransfers: [at0, at32, alsoAt0] })).toBe('none');
  });
});
