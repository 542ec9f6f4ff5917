// The reference's side of every recorded wire transcript (test/vectors/p2p: a 0.10.3 and a 0.8.20
// reference, each syncing from us, syncing to us and relaying transactions) replayed byte for byte
// against our node (test/helpers/transcript.ts). Our node must sync the transcript's chain, serve
// it with the very bytes it served then, relay the same transactions both ways, and never send a
// frame the transcript's reference refuses. The 0.8.20 replay is the scripted 0.8-dialect peer of
// issue 10: it closes, as 0.8.20 bans, on any code, Txnotify entry, Init form or block range that
// mainnet.md §5.5's probe found refused.
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { toHex } from '../../ts/core/hex.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { encodeFrame } from '../../ts/p2p/framing.js';
import type { Message } from '../../ts/p2p/messages.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { waitFor } from '../helpers/peers.js';
import { loadTranscript, ReplayPeer, type Generation, type Transcript, type Unit } from '../helpers/transcript.js';

await initKernel();
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const REFS: { generation: Generation; prefix: string }[] = [
  { generation: '0.10', prefix: 'ref-0.10.3' },
  { generation: '0.8', prefix: 'ref-0.8.20' },
];

async function node(args: string[]): Promise<TestNode> {
  const n = await startNode(['--regtest', '--bind=127.0.0.1:0', ...args]);
  cleanups.push(async () => {
    await n.stop();
    await removeDir(n.dataDir);
  });
  return n;
}

/** Our node holding the transcript's chain, appended block by block over HTTP. */
async function nodeWithChain(t: Transcript): Promise<TestNode> {
  const n = await node([]);
  for (const b of t.chain.blocks.filter((x) => x.height > 0).sort((x, y) => x.height - y.height)) {
    const r = await n.post('/chain/append', { height: b.height, header: b.header, body: b.body });
    expect(r.body.code, `block ${b.height}: ${r.text}`).toBe(0);
  }
  return n;
}

const tip = (t: Transcript) => t.chain.blocks.reduce((a, b) => (b.height > a.height ? b : a));
const head = async (n: TestNode) => (await n.data('/chain/head')).chainHead as { height: number; hash: string };

/** A TCP connection from the test (the reference as connector) to our node. */
async function dial(n: TestNode): Promise<Socket> {
  const [host, port] = n.p2p!.split(':');
  const s = connect({ host, port: Number(port) });
  await once(s, 'connect');
  cleanups.push(() => {
    s.destroy();
  });
  return s;
}

/** A listener standing in for the reference as acceptor; resolves the first connection. */
async function listener(): Promise<{ server: Server; port: number; accepted: Promise<Socket> }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  return { server, port: (server.address() as AddressInfo).port, accepted };
}

function expectClean(peer: ReplayPeer): void {
  expect(peer.refusals, 'frames the reference refuses').toEqual([]);
  expect(peer.mismatches, 'requests of ours that differ from the recorded ones').toEqual([]);
  expect(peer.closed, 'the connection stays open').toBe(false);
}

/** Our frames of `code`, as the bytes they went over the wire with. */
const framesOf = (peer: ReplayPeer, code: number) => peer.oursFrames.filter((f) => f.type === code).map((f) => toHex(encodeFrame(f.type, f.payload)));
const recordedOurs = (units: Unit[], code: number) => units.filter((u) => u.dir === 'ours→ref' && u.type.code === code).map((u) => u.hex);

for (const { generation, prefix } of REFS) {
  describe(`reference ${prefix}`, () => {
    it('sync-from-ref: our node dials the reference and syncs its whole chain', async () => {
      const t = loadTranscript(`${prefix}-sync-from-ref`);
      const ref = await listener();
      const n = await node([`--connect=127.0.0.1:${ref.port}`]);
      const peer = new ReplayPeer(await ref.accepted, false, { generation, transcript: t });
      cleanups.push(() => peer.stop());
      await peer.replay(t.connections[0].messages);
      peer.emulate();
      const want = tip(t);
      await waitFor("our node to reach the reference's tip", async () => (await head(n)).height === want.height, 60_000);
      expect(await head(n)).toMatchObject({ height: want.height, hash: want.hash });
      expect(want.hash).toBe(t.result.refHead.hash);
      expectClean(peer);
      if (generation === '0.10') {
        // The recorded Blockrep had no length prefixes: ours now takes it instead of disconnecting.
        expect(t.connections[0].messages.some((u) => /NOT length-prefixed/.test(u.decoded?.form ?? ''))).toBe(true);
      }
      // Never hand the reference its own address.
      for (const m of peer.ours) if (m.kind === 'Pong') expect(m.addresses.map((a) => `${a.ip}:${a.port}`)).not.toContain(`127.0.0.1:${ref.port}`);
    }, 120_000);

    it('sync-to-ref: the reference dials our node and downloads our chain, byte for byte as recorded', async () => {
      const t = loadTranscript(`${prefix}-sync-to-ref`);
      const n = await nodeWithChain(t);
      const peer = new ReplayPeer(await dial(n), true, { generation, transcript: t });
      cleanups.push(() => peer.stop());
      const units = t.connections[0].messages;
      await peer.replay(units);
      await peer.settled();
      // Our Init, header batch and block bodies are exactly those the reference took then.
      for (const code of [7, 11]) expect(framesOf(peer, code), `code ${code}`).toEqual(recordedOurs(units, code));
      const init = peer.ours.find((m) => m.kind === 'Init') as Extract<Message, { kind: 'Init' }>;
      expect(init.v3).toBe(generation === '0.10');
      expect(init.length).toBe(tip(t).height);
      expectClean(peer);
    }, 120_000);

    it('txrelay: a transaction from the reference reaches our mempool, ours reaches the reference', async () => {
      const t = loadTranscript(`${prefix}-txrelay`);
      const n = await nodeWithChain(t);
      const [fromRef, fromOurs] = t.transactions!;
      let submitted = false;
      const submitOurs = async () => {
        if (submitted) return;
        submitted = true;
        const r = await n.post('/transaction/add', {
          type: 'coinTransfer',
          pinHeight: fromOurs.pinHeight,
          nonceId: fromOurs.nonceId,
          feeE8: fromOurs.feeE8,
          toAddr: fromOurs.toAddr,
          coinE8: fromOurs.amountE8,
          signature65: fromOurs.signature65,
        });
        expect(r.body.code, r.text).toBe(0);
      };
      const mempool = async () => ((await n.data('/transaction/mempool')) as { transaction: { hash: string } }[]).map((e) => e.transaction.hash);
      // Before the reference's first unit naming our transaction, the user submits it to our node.
      const before = async (u: Unit) => {
        if (JSON.stringify(u.decoded ?? {}).includes(`"nonceId":${fromOurs.nonceId}`)) await submitOurs();
      };

      const peers: ReplayPeer[] = [];
      for (const [i, c] of t.connections.entries()) {
        if (i > 0) await submitOurs(); // the later 0.8.20 connections redial after our transaction exists
        const peer = new ReplayPeer(await dial(n), true, { generation, transcript: t, before });
        cleanups.push(() => peer.stop());
        peers.push(peer);
        await peer.replay(c.messages);
        await peer.settled();
        if (i === 0) await waitFor("the reference's transaction in our mempool", async () => (await mempool()).includes(fromRef.txHash), 20_000);
      }
      expect(await mempool()).toContain(fromOurs.txHash);
      // Our transaction went to the reference in the reply form it parses: Txrep 31 to 0.10, LegacyTxrep 15 to 0.8.
      const replyCode = generation === '0.10' ? 31 : 15;
      const replies = peers.flatMap((p) => p.ours.filter((m): m is Extract<Message, { kind: 'Txrep' }> => m.kind === 'Txrep'));
      expect(replies.length).toBeGreaterThan(0);
      for (const p of peers) for (const f of p.oursFrames) if (f.type === 15 || f.type === 31) expect(f.type).toBe(replyCode);
      for (const r of replies) {
        const tx = r.txs[0]!;
        expect(tx.id.nonceId).toBe(fromOurs.nonceId);
        expect(toHex(tx.signature)).toBe(fromOurs.signature65);
      }
      if (generation === '0.10') {
        // The same bytes as recorded: the reference's Txreq carries its nonce, our Txrep echoes it.
        expect(framesOf(peers[0], 31)).toEqual(recordedOurs(t.connections[0].messages, 31));
      } else {
        // 0.8.20 cannot parse a Txnotify with entries: our node pushes none to it.
        expect(peers.flatMap((p) => p.ours).filter((m) => m.kind === 'Txnotify')).toEqual([]);
      }
      for (const p of peers) expectClean(p);
    }, 180_000);
  });
}
