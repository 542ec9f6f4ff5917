// Signed snapshots on a real chain (consensus.md §5.6, p2p.md §3.6), with our own leader keys given
// as the network's key list: the best snapshot is kept and persisted, a contradicting chain is cut
// to height − 1 and announced with SignedPinRollback, appends and branches that contradict it fail
// with ELEADERMISMATCH, our snapshot goes to peers below it, and unjustified rollbacks are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Chain } from '../../ts/chain/chain.js';
import { buildTemplate } from '../../ts/mining/template.js';
import { REGTEST, type NetworkParams } from '../../ts/consensus/params.js';
import { signSnapshot, verifySnapshot, type VerifiedSnapshot } from '../../ts/consensus/signed_snapshot.js';
import { NodeError } from '../../ts/core/errors.js';
import { publicKeyOf } from '../../ts/core/keys.js';
import { toHex } from '../../ts/core/hex.js';
import { ChainDescription } from '../../ts/p2p/chain_description.js';
import { NO_PRIORITY } from '../../ts/p2p/elements.js';
import type { Message } from '../../ts/p2p/messages.js';
import type { Peer } from '../../ts/p2p/peer.js';
import { SnapshotExchange } from '../../ts/p2p/snapshot_exchange.js';
import { removeDir } from '../helpers/node.js';
import { ChainBuilder, FIRST_TIMESTAMP, wallet } from '../state/chain_fixture.js';

const sk = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n : 0x33));
const PARAMS: NetworkParams = { ...REGTEST, leaderKeys: [publicKeyOf(sk(1)), publicKeyOf(sk(2))], enforceSnapshots: true };
const W1 = wallet(1),
  W2 = wallet(2);
const snap = (key: number, height: number, hash: Uint8Array): VerifiedSnapshot => verifySnapshot(PARAMS, signSnapshot(height, hash, sk(key)));

let a: ChainBuilder, b: ChainBuilder;
let desc: ChainDescription;

async function errorOf(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (e) {
    return e instanceof NodeError ? e.errorName : String(e);
  }
}

/** The template block on `c` paying `miner` (not appended). */
async function next(c: ChainBuilder, miner: Uint8Array) {
  const now = FIRST_TIMESTAMP + 20 * c.length;
  const t = await buildTemplate(c.chain, c.db, miner, now, []);
  return { header: t.header, body: t.body, now };
}

beforeAll(async () => {
  a = await ChainBuilder.create({ params: PARAMS });
  b = await ChainBuilder.create({ params: PARAMS });
  await a.mineMany(5, () => W1.address); // A: 5 blocks paying W1
  await b.mineMany(2, () => W1.address); // B: the same first 2 blocks, then its own block 3
  await b.mine(W2.address);
  desc = new ChainDescription(a.chain, () => 0);
  a.chain.onChange((e) => desc.onEvent(e));
});
afterAll(async () => {
  for (const c of [a, b]) {
    await c.close();
    await removeDir(c.dir);
  }
});

describe('signed snapshots on the chain', () => {
  it('keeps a compatible snapshot without touching the chain', async () => {
    expect(a.chain.snapshot).toBeNull();
    expect(await a.chain.applySnapshot(snap(1, 2, a.chain.hashAt(2)))).toBe(true);
    expect(a.length).toBe(5);
    expect(a.chain.snapshot).toMatchObject({ height: 2, importance: 0 });
    expect(desc.flush()).toBeNull();
  });

  it('ignores a snapshot of equal or lower priority', async () => {
    expect(await a.chain.applySnapshot(snap(1, 2, a.chain.hashAt(2)))).toBe(false);
    expect(await a.chain.applySnapshot(snap(1, 1, a.chain.hashAt(1)))).toBe(false);
  });

  it('rolls back to height − 1 on a better snapshot the chain contradicts, announced as SignedPinRollback', async () => {
    const before = desc.descriptor;
    const s = snap(2, 3, b.chain.hashAt(3)); // importance 1 beats (0, 2)
    expect(await a.chain.applySnapshot(s)).toBe(true);
    expect(a.length).toBe(2);
    expect(a.chain.snapshot).toMatchObject({ height: 3, importance: 1 });
    expect(desc.flush()).toMatchObject({ kind: 'SignedPinRollback', snapshot: { height: 3 }, length: 2, worksum: a.chain.worksum, descriptor: before + 1 });
  });

  it('refuses an append contradicting the snapshot (ELEADERMISMATCH) and accepts the pinned block', async () => {
    const wrong = await next(a, W1.address);
    expect(await errorOf(a.chain.append(wrong.header, wrong.body, { now: wrong.now, skipPow: true }))).toBe('ELEADERMISMATCH');
    const pinned = await b.chain.block(3);
    await a.chain.append(pinned!.raw, pinned!.body, { now: wrong.now, skipPow: true });
    expect(a.chain.hashAt(3)).toEqual(b.chain.hashAt(3));
  });

  it('refuses a heavier branch contradicting the snapshot before touching the chain', async () => {
    const branch = [];
    const c = await ChainBuilder.create({ params: REGTEST });
    await c.mineMany(6, () => W2.address);
    for (let h = 1; h <= 6; h++) branch.push({ header: c.chain.rawHeaderAt(h), body: (await c.chain.block(h))!.body });
    await c.close();
    await removeDir(c.dir);
    expect(await errorOf(a.chain.switchBranch(0, branch, { now: FIRST_TIMESTAMP + 1000, skipPow: true }))).toBe('ELEADERMISMATCH');
    expect(a.length).toBe(3);
  });

  it('persists the snapshot in the database', async () => {
    await a.chain.idle();
    const reopened = await Chain.open(a.db, PARAMS);
    expect(reopened.snapshot).toMatchObject({ height: 3, importance: 1 });
    expect(toHex(reopened.snapshot!.hash)).toBe(toHex(b.chain.hashAt(3)));
  });
});

describe('snapshot exchange with peers', () => {
  const fakePeer = () => {
    const sent: Message[] = [];
    const peer = { initialized: true, theirs: NO_PRIORITY, ack: NO_PRIORITY, address: 'x', send: (m: Message) => sent.push(m) };
    return { peer: peer as unknown as Peer, sent };
  };

  it('sends our snapshot once to a peer whose known priority is lower, never to one at or above it', () => {
    const ex = new SnapshotExchange(a.chain, () => {});
    const low = fakePeer();
    ex.offer(low.peer);
    ex.offer(low.peer);
    expect(low.sent).toEqual([{ kind: 'Leader', snapshot: a.chain.snapshot }]);
    expect(low.peer.theirs).toEqual({ importance: 1, height: 3 });
    const high = fakePeer();
    high.peer.theirs = { importance: 1, height: 3 };
    ex.offer(high.peer);
    expect(high.sent).toEqual([]);
  });

  it('refuses a rollback below a height where the chains agree, unless the snapshot contradicts our chain', () => {
    const ex = new SnapshotExchange(a.chain, () => {});
    const compatible = snap(1, 2, a.chain.hashAt(2));
    const conflicting = snap(1, 2, b.chain.hashAt(1));
    let code: string | null = null;
    try {
      ex.checkRollback(compatible, { lower: 4, upper: 5 });
    } catch (e) {
      code = (e as NodeError).errorName;
    }
    expect(code).toBe('EBADROLLBACK');
    ex.checkRollback(compatible, { lower: 2, upper: 5 }); // not known to agree at height 2
    ex.checkRollback(conflicting, { lower: 4, upper: 5 });
  });
});
