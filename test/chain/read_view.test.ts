// Reads on the chain's read view (issue 12): a read never waits for a change, and a read during a
// reorg — started before it, or running at any step of it — sees the whole old chain or the whole
// new one, headers and stored blocks alike, never a mix. Real classic-level.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { Chain } from '../../ts/chain/chain.js';
import type { ReadView } from '../../ts/chain/read_view.js';
import { buildTemplate } from '../../ts/mining/template.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { blockHash } from '../../ts/core/header.js';
import { toHex } from '../../ts/core/hex.js';
import { openDatabase } from '../../ts/store/database.js';
import { headerKey } from '../../ts/store/keys.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();
const T0 = 1_700_000_000;
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function fresh() {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-view-'));
  dirs.push(dir);
  const { db } = await openDatabase(dir);
  return { db, chain: await Chain.open(db, REGTEST) };
}

interface Block {
  header: Uint8Array;
  body: Uint8Array;
}

async function mine(c: { db: Awaited<ReturnType<typeof fresh>>['db']; chain: Chain }, n: number, payTo: TestWallet, t0: number): Promise<Block[]> {
  const out: Block[] = [];
  for (let i = 0; i < n; i++) {
    const h = c.chain.length + 1;
    const t = await buildTemplate(c.chain, c.db, payTo.address, t0 + h * 20);
    await c.chain.append(t.header, t.body, { now: t0 + h * 20, skipPow: true });
    out.push({ header: t.header, body: t.body });
  }
  return out;
}

/** Every header of the view, checked against the view's store and linked; returns their hashes. */
async function readWhole(v: ReadView): Promise<string[]> {
  const hashes: string[] = [];
  for (let h = 1; h <= v.length; h++) {
    const raw = v.rawHeaderAt(h);
    expect(toHex((await v.db.get(headerKey(h)))!)).toBe(toHex(raw));
    expect(toHex(v.db.getSync(headerKey(h))!)).toBe(toHex(raw)); // the synchronous reads of ledger queries too
    expect(toHex(blockHash(raw))).toBe(toHex(v.hashAt(h)));
    expect(toHex(v.headerAt(h).prevHash)).toBe(toHex(v.hashAt(h - 1)));
    const b = (await v.block(h))!;
    expect(toHex(b.hash)).toBe(toHex(v.hashAt(h)));
    expect(await v.heightOfHash(v.hashAt(h))).toBe(h);
    hashes.push(toHex(raw));
  }
  return hashes;
}

describe('the read view', () => {
  it('a read during a reorg sees the old chain or the new one, never a mix', async () => {
    const a = await fresh();
    const main = await mine(a, 10, TestWallet.fromSeed(1), T0);
    const b = await fresh();
    for (const x of main.slice(0, 5)) await b.chain.append(x.header, x.body, { now: T0 + 10_000, skipPow: true });
    const branch = await mine(b, 7, TestWallet.fromSeed(2), T0 + 7);
    const oldChain = main.map((x) => toHex(x.header));
    const newChain = [...main.slice(0, 5), ...branch].map((x) => toHex(x.header));

    let reorgDone!: () => void;
    const done = new Promise<void>((r) => {
      reorgDone = r;
    });
    // Started before the reorg, finishing after it.
    const early = a.chain.read(async (v) => {
      await done;
      return readWhole(v);
    });
    // At every step of the reorg (inside it: 5 rollbacks, 7 appends).
    const during: Promise<string[]>[] = [];
    a.chain.onChange(() => {
      during.push(a.chain.read(readWhole));
    });
    // And reads racing it.
    const racing: string[][] = [];
    let stop = false;
    const race = (async () => {
      while (!stop) racing.push(await a.chain.read(readWhole));
    })();

    await a.chain.switchBranch(5, branch, { now: T0 + 10_000, skipPow: true });
    reorgDone();
    stop = true;
    await race;

    expect(await early).toEqual(oldChain);
    expect(during).toHaveLength(12);
    for (const r of await Promise.all(during)) expect(r).toEqual(oldChain);
    for (const r of racing) expect([oldChain, newChain]).toContainEqual(r);
    expect(await a.chain.read(readWhole)).toEqual(newChain);
    await a.db.close();
    await b.db.close();
  });

  it('a read does not wait for a change in progress', async () => {
    const a = await fresh();
    await mine(a, 3, TestWallet.fromSeed(1), T0);
    let release!: () => void;
    const held = a.chain.locked(
      () =>
        new Promise<void>((r) => {
          release = r;
        }),
    );
    const t = await buildTemplate(a.chain, a.db, TestWallet.fromSeed(1).address, T0 + 100);
    const appending = a.chain.append(t.header, t.body, { now: T0 + 100, skipPow: true }); // queued behind the lock
    // Reads complete while the chain is held: they do not queue behind it.
    expect(await a.chain.read(async (v) => (await v.block(3))!.height)).toBe(3);
    expect((await a.chain.read(async (v) => buildTemplate(v, v.db, TestWallet.fromSeed(3).address, T0 + 100))).height).toBe(4);
    release();
    await held;
    expect((await appending).height).toBe(4);
    expect(await a.chain.read(async (v) => v.length)).toBe(4);
    await a.db.close();
  });
});
