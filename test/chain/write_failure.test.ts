// A branch whose write fails (disk full, I/O error) leaves the chain at what the database holds:
// the blocks applied in memory but never written leave it as in a rollback (listeners told), a
// group that failed writes nothing more (a later write would name blocks whose records are
// missing), the store reopens at the same height, and once writes succeed again the branch applies.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Chain } from '../../ts/chain/chain.js';
import type { BranchBlock } from '../../ts/chain/prerecover.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { toHex } from '../../ts/core/hex.js';
import { openDatabase, writeBatch, type Db } from '../../ts/store/database.js';
import { markWriteFailed, reopenCount } from '../../ts/store/write_recovery.js';
import { exchangeScenario, FIRST_TIME } from '../state/exchange_scenario.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** A database whose writes fail (as LevelDB reports a full disk) after `okWrites` more successful ones, while `failing.on`. */
function withFailingWrites(db: Db): { on: boolean; okWrites: number; failed: number } {
  const failing = { on: false, okWrites: 0, failed: 0 };
  const batch = db.batch.bind(db);
  db.batch = ((...args: never[]) => {
    const b = (batch as (...a: never[]) => ReturnType<Db['batch']>)(...args);
    if (failing.on && failing.okWrites-- <= 0) {
      b.write = async () => {
        failing.failed++;
        await b.close();
        throw Object.assign(new Error('IO error: /x/000123.log: No space left on device'), { code: 'LEVEL_IO_ERROR' });
      };
    }
    return b;
  }) as Db['batch'];
  return failing;
}

async function fresh(groupRecords?: number): Promise<{ dir: string; db: Db; chain: Chain; failing: ReturnType<typeof withFailingWrites>; events: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-wfail-'));
  dirs.push(dir);
  const { db } = await openDatabase(dir);
  const failing = withFailingWrites(db);
  const chain = await Chain.open(db, REGTEST, { groupRecords });
  const events: string[] = [];
  chain.onChange((e) => {
    if (e.kind !== 'snapshot') events.push(`${e.kind} ${e.block.height}`);
  });
  return { dir, db, chain, failing, events };
}

/** Every record of the database, as hex lines in key order. */
async function dump(db: Db): Promise<string[]> {
  return (await db.iterator().all()).map(([k, v]) => `${toHex(k)}=${toHex(v)}`);
}

const s = await exchangeScenario();
for (let i = 0; i < 6; i++) {
  await s.submit(s.A, { type: 'coinTransfer', toAddress: s.B.address, amount: BigInt(1000 + i) });
  await s.mine();
}
const N = s.chain.length;
const branch: BranchBlock[] = [];
for (let h = 1; h <= N; h++) {
  const b = (await s.chain.block(h))!;
  branch.push({ header: b.raw, body: b.body });
}
const expected = await dump(s.db);
await s.close();
const opts = { now: FIRST_TIME + 20 * (N + 1), skipPow: true };

/** Appended minus rolled back, from the chain's events: what listeners believe the height is. */
const believed = (events: string[]) => events.reduce((h, e) => (e.startsWith('append') ? h + 1 : h - 1), 0);

describe('a branch whose write fails', () => {
  it('ends at the height the database holds when its one group fails, and applies once writes succeed', async () => {
    const x = await fresh();
    x.failing.on = true;
    const e = await x.chain.switchBranch(0, branch, opts).catch((err) => err);
    // The database's failure, not the block's: peers are not blamed for it (sync.ts LOCAL_ERRORS).
    expect([e.errorName, e.message]).toEqual(['EDBWRITE', 'Database write failed: disk full (IO error: /x/000123.log: No space left on device)']);
    expect(x.failing.failed).toBe(1);
    expect(x.chain.length).toBe(0);
    expect(believed(x.events)).toBe(0); // every block announced was taken back
    expect((await Chain.open(x.db, REGTEST)).length).toBe(0);

    x.failing.on = false; // space freed
    await x.chain.switchBranch(0, branch, opts);
    expect(x.chain.length).toBe(N);
    expect(await dump(x.db)).toEqual(expected);
  }, 60_000);

  it('keeps the groups written before the failure, writes nothing after it, and reopens there', async () => {
    const x = await fresh(1); // a group per block
    x.failing.on = true;
    x.failing.okWrites = 3; // blocks 1-3 written, block 4's write fails; so do the rollbacks after it
    await expect(x.chain.switchBranch(0, branch, opts)).rejects.toMatchObject({ errorName: 'EDBWRITE' });
    expect(x.chain.length).toBe(3);
    expect(toHex(x.chain.tipHash)).toBe(toHex(x.chain.hashAt(3)));
    expect(believed(x.events)).toBe(3);
    const reopened = await Chain.open(x.db, REGTEST);
    expect(reopened.length).toBe(3);
    expect(toHex(reopened.tipHash)).toBe(toHex(x.chain.tipHash));

    x.failing.on = false;
    await x.chain.switchBranch(3, branch.slice(3), opts);
    expect(x.chain.length).toBe(N);
    expect(await dump(x.db)).toEqual(expected);
  }, 60_000);
});

// Found by scripts/network.mjs: once space was free again, the database was reopened before the
// next write (write_recovery.ts), which closes every LevelDB snapshot: reads of the published view
// failed ("Snapshot is not open") until the next change published a new one.
describe('reads after the database is reopened', () => {
  it('the published view moves to a new snapshot of the same chain', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wartnode-wfail-'));
    dirs.push(dir);
    const { db } = await openDatabase(dir);
    const chain = await Chain.open(db, REGTEST);
    const before = await chain.read(async (v) => ({ length: v.length, keys: (await v.db.keys().all()).length }));
    markWriteFailed(db);
    await writeBatch(db, []);
    expect(reopenCount(db)).toBe(1);
    const after = await chain.read(async (v) => ({ length: v.length, keys: (await v.db.keys().all()).length }));
    expect(after).toEqual(before);
    await db.close();
  });
});
