// A branch applied by switchBranch is written in groups of blocks (store/write_group.ts): the
// database it leaves must be the one block-by-block appends leave, byte for byte, through every
// transaction type of the exchange (order matching iterates the book) and the pruning of
// transaction ids (an iteration every 32nd block); a failing block leaves the database as it was.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Chain } from '../../ts/chain/chain.js';
import type { BranchBlock } from '../../ts/chain/prerecover.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { toHex } from '../../ts/core/hex.js';
import { openDatabase, type Db } from '../../ts/store/database.js';
import { WriteGroup } from '../../ts/store/write_group.js';
import { StateOverlay } from '../../ts/state/overlay.js';
import { bytesKey } from '../../ts/core/hex.js';
import { bookOrderIds } from '../../ts/state/orders.js';
import { exchangeScenario, FIRST_TIME, limitOf } from '../state/exchange_scenario.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function fresh(): Promise<{ db: Db; chain: Chain }> {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-branch-'));
  dirs.push(dir);
  const { db } = await openDatabase(dir);
  return { db, chain: await Chain.open(db, REGTEST) };
}

/** Every record of the database, as hex lines in key order. */
async function dump(db: Db): Promise<string[]> {
  return (await db.iterator().all()).map(([k, v]) => `${toHex(k)}=${toHex(v)}`);
}

describe('a branch written in groups', () => {
  it('leaves the database block-by-block appends leave, and nothing of a branch that fails', async () => {
    const s = await exchangeScenario();
    // A buy crossing B's ask, which rests in the book from an earlier block: matching reads the book.
    const resting = await bookOrderIds(s.db, s.tok.id);
    await s.submit(s.A, { type: 'limitSwap', assetHash: s.tok.hash, isBuy: true, amount: 500_000_000n, limit: limitOf('0.05', 2, 'floor') });
    await s.mine();
    expect((await bookOrderIds(s.db, s.tok.id)).length).toBeLessThan(resting.length); // an ask filled
    // Past the first pruning of transaction ids pinned to the genesis (every 32nd block).
    for (let i = 0; i < 40; i++) {
      await s.submit(s.A, { type: 'coinTransfer', toAddress: s.B.address, amount: BigInt(1000 + i) });
      await s.mine();
    }
    const n = s.chain.length;
    const branch: BranchBlock[] = [];
    for (let h = 1; h <= n; h++) {
      const b = (await s.chain.block(h))!;
      branch.push({ header: b.raw, body: b.body });
    }
    const expected = await dump(s.db);
    await s.close();

    const b = await fresh();
    await b.chain.switchBranch(0, branch, { now: FIRST_TIME + 20 * (n + 1), skipPow: true });
    expect(b.chain.length).toBe(n);
    expect(await dump(b.db)).toEqual(expected);

    // The last block corrupted: the branch is refused and the empty chain's records stay.
    const c = await fresh();
    const empty = await dump(c.db);
    const bad = branch.map((x) => ({ ...x }));
    const last = bad[n - 1].body.slice();
    last[last.length - 10] ^= 0x40;
    bad[n - 1] = { ...bad[n - 1], body: last };
    await expect(c.chain.switchBranch(0, bad, { now: FIRST_TIME + 20 * (n + 1), skipPow: true })).rejects.toThrow();
    expect(c.chain.length).toBe(0);
    // Only the head records remain, naming the genesis (rollbacks write them; an unused store has none).
    const meta = toHex(new TextEncoder().encode('m'));
    expect((await dump(c.db)).filter((r) => !r.startsWith(meta))).toEqual(empty);
    expect((await Chain.open(c.db, REGTEST)).length).toBe(0);
    for (const x of [b, c]) await x.db.close();
  }, 120_000);
});

describe('WriteGroup', () => {
  it("takes an operation's id (bytesKey of its key, as the state overlay hands them) for its key", async () => {
    const { db } = await fresh();
    const s = new StateOverlay(db);
    await s.put(Uint8Array.of(0x7d, 1), Uint8Array.of(1));
    await s.del(Uint8Array.of(0x7d, 2));
    const ops = s.ops();
    expect(ops.map((o) => o.id)).toEqual([bytesKey(Uint8Array.of(0x7d, 1)), bytesKey(Uint8Array.of(0x7d, 2))]);
    const g = new WriteGroup(db);
    g.add(ops);
    expect([...g.getSync(Uint8Array.of(0x7d, 1))!]).toEqual([1]);
    g.add([{ type: 'put', key: Uint8Array.of(0x7d, 1), value: Uint8Array.of(9) }]); // no id: the same key
    expect(g.size).toBe(2);
    expect([...g.getSync(Uint8Array.of(0x7d, 1))!]).toEqual([9]);
    await db.close();
  });

  it('reads its writes before the database and makes them before an iteration', async () => {
    const { db } = await fresh();
    const k = (x: number) => Uint8Array.of(0x7a, x);
    await db.batch([
      { type: 'put', key: k(1), value: Uint8Array.of(1) },
      { type: 'put', key: k(2), value: Uint8Array.of(2) },
    ]);
    const g = new WriteGroup(db);
    g.add([
      { type: 'put', key: k(1), value: Uint8Array.of(11) },
      { type: 'del', key: k(2) },
    ]);
    g.add([{ type: 'put', key: k(3), value: Uint8Array.of(3) }]);
    expect([...g.getSync(k(1))!]).toEqual([11]);
    expect(g.getSync(k(2))).toBeUndefined();
    expect((await g.getMany([k(3), k(4)])).map((v) => v && [...v])).toEqual([[3], undefined]);
    expect([...db.getSync(k(1))!]).toEqual([1]); // not written yet
    const keys: number[] = [];
    for await (const key of g.keys({ gte: k(0), lt: k(9) })) keys.push(key[1]);
    expect(keys).toEqual([1, 3]);
    expect(g.size).toBe(0);
    expect([...db.getSync(k(1))!]).toEqual([11]);
    await db.close();
  });

  /** Holds each batch write of `db` until the next `release()`; `fail` makes the held writes fail. */
  function gated(db: Db) {
    const waiting: (() => void)[] = [];
    const gate = {
      writes: 0,
      fail: false,
      release: () => {
        for (const go of waiting.splice(0)) go();
      },
    };
    const batch = db.batch.bind(db);
    db.batch = ((...args: never[]) => {
      const b = (batch as (...a: never[]) => ReturnType<Db['batch']>)(...args);
      const write = b.write.bind(b);
      b.write = (async () => {
        gate.writes++;
        await new Promise<void>((go) => waiting.push(go));
        if (gate.fail) {
          await b.close();
          throw new Error('IO error: No space left on device');
        }
        return write();
      }) as typeof b.write;
      return b;
    }) as Db['batch'];
    return gate;
  }

  it('reads a write in flight while the next operations gather; the next write starts after it, in order', async () => {
    const { db } = await fresh();
    const gate = gated(db);
    const k = (x: number) => Uint8Array.of(0x7b, x);
    const g = new WriteGroup(db);
    g.add([{ type: 'put', key: k(1), value: Uint8Array.of(1) }]);
    await g.startWrite(); // returns with the write in flight
    expect(gate.writes).toBe(1);
    expect(g.size).toBe(0);
    expect([...g.getSync(k(1))!]).toEqual([1]);
    expect(db.getSync(k(1))).toBeUndefined();
    g.add([
      { type: 'put', key: k(1), value: Uint8Array.of(2) },
      { type: 'put', key: k(2), value: Uint8Array.of(3) },
    ]);
    expect([...g.getSync(k(1))!]).toEqual([2]); // the newer operation first
    let second = false;
    const next = g.startWrite().then(() => (second = true));
    await new Promise((r) => setImmediate(r));
    expect(second).toBe(false); // waits for the first
    gate.release();
    await next;
    expect([...db.getSync(k(1))!]).toEqual([1]);
    expect(gate.writes).toBe(2);
    const done = g.flush();
    await new Promise((r) => setImmediate(r));
    gate.release();
    await done;
    expect([...db.getSync(k(1))!]).toEqual([2]);
    expect([...db.getSync(k(2))!]).toEqual([3]);
    await db.close();
  });

  it('a write that fails in flight: its operations are still read, the next start and every flush throw its error, nothing more is written', async () => {
    const { db } = await fresh();
    const gate = gated(db);
    const k = (x: number) => Uint8Array.of(0x7c, x);
    const g = new WriteGroup(db);
    g.add([{ type: 'put', key: k(1), value: Uint8Array.of(1) }]);
    await g.startWrite();
    gate.fail = true;
    gate.release();
    g.add([{ type: 'put', key: k(2), value: Uint8Array.of(2) }]);
    await expect(g.startWrite()).rejects.toThrow(/No space/);
    expect([...g.getSync(k(1))!]).toEqual([1]);
    expect([...g.getSync(k(2))!]).toEqual([2]);
    await expect(g.flush()).rejects.toThrow(/No space/);
    expect(gate.writes).toBe(1);
    expect(db.getSync(k(1))).toBeUndefined();
    expect(db.getSync(k(2))).toBeUndefined();
    await db.close();
  });
});
