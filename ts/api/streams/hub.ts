// The streams' publisher (clients.md §6): subscribers by topic, fed from chain changes, peer
// events and log lines. Inside a chain change only the heights it appended and rolled back are
// noted (issue 13: block application must not wait for subscribers); the events are built after
// the change, from the chain's read view of that moment, at most every FLUSH_MS: changes that
// settle meanwhile go out together (many blocks as one `chain.state` of the last ten, whose views
// alone are built), so a flood of blocks costs the streams a bounded amount of work. Serialising and
// sending happen from the outbox, in order. A subscription's first message (the topic's state)
// goes through the same outbox, after every event it already contains and before every event it
// does not.
import type { Chain, ChainEvent, StoredBlock } from '../../chain/chain.js';
import { readStoredBlock, type ChainReadState, type ReadView } from '../../chain/read_view.js';
import { formatAddress } from '../../core/address.js';
import type { Peer } from '../../p2p/peer.js';
import type { PeerManager } from '../../p2p/peer_manager.js';
import type { Db } from '../../store/database.js';
import { COIN_TOKEN_ID, accountIdOf, balanceOf, dbReader } from '../../state/ledger.js';
import { blockTransactions, type MinedTransaction } from '../../state/history_query.js';
import type { LogLine } from '../../log.js';
import { writeJson } from '../json.js';
import type { Infer } from '../schema.js';
import { coinAmount } from '../views/amount.js';
import { Block, blockView, partialBlockView } from '../views/block.js';
import { chainHeadView } from '../views/chain_head.js';
import type { Generation } from '../generations/generation.js';
import type { NodeServices } from '../services.js';
import { CHAIN_DELTA_EVENTS, STREAM_EVENTS, type ConnectionView, type LogLineView, type StreamEventBody, type StreamEventType } from './events.js';
import { STREAM_GENERATIONS, adaptMessage } from './generation.js';
import { MinerWindow } from './miner_window.js';
import { CLOSE_INTERNAL, type Subscriber } from './subscriber.js';

/** Blocks in `chain.state` and `chain.fork`; more new blocks than this are sent as a new state (clients.md §6.1). */
export const CHAIN_STATE_BLOCKS = 10;
/** The least time between two publications of chain changes. */
export const FLUSH_MS = 100;

export type Topic = 'chain' | 'connection' | 'log' | 'minerdist' | 'account';
export const TOPICS: readonly Topic[] = ['chain', 'connection', 'log', 'minerdist', 'account'];

type BlockView = Infer<typeof Block>;

/** A block appended since the last publication, with what was read of it. */
interface Appended { height: number; txs: MinedTransaction[] | null; view: BlockView | null }

/** What settled chain changes did, merged, until they are published. */
interface Changes {
  appended: number[];
  rollbackTo: number | null;
  /** Accounts in rolled-back blocks (read before the rollback). */
  touched: Set<string>;
  minerDeltas: Map<string, number>;
  minerCounts: StreamEventBody<'minerdist.state'>['counts'] | null;
}

const noChanges = (): Changes => ({ appended: [], rollbackTo: null, touched: new Set(), minerDeltas: new Map(), minerCounts: null });

export interface LogSource {
  recent(): readonly LogLine[];
  subscribe(listener: (line: LogLine) => void): () => void;
}

/** Addresses (48 hex) a block's entries name: the reward's recipient, signers and recipients. */
function addressesOf(txs: MinedTransaction[]): Set<string> {
  const out = new Set<string>();
  for (const t of txs) {
    if ('originAddress' in t) out.add(formatAddress(t.originAddress));
    if ('toAddress' in t) out.add(formatAddress(t.toAddress));
  }
  return out;
}

const logLineView = (l: LogLine): LogLineView => ({ timestampMilliseconds: l.ms, level: l.level, message: l.message, datetime: l.datetime });

const connectionView = (p: Peer): ConnectionView => ({
  id: p.id, since: Math.floor(p.conn.since / 1000), peerAddr: p.address, inbound: p.conn.inbound,
});

export class StreamHub {
  private readonly topics = new Map<Exclude<Topic, 'account'>, Set<Subscriber>>(
    (['chain', 'connection', 'log', 'minerdist'] as const).map((t) => [t, new Set<Subscriber>()]),
  );
  /** Account subscribers by address (48 hex). */
  private readonly accounts = new Map<string, Set<Subscriber>>();
  private readonly deltaSubscribers = new Set<Subscriber>();
  private peers: PeerManager | null = null;

  // Kept from the first subscription of their topic on, in the chain's turn: the last blocks
  // (oldest first) and the reward window. What subscribers were last told of them is
  // `chainState` and `minerCounts`, which change in outbox order.
  private latest: BlockView[] | null = null;
  private latestLoading: Promise<void> | null = null;
  private miners: MinerWindow | null = null;
  private minersLoading: Promise<void> | null = null;
  private chainState: StreamEventBody<'chain.state'> | null = null;
  /** `chainState` as sent, written once for every subscriber that asks (a subscribe flood costs no rendering). */
  private chainStateText: Buffer | null = null;
  private minerCounts: StreamEventBody<'minerdist.state'>['counts'] = [];

  // The chain change in progress, then the settled ones not yet published.
  private change = noChanges();
  private unpublished = noChanges();
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing = false;
  private lastFlushMs = 0;
  /** Settled changes counted, and how many of them are published (their events in the outbox). */
  private settledSeq = 0;
  private publishedSeq = 0;
  private publishedWaiters: { seq: number; resolve: () => void }[] = [];

  private outbox: (() => void)[] = [];
  private draining = false;

  private readonly chain: Chain;
  /** The generation of `--api`: its shapes are applied to every message at the edge. */
  private readonly generation: Generation;

  constructor(private readonly node: NodeServices, private readonly logs: LogSource) {
    const chain = (this.chain = node.chain);
    this.generation = STREAM_GENERATIONS[node.config.api ?? 'contract'];
    chain.onChange((e) => this.chainChanged(e));
    chain.onBeforeRollback((b) => this.beforeRollback(b));
    chain.onSettled(() => this.settled());
    logs.subscribe((line) => {
      if (this.topics.get('log')!.size) this.broadcast('log', 'log.line', logLineView(line));
    });
  }

  /** Reports peers joining and leaving to `connection` subscribers. */
  attachPeers(manager: PeerManager): void {
    this.peers = manager;
    manager.onPeer((e) => {
      if (!this.topics.get('connection')!.size) return;
      const total = manager.registered().length;
      if (e.kind === 'connected') this.broadcast('connection', 'connection.add', { connection: connectionView(e.peer), total });
      else this.broadcast('connection', 'connection.remove', { id: e.peer.id, total });
    });
  }

  // ---- subscriptions ----

  /** Subscribes `sub` to a `/stream` topic; its state is sent first (clients.md §6.1). */
  subscribe(sub: Subscriber, topic: Topic, address?: Uint8Array): void {
    switch (topic) {
      case 'chain':
        this.ensureLatest().then(() => this.published()).then(() => this.post(() => {
          if (!sub.open) return;
          this.chainStateText ??= this.eventText('chain.state', this.chainState!);
          sub.send(this.chainStateText);
          this.topics.get('chain')!.add(sub);
        }), (e) => this.failed(sub, e));
        return;
      case 'minerdist':
        this.ensureMiners().then(() => this.post(() => {
          if (!sub.open) return;
          sub.send(this.eventText('minerdist.state', { counts: this.minerCounts }));
          this.topics.get('minerdist')!.add(sub);
        }), (e) => this.failed(sub, e));
        return;
      case 'connection':
        return this.post(() => {
          const connections = (this.peers?.registered() ?? []).map(connectionView);
          sub.send(this.eventText('connection.state', { connections, total: connections.length }));
          this.topics.get('connection')!.add(sub);
        });
      case 'log':
        return this.post(() => {
          sub.send(this.eventText('log.state', this.logs.recent().map(logLineView)));
          this.topics.get('log')!.add(sub);
        });
      case 'account': {
        const key = formatAddress(address!);
        return this.post(() => {
          sub.send(this.eventText('account.state', { address: key, history: [] }));
          let set = this.accounts.get(key);
          if (!set) this.accounts.set(key, (set = new Set()));
          set.add(sub);
        });
      }
    }
  }

  unsubscribe(sub: Subscriber, topic: Topic, address?: Uint8Array): void {
    this.post(() => {
      if (topic !== 'account') return void this.topics.get(topic)!.delete(sub);
      const key = formatAddress(address!);
      const set = this.accounts.get(key);
      if (set?.delete(sub) && set.size === 0) this.accounts.delete(key);
    });
  }

  /** `/ws/chain_delta`: every block appended and every rollback (clients.md §6.2). */
  subscribeChainDelta(sub: Subscriber): void {
    this.post(() => { if (sub.open) this.deltaSubscribers.add(sub); });
  }

  /** Forgets a closed client everywhere. */
  remove(sub: Subscriber): void {
    this.post(() => {
      this.deltaSubscribers.delete(sub);
      for (const s of this.topics.values()) s.delete(sub);
      for (const [key, set] of this.accounts) if (set.delete(sub) && set.size === 0) this.accounts.delete(key);
    });
  }

  /** A topic's state could not be read (the store failed): the client is closed, the node goes on. */
  private failed(sub: Subscriber, e: unknown): void {
    process.stderr.write(`stream state failed: ${(e as Error)?.stack ?? e}\n`);
    sub.close(CLOSE_INTERNAL, 'internal error');
  }

  /** Loads the last blocks once, between chain changes. */
  private ensureLatest(): Promise<void> {
    if (this.latest) return Promise.resolve();
    this.latestLoading ??= this.chain.locked(async () => {
      const latest = await this.loadBlocks(Math.max(1, this.chain.length - CHAIN_STATE_BLOCKS + 1), this.chain.length);
      this.latest = latest;
      this.publishChainState({ head: chainHeadView(this.chain), latestBlocks: latest });
    }).finally(() => { this.latestLoading = null; });
    return this.latestLoading;
  }

  private publishChainState(state: StreamEventBody<'chain.state'>): void {
    this.post(() => { this.chainState = state; this.chainStateText = null; });
  }

  private ensureMiners(): Promise<void> {
    if (this.miners) return Promise.resolve();
    this.minersLoading ??= this.chain.locked(async () => {
      this.miners = await MinerWindow.load(this.chain);
      const counts = this.miners.state();
      this.post(() => { this.minerCounts = counts; });
    }).finally(() => { this.minersLoading = null; });
    return this.minersLoading;
  }

  private async loadBlocks(from: number, to: number, state: ChainReadState = this.chain, db: Db = this.chain.db): Promise<BlockView[]> {
    const out: BlockView[] = [];
    for (let h = from; h <= to; h++) {
      const txs = await this.transactionsAt(state, db, h);
      if (txs) out.push(blockView(state, h, txs));
    }
    return out;
  }

  private async transactionsAt(state: ChainReadState, db: Db, height: number): Promise<MinedTransaction[] | null> {
    const b = await readStoredBlock(state, db, height);
    return b ? blockTransactions(db, height, b.firstHistoryId) : null;
  }

  // ---- chain changes (inside the change's turn) ----

  private get wantsBlocks(): boolean {
    return this.latest !== null || this.latestLoading !== null || this.deltaSubscribers.size > 0;
  }

  private get wantsTxs(): boolean {
    return this.wantsBlocks || this.accounts.size > 0 || this.miners !== null || this.minersLoading !== null;
  }

  private async chainChanged(e: ChainEvent): Promise<void> {
    const c = this.change;
    if (e.kind === 'append') {
      if (!this.wantsTxs) return;
      const h = e.block.height;
      c.appended.push(h);
      // The reward window follows every block in chain order (its counts are a running state).
      if (this.miners) {
        const txs = await blockTransactions(this.chain.db, h, e.block.firstHistoryId);
        const reward = txs.find((t) => t.kind === 'reward');
        if (reward && 'toAddress' in reward) this.miners.appended(formatAddress(reward.toAddress));
      }
    } else if (e.kind === 'rollback') {
      const len = this.chain.length;
      c.appended = c.appended.filter((h) => h <= len);
      c.rollbackTo = Math.min(c.rollbackTo ?? len, len);
      await this.miners?.rolledBack();
    }
  }

  private async beforeRollback(b: StoredBlock): Promise<void> {
    if (!this.accounts.size) return;
    for (const a of addressesOf(await blockTransactions(this.chain.db, b.height, b.firstHistoryId))) this.change.touched.add(a);
  }

  /** The end of a change: what it did joins the unpublished changes (nothing is read here). */
  private async settled(): Promise<void> {
    const c = this.change;
    this.change = noChanges();
    if (this.miners) {
      for (const d of this.miners.takeDeltas()) c.minerDeltas.set(d.address, d.count);
      c.minerCounts = this.miners.state();
    }
    if (!c.appended.length && c.rollbackTo === null && !c.minerDeltas.size) return;
    const u = this.unpublished;
    if (c.rollbackTo !== null) {
      u.appended = u.appended.filter((h) => h <= c.rollbackTo!);
      u.rollbackTo = Math.min(u.rollbackTo ?? c.rollbackTo, c.rollbackTo);
    }
    u.appended.push(...c.appended);
    for (const a of c.touched) u.touched.add(a);
    for (const [a, d] of c.minerDeltas) u.minerDeltas.set(a, (u.minerDeltas.get(a) ?? 0) + d);
    u.minerCounts = c.minerCounts ?? u.minerCounts;
    this.settledSeq++;
    this.scheduleFlush();
  }

  /** Resolves once every change settled so far is published (a new subscription's state then has them). */
  private published(): Promise<void> {
    const seq = this.settledSeq;
    if (this.publishedSeq >= seq) return Promise.resolve();
    if (this.flushTimer && !this.flushing) { // no need to wait out the spacing for this
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
      this.flush().catch((e) => process.stderr.write(`stream publication failed: ${(e as Error)?.stack ?? e}\n`));
    }
    return new Promise((resolve) => this.publishedWaiters.push({ seq, resolve }));
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.flushing) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flush().catch((e) => process.stderr.write(`stream publication failed: ${(e as Error)?.stack ?? e}\n`));
    }, Math.max(0, this.lastFlushMs + FLUSH_MS - Date.now()));
  }

  /** Publishes the unpublished changes, read from the chain as it is now (a read view: no lock). */
  private async flush(): Promise<void> {
    this.flushing = true;
    this.lastFlushMs = Date.now();
    const u = this.unpublished;
    const seq = this.settledSeq;
    this.unpublished = noChanges();
    try {
      await this.chain.read((view) => this.publishChanges(view, u));
    } finally {
      this.flushing = false;
      this.publishedSeq = seq;
      const waiting = this.publishedWaiters.filter((w) => w.seq <= seq);
      this.publishedWaiters = this.publishedWaiters.filter((w) => w.seq > seq);
      for (const w of waiting) w.resolve();
      if (this.unpublished.appended.length || this.unpublished.rollbackTo !== null || this.unpublished.minerDeltas.size) this.scheduleFlush();
    }
  }

  private async publishChanges(view: ReadView, u: Changes): Promise<void> {
    const len = view.length;
    const heights = u.appended.filter((h) => h <= len);
    // Views only of the blocks some event shows: every one for /ws/chain_delta, the last ten for `chain`.
    const viewFrom = this.deltaSubscribers.size ? 0 : this.latest !== null ? heights.length - CHAIN_STATE_BLOCKS : heights.length;
    const appended: Appended[] = [];
    for (const [i, h] of heights.entries()) {
      const wantView = i >= viewFrom;
      const txs = wantView || this.accounts.size ? await this.transactionsAt(view, view.db, h) : null;
      appended.push({ height: h, txs, view: wantView && txs ? blockView(view, h, txs) : null });
    }
    const touched = u.touched;
    if (this.accounts.size) for (const a of appended) for (const x of addressesOf(a.txs ?? [])) touched.add(x);
    const current = (v: BlockView): BlockView => ({ ...v, confirmations: len - v.height + 1 });
    const views = appended.filter((a) => a.view).map((a) => a.view!);
    const rollbackTo = u.rollbackTo;

    if (this.latest !== null && (heights.length || rollbackTo !== null)) {
      // A first subscription loads the last blocks itself, possibly after some of these changes.
      const covered = rollbackTo === null ? this.latest.reduce((m, v) => Math.max(m, v.height), 0) : 0;
      const fresh = views.filter((v) => v.height > covered);
      let latest = this.latest.filter((v) => v.height <= (rollbackTo ?? Infinity) && v.height < (heights[0] ?? Infinity)).concat(views).slice(-CHAIN_STATE_BLOCKS);
      const want = Math.min(CHAIN_STATE_BLOCKS, len);
      if (latest.length < want) {
        const from = len - want + 1;
        latest = (await this.loadBlocks(from, (latest[0]?.height ?? len + 1) - 1, view, view.db)).concat(latest);
      }
      latest = latest.map(current);
      const head = chainHeadView(view);
      this.latest = latest;
      this.publishChainState({ head, latestBlocks: latest });
      if (rollbackTo !== null) this.broadcast('chain', 'chain.fork', { head, latestBlocks: latest, rollbackLength: rollbackTo });
      else if (heights.length > CHAIN_STATE_BLOCKS) this.broadcast('chain', 'chain.state', { head, latestBlocks: latest });
      else if (fresh.length) this.broadcast('chain', 'chain.append', { head, newBlocks: fresh.map(current) });
    }
    if (this.deltaSubscribers.size) {
      const messages: Buffer[] = [];
      if (rollbackTo !== null) messages.push(this.deltaText('rollback', { length: rollbackTo }));
      for (const v of views) messages.push(this.deltaText('blockAppend', current(v)));
      this.post(() => { for (const m of messages) for (const s of this.deltaSubscribers) s.send(m); });
    }
    if (u.minerCounts) {
      const counts = u.minerCounts;
      const deltas = [...u.minerDeltas].filter(([, d]) => d !== 0).map(([address, count]) => ({ address, count }));
      this.post(() => { this.minerCounts = counts; });
      if (deltas.length) this.broadcast('minerdist', 'minerdist.delta', { deltas });
    }
    for (const address of touched) {
      if (!this.accounts.has(address)) continue;
      const event = await this.accountDelta(view, address, appended);
      this.post(() => {
        const subs = this.accounts.get(address);
        if (!subs?.size) return;
        const text = this.eventText('account.delta', event);
        for (const s of subs) s.send(text);
      });
    }
  }

  /** Balance now and the appended blocks, restricted to the account's entries. */
  private async accountDelta(view: ReadView, address: string, appended: Appended[]): Promise<StreamEventBody<'account.delta'>> {
    const state = dbReader(view.db);
    const bytes = Uint8Array.from(Buffer.from(address.slice(0, 40), 'hex'));
    const id = await accountIdOf(state, bytes);
    const b = id === undefined ? { total: 0n, locked: 0n } : await balanceOf(state, id, COIN_TOKEN_ID);
    const mempool = id === undefined ? 0n : this.node.mempool.pool.reserved(id, COIN_TOKEN_ID);
    const history = appended
      .map((a) => ({ height: a.height, txs: (a.txs ?? []).filter((t) => addressesOf([t]).has(address)) }))
      .filter((a) => a.txs.length > 0)
      .map((a) => partialBlockView(view, a.height, a.txs));
    return { address, balance: { total: coinAmount(b.total), locked: coinAmount(b.locked), mempool: coinAmount(mempool) }, history };
  }

  // ---- delivery ----

  private eventText<K extends StreamEventType>(type: K, event: StreamEventBody<K>): Buffer {
    return Buffer.from(writeJson(adaptMessage(this.generation, STREAM_EVENTS[type].schema, { event, type }, { params: {}, view: this.chain.view })));
  }

  private deltaText(type: keyof typeof CHAIN_DELTA_EVENTS, data: unknown): Buffer {
    return Buffer.from(writeJson(adaptMessage(this.generation, CHAIN_DELTA_EVENTS[type].schema, { type, data }, { params: {}, view: this.chain.view })));
  }

  /** Sends an event to a topic's subscribers, in outbox order. */
  private broadcast<K extends StreamEventType>(topic: Exclude<Topic, 'account'>, type: K, event: StreamEventBody<K>): void {
    this.post(() => {
      const subs = this.topics.get(topic)!;
      if (!subs.size) return;
      const text = this.eventText(type, event);
      for (const s of subs) s.send(text);
    });
  }

  private post(job: () => void): void {
    this.outbox.push(job);
    if (this.draining) return;
    this.draining = true;
    setImmediate(() => {
      this.draining = false;
      const jobs = this.outbox;
      this.outbox = [];
      for (const j of jobs) {
        try { j(); } catch (e) { process.stderr.write(`stream delivery failed: ${(e as Error)?.stack ?? e}\n`); }
      }
    });
  }
}
