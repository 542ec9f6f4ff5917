// Connections (p2p.md §4): the TCP listener (IPv4; banned IPs refused; one inbound connection per
// IP per 30 s except loopback), outbound connections from the connection schedule (§4.2: the pinned
// `--connect` peers, the stored address book, addresses learned from pongs and from inbound peers'
// claimed listen ports), one registered connection per non-loopback IP, eviction of a random
// inbound peer at 200 connections (§4.3), the offense record of every banning close (§4.4) and the
// transmission statistics (§4.5).
import { connect, createServer, isIPv4, type Server, type Socket } from 'node:net';
import type { PeerSocket, TransportKind } from './transport/socket.js';
import { NodeError } from '../core/errors.js';
import type { NetworkName } from '../consensus/params.js';
import { BanList, isLoopback, triggersBan } from './bans.js';
import type { CloseReason } from './connection.js';
import { OUR_VERSION, versionText } from './dialect.js';
import type { PeerAddress } from './elements.js';
import type { PeerEndpoint } from './network.js';
import { Peer, type PeerHost } from './peer.js';
import type { PeerDb } from './peer_db.js';
import { LIMIT } from './protocol.js';
import { ConnectionSchedule, type ScheduleEntry } from './schedule.js';
import { TransmissionStats } from './transmission.js';

const INBOUND_RATE_MS = 30_000;
const CONNECT_TIMEOUT_MS = 10_000;

export interface ManagerLog {
  info(line: string): void;
  warn(line: string): void;
}

export interface ManagerOptions {
  network: NetworkName;
  connect: PeerEndpoint[];
  log: ManagerLog;
  /** The peers' records; null: in memory only. */
  db?: PeerDb | null;
  /** Ban misbehaving loopback peers too (tests of bans on one machine). */
  banLoopback?: boolean;
}

/** A peer joined (after its handshake) or left; what the `connection` stream topic reports. */
export type PeerEvent = { kind: 'connected'; peer: Peer } | { kind: 'closed'; peer: Peer };

const plainIp = (ip: string | undefined): string => (ip ?? '').replace(/^::ffff:/, '');

export class PeerManager {
  readonly bans: BanList;
  readonly schedule: ConnectionSchedule;
  readonly transmission: TransmissionStats;
  private readonly peers = new Set<Peer>();
  private readonly recentInbound = new Map<string, number>();
  private readonly outbound = new Map<Peer, ScheduleEntry>();
  private server: Server | null = null;
  private listenHost = '';
  private listenPort = 0;
  private stopped = false;
  private readonly announced = new Set<Peer>();
  private readonly peerListeners: ((e: PeerEvent) => void)[] = [];

  constructor(
    private readonly opts: ManagerOptions,
    private readonly host: PeerHost,
  ) {
    const db = opts.db ?? null;
    this.bans = new BanList(db, opts.banLoopback ?? false);
    this.schedule = new ConnectionSchedule((e) => this.dial(e), db);
    this.transmission = new TransmissionStats(db);
  }

  /** Called when a peer is registered after its handshake, and when a registered peer closes. */
  onPeer(listener: (e: PeerEvent) => void): void {
    this.peerListeners.push(listener);
  }

  /** The peers reported as connected to `onPeer` listeners and not yet as closed. */
  registered(): Peer[] {
    return [...this.announced];
  }

  private notify(e: PeerEvent): void {
    for (const l of this.peerListeners) l(e);
  }

  /** Loads bans, offenses, the address book and the transmission buckets; adds the pinned peers. */
  async load(): Promise<void> {
    await this.bans.load();
    await this.schedule.load();
    await this.transmission.load();
    for (const e of this.opts.connect) this.schedule.add(e, true);
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
        this.listenHost = bind.host;
        this.listenPort = typeof a === 'object' && a ? a.port : bind.port;
        resolve({ host: bind.host, port: this.listenPort });
      });
    });
  }

  /** Starts dialling the scheduled peers. */
  start(): void {
    this.schedule.start();
  }

  /** Every connection, initialised or not (`/peers/connected/connection`). */
  all(): Peer[] {
    return [...this.peers];
  }

  /** Every connection whose handshake completed (our Init has been sent to it). */
  connected(): Peer[] {
    return [...this.peers].filter((p) => p.conn.ready);
  }

  /** Connections whose Init we received. */
  initialized(): Peer[] {
    return [...this.peers].filter((p) => p.initialized);
  }

  byId(id: number): Peer | undefined {
    return [...this.peers].find((p) => p.id === id);
  }

  /**
   * Up to `n` verified addresses, sampled uniformly (§4.1); never the asking peer's own address
   * (the reference dials what it is given, itself included): no address at its IP, or on loopback,
   * where many nodes share one IP, not its listen address.
   */
  sampleVerified(n: number, asking?: Peer): PeerAddress[] {
    const own = asking ? plainIp(asking.conn.host) : null;
    const ownPort = asking?.conn.listenPort;
    const all = this.schedule.verified().filter((e) => isIPv4(e.host) && !(e.host === own && (!isLoopback(e.host) || e.port === ownPort)));
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [all[i], all[j]] = [all[j], all[i]];
    }
    return all.slice(0, n).map((e) => ({ ip: e.host, port: e.port }));
  }

  /** A new candidate address (pong gossip, an inbound peer's listen address) becomes a feeler (§4.1). */
  learn(a: PeerAddress): void {
    if (this.stopped || a.port === 0 || !isIPv4(a.ip)) return;
    const self = a.port === this.listenPort && (isLoopback(a.ip) || a.ip === this.listenHost || this.listenHost === '0.0.0.0');
    if (!self) this.schedule.add({ host: a.ip, port: a.port }, false);
  }

  /**
   * A ping we sent on another connection arrived on `peer`: the two are the ends of one
   * connection to ourselves. Both close (no offense), and the address dialled is never dialled again.
   */
  selfConnection(peer: Peer, nonce: number): boolean {
    const twin = [...this.peers].find((p) => p !== peer && p.pingNonce === nonce);
    if (!twin) return false;
    for (const p of [peer, twin]) {
      const target = this.outbound.get(p);
      if (!target) continue;
      this.schedule.forgetSelf(target);
      this.opts.log.info(`${target.address} is this node itself: closed, and not dialled again`);
    }
    for (const p of [peer, twin]) p.close(new NodeError('EDUPLICATECONNECTION', 'a connection to ourselves'));
    return true;
  }

  stop(): void {
    this.stopped = true;
    this.schedule.stop();
    this.server?.close();
    for (const p of this.peers) p.conn.close({ code: 0, name: 'ESHUTDOWN', detail: 'node shutting down' });
    this.transmission.flush();
  }

  private accept(socket: Socket): void {
    this.admit(socket, plainIp(socket.remoteAddress), socket.remotePort ?? 0, 'tcp');
  }

  /** An upgraded WebSocket connection (`--ws-port`): the same admission rules as TCP. */
  acceptWebSocket(socket: PeerSocket, ip: string, port: number): void {
    this.admit(socket, plainIp(ip), port, 'ws');
  }

  private admit(socket: PeerSocket, ip: string, port: number, transport: TransportKind): void {
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
    this.open(socket, true, ip, port, null, transport);
  }

  private dial(e: ScheduleEntry): void {
    if (this.stopped) return;
    const socket = connect({ host: e.host, port: e.port });
    let done = false;
    const failed = (err?: Error) => {
      if (done) return;
      done = true;
      socket.destroy();
      this.schedule.failed(e, (err as NodeJS.ErrnoException | undefined)?.code ?? 'ETIMEOUT');
    };
    socket.once('error', failed);
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => failed());
    socket.once('connect', () => {
      if (done) return;
      done = true;
      socket.off('error', failed);
      socket.setTimeout(0);
      this.open(socket, false, e.host, e.port, e);
    });
  }

  private open(socket: PeerSocket, inbound: boolean, host: string, port: number, target: ScheduleEntry | null, transport: TransportKind = 'tcp'): Peer {
    const opts = {
      inbound,
      transport,
      network: this.opts.network,
      version: OUR_VERSION,
      listenPort: this.listenPort,
      host,
      port,
      count: (c: { host: string }, rx: number, tx: number) => this.transmission.count(plainIp(c.host), rx, tx),
    };
    const peer = new Peer(socket, opts, this.host, (p) => this.handshaken(p));
    this.peers.add(peer);
    if (target) this.outbound.set(peer, target);
    return peer;
  }

  /** Registration after the handshake: one connection per non-loopback IP, eviction at 200 (§4.3). */
  private handshaken(peer: Peer): void {
    const ip = plainIp(peer.conn.host);
    const target = this.outbound.get(peer);
    if (target)
      this.schedule.connected(target); // verified, even if dropped as a duplicate (§4.1)
    else if (peer.conn.peerListenPort && peer.conn.transport === 'tcp') this.learn({ ip, port: peer.conn.peerListenPort });
    const loser = this.mutualDial(peer);
    if (loser === peer) return;
    const others = this.connected().filter((p) => p !== peer && p !== loser);
    if (!isLoopback(ip) && others.some((p) => plainIp(p.conn.host) === ip)) {
      return peer.close(new NodeError('EDUPLICATECONNECTION'));
    }
    if (others.length >= LIMIT.maxConnections) {
      const inbound = others.filter((p) => p.conn.inbound);
      if (inbound.length) inbound[Math.floor(Math.random() * inbound.length)].close(new NodeError('EEVICTED'));
    }
    const v = peer.conn.peerVersion!;
    this.opts.log.info(`Connected ${peer.conn.inbound ? 'from' : 'to'} peer ${peer.address} (#${peer.id}, version ${versionText(v)})`);
    this.announced.add(peer);
    this.notify({ kind: 'connected', peer });
  }

  /**
   * Two nodes that dialled each other hold two connections: the one dialled by the node with the
   * lower listen port stays, on both sides alike (each knows both ports), and the other is closed
   * (no offense). Returns the connection closed, if any.
   */
  private mutualDial(peer: Peer): Peer | null {
    const c = peer.conn;
    if (c.transport !== 'tcp' || c.listenPort === this.listenPort) return null;
    const twin = this.connected().find(
      (p) =>
        p !== peer &&
        p.conn.transport === 'tcp' &&
        p.conn.inbound !== c.inbound &&
        plainIp(p.conn.host) === plainIp(c.host) &&
        p.conn.listenPort === c.listenPort,
    );
    if (!twin) return null;
    const oursStays = this.listenPort < c.listenPort; // the connection we dialled stays
    const loser = c.inbound === oursStays ? peer : twin;
    loser.close(new NodeError('EDUPLICATECONNECTION', 'both nodes dialled each other: the connection dialled by the lower listen port stays'));
    return loser;
  }

  /** Called by the host when a connection has closed: offense record, reconnect schedule. */
  peerClosed(peer: Peer, reason: CloseReason): void {
    this.peers.delete(peer);
    if (this.announced.delete(peer)) this.notify({ kind: 'closed', peer });
    const target = this.outbound.get(peer) ?? null;
    this.outbound.delete(peer);
    const ip = plainIp(peer.conn.host);
    const wasReady = peer.conn.peerVersion !== null;
    const bans = triggersBan(reason.code);
    if (bans) {
      const banned = this.bans.record(ip, reason.code, reason.name, Date.now());
      this.opts.log.warn(
        `Peer ${peer.address} (#${peer.id}) closed: ${reason.detail} (${reason.name} ${reason.code}); offense recorded${banned ? ', banned for 20 min' : ''}`,
      );
    } else if (wasReady && !this.stopped) {
      this.opts.log.info(`Peer ${peer.address} (#${peer.id}) disconnected: ${reason.detail} (${reason.name})`);
    }
    if (this.stopped) return;
    if (!target && wasReady && peer.conn.transport === 'tcp' && peer.conn.peerListenPort) this.schedule.twinClosed(`${ip}:${peer.conn.peerListenPort}`);
    if (!target) return;
    if (!wasReady) this.schedule.failed(target, reason.name);
    else this.schedule.closed(target, reason, bans);
  }
}
