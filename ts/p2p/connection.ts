// One TCP connection (p2p.md §1): the grunt handshake within 5 s, then framed messages both ways,
// and a bounded send queue (more than 3,000,000 bytes waiting: EBUFFERFULL). It knows nothing of
// message meaning: complete frames go to `handlers.frame`; a NodeError thrown there (or by the
// handshake or the frame checks) closes the connection with that error.
import { NodeError } from '../core/errors.js';
import type { NetworkName } from '../consensus/params.js';
import type { NodeVersion } from './dialect.js';
import { FrameDecoder, encodeFrame, type Frame } from './framing.js';
import { AckStream, Handshake } from './handshake.js';
import { SEND_QUEUE_LIMIT, TIMER } from './protocol.js';
import type { PeerSocket, TransportKind } from './transport/socket.js';

/** Why a connection ended: an error of the table (code > 0), a network error (< 0) or a normal close (0). */
export interface CloseReason {
  code: number;
  name: string;
  detail: string;
}

export const closeReason = (e: NodeError): CloseReason => ({ code: e.code, name: e.errorName, detail: e.message });

export interface ConnectionHandlers {
  ready(c: Connection): void;
  frame(c: Connection, f: Frame): void;
  closed(c: Connection, reason: CloseReason): void;
}

export interface ConnectionOptions {
  inbound: boolean;
  network: NetworkName;
  version: number;
  /** Our P2P listen port, announced to acceptors. */
  listenPort: number;
  /** The address dialled (outbound) or seen (inbound). */
  host: string;
  port: number;
  /** TCP, or WebSocket (whose peers get no addresses in pongs and give none, p2p.md §2.4). Default tcp. */
  transport?: TransportKind;
  /** Counts bytes received and sent (transmission statistics, §4.5). */
  count?(c: Connection, rx: number, tx: number): void;
}

let nextId = 1;

/**
 * Across all connections (beyond the reference; README "Peer budgets"): bytes queued for sending
 * and bytes of frames being received. When a total passes 64 MB, a connection holding more than
 * 256 KB of it is closed (EBUFFERFULL for a peer that does not read, EMSGFLOOD for one whose frames
 * stall half-sent), so the total stays bounded whatever the number of peers.
 */
const TOTAL_BUFFERED = 64_000_000;
const BUFFER_SHARE = 256_000;
const openConnections = new Set<Connection>();
const sum = (f: (c: Connection) => number): number => {
  let n = 0;
  for (const c of openConnections) n += f(c);
  return n;
};

export class Connection {
  /** Process-wide id, counting from 1 (§1.6). */
  readonly id = nextId++;
  readonly since = Date.now();
  readonly inbound: boolean;
  readonly transport: TransportKind;
  readonly host: string;
  readonly port: number;
  peerVersion: NodeVersion | null = null;
  /** The listen port an inbound peer claimed in its handshake. */
  peerListenPort: number | null = null;
  rxBytes = 0;
  txBytes = 0;
  private readonly handshake: Handshake;
  /** Inbound: the stream until the connector's ack byte is found (handshake.ts AckStream). */
  private ackStream: AckStream | null = null;
  private readonly decoder = new FrameDecoder();
  private handshakeTimer: NodeJS.Timeout | null;
  private isClosed = false;
  private readonly count: (rx: number, tx: number) => void;

  constructor(
    private readonly socket: PeerSocket,
    opts: ConnectionOptions,
    private readonly handlers: ConnectionHandlers,
  ) {
    this.count = (rx, tx) => opts.count?.(this, rx, tx);
    this.inbound = opts.inbound;
    this.transport = opts.transport ?? 'tcp';
    this.host = opts.host;
    this.port = opts.port;
    this.handshake = new Handshake(opts.network, !opts.inbound, opts.version, opts.listenPort);
    socket.setNoDelay?.(true);
    this.handshakeTimer = setTimeout(() => this.close(new NodeError('ETIMEOUT', 'handshake not completed within 5 s')), TIMER.handshake);
    socket.on('data', (chunk: Buffer) => this.receive(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)));
    socket.on('error', (e: Error) => this.close({ code: -1, name: (e as NodeJS.ErrnoException).code ?? 'ESOCKET', detail: e.message }));
    socket.on('close', () => this.close({ code: -1, name: 'EOF', detail: 'closed by the peer' }));
    openConnections.add(this);
    const hello = this.handshake.start();
    if (hello) this.write(hello);
  }

  get closed(): boolean {
    return this.isClosed;
  }
  get ready(): boolean {
    return this.handshake.done && !this.isClosed;
  }
  /** The type code of the frame being received now, or null between frames. */
  get receivingType(): number | null {
    return this.decoder.partialType;
  }
  get address(): string {
    return `${this.host}:${this.port}`;
  }
  /** The peer's listen address: the dialled one, or the IP and the port an inbound peer claimed. */
  /** The port the peer listens on: the one dialled, or the one an inbound peer claimed. */
  get listenPort(): number {
    return this.inbound ? (this.handshake.peerListenPort ?? this.port) : this.port;
  }
  get listenAddress(): string {
    return `${this.host}:${this.listenPort}`;
  }

  /** Frames and queues a message; closes with EBUFFERFULL when the peer does not read (§1.5). */
  send(type: number, payload: Uint8Array): void {
    if (this.isClosed) return;
    this.write(encodeFrame(type, payload));
    const queued = this.socket.writableLength;
    if (queued > SEND_QUEUE_LIMIT) this.close(new NodeError('EBUFFERFULL', `${queued} bytes queued`));
    else if (queued > BUFFER_SHARE && sum((c) => c.socket.writableLength) > TOTAL_BUFFERED)
      this.close(new NodeError('EBUFFERFULL', `${queued} bytes queued while all peers' queues exceed 64 MB`));
  }

  close(reason: NodeError | CloseReason): void {
    if (this.isClosed) return;
    this.isClosed = true;
    openConnections.delete(this);
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    this.socket.destroy();
    this.handlers.closed(this, reason instanceof NodeError ? closeReason(reason) : reason);
  }

  private write(bytes: Uint8Array): void {
    this.txBytes += bytes.length;
    this.count(0, bytes.length);
    this.socket.write(bytes);
  }

  private receive(chunk: Uint8Array): void {
    if (this.isClosed) return;
    this.rxBytes += chunk.length;
    try {
      let data = chunk;
      if (!this.handshake.done) {
        const acking = this.handshake.awaitingAck;
        const step = this.handshake.feed(chunk);
        if (step.send) this.write(step.send);
        this.count(chunk.length - step.rest.length, 0);
        if (!step.done) return;
        clearTimeout(this.handshakeTimer!);
        this.handshakeTimer = null;
        this.peerVersion = this.handshake.peerVersion;
        this.peerListenPort = this.handshake.peerListenPort;
        this.handlers.ready(this);
        data = step.rest;
        // From a connector before 0.9, the byte taken for the ack (the chunk's first) may be the
        // start of its Init (handshake.ts AckStream); 0.9 and later write the ack first.
        const racy = acking && this.peerVersion!.major === 0 && this.peerVersion!.minor < 9;
        if (racy) this.ackStream = new AckStream();
        this.count(data.length, 0);
        if (racy) data = chunk;
      } else this.count(data.length, 0);
      if (this.ackStream) {
        data = this.ackStream.push(data);
        if (this.ackStream.acked) this.ackStream = null;
      }
      for (const f of this.decoder.push(data)) {
        if (this.isClosed) return;
        this.handlers.frame(this, f);
      }
      const partial = this.decoder.pendingBytes;
      if (partial > BUFFER_SHARE && sum((c) => c.decoder.pendingBytes) > TOTAL_BUFFERED)
        throw new NodeError('EMSGFLOOD', `${partial} bytes of an unfinished frame while all peers' exceed 64 MB`);
    } catch (e) {
      if (e instanceof NodeError) this.close(e);
      else this.close({ code: 2000, name: 'EBUG', detail: String((e as Error)?.stack ?? e) });
    }
  }
}
