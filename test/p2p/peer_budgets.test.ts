// Per-peer budgets (ts/p2p/budget.ts, README "Peer budgets"): offers within a peer's budget are
// requested once (no id asked twice while in flight); Txnotify and Txreq floods, from one peer and
// from four at once, end in EMSGFLOOD (an offense) while the RPC keeps answering with the right head.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { fee16Encode } from '../../ts/kernel/fee16.js';
import type { TransactionId } from '../../ts/core/transaction.js';
import { encodeFrame } from '../../ts/p2p/framing.js';
import { encodeMessage, type Message } from '../../ts/p2p/messages.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { head, mine, startPeerNode, waitFor, type Head } from '../helpers/peers.js';
import { initializedPeer, type RawPeer } from '../helpers/raw_peer.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

const MINER = TestWallet.fromSeed(411);
const FEE = fee16Encode(5_000_000n, 'up'); // above the minimum fee
let A: TestNode;
let tip: Head;

beforeAll(async () => {
  A = await startPeerNode();
  await mine(A, MINER.addressText, 3);
  tip = await head(A);
});

afterAll(async () => {
  await A.stop();
  await removeDir(A.dataDir);
});

const raw: RawPeer[] = [];
afterEach(() => {
  for (const p of raw.splice(0)) p.socket.destroy();
});
async function peer(): Promise<RawPeer> {
  const p = await initializedPeer(A.p2p!, { length: 0, worksum: 0n, grid: [] });
  raw.push(p);
  return p;
}

const randomIds = (n: number): TransactionId[] =>
  Array.from({ length: n }, () => {
    const b = randomBytes(12);
    return { accountId: b.readBigUInt64BE(0) >> 1n, pinHeight: 0, nonceId: b.readUInt32BE(8) };
  });
const frame = (m: Message): Uint8Array => {
  const { type, payload } = encodeMessage(m);
  return encodeFrame(type, payload);
};
const notify = (n: number) => frame({ kind: 'Txnotify', nonce: 1, txids: randomIds(n).map((id) => ({ id, feeCode: FEE })) });
const txreq = (n: number) => frame({ kind: 'Txreq', nonce: 2, ids: randomIds(n) });

const floods = () =>
  A.output()
    .split('\n')
    .filter((l) => l.includes('offense recorded') && l.includes('EMSGFLOOD 5')).length;

/** Polls /chain/head `n` times: each answer is the chain's real head, whatever the peers do. */
async function headStaysRight(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await A.get('/chain/head');
    expect(r.body.code).toBe(0);
    expect(r.body.data.chainHead).toMatchObject({ height: tip.height, hash: tip.hash });
  }
}

describe('transaction relay budgets', () => {
  it('offers within the budget are requested, each id once while in flight; Txreq gets one entry per id', async () => {
    const p = await peer();
    const ids = randomIds(3);
    p.send({ kind: 'Txnotify', nonce: 7, txids: ids.map((id) => ({ id, feeCode: FEE })) });
    const req = await waitFor('a Txreq', async () => p.messages().find((m) => m.kind === 'Txreq'), 5_000);
    expect(req).toMatchObject({ kind: 'Txreq', ids });
    p.received = new Uint8Array(0);
    p.send({ kind: 'Txnotify', nonce: 8, txids: ids.map((id) => ({ id, feeCode: FEE })) });
    p.send({ kind: 'Txreq', nonce: 9, ids: ids.slice(0, 2) });
    const rep = await waitFor('a Txrep', async () => p.messages().find((m) => m.kind === 'Txrep'), 5_000);
    expect(rep).toMatchObject({ kind: 'Txrep', nonce: 9, txs: [null, null] });
    expect(p.messages().filter((m) => m.kind === 'Txreq')).toEqual([]); // still in flight: not asked again
    expect(p.closed).toBe(false);
  });

  it('at most 5,000 ids are asked of one peer while unanswered (one full Txreq)', async () => {
    const p = await peer();
    p.write(notify(4_444));
    p.write(notify(4_444));
    p.send({ kind: 'Txreq', nonce: 99, ids: randomIds(1) }); // answered after the node has handled both offers
    await waitFor('the Txrep', async () => p.messages().some((m) => m.kind === 'Txrep'), 10_000);
    const asked = p.messages().flatMap((m) => (m.kind === 'Txreq' ? m.ids : []));
    expect(asked).toHaveLength(5_000);
    expect(p.closed).toBe(false);
  });

  /** One peer writes `m` 100 times without pause: it is closed with EMSGFLOOD while the head stays right. */
  async function floodEndsInOffense(m: Uint8Array): Promise<void> {
    const before = floods();
    const p = await peer();
    for (let i = 0; i < 100; i++) p.write(m);
    await headStaysRight(10);
    await p.waitClosed();
    await waitFor('the offense', async () => floods() > before, 5_000);
    await headStaysRight(3);
  }

  it('a Txnotify flood (4,444 random ids a message) ends in EMSGFLOOD; the RPC keeps answering', () => floodEndsInOffense(notify(4_444)));

  it('a Txreq flood (5,000 ids a message) ends in EMSGFLOOD', () => floodEndsInOffense(txreq(5_000)));

  it('four peers flooding Txnotify and Txreq at once: all four get an offense; the head stays right', async () => {
    const before = floods();
    const ps = await Promise.all([peer(), peer(), peer(), peer()]);
    const n = notify(4_444),
      r = txreq(5_000);
    for (let i = 0; i < 50; i++)
      for (const p of ps) {
        p.write(n);
        p.write(r);
      }
    await headStaysRight(10);
    for (const p of ps) await p.waitClosed();
    await waitFor('four offenses', async () => floods() >= before + 4, 5_000);
    await headStaysRight(3);
  });
});
