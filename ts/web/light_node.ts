// A light node: connects to one full node as a P2P peer over WebSocket (clients.md §6.3), downloads
// the header chain with Batchreq (p2p.md §2.4) from genesis, or on mainnet from the checkpoint
// (consensus.md §5.5; light_chain.ts anchored) once the node's chain reaches it, verifies every header with the node's
// own consensus code (light_chain.ts), and follows Append, Fork and SignedPinRollback live (§3.1).
// It announces an empty chain and serves nothing; it answers pings so the connection stays up.
// Transport-blind: any object with the browser WebSocket interface (the page's, or `ws` in tests).
import { NodeError } from '../core/errors.js';
import type { NetworkName, NetworkParams } from '../consensus/params.js';
import { OUR_VERSION } from '../p2p/dialect.js';
import { NO_PRIORITY } from '../p2p/elements.js';
import { encodeFrame, FrameDecoder } from '../p2p/framing.js';
import { Handshake } from '../p2p/handshake.js';
import { decodeMessage, encodeMessage, type Message } from '../p2p/messages.js';
import { BATCH_SIZE } from '../p2p/protocol.js';
import { anchorStart, LightChain } from './light_chain.js';
import { checkpointOf, type Checkpoint } from '../consensus/checkpoint.js';

/** The part of the browser WebSocket interface the light node uses. */
export interface WebSocketLike {
  binaryType: string;
  send(data: Uint8Array): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface LightStatus {
  /** Headers verified, i.e. the height of the verified tip. */
  verified: number;
  verifiedHash: string | null;
  /** Total work of the verified chain (hex, no prefix). */
  worksum: string;
  /** The length the peer announced. */
  peerLength: number;
  /** Headers verified per second since the download started (0 before). */
  headersPerSecond: number;
  /** Reorgs seen: the height the chain was cut back to each time. */
  reorgs: number[];
  /** Why the peer's chain was refused or the connection ended; null while all is well. */
  error: string | null;
  connected: boolean;
  /** The checkpoint height verification started from, or null (from genesis). */
  anchor: number | null;
}

export interface LightNodeOptions {
  network: NetworkName;
  params: NetworkParams;
  socket: WebSocketLike;
  /** Called after every change of the status. */
  onStatus?(s: LightStatus): void;
  /** Unix seconds, for the "not too far in the future" rule; default the local clock. */
  now?(): number;
  /** Milliseconds; default performance.now. */
  clock?(): number;
  /** Where to start instead of genesis once the peer's chain reaches it; default the network's checkpoint. */
  checkpoint?: Checkpoint | null;
}

export class LightNode {
  chain: LightChain;
  private readonly checkpoint: Checkpoint | null;
  /** The headers before the checkpoint being collected (anchorStart … checkpoint), or null. */
  private anchoring: Uint8Array[] | null = null;
  private readonly handshake: Handshake;
  private readonly decoder = new FrameDecoder();
  private descriptor = 0;
  private peerLength = 0;
  private peerWorksum = 0n;
  private inFlight: { nonce: number; descriptor: number; start: number } | null = null;
  private nextNonce = 1;
  private started: { at: number; height: number } | null = null;
  private lastRate = 0;
  private readonly reorgs: number[] = [];
  private error: string | null = null;
  private connected = false;
  private readonly now: () => number;
  private readonly clock: () => number;

  constructor(private readonly opts: LightNodeOptions) {
    this.chain = new LightChain(opts.params);
    this.checkpoint = opts.checkpoint === undefined ? checkpointOf(opts.params) : opts.checkpoint;
    this.now = opts.now ?? (() => Math.floor(Date.now() / 1000));
    this.clock = opts.clock ?? (() => performance.now());
    this.handshake = new Handshake(opts.network, true, OUR_VERSION, 0);
    const ws = opts.socket;
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => {
      this.connected = true;
      this.write(this.handshake.start()!);
      this.changed();
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = () => {
      this.connected = false;
      this.error ??= 'connection closed by the node';
      this.changed();
    };
    ws.onerror = () => {
      this.error ??= 'WebSocket error';
      this.changed();
    };
  }

  status(): LightStatus {
    const h = this.chain.length;
    return {
      verified: h,
      verifiedHash: h === 0 ? null : this.chain.hashAt(h),
      worksum: this.chain.worksum.toString(16),
      peerLength: this.peerLength,
      headersPerSecond: this.lastRate,
      reorgs: [...this.reorgs],
      error: this.error,
      connected: this.connected,
      anchor: this.chain.anchor,
    };
  }

  close(): void {
    this.opts.socket.close();
  }

  private changed(): void {
    this.opts.onStatus?.(this.status());
  }

  private write(bytes: Uint8Array): void {
    this.opts.socket.send(bytes);
  }

  private send(m: Message): void {
    const { type, payload } = encodeMessage(m);
    this.write(encodeFrame(type, payload));
  }

  private receive(data: unknown): void {
    if (this.error) return;
    try {
      let chunk = data instanceof ArrayBuffer ? new Uint8Array(data) : data instanceof Uint8Array ? data : null;
      if (!chunk) throw new NodeError('EMSGTYPE', 'text frame on a binary P2P connection');
      if (!this.handshake.done) {
        const step = this.handshake.feed(chunk);
        if (step.send) this.write(step.send);
        if (!step.done) return;
        chunk = step.rest;
        this.send({ kind: 'Init', v3: true, descriptor: 0, priority: NO_PRIORITY, length: 0, worksum: 0n, grid: [], flags: 0 });
      }
      for (const f of this.decoder.push(chunk)) this.handle(decodeMessage(f.type, f.payload));
    } catch (e) {
      this.fail(e instanceof NodeError ? `${e.errorName}: ${e.message}` : String(e));
    }
  }

  private handle(m: Message): void {
    switch (m.kind) {
      case 'Init':
        this.descriptor = m.descriptor;
        this.announced(m.length, m.worksum);
        break;
      case 'Append':
        this.announced(m.length, m.worksum);
        break;
      case 'Fork':
        this.descriptor = m.descriptor;
        this.cut(m.forkHeight - 1);
        this.announced(m.length, m.worksum);
        break;
      case 'SignedPinRollback':
        this.descriptor = m.descriptor;
        this.cut(m.length);
        this.announced(m.length, m.worksum);
        break;
      case 'Ping':
        this.send({ kind: 'Pong', v2: m.v2, nonce: m.nonce, addresses: [], txids: [] });
        break;
      case 'Batchrep':
        this.batch(m.nonce, m.headers);
        break;
      default:
        break; // transactions, leaders, requests: a light node neither relays nor serves
    }
  }

  private announced(length: number, worksum: bigint): void {
    this.peerLength = length;
    this.peerWorksum = worksum;
    this.request();
    this.changed();
  }

  /** Keeps heights 1..height; an answer still in flight describes the old branch and is dropped. */
  private cut(height: number): void {
    if (height < this.chain.length) {
      try {
        this.chain.truncate(height);
      } catch (e) {
        return this.fail(e instanceof NodeError ? `${e.errorName}: ${e.message}` : String(e));
      }
      this.reorgs.push(height);
    }
    this.inFlight = null;
    this.anchoring = null;
  }

  private request(): void {
    if (this.inFlight || this.error) return;
    const c = this.checkpoint;
    if (c && this.chain.length === 0 && !this.chain.anchor && this.peerLength >= c.height) this.anchoring ??= [];
    if (this.anchoring) {
      const start = anchorStart(c!) + this.anchoring.length;
      const nonce = this.nextNonce++;
      this.inFlight = { nonce, descriptor: this.descriptor, start };
      this.send({ kind: 'Batchreq', nonce, descriptor: this.descriptor, start, count: Math.min(BATCH_SIZE, c!.height - start + 1) });
      return;
    }
    const start = this.chain.length + 1;
    if (start > this.peerLength) return this.checkWork();
    this.started ??= { at: this.clock(), height: this.chain.length };
    const count = Math.min(BATCH_SIZE, this.peerLength - this.chain.length);
    const nonce = this.nextNonce++;
    this.inFlight = { nonce, descriptor: this.descriptor, start };
    this.send({ kind: 'Batchreq', nonce, descriptor: this.descriptor, start, count });
  }

  private batch(nonce: number, headers: Uint8Array[]): void {
    const req = this.inFlight;
    if (!req || req.nonce !== nonce) return; // the answer to a request a Fork made obsolete
    this.inFlight = null;
    if (this.anchoring) return this.anchorBatch(req, headers);
    if (req.descriptor !== this.descriptor || req.start !== this.chain.length + 1) return this.request();
    if (headers.length === 0) return this.fail(`the node returned no headers from height ${req.start}`);
    const now = this.now();
    for (const raw of headers) {
      const height = this.chain.length + 1;
      try {
        this.chain.append(raw, now);
      } catch (e) {
        const why = e instanceof NodeError ? `${e.errorName}${e.message && e.message !== e.errorName ? `: ${e.message}` : ''}` : String(e);
        return this.fail(`header ${height} refused (${why})`);
      }
    }
    if (this.started) {
      const s = (this.clock() - this.started.at) / 1000;
      if (s > 0) this.lastRate = Math.round((this.chain.length - this.started.height) / s);
    }
    this.request();
    this.changed();
  }

  /** Headers before the checkpoint; once all are in, the chain starts at the checkpoint. */
  private anchorBatch(req: { descriptor: number; start: number }, headers: Uint8Array[]): void {
    const c = this.checkpoint!,
      got = this.anchoring!;
    if (req.descriptor !== this.descriptor || req.start !== anchorStart(c) + got.length) return this.request();
    if (headers.length === 0) return this.fail(`the node returned no headers from height ${req.start}`);
    got.push(...headers);
    if (anchorStart(c) + got.length > c.height) {
      try {
        this.chain = LightChain.anchored(this.opts.params, c, got);
      } catch (e) {
        return this.fail(`checkpoint refused (${e instanceof NodeError ? `${e.errorName}: ${e.message}` : String(e)})`);
      }
      this.anchoring = null;
    }
    this.request();
    this.changed();
  }

  /**
   * At the announced tip, the verified work must be what the node claimed (p2p.md §3.3, EFAKEWORK).
   * From a checkpoint the work before it is unknown: nothing to compare.
   */
  private checkWork(): void {
    if (this.chain.anchor) return;
    if (this.chain.length === this.peerLength && this.peerLength > 0 && this.chain.worksum < this.peerWorksum) {
      this.fail(`the node claimed more work than its headers have (EFAKEWORK)`);
    }
  }

  private fail(why: string): void {
    if (this.error) return;
    this.error = why;
    this.opts.socket.close();
    this.changed();
  }
}
