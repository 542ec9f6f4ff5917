// The recorded exchange session with the 0.10.3 reference (test/vectors/p2p/ref-0.10.3-exchange.json,
// recorded by scripts/record-exchange.mjs; README in test/vectors/reference-0.10.3-exchange/):
// every exchange transaction type crossed the wire in Txrep and in Blockrep, both ways. The
// reference's side is replayed byte for byte against a fresh node of ours (test/helpers/transcript.ts),
// and what our node did in the recording is done again at the recorded moment (the transcript's
// `actions`): the blocks it mined are appended over HTTP, the transactions submitted to it are
// submitted again. Our node must take every Txrep and Blockrep the reference sent (its mempool holds
// the relayed transactions before its block is appended; it ends on the recorded chain), answer the
// reference's requests with exactly the bytes it sent then, and send no frame the reference refuses.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBody } from '../../ts/core/body.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { encodeFrame } from '../../ts/p2p/framing.js';
import { decodeMessage, type Message } from '../../ts/p2p/messages.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { waitFor } from '../helpers/peers.js';
import { loadTranscript, ReplayPeer, type Transcript, type Unit } from '../helpers/transcript.js';

await initKernel();
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

interface RecordedTx {
  step: string;
  label: string;
  type: string;
  submittedTo: 'ref' | 'ours';
  minedIn: number | null;
  txHash: string;
  fields: { isBuy?: boolean; isLiquidity?: boolean };
  oursBody: Record<string, unknown>;
}
type Action = { t_ms: number; kind: 'ourBlock'; height: number } | { t_ms: number; kind: 'submitOurs'; txHash: string };
type ExchangeTranscript = Omit<Transcript, 'transactions'> & { actions: Action[]; transactions: RecordedTx[] };

const T = loadTranscript('ref-0.10.3-exchange') as unknown as ExchangeTranscript;
const UNITS = T.connections[0].messages;
const bin = (hex: string) => fromHex(hex)!;

/** The nine kinds of exchange transaction the issue names (limit orders by side, token transfers by token). */
const KINDS = ['coinTransfer', 'assetCreation', 'assetTransfer', 'shareTransfer', 'buy', 'sell', 'liquidityDeposit', 'liquidityWithdrawal', 'cancelation'];
function kindOf(p: { type?: string; isBuy?: boolean; isLiquidity?: boolean; kind?: string; buy?: boolean }): string {
  const type = p.kind ?? p.type ?? '?';
  if (type === 'limitSwap') return (p.isBuy ?? p.buy) ? 'buy' : 'sell';
  if (type === 'tokenTransfer') return p.isLiquidity ? 'shareTransfer' : 'assetTransfer';
  return type;
}

const decoded = (u: Unit): Message => decodeMessage(u.type.code!, bin(u.hex).subarray(10));
const blockBody = (h: number) => bin(T.chain.blocks.find((b) => b.height === h)!.body);

describe('the recorded exchange session (reference 0.10.3)', () => {
  it('carries every exchange type in Txrep and in Blockrep, both ways (decoded by our codecs)', () => {
    expect(T.connections).toHaveLength(1);
    const txrep: Record<string, Set<string>> = { 'ref→ours': new Set(), 'ours→ref': new Set() };
    const blockrep: Record<string, Set<string>> = { 'ref→ours': new Set(), 'ours→ref': new Set() };
    const blockreqs = new Map<string, Extract<Message, { kind: 'Blockreq' }>>();
    for (const u of UNITS) {
      if (u.type.code === 10) {
        const m = decoded(u) as Extract<Message, { kind: 'Blockreq' }>;
        blockreqs.set(`${u.dir}:${m.nonce}`, m);
      }
    }
    for (const u of UNITS) {
      if (u.type.code === 31) {
        const m = decoded(u) as Extract<Message, { kind: 'Txrep' }>;
        for (const tx of m.txs) if (tx) txrep[u.dir].add(kindOf({ ...tx.payload }));
      }
      if (u.type.code === 11) {
        const m = decoded(u) as Extract<Message, { kind: 'Blockrep' }>;
        const req = blockreqs.get(`${u.dir === 'ref→ours' ? 'ours→ref' : 'ref→ours'}:${m.nonce}`)!;
        expect(req, `the Blockreq answered by Blockrep nonce ${m.nonce}`).toBeDefined();
        const heights = Array.from({ length: req.last - req.first + 1 }, (_, i) => req.first + i);
        const bodies = heights.map(blockBody);
        // The bodies that crossed are the recorded chain's: the reference sends them without length
        // prefixes (p2p.md §8 item 2), ours with.
        if (m.bodies) expect(m.bodies.map(toHex)).toEqual(bodies.map(toHex));
        else expect(toHex(m.raw!)).toBe(bodies.map(toHex).join(''));
        for (const b of bodies) {
          const body = parseBody(b, 'V4');
          for (const e of [...body.coinTransfers, ...body.cancelations, ...body.assetCreations]) blockrep[u.dir].add(kindOf(e));
          for (const s of body.tokenSections) {
            for (const e of [...s.assetTransfers, ...s.shareTransfers, ...s.limitSwaps, ...s.liquidityDeposits, ...s.liquidityWithdrawals])
              blockrep[u.dir].add(kindOf(e));
          }
        }
      }
    }
    for (const dir of ['ref→ours', 'ours→ref']) {
      expect([...txrep[dir]].sort(), `Txrep ${dir}`).toEqual([...KINDS].sort());
      expect([...blockrep[dir]].sort(), `Blockrep ${dir}`).toEqual([...KINDS].sort());
    }
    // Every recorded transaction was mined.
    expect(T.transactions.filter((t) => t.minedIn === null).map((t) => t.label)).toEqual([]);
  });

  it('our node replays it: takes every Txrep and Blockrep of the reference, answers with the recorded bytes', async () => {
    const n: TestNode = await startNode(['--regtest', '--bind=127.0.0.1:0']);
    cleanups.push(async () => {
      await n.stop();
      await removeDir(n.dataDir);
    });
    const mempool = async () => ((await n.data('/transaction/mempool')) as { transaction: { hash: string } }[]).map((e) => e.transaction.hash);

    let peer: ReplayPeer;
    const pending = [...T.actions].sort((a, b) => a.t_ms - b.t_ms);
    const act = async (a: Action) => {
      if (a.kind === 'submitOurs') {
        const tx = T.transactions.find((t) => t.txHash === a.txHash)!;
        const r = await n.post('/transaction/add', tx.oursBody);
        expect(r.body.code, `${tx.label}: ${r.text}`).toBe(0);
        return;
      }
      // Our node mined this block once the reference's Txrep had brought it every transaction submitted
      // to the reference: they must be in its mempool now.
      const relayed = T.transactions.filter((t) => t.minedIn === a.height && t.submittedTo === 'ref').map((t) => t.txHash);
      await waitFor(
        `block ${a.height}: the reference's transactions in our mempool`,
        async () => {
          const m = await mempool();
          return relayed.every((h) => m.includes(h));
        },
        30_000,
      );
      const b = T.chain.blocks.find((x) => x.height === a.height)!;
      const r = await n.post('/chain/append', { height: b.height, header: b.header, body: b.body });
      expect(r.body.code, `our block ${b.height}: ${r.text}`).toBe(0);
      // The reference asked for the block once our node had announced it: so does the replay.
      await waitFor(
        `our announcement of block ${b.height}`,
        async () => peer.ours.some((m) => (m.kind === 'Append' || m.kind === 'Fork') && m.length >= b.height),
        30_000,
      );
    };
    const upTo = async (t: number) => {
      while (pending.length && pending[0].t_ms < t) await act(pending.shift()!);
    };

    const [host, port] = n.p2p!.split(':');
    const socket: Socket = connect({ host, port: Number(port) });
    await once(socket, 'connect');
    peer = new ReplayPeer(socket, true, { generation: '0.10', transcript: T as unknown as Transcript, before: (u) => upTo(u.t_ms) });
    cleanups.push(() => peer.stop());
    const t0 = Date.now();
    try {
      await peer.replay(UNITS);
    } catch (e) {
      // What our node had sent (kind, request range), to see where it left the recorded course.
      const seen = peer.ours.map(
        (m) => `${m.kind}${'first' in m ? ` ${m.first}-${m.last}` : 'start' in m ? ` ${m.start}+${m.count}` : 'height' in m ? ` @${m.height}` : ''}`,
      );
      throw new Error(`${(e as Error).message} after ${Date.now() - t0} ms; our node sent: ${seen.join(', ')}`);
    }
    await upTo(Infinity);
    await peer.settled();

    // Our node ends on the recorded chain: every block the reference sent was taken.
    const tip = T.chain.blocks[T.chain.blocks.length - 1];
    await waitFor('our node at the recorded tip', async () => (await n.data('/chain/head')).chainHead.hash === tip.hash, 30_000);
    for (const b of T.chain.blocks) expect(await n.data(`/chain/block/${b.height}/hash`), `block ${b.height}`).toBe(b.hash);
    // Our answers to the reference's requests are the recorded bytes (headers, probes, bodies, transactions).
    for (const code of [7, 9, 11, 31]) {
      const ours = peer.oursFrames.filter((f) => f.type === code).map((f) => toHex(encodeFrame(f.type, f.payload)));
      const recorded = UNITS.filter((u) => u.dir === 'ours→ref' && u.type.code === code).map((u) => u.hex);
      const brief = (hex: string) => {
        const m = decodeMessage(code, bin(hex).subarray(10));
        return JSON.stringify(m, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? `${v.length}B` : v)).slice(0, 300);
      };
      expect(ours.map(brief), `our frames of code ${code} (decoded)`).toEqual(recorded.map(brief));
      expect(ours, `our frames of code ${code}`).toEqual(recorded);
    }
    expect(peer.refusals, 'frames the reference refuses').toEqual([]);
    expect(peer.mismatches, 'requests of ours that differ from the recorded ones').toEqual([]);
    expect(peer.closed, 'the connection stays open').toBe(false);
  }, 400_000);
});
