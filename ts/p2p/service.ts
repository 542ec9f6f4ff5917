// The peer-to-peer node: wires the chain description (announcements, serving), the sync client,
// transaction relay and the peer manager to the chain and the mempool, and answers the sessions'
// callbacks (peer.ts PeerHost). main.ts starts it after the RPC server unless `--isolated`.
import type { Chain } from '../chain/chain.js';
import { networkParams, type NetworkName } from '../consensus/params.js';
import type { MempoolService } from '../mempool/service.js';
import type { Db } from '../store/database.js';
import { ChainDescription } from './chain_description.js';
import type { CloseReason } from './connection.js';
import type { PeerAddress, TxidWithFee } from './elements.js';
import { gridForkRange, type ForkRange } from './fork_range.js';
import type { InitMsg, Reply, Request, TxrepMsg, TxreqMsg } from './messages.js';
import type { Priority, SignedSnapshot, VerifiedSnapshot } from '../consensus/signed_snapshot.js';
import { SnapshotExchange } from './snapshot_exchange.js';
import type { PeerEndpoint } from './network.js';
import type { Peer, PeerHost } from './peer.js';
import { PeerDb } from './peer_db.js';
import { PeerManager } from './peer_manager.js';
import { BATCH_SIZE } from './protocol.js';
import { serveRequest } from './serving.js';
import { SyncClient } from './sync.js';
import { TxRelay } from './tx_relay.js';
import { WsListener, type WsListenOptions } from './transport/ws.js';

/** Announcements made within this many ms are coalesced into one (p2p.md §2.3 "Append should be coalesced"). */
const ANNOUNCE_DELAY_MS = 20;
/** How often new mempool transactions are pushed to peers. */
const TX_PUSH_MS = 500;
/** How often a mainnet or testnet node without peers says so (issue 9: "every minute"). */
const NO_PEER_LOG_MS = 60_000;

/** What a node without peers tells its user: why it cannot sync and how to give it peers. */
export function noPeersLine(network: NetworkName, pinned: number): string {
  const how =
    pinned > 0
      ? `none of the ${pinned} peers it dials answers (still retrying); give others with --connect=IP:PORT,... (it replaces the seed list)`
      : `it dials no one (--no-seeds): give it peers with --connect=IP:PORT,... or start it without --no-seeds to dial the built-in seed list`;
  return `No peers: the ${network} node cannot sync and reports synced: false; ${how}`;
}

export interface P2PLog {
  info(line: string): void;
  warn(line: string): void;
}

export interface P2POptions {
  network: NetworkName;
  bind: PeerEndpoint;
  /** The pinned peers: the `--connect` list or the network's seeds (none with `--no-seeds`). */
  connect: PeerEndpoint[];
  chain: Chain;
  mempool: MempoolService;
  log: P2PLog;
  /** Where bans, offenses, the address book and transmission statistics are kept (absent: memory only). */
  db?: Db;
  /** Ban misbehaving loopback peers too (tests of bans on one machine; p2p.md §4.4 exempts loopback). */
  banLoopback?: boolean;
  /** Also accept peers over WebSocket (`--ws-port`). */
  ws?: WsListenOptions;
  /** How often the absence of peers is logged (default every minute; tests shorten it). */
  noPeerLogMs?: number;
  /** The clock (Unix ms) of header-first sync, the chain description and the throttling slack; tests move it instead of waiting. */
  nowMs?: () => number;
}

export class P2PNode implements PeerHost {
  readonly description: ChainDescription;
  readonly sync: SyncClient;
  readonly relay: TxRelay;
  readonly manager: PeerManager;
  readonly snapshots: SnapshotExchange;
  /** The endpoint the listener is bound to. */
  endpoint: PeerEndpoint | null = null;
  /** The WebSocket listener (`--ws-port`), if any. */
  ws: WsListener | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly pushTimer: NodeJS.Timeout;
  private readonly noPeerTimer: NodeJS.Timeout;
  private stopped = false;
  private readonly peerDb: PeerDb | null;
  private readonly nowMs: () => number;
  private readonly startedMs: number;
  /** Blocks the local chain lost in rollbacks since start (throttling slack, §3.8). */
  private rolledBack = 0;
  /** Chain announcements (Append, Fork, SignedPinRollback) sent to peers since start, one per peer. */
  announcementsSent = 0;

  private constructor(private readonly opts: P2POptions) {
    const { chain, log } = opts;
    this.nowMs = opts.nowMs ?? Date.now;
    this.startedMs = this.nowMs();
    this.description = new ChainDescription(chain, this.nowMs);
    this.peerDb = opts.db ? new PeerDb(opts.db, (e) => log.warn(`peers database: ${(e as Error)?.message ?? e}`)) : null;
    this.manager = new PeerManager({ network: opts.network, connect: opts.connect, log, db: this.peerDb, banLoopback: opts.banLoopback }, this);
    this.relay = new TxRelay(opts.mempool, log.info);
    this.snapshots = new SnapshotExchange(chain, log.info);
    this.sync = new SyncClient(
      chain,
      () => this.manager.initialized(),
      log,
      this.nowMs,
      () => this.relay.caughtUp(),
    );
    chain.onChange((e) => {
      if (e.kind === 'rollback') this.rolledBack++;
      this.description.onEvent(e);
      this.relay.chainChanged();
      this.scheduleAnnouncement();
      this.sync.chainChanged(e);
    });
    this.pushTimer = setInterval(() => this.relay.push(this.manager.initialized()), TX_PUSH_MS);
    this.noPeerTimer = setInterval(() => {
      if (this.alone()) log.info(noPeersLine(opts.network, opts.connect.length));
    }, opts.noPeerLogMs ?? NO_PEER_LOG_MS);
    this.noPeerTimer.unref();
  }

  /** A mainnet or testnet node without a peer cannot know the network's chain (our local networks need none). */
  private alone(): boolean {
    return !networkParams(this.opts.network).local && this.manager.initialized().length === 0;
  }

  /** Listens, then dials the pinned peers. Throws when the listen address cannot be bound. */
  static async start(opts: P2POptions): Promise<P2PNode> {
    const node = new P2PNode(opts);
    try {
      await node.manager.load();
      node.endpoint = await node.manager.listen(opts.bind);
      if (opts.ws) node.ws = await WsListener.start(opts.ws, (s, ip, port) => node.manager.acceptWebSocket(s, ip, port));
    } catch (e) {
      node.manager.stop();
      clearInterval(node.pushTimer);
      clearInterval(node.noPeerTimer);
      throw e;
    }
    node.manager.start();
    return node;
  }

  /**
   * Synced: no connected peer announces more work than the local chain (p2p.md §3.4), and on
   * mainnet or testnet there is at least one peer to compare with.
   */
  synced(): boolean {
    return !this.sync.behind && !this.alone();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pushTimer);
    clearInterval(this.noPeerTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.sync.stop();
    this.ws?.close();
    this.manager.stop();
    await this.peerDb?.idle();
  }

  /** The fork range (§3.2) between the local chain and a peer's announced chain, from the grids. */
  forkRange(peer: Peer): ForkRange {
    const c = peer.chain!,
      ours = this.opts.chain;
    return gridForkRange((i) => ours.rawHeaderAt((i + 1) * BATCH_SIZE), ours.length, c.grid, c.length);
  }

  /** Sends the due Append or Fork to every connection, between chain changes (chain_description.ts). */
  private scheduleAnnouncement(): void {
    if (this.flushTimer || this.stopped) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.opts.chain
        .locked(async () => {
          const m = this.description.flush();
          if (m)
            for (const p of this.manager.connected()) {
              p.send(m);
              this.announcementsSent++;
            }
          // After the announcement: our snapshot to peers below it (§3.6 "after every append or rollback").
          for (const p of this.manager.initialized()) this.snapshots.offer(p);
        })
        .catch((e) => this.opts.log.warn(`announcement failed: ${(e as Error)?.stack ?? e}`));
    }, ANNOUNCE_DELAY_MS);
  }

  // --- PeerHost -------------------------------------------------------------------------------

  ourInit(peer: Peer): InitMsg {
    return this.description.init(peer.caps.initV3);
  }

  registered(peer: Peer): void {
    const c = peer.chain!;
    this.opts.log.info(`Peer ${peer.address} (#${peer.id}) has ${c.length} blocks`);
    this.sync.kick();
  }

  chainUpdated(): void {
    this.sync.kick();
  }

  serve(_peer: Peer, req: Request): Promise<Reply> {
    // Bodies are read from the store: between chain changes. Headers are in memory (chain_description.ts).
    if (req.kind === 'Blockreq') return this.opts.chain.locked(() => serveRequest(this.description, req));
    return serveRequest(this.description, req);
  }

  pongSample(peer: Peer, max: number): TxidWithFee[] {
    return this.relay.sample(peer, max);
  }

  pongAddresses(peer: Peer, max: number): PeerAddress[] {
    return this.manager.sampleVerified(max, peer);
  }

  ownPing(peer: Peer, nonce: number): boolean {
    return this.manager.selfConnection(peer, nonce);
  }

  learned(_peer: Peer, addresses: PeerAddress[]): void {
    for (const a of addresses) this.manager.learn(a);
  }

  throttleSlack(): number {
    return this.rolledBack + Math.floor((this.nowMs() - this.startedMs) / 60_000);
  }

  offered(peer: Peer, txids: TxidWithFee[]): void {
    this.relay.offered(peer, txids, this.sync.behind);
  }

  txreq(peer: Peer, m: TxreqMsg): void {
    this.relay.answer(peer, m);
  }

  txrep(peer: Peer, m: TxrepMsg): void {
    this.relay.receive(peer, m);
  }

  ourPriority(): Priority {
    return this.snapshots.priority;
  }

  verifySnapshot(s: SignedSnapshot): VerifiedSnapshot {
    return this.snapshots.verify(s);
  }

  leader(peer: Peer, s: VerifiedSnapshot): void {
    this.snapshots.received(peer, s);
  }

  verifyRollback(peer: Peer, s: VerifiedSnapshot): void {
    this.snapshots.checkRollback(s, this.forkRange(peer));
  }

  pinged(peer: Peer): void {
    this.snapshots.offer(peer);
  }

  closed(peer: Peer, reason: CloseReason): void {
    this.manager.peerClosed(peer, reason);
    this.relay.forget(peer);
    this.sync.kick();
  }
}
