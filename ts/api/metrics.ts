// The node's metrics (`GET /metrics`, routes/metrics.ts): the registry of core/metrics.ts fed by
// what the layers already tell — the chain's change events (blocks appended and rolled back, each
// block's application time, reorgs), the peer manager's peer events (connections, reconnects) —
// and read when scraped: heights, sync, peers, bans, the relay's and the announcements' counts
// (kept by p2p), the mempool, the process and the database size. HTTP request latency is
// measured on the listeners (observeHttp), on an injectable clock.
import { readdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { MetricsRegistry } from '../core/metrics.js';
import { equalBytes } from '../core/hex.js';
import type { Chain, ChainEvent } from '../chain/chain.js';
import type { MempoolService } from '../mempool/service.js';
import type { P2PNode } from '../p2p/service.js';
import type { PeerEvent, PeerManager } from '../p2p/peer_manager.js';
import { TX_MESSAGE_SIZE } from '../p2p/tx_message.js';

/** Upper bounds (seconds) of the latency histograms: block application and HTTP requests. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Upper bounds (blocks) of the reorg depth histogram. */
export const REORG_DEPTH_BUCKETS = [1, 2, 3, 5, 10, 20, 50, 100, 500, 1000];
/** Outbound addresses remembered to tell a reconnect from a first connection. */
const REMEMBERED_ADDRESSES = 10_000;

export interface ProcessFigures {
  residentBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  /** Memory of C++ objects bound to JavaScript ones (buffers, the kernel's WebAssembly memory). */
  externalBytes: number;
  /** Open file descriptors; null where /proc/self/fd cannot be read. */
  openFds: number | null;
  /**
   * How late the event loop ran a 10 ms timer since the previous reading, in seconds: a request or a
   * peer's message waited this long behind whatever held the loop (a block applied in one piece).
   */
  loopDelay: { p50: number; p99: number; max: number };
  /** V8's heap by space (new, old, code, large objects, …): bytes committed and in use, to tell a leak from a heap kept large. */
  heapSpaces: { space: string; size: number; used: number }[];
}

export interface MetricSources {
  chain: Chain;
  mempool: Pick<MempoolService, 'pool'>;
  /** `wartnode_info`'s labels. */
  info: { version: string; network: string; api: string };
  /** Unix seconds when the process started. */
  startedAt: number;
  synced(): boolean;
  p2p(): P2PNode | null;
  /** Bytes of the database on disk (refreshed at most every few seconds: store/database.ts databaseSizeEvery). */
  databaseSize(): Promise<bigint>;
  /** Bytes the database holds in memory (store/database.ts databaseMemory), null when unknown. */
  databaseMemory?(): number | null;
  /** Seconds on a monotonic clock, for HTTP request latency (tests inject one). */
  clock?: () => number;
  /** The process's memory and descriptors (tests inject them). */
  processFigures?: () => Promise<ProcessFigures>;
}

/** The event loop's delays, sampled from the first reading on (perf_hooks: a 10 ms timer's lateness). */
let loopDelay: IntervalHistogram | null = null;

/** Memory from process.memoryUsage(), descriptors counted in /proc/self/fd (Linux), the loop's delays since the last call. */
export async function processFigures(): Promise<ProcessFigures> {
  const m = process.memoryUsage();
  const openFds = await readdir('/proc/self/fd').then(
    (names) => names.length,
    () => null,
  );
  if (!loopDelay) {
    loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
  }
  // Nanoseconds; NaN-free once a sample exists (before that, the histogram's percentiles are 0).
  const h = loopDelay;
  const seconds = (ns: number) => (Number.isFinite(ns) && h.count > 0 ? ns / 1e9 : 0);
  const delay = { p50: seconds(h.percentile(50)), p99: seconds(h.percentile(99)), max: seconds(h.max) };
  h.reset();
  const heapSpaces = getHeapSpaceStatistics().map((x) => ({ space: x.space_name, size: x.space_size, used: x.space_used_size }));
  return { residentBytes: m.rss, heapUsedBytes: m.heapUsed, heapTotalBytes: m.heapTotal, externalBytes: m.external, openFds, loopDelay: delay, heapSpaces };
}

/** The first path segments of `paths` (`/chain/head` → `chain`): the route groups of the HTTP metrics. */
export function routeGroups(paths: Iterable<string>): Set<string> {
  return new Set([...paths].map((p) => p.split('/')[1] ?? '').filter((g) => g !== ''));
}

/** The group of a request URL: `web` for the page, its first segment when that is a group, else `other`. */
export function routeGroupOf(url: string, groups: ReadonlySet<string>): string {
  const path = url.split('?')[0];
  if (path === '/' || path.startsWith('/web/')) return 'web';
  const first = path.split('/')[1] ?? '';
  return groups.has(first) ? first : 'other';
}

/** `2xx` … `5xx`; `none` when the connection closed without an answer. */
export const statusClass = (status: number, answered: boolean): string => (answered ? `${Math.floor(status / 100)}xx` : 'none');

/** The version line of a peer's handshake version (`0.8`, `0.10`): the generation label of the peer metrics. */
export const generationOf = (v: { major: number; minor: number }): string => `${v.major}.${v.minor}`;

const DIRECTIONS = ['inbound', 'outbound'] as const;
const direction = (inbound: boolean) => (inbound ? 'inbound' : 'outbound');

export class NodeMetrics {
  readonly registry = new MetricsRegistry();
  private readonly clock: () => number;
  private readonly figures: () => Promise<ProcessFigures>;

  private readonly m = (() => {
    const r = this.registry;
    return {
      info: r.gauge('wartnode_info', 'The node: its version, network and API generation (--api); always 1.', ['version', 'network', 'api']),
      startTime: r.gauge('wartnode_process_start_time_seconds', 'When the node process started, in Unix seconds.'),
      height: r.gauge('wartnode_chain_height', 'Blocks in the chain (the height of its tip).'),
      headerHeight: r.gauge(
        'wartnode_chain_header_height',
        'The sync target: the height the peer with the most work announces, or the chain height when no peer announces more work.',
      ),
      synced: r.gauge('wartnode_chain_synced', '1 when no connected peer announces more work than the chain (the synced of /chain/head), else 0.'),
      worksum: r.gauge('wartnode_chain_worksum', 'The total work of the chain, as a float (exact value: /chain/head).'),
      appended: r.counter('wartnode_chain_blocks_appended_total', 'Blocks appended to the chain since start (mined, received, or of a reorg).'),
      rolledBack: r.counter('wartnode_chain_blocks_rolled_back_total', 'Blocks rolled back since start (rollbacks and reorgs).'),
      reorgs: r.counter(
        'wartnode_chain_reorgs_total',
        'Changes of the chain that replaced its tip by a branch (a rollback followed by appends in one change).',
      ),
      reorgDepth: r.histogram('wartnode_chain_reorg_depth_blocks', 'Blocks of the old chain each reorg removed.', REORG_DEPTH_BUCKETS),
      applySeconds: r.histogram(
        'wartnode_chain_block_apply_seconds',
        'Time to apply each appended block: checks, signature recovery, ledger and its write.',
        LATENCY_BUCKETS,
      ),
      peers: r.gauge('wartnode_peers', 'Connected peers (handshake done) by direction and generation (the version line of their handshake).', [
        'direction',
        'generation',
      ]),
      opened: r.counter('wartnode_peer_connections_opened_total', 'Peer connections that completed their handshake, since start.', ['direction']),
      closed: r.counter('wartnode_peer_connections_closed_total', 'Peer connections closed after their handshake, since start.', ['direction']),
      reconnects: r.counter('wartnode_peer_reconnects_total', 'Outbound connections to an address this node was connected to before, since start.'),
      bansActive: r.gauge('wartnode_peer_bans_active', 'Addresses banned now.'),
      bans: r.counter('wartnode_peer_bans_total', 'Bans imposed since start.'),
      txReceived: r.counter('wartnode_relay_transactions_received_total', 'Transactions peers sent us (Txrep), since start.'),
      txSent: r.counter('wartnode_relay_transactions_sent_total', 'Transactions sent to peers (Txrep), since start.'),
      txAccepted: r.counter('wartnode_relay_transactions_accepted_total', 'Transactions from peers the mempool admitted, since start.'),
      txRefused: r.counter('wartnode_relay_transactions_refused_total', 'Transactions from peers the mempool refused, since start.'),
      announced: r.counter(
        'wartnode_relay_block_announcements_sent_total',
        'Chain announcements (Append, Fork, SignedPinRollback) sent to peers, one per peer, since start.',
      ),
      mempoolTxs: r.gauge('wartnode_mempool_transactions', 'Transactions in the mempool.'),
      mempoolBytes: r.gauge('wartnode_mempool_bytes', 'Size of the mempool transactions on the wire (Txrep encoding).'),
      http: r.histogram(
        'wartnode_http_request_duration_seconds',
        'HTTP request latency by listener (rpc, public), route group (first path segment) and status class.',
        LATENCY_BUCKETS,
        ['listener', 'group', 'status'],
      ),
      rss: r.gauge('wartnode_process_resident_memory_bytes', 'Resident memory of the node process.'),
      heapUsed: r.gauge('wartnode_nodejs_heap_used_bytes', 'V8 heap in use.'),
      heapTotal: r.gauge('wartnode_nodejs_heap_total_bytes', 'V8 heap allocated.'),
      external: r.gauge('wartnode_nodejs_external_memory_bytes', 'Memory of C++ objects bound to JavaScript ones: buffers, WebAssembly memory.'),
      fds: r.gauge('wartnode_process_open_fds', 'Open file descriptors (where /proc/self/fd can be read).'),
      spaceSize: r.gauge('wartnode_nodejs_heap_space_size_bytes', 'V8 heap committed, by space.', ['space']),
      spaceUsed: r.gauge('wartnode_nodejs_heap_space_used_bytes', 'V8 heap in use, by space.', ['space']),
      loopDelay: r.gauge(
        'wartnode_nodejs_eventloop_delay_seconds',
        'How late the event loop ran a 10 ms timer since the previous scrape (what a request or peer message waited), by quantile (0.5, 0.99, 1 = the maximum).',
        ['quantile'],
      ),
      dbSize: r.gauge('wartnode_database_size_bytes', "Size on disk of the database (the data directory's db/)."),
      dbMemory: r.gauge('wartnode_database_memory_bytes', "Memory the database holds: LevelDB's memtables and block cache."),
      answerBytes: r.gauge(
        'wartnode_http_answer_cache_bytes',
        'Bytes of the answers kept as written, by listener and kind (immutable; chain: of one chain state; mempool: of one chain state and mempool version).',
        ['listener', 'kind'],
      ),
      answerEntries: r.gauge('wartnode_http_answer_cache_entries', 'Answers kept as written, by listener and kind.', ['listener', 'kind']),
    };
  })();

  /** The tip as the last change left it, and what the change under way did (reorg detection). */
  private base: { height: number; hash: Uint8Array };
  private lowest = Infinity;
  private appendedInChange = 0;
  /** Outbound addresses connected to before, oldest first. */
  private readonly connectedBefore = new Set<string>();

  constructor(private readonly src: MetricSources) {
    this.clock = src.clock ?? (() => performance.now() / 1000);
    this.figures = src.processFigures ?? processFigures;
    const { chain } = src;
    this.base = { height: chain.length, hash: chain.tipHash };
    this.m.info.set(1, src.info);
    this.m.startTime.set(src.startedAt);
    for (const d of DIRECTIONS) {
      this.m.opened.inc({ direction: d }, 0);
      this.m.closed.inc({ direction: d }, 0);
    }
    chain.onChange((e) => this.chainEvent(e));
    chain.onSettled(async () => this.settled());
  }

  private chainEvent(e: ChainEvent): void {
    if (e.kind === 'append') {
      this.m.appended.inc();
      this.m.applySeconds.observe(e.applySeconds);
      this.appendedInChange++;
    } else if (e.kind === 'rollback') {
      this.m.rolledBack.inc();
      this.lowest = Math.min(this.lowest, e.block.height - 1);
    }
  }

  /** At the end of each chain change: a reorg if blocks left and others came, and the old tip is gone. */
  private settled(): void {
    const { chain } = this.src;
    const old = this.base;
    if (this.lowest < old.height && this.appendedInChange > 0) {
      const oldTipStays = chain.length >= old.height && old.height > 0 && equalBytes(chain.hashAt(old.height), old.hash);
      if (!oldTipStays) {
        this.m.reorgs.inc();
        this.m.reorgDepth.observe(old.height - this.lowest);
      }
    }
    this.base = { height: chain.length, hash: chain.tipHash };
    this.lowest = Infinity;
    this.appendedInChange = 0;
  }

  /** Counts the peer manager's connections (main.ts calls it once P2P has started). */
  attachPeers(manager: PeerManager): void {
    manager.onPeer((e: PeerEvent) => {
      const d = direction(e.peer.conn.inbound);
      if (e.kind === 'closed') return this.m.closed.inc({ direction: d });
      this.m.opened.inc({ direction: d });
      if (e.peer.conn.inbound) return;
      const address = e.peer.address;
      if (this.connectedBefore.has(address)) {
        this.m.reconnects.inc();
        this.connectedBefore.delete(address); // re-inserted as the newest
      }
      this.connectedBefore.add(address);
      if (this.connectedBefore.size > REMEMBERED_ADDRESSES) this.connectedBefore.delete(this.connectedBefore.values().next().value!);
    });
  }

  /** Measures every request `server` answers, labelled with `listener` and the route groups of `paths`. */
  observeHttp(server: Server, listener: string, paths: Iterable<string>): void {
    const groups = routeGroups(paths);
    server.on('request', (req, res) => {
      const start = this.clock();
      res.once('close', () => {
        this.m.http.observe(this.clock() - start, {
          listener,
          group: routeGroupOf(req.url ?? '/', groups),
          status: statusClass(res.statusCode, res.writableFinished),
        });
      });
    });
  }

  /** Reports the sizes of a listener's answer caches (answer_cache.ts) at each scrape. */
  observeAnswers(listener: string, caches: Record<string, { bytes: number; size: number }>): void {
    this.answerCaches.push({ listener, caches });
  }
  private readonly answerCaches: { listener: string; caches: Record<string, { bytes: number; size: number }> }[] = [];

  /** Reads what is read at scrape time into the registry. */
  private async collect(): Promise<void> {
    const { chain, mempool } = this.src;
    const m = this.m;
    m.height.set(chain.length);
    m.worksum.set(Number(chain.worksum));
    m.synced.set(this.src.synced() ? 1 : 0);
    const p2p = this.src.p2p();
    let target = { length: chain.length, work: chain.worksum };
    m.peers.reset();
    if (p2p) {
      for (const p of p2p.manager.initialized()) if (p.chain && p.chain.worksum > target.work) target = { length: p.chain.length, work: p.chain.worksum };
      for (const p of p2p.manager.registered()) {
        const v = p.conn.peerVersion;
        m.peers.inc({ direction: direction(p.conn.inbound), generation: v ? generationOf(v) : 'unknown' });
      }
      m.bansActive.set(p2p.manager.bans.active(Date.now()).length);
      m.bans.set(p2p.manager.bans.imposed);
      const r = p2p.relay.counts;
      m.txReceived.set(r.received);
      m.txSent.set(r.sent);
      m.txAccepted.set(r.accepted);
      m.txRefused.set(r.refused);
      m.announced.set(p2p.announcementsSent);
    }
    m.headerHeight.set(target.length);
    const pool = mempool.pool;
    m.mempoolTxs.set(pool.size);
    let bytes = 0;
    for (const t of pool.highest(pool.size)) bytes += 1 + TX_MESSAGE_SIZE[t.payload.type];
    m.mempoolBytes.set(bytes);
    const f = await this.figures();
    m.rss.set(f.residentBytes);
    m.heapUsed.set(f.heapUsedBytes);
    m.heapTotal.set(f.heapTotalBytes);
    m.external.set(f.externalBytes);
    m.fds.reset();
    if (f.openFds !== null) m.fds.set(f.openFds);
    for (const x of f.heapSpaces) {
      m.spaceSize.set(x.size, { space: x.space });
      m.spaceUsed.set(x.used, { space: x.space });
    }
    m.loopDelay.set(f.loopDelay.p50, { quantile: '0.5' });
    m.loopDelay.set(f.loopDelay.p99, { quantile: '0.99' });
    m.loopDelay.set(f.loopDelay.max, { quantile: '1' });
    for (const { listener, caches } of this.answerCaches)
      for (const [kind, c] of Object.entries(caches)) {
        m.answerBytes.set(c.bytes, { listener, kind });
        m.answerEntries.set(c.size, { listener, kind });
      }
    const size = await this.src.databaseSize().catch(() => null);
    if (size !== null) m.dbSize.set(Number(size));
    m.dbMemory.reset();
    const held = this.src.databaseMemory?.() ?? null;
    if (held !== null) m.dbMemory.set(held);
  }

  /** Every metric in the text exposition format 0.0.4. */
  async render(): Promise<string> {
    await this.collect();
    return this.registry.render();
  }
}
