// The streams' publisher (clients.md §6): subscribers by topic, fed from chain changes, peer
// events and log lines. What depends on the chain is read inside the change's turn (the ledger
// cannot move meanwhile), and only while someone listens; serialising and sending happen later,
// from the outbox, in order, so block application never waits for a client. A subscription's
// first message (the topic's state) goes through the same outbox, after every event it already
// contains and before every event it does not.
import type { Chain, ChainEvent, StoredBlock } from '../../chain/chain.js';
import { formatAddress } from '../../core/address.js';
import type { Peer } from '../../p2p/peer.js';
import type { PeerManager } from '../../p2p/peer_manager.js';
import { COIN_TOKEN_ID, accountIdOf, balanceOf, dbReader } from '../../state/ledger.js';
import { blockTransactions, type MinedTransaction } from '../../state/history_query.js';
import type { LogLine } from '../../log.js';
import { writeJson } from '../json.js';
import type { Infer } from '../schema.js';
import { coinAmount } from '../views/amount.js';
import { Block, blockView, partialBlockView } from '../views/block.js';
import { chainHeadView } from '../views/chain_head.js';
import type { Generation, ReshapeContext } from '../generations/generation.js';
import type { NodeServices } from '../services.js';
import { CHAIN_DELTA_EVENTS, STREAM_EVENTS, type ConnectionView, type LogLineView, type StreamEventBody, type StreamEventType } from './events.js';
import { STREAM_GENERATIONS, adaptMessage } from './generation.js';
import { MinerWindow } from './miner_window.js';
import { CLOSE_INTERNAL, type Subscriber } from './subscriber.js';

/** Blocks in `chain.state` and `chain.fork`; more new blocks than this are sent as a new state (clients.md §6.1). */
export const CHAIN_STATE_BLOCKS = 10;

export type Topic = 'chain' | 'connection' | 'log' | 'minerdist' | 'account';
export const TOPICS: readonly Topic[] = ['chain', 'connection', 'log', 'minerdist', 'account'];

type BlockView = Infer<typeof Block>;

/** A block appended during the current chain change. */
interface Appended { height: number; txs: MinedTransaction[]; view: BlockView | null }

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

  // The chain change in progress.
  private appended: Appended[] = [];
  private rollbackTo: number | null = null;
  private touched = new Set<string>();

  private outbox: (() => void)[] = [];
  private draining = false;

  private readonly chain: Chain;
  /** The generation of `--api`: its shapes are applied to every message at the edge. */
  private readonly generation: Generation;
  private readonly ctx: ReshapeContext;

  constructor(private readonly node: NodeServices, private readonly logs: LogSource) {
    const chain = (this.chain = node.chain);
    this.generation = STREAM_GENERATIONS[node.config.api ?? 'contract'];
    this.ctx = { params: {}, node };
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
        this.ensureLatest().then(() => this.post(() => {
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

  private async loadBlocks(from: number, to: number): Promise<BlockView[]> {
    const out: BlockView[] = [];
    for (let h = from; h <= to; h++) {
      const b = await this.chain.block(h);
      if (b) out.push(blockView(this.chain, h, await blockTransactions(this.chain.db, h, b.firstHistoryId)));
    }
    return out;
  }

  // ---- chain changes (inside the change's turn) ----

  private get wantsBlocks(): boolean {
    return this.latest !== null || this.latestLoading !== null || this.deltaSubscribers.size > 0;
  }

  private get wantsTxs(): boolean {
    return this.wantsBlocks || this.accounts.size > 0 || this.miners !== null || this.minersLoading !== null;
  }

  private async chainChanged(e: ChainEvent): Promise<void> {
    if (e.kind === 'append') {
      if (!this.wantsTxs) return;
      const h = e.block.height;
      const txs = await blockTransactions(this.chain.db, h, e.block.firstHistoryId);
      this.appended.push({ height: h, txs, view: this.wantsBlocks ? blockView(this.chain, h, txs) : null });
      if (this.accounts.size) for (const a of addressesOf(txs)) this.touched.add(a);
      const reward = txs.find((t) => t.kind === 'reward');
      if (this.miners && reward && 'toAddress' in reward) this.miners.appended(formatAddress(reward.toAddress));
    } else if (e.kind === 'rollback') {
      const len = this.chain.length;
      this.appended = this.appended.filter((a) => a.height <= len);
      this.rollbackTo = Math.min(this.rollbackTo ?? len, len);
      await this.miners?.rolledBack();
    }
  }

  private async beforeRollback(b: StoredBlock): Promise<void> {
    if (!this.accounts.size) return;
    for (const a of addressesOf(await blockTransactions(this.chain.db, b.height, b.firstHistoryId))) this.touched.add(a);
  }

  private async settled(): Promise<void> {
    const appended = this.appended;
    const rollbackTo = this.rollbackTo;
    const touched = this.touched;
    this.appended = [];
    this.rollbackTo = null;
    this.touched = new Set();
    if (!appended.length && rollbackTo === null) return;
    const len = this.chain.length;
    const current = (v: BlockView): BlockView => ({ ...v, confirmations: len - v.height + 1 });
    const views = appended.filter((a) => a.view).map((a) => a.view!);

    if (this.latest !== null) {
      let latest = this.latest.filter((v) => v.height <= (rollbackTo ?? Infinity)).concat(views).slice(-CHAIN_STATE_BLOCKS);
      const want = Math.min(CHAIN_STATE_BLOCKS, len);
      if (latest.length < want) {
        const from = len - want + 1;
        latest = (await this.loadBlocks(from, (latest[0]?.height ?? len + 1) - 1)).concat(latest);
      }
      latest = latest.map(current);
      const head = chainHeadView(this.chain);
      this.latest = latest;
      this.publishChainState({ head, latestBlocks: latest });
      if (rollbackTo !== null) this.broadcast('chain', 'chain.fork', { head, latestBlocks: latest, rollbackLength: rollbackTo });
      else if (views.length > CHAIN_STATE_BLOCKS) this.broadcast('chain', 'chain.state', { head, latestBlocks: latest });
      else this.broadcast('chain', 'chain.append', { head, newBlocks: views.map(current) });
    }
    if (this.deltaSubscribers.size) {
      const messages: Buffer[] = [];
      if (rollbackTo !== null) messages.push(this.deltaText('rollback', { length: rollbackTo }));
      for (const v of views) messages.push(this.deltaText('blockAppend', current(v)));
      this.post(() => { for (const m of messages) for (const s of this.deltaSubscribers) s.send(m); });
    }
    if (this.miners) {
      const deltas = this.miners.takeDeltas();
      const counts = this.miners.state();
      this.post(() => { this.minerCounts = counts; });
      if (deltas.length) this.broadcast('minerdist', 'minerdist.delta', { deltas });
    }
    for (const address of touched) {
      if (!this.accounts.has(address)) continue;
      const event = await this.accountDelta(address, appended);
      this.post(() => {
        const subs = this.accounts.get(address);
        if (!subs?.size) return;
        const text = this.eventText('account.delta', event);
        for (const s of subs) s.send(text);
      });
    }
  }

  /** Balance now and the appended blocks, restricted to the account's entries. */
  private async accountDelta(address: string, appended: Appended[]): Promise<StreamEventBody<'account.delta'>> {
    const state = dbReader(this.chain.db);
    const bytes = Uint8Array.from(Buffer.from(address.slice(0, 40), 'hex'));
    const id = await accountIdOf(state, bytes);
    const b = id === undefined ? { total: 0n, locked: 0n } : await balanceOf(state, id, COIN_TOKEN_ID);
    const mempool = id === undefined ? 0n : this.node.mempool.pool.reserved(id, COIN_TOKEN_ID);
    const history = appended
      .map((a) => ({ height: a.height, txs: a.txs.filter((t) => addressesOf([t]).has(address)) }))
      .filter((a) => a.txs.length > 0)
      .map((a) => partialBlockView(this.chain, a.height, a.txs));
    return { address, balance: { total: coinAmount(b.total), locked: coinAmount(b.locked), mempool: coinAmount(mempool) }, history };
  }

  // ---- delivery ----

  private eventText<K extends StreamEventType>(type: K, event: StreamEventBody<K>): Buffer {
    return Buffer.from(writeJson(adaptMessage(this.generation, STREAM_EVENTS[type].schema, { event, type }, this.ctx)));
  }

  private deltaText(type: keyof typeof CHAIN_DELTA_EVENTS, data: unknown): Buffer {
    return Buffer.from(writeJson(adaptMessage(this.generation, CHAIN_DELTA_EVENTS[type].schema, { type, data }, this.ctx)));
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
