// Misbehaving peers against a started node: garbage instead of the handshake, an oversized frame,
// an unknown message type, a message before Init, and a peer that announces more work and then
// serves an invalid header. Each is disconnected and its offense logged (p2p.md §4.4; loopback is
// never banned), while the node keeps serving its honest peer, which keeps syncing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { serializeHeader } from '../../ts/core/header.js';
import { fromHex } from '../../ts/core/hex.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { encodeFrame } from '../../ts/p2p/framing.js';
import { encodeMessage } from '../../ts/p2p/messages.js';
import { NO_PRIORITY } from '../../ts/p2p/elements.js';
import { removeDir, type TestNode } from '../helpers/node.js';
import { initializedPeer as initializedRawPeer, nextRequest, RawPeer } from '../helpers/raw_peer.js';
import { mine, sameHead, startPeerNode, waitFor } from '../helpers/peers.js';
import { TestWallet } from '../helpers/wallet.js';
import { ChainBuilder } from '../state/chain_fixture.js';

await initKernel();

const MINER = TestWallet.fromSeed(301);
let A: TestNode, B: TestNode;

beforeAll(async () => {
  A = await startPeerNode();
  await mine(A, MINER.addressText, 5);
  B = await startPeerNode([A]);
  await sameHead(A, [B]);
});

afterAll(async () => {
  for (const n of [A, B]) {
    await n.stop();
    await removeDir(n.dataDir);
  }
});

/** Raw peers of A, destroyed after each test. */
const raw: RawPeer[] = [];
afterEach(() => {
  for (const p of raw.splice(0)) p.socket.destroy();
});
const rawPeer = (): RawPeer => {
  const p = new RawPeer(A.p2p!);
  raw.push(p);
  return p;
};
const initializedPeer = async (chain: { length: number; worksum: bigint; grid: Uint8Array[] }): Promise<RawPeer> => {
  const p = await initializedRawPeer(A.p2p!, chain);
  raw.push(p);
  return p;
};

const offenses = () =>
  A.output()
    .split('\n')
    .filter((l) => l.includes('offense recorded'));

describe('a peer that misbehaves is disconnected and recorded', () => {
  it('garbage instead of the handshake: EHANDSHAKE', async () => {
    const p = rawPeer();
    await p.ready();
    p.write(new TextEncoder().encode('GET / HTTP/1.1\r\nHost: x\r\n'));
    await p.waitClosed();
    await waitFor('the offense', async () => offenses().some((l) => l.includes('EHANDSHAKE 13')), 5_000);
  });

  it('an oversized frame: EMSGLEN, checked on the 10 header bytes', async () => {
    const p = rawPeer();
    await p.handshake();
    const header = new Uint8Array(10);
    new DataView(header.buffer).setUint32(0, 2 + 100_000 + 1);
    header[9] = 30; // InitV3, max payload 100,000
    p.write(header);
    await p.waitClosed();
    await waitFor('the offense', async () => offenses().some((l) => l.includes('EMSGLEN 2')), 5_000);
  });

  it('an unknown message type: EMSGTYPE; a message before Init: ENOINIT', async () => {
    const p = rawPeer();
    await p.handshake();
    p.write(encodeFrame(12, new Uint8Array(0)));
    await p.waitClosed();
    const q = rawPeer();
    await q.handshake();
    q.send({ kind: 'Ping', v2: true, nonce: 1, priority: NO_PRIORITY, maxAddresses: 0, maxTransactions: 0, ndiscard: 0 });
    await q.waitClosed();
    await waitFor('the offenses', async () => offenses().some((l) => l.includes('EMSGTYPE 1')) && offenses().some((l) => l.includes('ENOINIT 85')), 5_000);
  });

  it('a second Init: EINVINIT; an unrequested reply: EUNREQUESTED', async () => {
    const p = await initializedPeer({ length: 0, worksum: 0n, grid: [] });
    p.send({ kind: 'Init', v3: true, descriptor: 0, priority: NO_PRIORITY, length: 0, worksum: 0n, grid: [], flags: 0 });
    await p.waitClosed();
    const q = await initializedPeer({ length: 0, worksum: 0n, grid: [] });
    q.send({ kind: 'Batchrep', nonce: 5, headers: [] });
    await q.waitClosed();
    await waitFor(
      'the offenses',
      async () => offenses().some((l) => l.includes('EINVINIT 86')) && offenses().some((l) => l.includes('EUNREQUESTED 19')),
      5_000,
    );
  });

  it('speaks the dialect of the announced version (§2.6): InitV1 and Ping 4 to a 0.8 peer; Init type 0 with flags from a newer one', async () => {
    const old = rawPeer();
    await old.handshake(0x00080e); // 0.8.14: the v1 dialect
    const init = await waitFor("A's Init", async () => old.messages().find((m) => m.kind === 'Init'), 5_000);
    expect(init).toMatchObject({ kind: 'Init', v3: false, flags: null, length: 5 });
    old.send({ kind: 'Init', v3: false, descriptor: 0, priority: NO_PRIORITY, length: 0, worksum: 0n, grid: [], flags: null });
    const ping = await waitFor('a ping', async () => old.messages().find((m) => m.kind === 'Ping'), 5_000);
    expect(ping).toMatchObject({ kind: 'Ping', v2: false, maxTransactions: 100 });
    // A newer peer may send its Init as type 0 with the flags byte (the reference's bug, §8 item 1).
    const newer = rawPeer();
    await newer.handshake();
    const { payload } = encodeMessage({ kind: 'Init', v3: true, descriptor: 0, priority: NO_PRIORITY, length: 0, worksum: 0n, grid: [], flags: 0 });
    newer.write(encodeFrame(0, payload));
    const ping2 = await waitFor('a ping', async () => newer.messages().find((m) => m.kind === 'Ping'), 5_000);
    expect(ping2).toMatchObject({ kind: 'Ping', v2: true, ndiscard: 0 });
    expect(old.closed || newer.closed).toBe(false);
  });

  it('an announced heavier chain whose header is invalid: the sync closes it with the consensus error', async () => {
    const p = await initializedPeer({ length: 1, worksum: 1n << 200n, grid: [] });
    const req = await nextRequest(p, 'Batchreq');
    expect(req).toMatchObject({ start: 1, count: 1 });
    // A peer announces more work than ours: not synced while it is connected.
    expect((await A.get('/chain/head')).body.data.synced).toBe(false);
    // A header at height 1 with the wrong target.
    const bad = serializeHeader({
      prevHash: REGTEST.genesisHash,
      target: 0x0affffff,
      merkleRoot: new Uint8Array(32),
      version: 3,
      timestamp: Math.floor(Date.now() / 1000),
      nonce: 0,
    });
    p.send({ kind: 'Batchrep', nonce: req.nonce, headers: [bad] });
    await p.waitClosed();
    await waitFor('the offense', async () => offenses().some((l) => l.includes('EDIFFICULTY 12')), 5_000);
  });

  it('an announced chain that is a prefix of ours with more work claimed: EFAKEWORK', async () => {
    const p = await initializedPeer({ length: 1, worksum: 1n << 200n, grid: [] });
    const req = await nextRequest(p, 'Batchreq');
    const raw = fromHex((await A.get('/chain/block/1/header')).body.data.header.raw)!;
    p.send({ kind: 'Batchrep', nonce: req.nonce, headers: [raw] });
    await p.waitClosed();
    await waitFor('the offense', async () => offenses().some((l) => l.includes('EFAKEWORK 59')), 5_000);
  });

  it('a heavier valid header chain with a corrupted block body: refused, nothing applied', async () => {
    const before = (await A.get('/chain/head')).body.data.chainHead;
    const other = await ChainBuilder.create();
    try {
      await other.mineMany(12, () => MINER.address);
      const c = other.chain;
      const p = await initializedPeer({ length: c.length, worksum: c.worksum, grid: [] });
      // A first probes at its own tip (is it on the peer's chain?): no, a fork from genesis.
      const probe = await nextRequest(p, 'Probereq');
      expect(probe.height).toBe(before.height);
      p.send({ kind: 'Proberep', nonce: probe.nonce, descriptor: 0, requested: c.rawHeaderAt(probe.height), current: c.rawHeaderAt(probe.height) });
      const batch = await nextRequest(p, 'Batchreq');
      expect(batch).toMatchObject({ start: 1, count: 12 });
      p.send({ kind: 'Batchrep', nonce: batch.nonce, headers: Array.from({ length: 12 }, (_, i) => c.rawHeaderAt(i + 1)) });
      const blocks = await nextRequest(p, 'Blockreq');
      expect(blocks).toMatchObject({ first: 1, last: 12 });
      const bodies = [];
      for (let h = 1; h <= 12; h++) bodies.push((await c.block(h))!.body);
      bodies[2] = bodies[2].slice();
      bodies[2][bodies[2].length - 1] ^= 1; // inside the reward entry: a different merkle root
      p.send({ kind: 'Blockrep', nonce: blocks.nonce, bodies });
      await p.waitClosed();
      await waitFor('the offense', async () => offenses().some((l) => /E(MROOT 17|INV_BODY 89)/.test(l)), 5_000);
      expect((await A.get('/chain/head')).body.data.chainHead.hash).toBe(before.hash);
    } finally {
      await other.close();
      await removeDir(other.dir);
    }
  });

  it('the node keeps working: its honest peer follows new blocks and both report synced', async () => {
    expect(offenses().every((l) => !l.includes('banned'))).toBe(true); // loopback is never banned
    await mine(A, MINER.addressText, 3);
    const h = await sameHead(A, [B]);
    expect(h.height).toBe(8);
    for (const n of [A, B]) expect((await n.get('/chain/head')).body.data.synced).toBe(true);
  });
});
