// Connections (p2p.md §4): the TCP listener (IPv4; banned IPs refused; one inbound connection per
// IP per 30 s except loopback), the pinned outbound peers of `--connect` (or the seeds) with
// reconnect and backoff (§4.2), one registered connection per non-loopback IP, eviction of a random
// inbound peer at 200 connections (§4.3), and the offense record of every banning close (§4.4).
import { connect, createServer, isIPv4, type Server, type Socket } from 'node:net';
import { NodeError } from '../core/errors.js';
import type { NetworkName } from '../consensus/params.js';
import { BanList, isLoopback, triggersBan } from './bans.js';
import type { CloseReason } from './connection.js';
import { OUR_VERSION, versionText } from './dialect.js';
import type { PeerEndpoint } from './network.js';
import { Peer, type PeerHost } from './peer.js';
import { LIMIT } from './protocol.js';

const INBOUND_RATE_MS = 30_000;
const BACKOFF_START_MS = 200;
const BACKOFF_GROWS_BELOW_MS = 60_000;  // doubles while below 1 min: stops at 102.4 s (§4.2)
const DUPLICATE_DELAY_MS = 10 * 60_000;
const RECONNECT_MS = 500;              // after an established connection closed (reference: 0 s)
const CONNECT_TIMEOUT_MS = 10_000;

interface Target extends PeerEndpoint {
  timer: NodeJS.Timeout | null;
  backoffMs: number;
}

export interface ManagerLog { info(line: string): void; warn(line: string): void }

export interface ManagerOptions {
  network: NetworkName;
  connect: PeerEndpoint[];
  log: ManagerLog;
}

const plainIp = (ip: string | undefined): string => (ip ?? '').replace(/^::ffff:/, '');

export class PeerManager {
  readonly bans = new BanList();
  private readonly peers = new Set<Peer>();
  private readonly targets: Target[];
  private readonly recentInbound = new Map<string, number>();
  private readonly outbound = new Map<Peer, Target>();
  private server: Server | null = null;
  private listenPort = 0;
  private stopped = false;

  constructor(private readonly opts: ManagerOptions, private readonly host: PeerHost) {
    this.targets = opts.connect.map((e) => ({ ...e, timer: null, backoffMs: BACKOFF_START_MS }));
  }

  /** Listens on `bind` (port 0: any free port); returns the bound endpoint. */
  listen(bind: PeerEndpoint): Promise<PeerEndpoint> {
    return new Promise((resolve, reject) => {
      const server = createServer((s) => this.accept(s));
      server.once('error', reject);
      server.listen(bind.port, bind.host, () => {
        server.off('error', reject);
        server.on('error', (e) => this.opts.log.warn(`P2P listener: ${e.message}`));
        this.server = server;
        const a = server.address();
        this.listenPort = typeof a === 'object' && a ? a.port : bind.port;
        resolve({ host: bind.host, port: this.listenPort });
      });
    });
  }

  /** Starts dialling the pinned peers. */
  start(): void {
    for (const t of this.targets) this.dial(t);
  }

  /** Every connection whose handshake completed (our Init has been sent to it). */
  connected(): Peer[] { return [...this.peers].filter((p) => p.conn.ready); }

  /** Connections whose Init we received. */
  initialized(): Peer[] { return [...this.peers].filter((p) => p.initialized); }

  stop(): void {
    this.stopped = true;
    for (const t of this.targets) if (t.timer) clearTimeout(t.timer);
    this.server?.close();
    for (const p of this.peers) p.conn.close({ code: 0, name: 'ESHUTDOWN', detail: 'node shutting down' });
  }

  private accept(socket: Socket): void {
    const ip = plainIp(socket.remoteAddress);
    const now = Date.now();
    if (this.stopped || !isIPv4(ip)) return void socket.destroy(); // IPv4 only (§1.1)
    if (this.bans.isBanned(ip, now)) {
      this.opts.log.info(`Refused connection from banned ${ip} (EREFUSED)`);
      return void socket.destroy();
    }
    if (!isLoopback(ip)) {
      if ((this.recentInbound.get(ip) ?? 0) > now) return void socket.destroy(); // ECONNRATELIMIT
      for (const [k, until] of this.recentInbound) if (until <= now) this.recentInbound.delete(k);
      this.recentInbound.set(ip, now + INBOUND_RATE_MS);
    }
    this.open(socket, true, ip, socket.remotePort ?? 0, null);
  }

  private dial(t: Target): void {
    t.timer = null;
    if (this.stopped) return;
    const socket = connect({ host: t.host, port: t.port });
    let done = false;
    const failed = () => { if (done) return; done = true; socket.destroy(); this.retry(t); };
    socket.once('error', failed);
    socket.setTimeout(CONNECT_TIMEOUT_MS, failed);
    socket.once('connect', () => {
      if (done) return;
      done = true;
      socket.off('error', failed);
      socket.setTimeout(0);
      this.open(socket, false, t.host, t.port, t);
    });
  }

  private retry(t: Target): void {
    if (this.stopped) return;
    t.timer = setTimeout(() => this.dial(t), t.backoffMs);
    if (t.backoffMs < BACKOFF_GROWS_BELOW_MS) t.backoffMs *= 2;
  }

  private open(socket: Socket, inbound: boolean, host: string, port: number, target: Target | null): Peer {
    const opts = { inbound, network: this.opts.network, version: OUR_VERSION, listenPort: this.listenPort, host, port };
    const peer = new Peer(socket, opts, this.host, (p) => this.handshaken(p));
    this.peers.add(peer);
    if (target) this.outbound.set(peer, target);
    return peer;
  }

  /** Registration after the handshake: one connection per non-loopback IP, eviction at 200 (§4.3). */
  private handshaken(peer: Peer): void {
    const ip = plainIp(peer.conn.host);
    const others = this.connected().filter((p) => p !== peer);
    if (!isLoopback(ip) && others.some((p) => plainIp(p.conn.host) === ip)) {
      return peer.close(new NodeError('EDUPLICATECONNECTION'));
    }
    if (others.length >= LIMIT.maxConnections) {
      const inbound = others.filter((p) => p.conn.inbound);
      if (inbound.length) inbound[Math.floor(Math.random() * inbound.length)].close(new NodeError('EEVICTED'));
    }
    const v = peer.conn.peerVersion!;
    this.opts.log.info(`Connected ${peer.conn.inbound ? 'from' : 'to'} peer ${peer.address} (#${peer.id}, version ${versionText(v)})`);
  }

  /** Called by the host when a connection has closed: offense record, reconnect schedule. */
  peerClosed(peer: Peer, reason: CloseReason): void {
    this.peers.delete(peer);
    const target = this.outbound.get(peer) ?? null;
    this.outbound.delete(peer);
    const ip = plainIp(peer.conn.host);
    const wasReady = peer.conn.peerVersion !== null;
    if (triggersBan(reason.code)) {
      const banned = this.bans.record(ip, reason.code, reason.name, Date.now());
      this.opts.log.warn(`Peer ${peer.address} (#${peer.id}) closed: ${reason.detail} (${reason.name} ${reason.code}); offense recorded${banned ? ', banned for 20 min' : ''}`);
    } else if (wasReady && !this.stopped) {
      this.opts.log.info(`Peer ${peer.address} (#${peer.id}) disconnected: ${reason.detail} (${reason.name})`);
    }
    if (!target || this.stopped) return;
    if (!wasReady) return this.retry(target); // failed attempt: backoff
    target.backoffMs = BACKOFF_START_MS;
    const delay = reason.name === 'EDUPLICATECONNECTION' || reason.name === 'EEVICTED' ? DUPLICATE_DELAY_MS : RECONNECT_MS;
    target.timer = setTimeout(() => this.dial(target), delay);
  }
}
