// Body rules without a ledger (consensus.md §6.8, §9.2) and signature verification of every
// signed entry type (§7.2 L/seed layouts, §7.3), on a V4 block signed here.
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { addressOfPrivateKey, signDigest } from '../../ts/core/keys.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { bodyMerkleRoot, serializeBody, signedEntries, type Body } from '../../ts/core/body.js';
import { entryTxHash, type EntryContext, type SignedEntry } from '../../ts/core/entry.js';
import { pinHeightOf } from '../../ts/core/pin.js';
import { parseHeader, type Header } from '../../ts/core/header.js';
import { MAINNET, TESTNET, GENESIS_HASH } from '../../ts/consensus/params.js';
import { blockReward } from '../../ts/consensus/reward.js';
import {
  blockTransactionIds,
  checkBlockBody,
  checkBodySize,
  checkEntryRules,
  checkRewardClaim,
  parseBlockBody,
  totalFees,
} from '../../ts/consensus/block_check.js';
import { verifyEntrySignature } from '../../ts/consensus/signature.js';
import { TESTNET_BLOCK_1 } from '../core/vectors.js';
import { Rng, body, entries, entry, fullV4Body, tokenSection } from '../core/gen.js';
import { errorOf } from '../helpers/error_of.js';

beforeAll(async () => {
  await initKernel();
});

const HEIGHT = 1_000;

/** A little world: keys of accounts 1..1000, asset hashes of assets 1..50, pinned hashes. */
class World {
  key(id: bigint): Uint8Array {
    return Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? Number(id % 250n) + 1 : Number(id / 250n) + 7));
  }
  address(id: bigint): Uint8Array {
    return addressOfPrivateKey(this.key(id));
  }
  assetHash(id: bigint): Uint8Array {
    return new Uint8Array(32).fill(Number(id));
  }
  pinHash(h: number): Uint8Array {
    return h === 0 ? GENESIS_HASH : new Uint8Array(32).fill((h % 256) ^ 0x5a);
  }
  context(e: SignedEntry, assetId: bigint | null): EntryContext {
    const ctx: EntryContext = {};
    if ('toId' in e) ctx.toAddress = this.address(e.toId);
    if (assetId !== null) ctx.assetHash = this.assetHash(assetId);
    return ctx;
  }
  sign(b: Body, height: number): void {
    for (const { entry: e, assetId } of signedEntries(b)) {
      const hash = entryTxHash(e, height, this.pinHash(pinHeightOf(height, e.pinNonce.relativePin)), this.context(e, assetId));
      e.signature = signDigest(hash, this.key(e.originId));
    }
  }
  verify(b: Body, height: number): void {
    for (const { entry: e, assetId } of signedEntries(b)) {
      verifyEntrySignature(e, height, this.pinHash(pinHeightOf(height, e.pinNonce.relativePin)), this.address(e.originId), this.context(e, assetId));
    }
  }
}

/** A valid testnet V4 body at HEIGHT with every transaction type, signed, and its header. */
function signedBlock(world: World, rng: Rng): { body: Body; bytes: Uint8Array; header: Header } {
  const b = fullV4Body(rng);
  for (const { entry: e } of signedEntries(b)) {
    e.feeCode = 0x4fa2;
    if ('toId' in e && e.toId === e.originId) e.toId += 1n;
    if (e.kind === 'cancelation') e.cancelHeight = 0;
    if (e.kind === 'limitSwap' && e.amount === 0n) e.amount = 1n;
  }
  b.reward.amount = blockReward(HEIGHT) + totalFees(b);
  world.sign(b, HEIGHT);
  const header: Header = {
    prevHash: new Uint8Array(32),
    target: TESTNET.genesisTarget,
    merkleRoot: bodyMerkleRoot(b, true),
    version: 4,
    timestamp: 1,
    nonce: 0,
  };
  return { body: b, bytes: serializeBody(b), header };
}

describe('signatures of all seven transaction types (L/seed signing bytes)', () => {
  const world = new World();

  it('verify when signed by the origin, fail when anything signed changes', () => {
    const { body: b } = signedBlock(world, new Rng(21));
    const kinds = new Set(signedEntries(b).map(({ entry: e }) => e.kind));
    expect([...kinds].sort()).toEqual([
      'assetCreation',
      'assetTransfer',
      'cancelation',
      'coinTransfer',
      'limitSwap',
      'liquidityDeposit',
      'liquidityWithdrawal',
      'shareTransfer',
    ]);
    world.verify(b, HEIGHT);
    for (const { entry: e, assetId } of signedEntries(b)) {
      const pin = world.pinHash(pinHeightOf(HEIGHT, e.pinNonce.relativePin));
      const ctx = world.context(e, assetId);
      const other = world.address(e.originId + 1n);
      expect(errorOf(() => verifyEntrySignature(e, HEIGHT, pin, other, ctx))).toBe('EINVSIG');
      expect(errorOf(() => verifyEntrySignature({ ...e, feeCode: e.feeCode + 1 }, HEIGHT, pin, world.address(e.originId), ctx))).toBe('EINVSIG');
      if (pinHeightOf(HEIGHT + 32, e.pinNonce.relativePin) !== pinHeightOf(HEIGHT, e.pinNonce.relativePin)) {
        // the pin height is signed
        expect(errorOf(() => verifyEntrySignature(e, HEIGHT + 32, pin, world.address(e.originId), ctx))).toBe('EINVSIG');
      }
      expect(errorOf(() => verifyEntrySignature(e, HEIGHT, new Uint8Array(32), world.address(e.originId), ctx))).toBe('EINVSIG');
      if (ctx.assetHash) {
        expect(errorOf(() => verifyEntrySignature(e, HEIGHT, pin, world.address(e.originId), { ...ctx, assetHash: new Uint8Array(32) }))).toBe('EINVSIG');
      }
    }
  });

  it('asset and share transfers with equal fields have different hashes (isLiquidity is signed)', () => {
    const rng = new Rng(22);
    const a = entry('assetTransfer', rng);
    const s = { ...a, kind: 'shareTransfer' as const };
    const ctx = { toAddress: new Uint8Array(20), assetHash: new Uint8Array(32) };
    expect(toHex(entryTxHash(a, HEIGHT, GENESIS_HASH, ctx))).not.toBe(toHex(entryTxHash(s, HEIGHT, GENESIS_HASH, ctx)));
  });

  it('the reserved PinNonce bytes are signed', () => {
    const rng = new Rng(23);
    const e = entry('coinTransfer', rng);
    const ctx = { toAddress: new Uint8Array(20) };
    const other = { ...e, pinNonce: { ...e.pinNonce, reserved: Uint8Array.of(9, 9, 9) } };
    expect(toHex(entryTxHash(e, HEIGHT, GENESIS_HASH, ctx))).not.toBe(toHex(entryTxHash(other, HEIGHT, GENESIS_HASH, ctx)));
  });
});

describe('checkBlockBody', () => {
  const world = new World();

  it('accepts the §11.6 block at testnet height 1 (version 3 with empty V4 count fields)', () => {
    const header = parseHeader(fromHex(TESTNET_BLOCK_1.header)!);
    const b = checkBlockBody(TESTNET, 1, header, fromHex(TESTNET_BLOCK_1.body)!);
    expect(b.reward.amount).toBe(300_000_000n);
  });

  it('accepts a signed block with every type and checks the merkle root (EMROOT)', () => {
    const { bytes, header } = signedBlock(world, new Rng(24));
    expect(errorOf(() => checkBlockBody(TESTNET, HEIGHT, header, bytes))).toBe('none');
    const other = { ...header, merkleRoot: new Uint8Array(32) };
    expect(errorOf(() => checkBlockBody(TESTNET, HEIGHT, other, bytes))).toBe('EMROOT');
    const nonce = bytes.slice();
    nonce[0] ^= 1; // the extra nonce enters the root
    expect(errorOf(() => checkBlockBody(TESTNET, HEIGHT, header, nonce))).toBe('EMROOT');
  });

  it('refuses token-era sections below header version 4 (EBLOCKV4)', () => {
    const rng = new Rng(25);
    const b = body('V4', rng, { cancelations: entries('cancelation', 1, rng) });
    expect(errorOf(() => parseBlockBody(TESTNET, 1, 3, serializeBody(b)))).toBe('EBLOCKV4');
    expect(errorOf(() => parseBlockBody(TESTNET, 3, 4, serializeBody(b)))).toBe('none');
    // mainnet V2/V3 bodies are strict (P): the V4 count fields are excess bytes
    const v4empty = serializeBody(body('V4', rng));
    expect(errorOf(() => parseBlockBody(MAINNET, 2_000_000, 3, v4empty))).toBe('EEXCESSBYTES');
  });

  it('35,000 bytes at most (EBLOCKSIZE): 353 coin transfers fit, 354 do not', () => {
    const rng = new Rng(26);
    const t = entry('coinTransfer', rng);
    t.feeCode = 0x1000;
    const fit = serializeBody(body('V2', rng, { newAddresses: [], coinTransfers: Array(353).fill(t) }));
    expect(fit.length).toBe(34_979);
    expect(errorOf(() => parseBlockBody(MAINNET, 2_000_000, 3, fit))).toBe('none');
    const over = serializeBody(body('V2', rng, { newAddresses: [], coinTransfers: Array(354).fill(t) }));
    expect(errorOf(() => parseBlockBody(MAINNET, 2_000_000, 3, over))).toBe('EBLOCKSIZE');
    expect(errorOf(() => checkBodySize(new Uint8Array(35_000)))).toBe('none');
    expect(errorOf(() => checkBodySize(new Uint8Array(35_001)))).toBe('EBLOCKSIZE');
  });
});

describe('reward claim (§5.4)', () => {
  it('at most reward(h) + fees; less is valid', () => {
    const rng = new Rng(27);
    const b = body('V2', rng, { coinTransfers: entries('coinTransfer', 2, rng) });
    b.coinTransfers[0].feeCode = 0x4fa2; // 1,000,448
    b.coinTransfers[1].feeCode = 0x0000; // 1
    expect(totalFees(b)).toBe(1_000_449n);
    const h = 3_153_601;
    b.reward.amount = 150_000_000n + 1_000_449n;
    expect(errorOf(() => checkRewardClaim(h, b))).toBe('none');
    b.reward.amount += 1n;
    expect(errorOf(() => checkRewardClaim(h, b))).toBe('EBALANCE');
    b.reward.amount = 0n;
    expect(errorOf(() => checkRewardClaim(h, b))).toBe('none');
  });
});

describe('entry rules readable from the body', () => {
  const rng = new Rng(28);
  const one = (e: SignedEntry): Body => {
    const b = body('V4', rng);
    if (e.kind === 'coinTransfer') b.coinTransfers = [e];
    else if (e.kind === 'cancelation') b.cancelations = [e];
    else if (e.kind === 'assetCreation') b.assetCreations = [e];
    else {
      const s = tokenSection(rng, [0, 0, 0, 0, 0]);
      if (e.kind === 'assetTransfer') s.assetTransfers = [e];
      if (e.kind === 'shareTransfer') s.shareTransfers = [e];
      if (e.kind === 'limitSwap') s.limitSwaps = [e];
      if (e.kind === 'liquidityDeposit') s.liquidityDeposits = [e];
      if (e.kind === 'liquidityWithdrawal') s.liquidityWithdrawals = [e];
      b.tokenSections = [s];
    }
    return b;
  };
  const rule = (e: SignedEntry, height = HEIGHT, p = TESTNET) => errorOf(() => checkEntryRules(p, height, one(e)));

  it('zero coin amounts are invalid after height 719,118 (EZEROAMOUNT)', () => {
    const t = { ...entry('coinTransfer', rng), originId: 1n, toId: 2n, amount: 0n };
    expect(rule(t, 719_118, MAINNET)).toBe('none');
    expect(rule(t, 719_119, MAINNET)).toBe('EZEROAMOUNT');
  });
  it('self transfers (ESELFSEND)', () => {
    expect(rule({ ...entry('coinTransfer', rng), originId: 5n, toId: 5n, amount: 1n })).toBe('ESELFSEND');
    expect(rule({ ...entry('assetTransfer', rng), originId: 5n, toId: 5n, amount: 1n })).toBe('ESELFSEND');
    expect(rule({ ...entry('shareTransfer', rng), originId: 5n, toId: 6n, amount: 1n })).toBe('none');
  });
  it('zero token transfers, orders and withdrawals; zero/zero deposits', () => {
    expect(rule({ ...entry('assetTransfer', rng), originId: 1n, toId: 2n, amount: 0n })).toBe('EZEROAMOUNT');
    expect(rule({ ...entry('shareTransfer', rng), originId: 1n, toId: 2n, amount: 0n })).toBe('EZEROAMOUNT');
    expect(rule({ ...entry('limitSwap', rng), amount: 0n })).toBe('EZEROAMOUNT');
    expect(rule({ ...entry('liquidityWithdrawal', rng), shares: 0n })).toBe('EZEROAMOUNT');
    expect(rule({ ...entry('liquidityDeposit', rng), base: 0n, quote: 0n })).toBe('EZEROBASEQUOTE');
    expect(rule({ ...entry('liquidityDeposit', rng), base: 0n, quote: 1n })).toBe('none');
  });
  it('cancelations: not above their own pin height, not themselves', () => {
    const c = entry('cancelation', rng);
    c.pinNonce = { ...c.pinNonce, relativePin: 0, nonceId: 7 }; // pin height 992 at height 1,000
    expect(rule({ ...c, cancelHeight: 992, cancelNonceId: 8 })).toBe('none');
    expect(rule({ ...c, cancelHeight: 1_024, cancelNonceId: 8 })).toBe('ECANCELFUTURE');
    expect(rule({ ...c, cancelHeight: 992, cancelNonceId: 7 })).toBe('ECANCELSELF');
  });
  it('P froze account 1910 at heights 2,534,438 .. 2,598,041 (EFROZENACC)', () => {
    const t = { ...entry('coinTransfer', rng), originId: 1910n, toId: 2n, amount: 1n };
    expect(rule(t, 2_534_437, MAINNET)).toBe('none');
    expect(rule(t, 2_534_438, MAINNET)).toBe('EFROZENACC');
    expect(rule(t, 2_598_041, MAINNET)).toBe('EFROZENACC');
    expect(rule(t, 2_598_042, MAINNET)).toBe('none');
    expect(rule(t, 2_534_438, TESTNET)).toBe('none');
  });
});

describe('transaction ids of a block (§7.6)', () => {
  const rng = new Rng(29);
  it('lists every entry id and the canceled ids', () => {
    const b = fullV4Body(rng);
    const { ids, canceled } = blockTransactionIds(HEIGHT, b);
    expect(ids.length).toBe(signedEntries(b).length);
    expect(canceled).toEqual(b.cancelations.map((c) => ({ accountId: c.originId, pinHeight: c.cancelHeight, nonceId: c.cancelNonceId })));
    expect(ids[0]).toEqual({
      accountId: b.coinTransfers[0].originId,
      pinHeight: pinHeightOf(HEIGHT, b.coinTransfers[0].pinNonce.relativePin),
      nonceId: b.coinTransfers[0].pinNonce.nonceId,
    });
  });
  it('refuses a repeated id, also one the block cancels (ENONCE)', () => {
    const t = entry('coinTransfer', rng);
    expect(errorOf(() => blockTransactionIds(HEIGHT, body('V4', rng, { coinTransfers: [t, { ...t, amount: 1n }] })))).toBe('ENONCE');
    const sameNonceOtherPin = { ...t, pinNonce: { ...t.pinNonce, relativePin: (t.pinNonce.relativePin + 1) % 30 } };
    expect(errorOf(() => blockTransactionIds(HEIGHT, body('V4', rng, { coinTransfers: [t, sameNonceOtherPin] })))).toBe('none');
    const c = {
      ...entry('cancelation', rng),
      originId: t.originId,
      cancelHeight: pinHeightOf(HEIGHT, t.pinNonce.relativePin),
      cancelNonceId: t.pinNonce.nonceId,
    };
    expect(errorOf(() => blockTransactionIds(HEIGHT, body('V4', rng, { coinTransfers: [t], cancelations: [c] })))).toBe('ENONCE');
    expect(errorOf(() => blockTransactionIds(HEIGHT, body('V4', rng, { cancelations: [c] })))).toBe('none');
  });
  it('a canceled id is marked without a check: twice, or the id of an earlier cancelation, is valid (block_applier.cpp:1239)', () => {
    const c = entry('cancelation', rng);
    const again = { ...c, pinNonce: { ...c.pinNonce, nonceId: c.pinNonce.nonceId + 1 } };
    expect(errorOf(() => blockTransactionIds(HEIGHT, body('V4', rng, { cancelations: [c, again] })))).toBe('none');
    const ofC = { ...again, cancelHeight: pinHeightOf(HEIGHT, c.pinNonce.relativePin), cancelNonceId: c.pinNonce.nonceId };
    expect(errorOf(() => blockTransactionIds(HEIGHT, body('V4', rng, { cancelations: [c, ofC] })))).toBe('none');
    // the other way round the later cancelation claims an id already marked
    expect(errorOf(() => blockTransactionIds(HEIGHT, body('V4', rng, { cancelations: [ofC, c] })))).toBe('ENONCE');
  });
});
