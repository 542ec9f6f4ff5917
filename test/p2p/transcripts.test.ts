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
import { loadTranscript, networkOf, ReplayPeer, type Block, type Generation, type Transcript, type Unit } from '../helpers/transcript.js';

await initKernel();
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

// Each reference's recordings: 0.10.3 and 0.8.20 against our --regtest (interop-0.8.mjs), and 0.8.20
// with its regtest-mainnet harness against our --regtest-mainnet (scripts/mainnet-interop.mjs: the
// files say `network: "regtest-mainnet"`; their relay is the `relay` scenario, tested below).
const REFS: { generation: Generation; prefix: string; txrelay: boolean }[] = [
  { generation: '0.10', prefix: 'ref-0.10.3', txrelay: true },
  { generation: '0.8', prefix: 'ref-0.8.20', txrelay: true },
  { generation: '0.8', prefix: 'ref-0.8.20-mainnet', txrelay: false },
];

/** A node on `network` (the transcript's: --regtest or --regtest-mainnet). */
async function node(args: string[], network = '--regtest'): Promise<TestNode> {
  const n = await startNode([network, '--bind=127.0.0.1:0', ...args]);
  cleanups.push(async () => {
    await n.stop();
    await removeDir(n.dataDir);
  });
  return n;
}

/** Our node on the transcript's network holding `blocks` (default its chain), appended block by block over HTTP. */
async function nodeWithChain(t: Transcript, blocks: Block[] = t.chain.blocks): Promise<TestNode> {
  const n = await node([], networkOf(t));
  for (const b of blocks.filter((x) => x.height > 0).sort((x, y) => x.height - y.height)) {
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

for (const { generation, prefix, txrelay } of REFS) {
  describe(`reference ${prefix}`, () => {
    it('sync-from-ref: our node dials the reference and syncs its whole chain', async () => {
      const t = loadTranscript(`${prefix}-sync-from-ref`);
      const ref = await listener();
      const n = await node([`--connect=127.0.0.1:${ref.port}`], networkOf(t));
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

    it.runIf(txrelay)(
      'txrelay: a transaction from the reference reaches our mempool, ours reaches the reference',
      async () => {
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
      },
      180_000,
    );
  });
}

// ---- Mainnet's rules: 0.8.20 with its regtest-mainnet harness against our --regtest-mainnet
// (scripts/mainnet-interop.mjs). Reorgs both ways, relay and mining both ways, templates crossing,
// and the refusal of exchange transactions and of a block with an exchange section.

const MAINNET = 'ref-0.8.20-mainnet';
type Action = { t_ms: number; kind: 'submitOurs'; nonceId: number } | { t_ms: number; kind: 'ourBlock'; height: number };
interface MainnetTranscript extends Omit<Transcript, 'transactions'> {
  actions?: Action[];
  transactions?: { submittedTo?: string; type?: string; txHash?: string; oursBody: Record<string, unknown>; minedIn?: number; ours?: { code: number } }[];
  chain: Transcript['chain'] & { exchangeBlocks?: (Block & { version: number })[] };
}
const loadMainnet = (scenario: string) => loadTranscript(`${MAINNET}-${scenario}`) as unknown as MainnetTranscript;
const asTranscript = (t: MainnetTranscript) => t as unknown as Transcript;

/** Replays the reference's connections of `t` in order (the reference dials our node), doing `t.actions` on time. */
async function replayWithActions(n: TestNode, t: MainnetTranscript, blocks: Block[] = t.chain.blocks): Promise<ReplayPeer[]> {
  const pending = [...(t.actions ?? [])].sort((a, b) => a.t_ms - b.t_ms);
  const peers: ReplayPeer[] = [];
  const act = async (a: Action) => {
    if (a.kind === 'submitOurs') {
      const tx = t.transactions!.find((x) => x.submittedTo === 'ours' && x.oursBody.nonceId === a.nonceId)!;
      const r = await n.post('/transaction/add', tx.oursBody);
      expect(r.body.code, r.text).toBe(0);
      return;
    }
    const b = blocks.find((x) => x.height === a.height)!;
    const r = await n.post('/chain/append', { height: b.height, header: b.header, body: b.body });
    expect(r.body.code, `our block ${b.height}: ${r.text}`).toBe(0);
    // The reference asked for it once our node had announced it: so does the replay.
    await waitFor(
      `our announcement of block ${b.height}`,
      async () => peers.at(-1)!.ours.some((m) => (m.kind === 'Append' || m.kind === 'Fork') && m.length >= b.height),
      30_000,
    );
  };
  const upTo = async (ms: number) => {
    while (pending.length && pending[0].t_ms < ms) await act(pending.shift()!);
  };
  for (const c of t.connections.filter((x) => x.connector === 'ref')) {
    const peer = new ReplayPeer(await dial(n), true, { generation: '0.8', transcript: asTranscript(t), blocks, before: (u) => upTo(u.t_ms) });
    cleanups.push(() => peer.stop());
    peers.push(peer);
    await peer.replay(c.messages);
    await upTo(Infinity);
    await peer.settled();
  }
  return peers;
}

const ourFrames = (peers: ReplayPeer[], code: number) => peers.flatMap((p) => framesOf(p, code));
const recordedFrames = (t: MainnetTranscript, code: number) =>
  t.connections.filter((c) => c.connector === 'ref').flatMap((c) => recordedOurs(c.messages, code));

describe(`reference ${MAINNET}: reorgs, relay, templates and exchange refusals on mainnet's rules`, () => {
  it('the recordings are of regtest-mainnet: magic REGMAIN, version-3 headers, V2 bodies', () => {
    const t = loadMainnet('sync-from-ref');
    expect(t.network).toBe('regtest-mainnet');
    const hello = t.connections[0].messages.find((u) => u.type.name.startsWith('Handshake'))!;
    expect(hello.decoded.magic).toMatch(/^REGMAIN GRUNT[?!]$/);
    // 1,500 blocks: two retargets, at 720 and 1,440, each moving the target.
    expect(t.chain.blocks.length).toBeGreaterThanOrEqual(1500);
    const target = (h: number) => t.chain.blocks[h - 1].header.slice(64, 72);
    expect(target(721)).not.toBe(target(720));
    expect(target(1441)).not.toBe(target(1440));
    for (const b of t.chain.blocks) expect(b.header.slice(136, 144), `version of block ${b.height}`).toBe('00000003');
  });

  for (const round of ['ours-longer', 'ref-longer'])
    it(`reorg, ${round}: the reference reconnects after a partition, the shorter branch is rolled back`, async () => {
      const t = loadMainnet(`reorg-${round}`);
      const { forkHeight, ours, ref } = t.chain;
      expect(Math.min(ours!.length, ref!.length)).toBeGreaterThanOrEqual(3); // several blocks deep
      expect(Math.abs(ours!.length - ref!.length)).toBeGreaterThanOrEqual(2);
      const n = await nodeWithChain(asTranscript(t), [...t.chain.blocks, ...ours!]);
      const peers = await replayWithActions(n, t, [...t.chain.blocks, ...ref!]);
      const want = (t.result as { finalHead: { height: number; hash: string } }).finalHead;
      await waitFor('our node at the recorded final head', async () => (await head(n)).hash === want.hash, 30_000);
      const winner = ours!.length > ref!.length ? ours! : ref!;
      expect(want.hash).toBe(winner[winner.length - 1].hash);
      for (const b of winner) expect(await n.data(`/chain/block/${b.height}/hash`), `block ${b.height}`).toBe(b.hash);
      expect(forkHeight).toBe(t.chain.blocks.length);
      // Our answers to the reference's requests are the recorded bytes.
      for (const code of [7, 9, 11]) expect(ourFrames(peers, code), `code ${code}`).toEqual(recordedFrames(t, code));
      for (const p of peers) expectClean(p);
    }, 120_000);

  it('relay: ours relays a transfer to the reference (LegacyTxrep 15), takes its transfer, mines it', async () => {
    const t = loadMainnet('relay');
    const firstMined = Math.min(...t.transactions!.map((x) => x.minedIn!));
    const n = await nodeWithChain(
      asTranscript(t),
      t.chain.blocks.filter((b) => b.height < firstMined),
    );
    const peers = await replayWithActions(n, t);
    const tip = t.chain.blocks[t.chain.blocks.length - 1];
    await waitFor('our node at the recorded tip', async () => (await head(n)).hash === tip.hash, 30_000);
    for (const x of t.transactions!) {
      const look = await n.data(`/transaction/lookup/${x.txHash}`);
      expect(look.mined.block.height, `${x.submittedTo}'s transaction`).toBe(x.minedIn);
    }
    // Our transaction went to 0.8.20 as LegacyTxrep 15, with the recorded bytes; never Txrep 31.
    expect(ourFrames(peers, 15).length).toBeGreaterThan(0);
    expect(ourFrames(peers, 15)).toEqual(recordedFrames(t, 15));
    expect(ourFrames(peers, 31)).toEqual([]);
    for (const code of [7, 9, 11]) expect(ourFrames(peers, code), `code ${code}`).toEqual(recordedFrames(t, code));
    for (const p of peers) expectClean(p);
  }, 180_000);

  it("templates: a block from our template comes back from the reference; ours from the reference's template goes to it", async () => {
    const t = loadMainnet('templates');
    const first = (t.result as { oursTemplateToRef: { height: number } }).oursTemplateToRef.height;
    const n = await nodeWithChain(
      asTranscript(t),
      t.chain.blocks.filter((b) => b.height < first),
    );
    const peers = await replayWithActions(n, t);
    const tip = t.chain.blocks[t.chain.blocks.length - 1];
    await waitFor('our node at the recorded tip', async () => (await head(n)).hash === tip.hash, 30_000);
    for (const code of [7, 9, 11]) expect(ourFrames(peers, code), `code ${code}`).toEqual(recordedFrames(t, code));
    for (const p of peers) expectClean(p);
  }, 120_000);

  it('defi: exchange transactions and blocks with an exchange section are refused, over HTTP and P2P', async () => {
    const t = loadMainnet('defi');
    const n = await nodeWithChain(asTranscript(t));
    const before = (await head(n)).hash;
    for (const x of t.transactions!) {
      const r = await n.post('/transaction/add', x.oursBody);
      expect([x.type, r.body.code]).toEqual([x.type, 192]);
    }
    const bad = t.chain.exchangeBlocks!;
    expect(bad.map((b) => b.version)).toEqual([3, 4]);
    for (const b of bad) {
      const r = await n.post('/chain/append', { height: b.height, header: b.header, body: b.body });
      expect(r.body.code, r.text).toBe(b.version === 3 ? 190 : 83); // EEXCESSBYTES, EBLOCKVERSION
    }
    // The scripted peer offers each block over P2P: our node downloads what it needs, refuses, closes.
    const scripted = t.connections.filter((c) => c.connector === 'script');
    expect(scripted.length).toBe(bad.length);
    for (const [i, c] of scripted.entries()) {
      const peer = new ReplayPeer(await dial(n), true, { generation: '0.8', transcript: asTranscript(t), side: 'script', blocks: [...t.chain.blocks, bad[i]] });
      cleanups.push(() => peer.stop());
      await peer.replay(c.messages);
      await waitFor('our node closing the scripted peer', async () => peer.closed, 20_000);
      expect(peer.refusals).toEqual([]);
      expect(peer.mismatches).toEqual([]);
    }
    expect((await head(n)).hash).toBe(before);
  }, 120_000);
});
