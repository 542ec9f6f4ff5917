// Signature recovery ahead of application (issue 20): the worker pool answers as the kernel does,
// the verification path takes a pre-recovered key only for the exact digest and signature, and a
// chain of blocks full of transfers applied through switchBranch (pre-recovered in workers) gives
// the state a block-by-block append gives.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { HINTED_ITEM, RecoverPool, RECOVER_ITEM, RECOVERED_ITEM } from '../../ts/kernel/recover_pool.js';
import { recoverPublicKeyKernel, signatureInRange } from '../../ts/kernel/secp256k1.js';
import { knownSignerKey, recoveredInPlace, rememberRecovered, verifyEntrySignature } from '../../ts/consensus/signature.js';
import { entryTxHash, type CoinTransferEntry } from '../../ts/core/entry.js';
import { addressOfPrivateKey, publicKeyOf, signDigest } from '../../ts/core/keys.js';
import { sha256 } from '../../ts/kernel/hash.js';
import { Chain } from '../../ts/chain/chain.js';
import { buildTemplate } from '../../ts/mining/template.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { txHash } from '../../ts/core/transaction.js';
import { fee16Decode } from '../../ts/kernel/fee16.js';
import { openDatabase, type Db } from '../../ts/store/database.js';
import { accountIdOf, balanceOf, dbReader, COIN_TOKEN_ID } from '../../ts/state/ledger.js';
import type { PendingTx } from '../../ts/mempool/pending.js';
import { MIN_PRERECOVER, prerecoveryHints } from '../../ts/chain/prerecover.js';

await initKernel();
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const sk = (seed: number) => Uint8Array.from({ length: 32 }, (_, i) => ((seed + i) % 250) + 1);

describe('RecoverPool', () => {
  it('recovers as the kernel does, with its statuses for invalid signatures', async () => {
    const pool = new RecoverPool(2);
    try {
      const n = 100;
      const items = new Uint8Array(n * RECOVER_ITEM);
      const digests: Uint8Array[] = [],
        sigs: Uint8Array[] = [];
      for (let i = 0; i < n; i++) {
        const d = sha256(Uint8Array.of(i, 1, 2));
        let s = signDigest(d, sk(i));
        if (i % 10 === 3) {
          s = s.slice();
          s[64] = 7;
        } // recid > 3
        if (i % 10 === 5) {
          s = s.slice();
          s.fill(0xff, 32, 64);
        } // s out of range
        if (i % 10 === 7) {
          s = s.slice();
          s[5] ^= 1;
        } // another key (or none)
        digests.push(d);
        sigs.push(s);
        items.set(d, i * RECOVER_ITEM);
        items.set(s, i * RECOVER_ITEM + 32);
      }
      const out = await pool.recover(items);
      expect(out.length).toBe(n * RECOVERED_ITEM);
      for (let i = 0; i < n; i++) {
        const want = recoverPublicKeyKernel(digests[i], sigs[i]);
        const o = i * RECOVERED_ITEM;
        expect(out[o] === 0).toBe(want !== null);
        if (want) expect(out.slice(o + 1, o + RECOVERED_ITEM)).toEqual(want);
        if (i % 10 === 0) expect(want).toEqual(publicKeyOf(sk(i)));
      }
    } finally {
      await pool.close();
    }
  });

  it('answers hinted items as plain ones, whatever the hints', async () => {
    const pool = new RecoverPool(2);
    try {
      const n = 120;
      const plain = new Uint8Array(n * RECOVER_ITEM),
        hinted = new Uint8Array(n * HINTED_ITEM);
      for (let i = 0; i < n; i++) {
        const d = sha256(Uint8Array.of(i, 7));
        let s = signDigest(d, sk(i % 3));
        if (i % 17 === 5) {
          s = s.slice();
          s[9] ^= 4;
        } // another key, or none
        // right hints, a wrong one, and none
        const hint = i % 23 === 0 ? new Uint8Array(33) : publicKeyOf(sk(i % 29 === 1 ? 3 : i % 3));
        plain.set(d, i * RECOVER_ITEM);
        plain.set(s, i * RECOVER_ITEM + 32);
        hinted.set(d, i * HINTED_ITEM);
        hinted.set(s, i * HINTED_ITEM + 32);
        hinted.set(hint, i * HINTED_ITEM + 97);
      }
      expect(await pool.recover(hinted, true)).toEqual(await pool.recover(plain));
      await expect(pool.recover(new Uint8Array(HINTED_ITEM + 1), true)).rejects.toThrow(RangeError);
    } finally {
      await pool.close();
    }
  });

  it('signatureInRange checks the byte ranges of r and s', () => {
    const s = signDigest(sha256(Uint8Array.of(9)), sk(9));
    expect(signatureInRange(s)).toBe(true);
    const zeroR = s.slice();
    zeroR.fill(0, 0, 32);
    expect(signatureInRange(zeroR)).toBe(false);
    const highS = s.slice();
    highS.fill(0xff, 32, 64);
    expect(signatureInRange(highS)).toBe(false);
    const halfN = s.slice();
    halfN.set(Uint8Array.from(Buffer.from('7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0', 'hex')), 32);
    expect(signatureInRange(halfN)).toBe(true);
    halfN[63]++;
    expect(signatureInRange(halfN)).toBe(false);
    const nR = s.slice();
    nR.set(Uint8Array.from(Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141', 'hex')), 0);
    expect(signatureInRange(nR)).toBe(false);
    nR[31]--;
    expect(signatureInRange(nR)).toBe(true);
  });
});

describe('pre-recovered keys', () => {
  it('are taken once, for the same entry applied with the same digest inputs only', () => {
    const height = 100,
      pinHash = sha256(Uint8Array.of(1)),
      toAddress = addressOfPrivateKey(sk(3));
    const origin = addressOfPrivateKey(sk(1));
    const entry = (): CoinTransferEntry => {
      const e: CoinTransferEntry = {
        kind: 'coinTransfer',
        originId: 1n,
        pinNonce: { nonceId: 5, relativePin: 0, reserved: new Uint8Array(3) },
        feeCode: 1,
        toId: 2n,
        amount: 7n,
        signature: new Uint8Array(65),
      };
      e.signature = signDigest(entryTxHash(e, height, pinHash, { toAddress }), sk(1));
      return e;
    };
    const e = entry();
    const digest = entryTxHash(e, height, pinHash, { toAddress });
    const remember = (pub: Uint8Array | null) => rememberRecovered(e, { height, pinHash, ctx: { toAddress }, digest, pub });
    const inPlace = () => recoveredInPlace();

    // The remembered key is taken (even a wrong one: the cache is trusted as the pure function it is).
    remember(publicKeyOf(sk(2)));
    let n = inPlace();
    expect(() => verifyEntrySignature(e, height, pinHash, origin, { toAddress })).toThrow(/EINVSIG|origin address/);
    expect(inPlace()).toBe(n);
    // Taken once: recovered here now, and right.
    expect(verifyEntrySignature(e, height, pinHash, origin, { toAddress })).toEqual(digest);
    expect(inPlace()).toBe(n + 1);

    // Other inputs than the remembered ones (recipient, pin hash, height): hashed and recovered here.
    for (const [h, pin, ctx] of [
      [height, pinHash, { toAddress: addressOfPrivateKey(sk(4)) }],
      [height, sha256(Uint8Array.of(2)), { toAddress }],
      [height + 1, pinHash, { toAddress }],
    ] as const) {
      remember(publicKeyOf(sk(1)));
      n = inPlace();
      try {
        verifyEntrySignature(e, h, pin, origin, ctx);
      } catch {
        /* another digest: another signer, or none */
      }
      expect(inPlace()).toBe(n + 1);
    }
    // Another entry object with the same bytes: not the remembered one.
    remember(null);
    n = inPlace();
    expect(verifyEntrySignature(entry(), height, pinHash, origin, { toAddress })).toEqual(digest);
    expect(inPlace()).toBe(n + 1);
    // null remembered: no key recovers.
    expect(() => verifyEntrySignature(e, height, pinHash, origin, { toAddress })).toThrow(/ECORRUPTEDSIG|recovers/);
  });
});

async function freshChain(): Promise<{ db: Db; chain: Chain }> {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-prerecover-'));
  dirs.push(dir);
  const { db } = await openDatabase(dir);
  return { db, chain: await Chain.open(db, REGTEST) };
}

describe('switchBranch with blocks full of transfers', () => {
  it('gives the state of block-by-block appends, recovers every signature ahead, and refuses a bad signature in a later block', async () => {
    const T0 = 1_700_000_000,
      PER = MIN_PRERECOVER + 20,
      N = 7;
    const a = await freshChain();
    const sender = sk(7),
      receiver = addressOfPrivateKey(sk(99));
    const blocks: { header: Uint8Array; body: Uint8Array }[] = [];
    let nonceId = 0;
    for (let h = 1; h <= N; h++) {
      const transfers: PendingTx[] = [];
      if (h > 2)
        for (let i = 0; i < PER; i++, nonceId++) {
          // Every 10th to an account the block itself creates: its id is only known once the blocks
          // before are applied, so recovery ahead must guess it.
          const to = i % 10 === 9 ? addressOfPrivateKey(sk(100 + h)) : receiver;
          const payload = { type: 'coinTransfer' as const, toAddress: to, amount: 1n };
          const pinHash = a.chain.hashAt(0);
          const hash = txHash({ pinHash, pinHeight: 0, nonceId, feeE8: fee16Decode(0) }, payload);
          transfers.push({
            hash,
            payload,
            originId: 1n,
            originAddress: addressOfPrivateKey(sender),
            pinHeight: 0,
            pinHash,
            nonceId,
            feeCode: 0,
            feeE8: 1n,
            signature: signDigest(hash, sender),
          });
        }
      const t = await buildTemplate(a.chain, a.db, h === 2 ? receiver : addressOfPrivateKey(sender), T0 + 20 * h, transfers);
      const n = recoveredInPlace();
      const b = await a.chain.append(t.header, t.body, { now: T0 + 20 * h, skipPow: true });
      expect(recoveredInPlace() - n).toBe(0); // one block appended: recovered in workers too
      blocks.push({ header: b.raw, body: b.body });
    }
    const b = await freshChain();
    const before = recoveredInPlace();
    // Blocks 1–5 are recovered before block 1 is applied: block 2 creates the receiver.
    await b.chain.switchBranch(0, blocks, { now: T0 + 20 * N, skipPow: true });
    expect(b.chain.length).toBe(N);
    expect(recoveredInPlace() - before).toBe(0);
    const id = (await accountIdOf(dbReader(b.db), receiver))!;
    expect(await balanceOf(dbReader(b.db), id, COIN_TOKEN_ID)).toEqual(await balanceOf(dbReader(a.db), id, COIN_TOKEN_ID));
    expect((await balanceOf(dbReader(b.db), id, COIN_TOKEN_ID)).total).toBeGreaterThan(BigInt(((N - 2) * PER * 9) / 10) - 1n);
    const fresh = (await accountIdOf(dbReader(b.db), addressOfPrivateKey(sk(100 + N))))!;
    expect(await balanceOf(dbReader(b.db), fresh, COIN_TOKEN_ID)).toEqual(await balanceOf(dbReader(a.db), fresh, COIN_TOKEN_ID));

    // A corrupted last block (a byte of its last entry): the whole branch is refused and nothing stays.
    const c = await freshChain();
    const bad = blocks.map((x) => ({ header: x.header, body: x.body.slice() }));
    const last = bad[N - 1].body;
    last[last.length - 10] ^= 0x40;
    await expect(c.chain.switchBranch(0, bad, { now: T0 + 20 * N, skipPow: true })).rejects.toThrow();
    expect(c.chain.length).toBe(0);
    for (const x of [a, b, c]) await x.db.close();
  }, 120_000);
});

describe('signer keys as recovery hints', () => {
  /**
   * N blocks: block 1 mined by `sender` (account 1), block 2 by the receiver, then PER transfers a
   * block from account 1; `forged`: one transfer of the last block signed by another key (the
   * template takes it unverified; the block is not appended here).
   */
  async function fullBlocks(sender: Uint8Array, N: number, PER: number, forged = false) {
    const T0 = 1_700_000_000;
    const a = await freshChain();
    const receiver = addressOfPrivateKey(sk(99));
    const blocks: { header: Uint8Array; body: Uint8Array }[] = [];
    let nonceId = 0;
    for (let h = 1; h <= N; h++) {
      const transfers: PendingTx[] = [];
      if (h > 2)
        for (let i = 0; i < PER; i++, nonceId++) {
          const payload = { type: 'coinTransfer' as const, toAddress: receiver, amount: 1n };
          const pinHash = a.chain.hashAt(0);
          const hash = txHash({ pinHash, pinHeight: 0, nonceId, feeE8: fee16Decode(0) }, payload);
          transfers.push({
            hash,
            payload,
            originId: 1n,
            originAddress: addressOfPrivateKey(sender),
            pinHeight: 0,
            pinHash,
            nonceId,
            feeCode: 0,
            feeE8: 1n,
            signature: signDigest(hash, forged && h === N && i === PER >> 1 ? sk(43) : sender),
          });
        }
      const t = await buildTemplate(a.chain, a.db, h === 2 ? receiver : addressOfPrivateKey(sender), T0 + 20 * h, transfers);
      if (forged && h === N) {
        expect(t.body.length).toBeGreaterThan(PER * 80);
        blocks.push({ header: t.header, body: t.body });
        break;
      }
      const b = await a.chain.append(t.header, t.body, { now: T0 + 20 * h, skipPow: true });
      blocks.push({ header: b.raw, body: b.body });
    }
    return { a, blocks, receiver, now: T0 + 20 * N };
  }

  it('are learned from verified blocks and hinted; a wrong hint (account 1 another signer on another chain) changes no verdict', async () => {
    const N = 5,
      PER = MIN_PRERECOVER + 10;
    const one = await fullBlocks(sk(41), N, PER);
    const two = await fullBlocks(sk(42), N, PER);
    // one's blocks: account 1 is sk(41) on that chain
    const b = await freshChain();
    await b.chain.switchBranch(0, one.blocks, { now: one.now, skipPow: true });
    expect(knownSignerKey(1n)).toEqual(publicKeyOf(sk(41)));
    // two's blocks: account 1 is sk(42) there; the hints say sk(41) until a block of two is verified
    const c = await freshChain();
    let hints = prerecoveryHints();
    await c.chain.switchBranch(0, two.blocks, { now: two.now, skipPow: true });
    expect(c.chain.length).toBe(N);
    expect(prerecoveryHints() - hints).toBeGreaterThan(0);
    expect(knownSignerKey(1n)).toEqual(publicKeyOf(sk(42)));
    const id = (await accountIdOf(dbReader(c.db), two.receiver))!;
    expect(await balanceOf(dbReader(c.db), id, COIN_TOKEN_ID)).toEqual(await balanceOf(dbReader(two.a.db), id, COIN_TOKEN_ID));
    // The right hint (sk(42), learned above) for a last block one of whose transfers another key
    // signed: refused with the error of a lone recovery, and nothing stays.
    const three = await fullBlocks(sk(42), N, PER, true);
    const d = await freshChain();
    hints = prerecoveryHints();
    await expect(d.chain.switchBranch(0, three.blocks, { now: three.now, skipPow: true })).rejects.toThrow(/EINVSIG|origin address/);
    expect(prerecoveryHints() - hints).toBeGreaterThanOrEqual(PER);
    expect(d.chain.length).toBe(0);
    for (const x of [one.a, two.a, three.a, b, c, d]) await x.db.close();
  }, 120_000);
});
