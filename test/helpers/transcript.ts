// Replays the reference's side of a recorded wire transcript (test/vectors/p2p, README there)
// against our node, over a real loopback TCP connection.
//
// The reference's units are sent byte for byte, in recorded order and no earlier than their
// recorded time. A reference reply (Pong, Batchrep, Proberep, Blockrep, Txrep) waits for the
// request of ours it answers, which must ask what the recorded one asked; it then carries that
// request's nonce (the recorded reply echoed the recorded nonce; 0.8.20's LegacyTxrep keeps its own
// random one, as recorded). After the last recorded unit the peer goes on in the reference's manner
// (`emulate`): it answers pings, and header and block requests from the transcript's chain, with the
// body form that reference sends (0.10.3: bodies without length prefixes).
//
// Every frame our node sends is checked against what the recorded reference accepts: for 0.8.20 the
// probe table of mainnet.md §5.5 (a known code, no Txnotify entries, Init without flags, Blockreq
// of at most 30 blocks), for 0.10.3 its known codes without WebRTC. A refused frame is recorded in
// `refusals` and, like the reference, the peer closes the connection.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { fromHex as parseHex } from '../../ts/core/hex.js';
import { encodeFrame, FrameDecoder, type Frame } from '../../ts/p2p/framing.js';
import { decodeMessage, encodeMessage, type Message } from '../../ts/p2p/messages.js';
import { waitFor } from './peers.js';

export type Generation = '0.10' | '0.8';

/** The side a connection's other end played: the reference, or a peer the recording script scripted. */
export type Side = 'ref' | 'script';

export interface Unit {
  dir: 'ref→ours' | 'ours→ref' | 'script→ours' | 'ours→script';
  t_ms: number;
  type: { code: number | null; name: string };
  hex: string;
  decoded: any;
}

export interface Block {
  height: number;
  hash: string;
  header: string;
  body: string;
}

export interface Connection {
  connector: 'ours' | Side;
  acceptor: 'ours' | Side;
  /** The part of the recording it belongs to (mainnet-interop.mjs), e.g. "sync", "ref-longer". */
  phase?: string;
  messages: Unit[];
}

export interface Transcript {
  reference: string;
  scenario: string;
  /**
   * The network our node ran: "regtest-mainnet" (scripts/mainnet-interop.mjs); the older files
   * (--regtest) have an object here describing the wire (magic and ports).
   */
  network?: string | Record<string, unknown>;
  connections: Connection[];
  /**
   * `blocks`: the chain the messages came from. A reorg (mainnet-interop.mjs) keeps the common base
   * there (1..forkHeight) and each side's branch above it in `ours` and `ref`.
   */
  chain: { blocks: Block[]; forkHeight?: number; ours?: Block[]; ref?: Block[]; keys: Record<string, { address: string }> };
  transactions?: {
    submittedTo: string;
    txHash: string;
    pinHeight: number;
    nonceId: number;
    feeE8: number;
    toAddr: string;
    amountE8: number;
    signature65: string;
  }[];
  result: any;
}

export function loadTranscript(name: string): Transcript {
  return JSON.parse(readFileSync(join(import.meta.dirname, '../vectors/p2p', `${name}.json`), 'utf8'));
}

/** The network option our node ran the recording with. */
export function networkOf(t: Transcript): '--regtest' | '--regtest-mainnet' {
  return t.network === 'regtest-mainnet' ? '--regtest-mainnet' : '--regtest';
}

/** The side of `c` that is not our node. */
export const sideOf = (c: Connection): Side => (c.connector === 'ours' ? (c.acceptor as Side) : c.connector);

/** The request code each reply code answers. */
const ANSWERS: Record<number, number> = { 5: 4, 29: 28, 7: 6, 9: 8, 11: 10, 15: 14, 31: 14 };
/** Codes the reference knows, by generation (mainnet.md §5.1–5.2; p2p.md §2.2 without WebRTC 18–27). */
const KNOWN: Record<Generation, Set<number>> = {
  '0.8': new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16]),
  '0.10': new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 28, 29, 30, 31]),
};

/** Why the reference would refuse `f` (and close, banning), or null when it accepts it. */
export function refusal(generation: Generation, f: Frame): string | null {
  if (!KNOWN[generation].has(f.type)) return `code ${f.type} is unknown to ${generation} (EMSGTYPE)`;
  let m: Message;
  try {
    m = decodeMessage(f.type, f.payload);
  } catch (e) {
    return `code ${f.type} does not parse: ${(e as Error).message}`;
  }
  if (generation === '0.8') {
    if (m.kind === 'Txnotify' && m.txids.length > 0) return 'Txnotify with entries (0.8.20 cannot parse it: EMSGINTEGRITY)';
    if (m.kind === 'Init' && m.v3) return 'InitV3';
    if (m.kind === 'Blockreq' && m.last - m.first + 1 > 30) return `Blockreq for ${m.last - m.first + 1} blocks (EBLOCKRANGE)`;
  }
  return null;
}

const fromHex = (hex: string): Uint8Array => {
  const b = parseHex(hex);
  if (!b) throw new Error(`bad hex in the transcript: ${hex.slice(0, 20)}…`);
  return b;
};
/** Request codes and the codes that reply to them. */
const REQUESTS = new Set([6, 8, 10, 14]);
const REPLIES = new Set([7, 9, 11, 15, 31]);

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};
const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};

export interface ReplayOptions {
  generation: Generation;
  transcript: Transcript;
  /** Called before a reference unit is sent (a test submits a transaction there, say). */
  before?: (unit: Unit) => Promise<void>;
  /** The side replayed (default the reference). */
  side?: Side;
  /** The chain the emulated peer answers from (default the transcript's `chain.blocks`). */
  blocks?: Block[];
}

/** The reference's side of one recorded connection, on `socket` (connected to our node either way). */
export class ReplayPeer {
  /** Our node's frames, decoded, in arrival order. */
  readonly ours: Message[] = [];
  readonly oursFrames: Frame[] = [];
  readonly refusals: string[] = [];
  /** Recorded request/our request pairs that differed (the reply could not be replayed). */
  readonly mismatches: string[] = [];
  closed = false;
  /** Requests the replayed reference sent (each one our node must answer). */
  private requestsSent = 0;
  private handshakeBytes = new Uint8Array(0);
  private decoder: FrameDecoder | null = null;
  private answered = new Set<number>(); // indexes into oursFrames already answered
  private readonly start = Date.now();
  private stopped = false;

  constructor(
    readonly socket: Socket,
    private readonly refIsConnector: boolean,
    private readonly opts: ReplayOptions,
  ) {
    socket.on('data', (d) => this.receive(new Uint8Array(d)));
    socket.on('close', () => {
      this.closed = true;
    });
    socket.on('error', () => {});
  }

  /** Replays the recorded units of `connection` (ref→ours), then emulates until stop(). */
  async replay(units: Unit[]): Promise<void> {
    const side = this.opts.side ?? 'ref';
    const recordedOurs = units.filter((u) => u.dir === `ours→${side}` && u.type.code !== null);
    for (const u of units) {
      if (u.dir !== `${side}→ours` || this.stopped || this.closed) continue;
      await this.opts.before?.(u);
      const bytes = fromHex(u.hex);
      if (u.type.code === null) {
        // handshake units
        if (!this.refIsConnector) await waitFor('our hello', async () => this.handshakeBytes.length >= 24, 15_000);
        else if (u.type.name.startsWith('HandshakeAck')) await waitFor('our handshake reply', async () => this.handshakeBytes.length >= 22, 15_000);
        this.socket.write(bytes);
        if (!this.refIsConnector && u.type.name.startsWith('HandshakeReply')) {
          await waitFor('our ack', async () => this.handshakeBytes.length >= 25, 15_000);
        }
        if (u.type.name.startsWith('HandshakeAck') || (!this.refIsConnector && u.type.name.startsWith('HandshakeReply'))) this.startFrames();
        continue;
      }
      const wait = u.t_ms - (Date.now() - this.start);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      // A connector before 0.9 (0.8.20) may send its Init before its ack byte (handshake.ts
      // AckStream), but after our reply: so does the replay.
      if (this.refIsConnector && !this.decoder) await waitFor('our handshake reply', async () => this.handshakeBytes.length >= 22, 15_000);
      const code = u.type.code;
      const requestCode = ANSWERS[code];
      if (requestCode === undefined) {
        if (REQUESTS.has(code)) this.requestsSent++;
        this.socket.write(bytes);
        continue;
      }
      // A reply: to our next unanswered request of that kind, which must ask what the recorded one asked.
      const i =
        (await waitFor(
          `our request (code ${requestCode}) answered by the recorded ${u.type.name}`,
          async () => {
            const j = this.oursFrames.findIndex((f, k) => f.type === requestCode && !this.answered.has(k));
            return j >= 0 ? j + 1 : null;
          },
          30_000,
        )) - 1;
      this.answered.add(i);
      const recordedRequest = recordedOurs.filter(
        (r) => r.type.code === requestCode && (u.decoded?.nonce === undefined || r.decoded?.nonce === u.decoded.nonce),
      )[0];
      const differs = recordedRequest ? requestDifference(decodeMessage(requestCode, fromHex(recordedRequest.hex).subarray(10)), this.ours[i]) : null;
      if (differs) {
        this.mismatches.push(`${u.type.name}: ${differs}`);
        this.answer(this.ours[i]);
        continue;
      }
      const payload = bytes.slice(10);
      if (!(this.opts.generation === '0.8' && code === 15)) payload.set(this.oursFrames[i].payload.subarray(0, 4), 0);
      this.socket.write(encodeFrame(code, payload));
    }
  }

  /** Waits until our node has answered every request the replayed reference sent. */
  async settled(): Promise<void> {
    await waitFor(
      "our replies to the reference's requests",
      async () => this.closed || this.oursFrames.filter((f) => REPLIES.has(f.type)).length >= this.requestsSent,
      20_000,
    );
  }

  /** Emulates the reference after the recording: answers what our node asks, from the transcript's chain. */
  emulate(): void {
    const tick = setInterval(() => {
      if (this.stopped || this.closed) return void clearInterval(tick);
      this.oursFrames.forEach((f, k) => {
        if (this.answered.has(k) || ![4, 28, 6, 10].includes(f.type)) return;
        this.answered.add(k);
        this.answer(this.ours[k]);
      });
    }, 50);
  }

  stop(): void {
    this.stopped = true;
    this.socket.destroy();
  }

  private answer(m: Message): void {
    const blocks = this.opts.blocks ?? this.opts.transcript.chain.blocks;
    const byHeight = (h: number) => blocks.find((b) => b.height === h)!;
    if (m.kind === 'Ping') return this.sendMessage({ kind: 'Pong', v2: m.v2, nonce: m.nonce, addresses: [], txids: [] });
    if (m.kind === 'Batchreq') {
      const headers = [];
      for (let h = m.start; h < m.start + m.count && byHeight(h); h++) headers.push(fromHex(byHeight(h).header));
      return this.sendMessage({ kind: 'Batchrep', nonce: m.nonce, headers });
    }
    if (m.kind === 'Blockreq') {
      const bodies = [];
      for (let h = m.first; h <= m.last; h++) bodies.push(fromHex(byHeight(h).body));
      // 0.10.3 sends the bodies without their length prefixes (p2p.md §8 item 2); 0.8.20 with them.
      const payload =
        this.opts.generation === '0.10' ? concat([u32(m.nonce), ...bodies]) : concat([u32(m.nonce), ...bodies.flatMap((b) => [u32(b.length), b])]);
      this.socket.write(encodeFrame(11, payload));
    }
  }

  private sendMessage(m: Message): void {
    const { type, payload } = encodeMessage(m);
    this.socket.write(encodeFrame(type, payload));
  }

  private startFrames(): void {
    this.decoder = new FrameDecoder();
    const rest = this.handshakeBytes.subarray(this.refIsConnector ? 22 : 25);
    if (rest.length) this.frames(rest);
  }

  private receive(d: Uint8Array): void {
    if (!this.decoder) {
      this.handshakeBytes = concat([this.handshakeBytes, d]);
      return;
    }
    this.frames(d);
  }

  private frames(d: Uint8Array): void {
    let frames: Frame[];
    try {
      frames = this.decoder!.push(d);
    } catch (e) {
      this.refusals.push(`unframeable bytes: ${(e as Error).message}`);
      return this.stop();
    }
    for (const f of frames) {
      const why = refusal(this.opts.generation, f);
      if (why) {
        this.refusals.push(why);
        return this.stop();
      }
      this.oursFrames.push(f);
      this.ours.push(decodeMessage(f.type, f.payload));
    }
  }
}

/** What differs between a recorded request of ours and the one our node sent now (nonces aside). */
function requestDifference(recorded: Message, now: Message): string | null {
  const strip = (m: Message) =>
    JSON.stringify({ ...m, nonce: 0 }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v));
  const a = strip(recorded),
    b = strip(now);
  return a === b ? null : `recorded ${a}, now ${b}`;
}
