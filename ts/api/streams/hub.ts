// The streams' hub (clients.md §6): subscribers by topic, the outbox and the scheduling of
// publications. What each topic says comes from its own producer (chain_topic.ts, miner_window.ts,
// account_topic.ts, connection_topic.ts, log_topic.ts); a producer of chain data reads one read
// view per publication, which the hub opens and hands to it. Inside a chain change only the
// heights it appended and rolled back are noted (issue 13: block application must not wait for
// subscribers); a publication follows the change, at most every FLUSH_MS: changes that settle
// meanwhile go out together (many blocks as one `chain.state` of the last ten, whose views alone
// are built), so a flood of blocks costs the streams a bounded amount of work. Messages are written
// within their publication's view (a generation's reshapes read it too) and sent from the outbox,
// in order. A subscription's first message (the topic's state) goes through the same outbox,
// after every event it already contains and before every event it does not.
import type { Chain, ChainEvent } from '../../chain/chain.js';
import type { ReadView } from '../../chain/read_view.js';
import { formatAddress } from '../../core/address.js';
import type { PeerManager } from '../../p2p/peer_manager.js';
import { writeJson } from '../json.js';
import type { Generation } from '../generations/generation.js';
import type { NodeServices } from '../services.js';
import { AccountTopic } from './account_topic.js';
import { readAppended } from './appended.js';
import { ChainTopic } from './chain_topic.js';
import { ConnectionTopic } from './connection_topic.js';
import { CHAIN_DELTA_EVENTS, STREAM_EVENTS, type MinerCountView, type StreamEventBody, type StreamEventType } from './events.js';
import { STREAM_GENERATIONS, adaptMessage } from './generation.js';
import { LogTopic, type LogSource } from './log_topic.js';
import { MinerWindow } from './miner_window.js';
import { CLOSE_INTERNAL, type Subscriber } from './subscriber.js';

export type { LogSource };

/** The least time between two publications of chain changes. */
export const FLUSH_MS = 100;

export type Topic = 'chain' | 'connection' | 'log' | 'minerdist' | 'account';
export const TOPICS: readonly Topic[] = ['chain', 'connection', 'log', 'minerdist', 'account'];

/** What settled chain changes did, merged, until they are published. */
interface Changes {
  appended: number[];
  rollbackTo: number | null;
}

const noChanges = (): Changes => ({ appended: [], rollbackTo: null });

export class StreamHub {
  private readonly topics = new Map<Exclude<Topic, 'account'>, Set<Subscriber>>(
    (['chain', 'connection', 'log', 'minerdist'] as const).map((t) => [t, new Set<Subscriber>()]),
  );
  /** Account subscribers by address (48 hex). */
  private readonly accounts = new Map<string, Set<Subscriber>>();
  private readonly deltaSubscribers = new Set<Subscriber>();

  private readonly chainTopic = new ChainTopic();
  private readonly accountTopic: AccountTopic;
  private readonly connectionTopic = new ConnectionTopic();
  private readonly logTopic: LogTopic;
  /** Loaded at the first `minerdist` subscription. */
  private miners: MinerWindow | null = null;

  // Loads of a topic's state, at its first subscription.
  private chainLoading: Promise<void> | null = null;
  private minersLoading: Promise<void> | null = null;
  // What subscribers were last told, changed in outbox order: a new subscriber starts from it.
  /** `chain.state` as sent, written once for every subscriber that asks (a subscribe flood costs no rendering). */
  private chainStateText: Buffer | null = null;
  private minerCounts: MinerCountView[] = [];

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

  constructor(node: NodeServices, logs: LogSource) {
    const chain = (this.chain = node.chain);
    this.generation = STREAM_GENERATIONS[node.config.api ?? 'contract'];
    this.accountTopic = new AccountTopic(() => node.mempool.pool);
    this.logTopic = new LogTopic(logs);
    chain.onChange((e) => this.chainChanged(e));
    chain.onBeforeRollback((b) => (this.accounts.size ? chain.read((view) => this.accountTopic.rollingBack(view, b)) : Promise.resolve()));
    chain.onSettled(async () => this.settled());
    // The log and the peers are read when they change, not from the chain: sent as they come.
    this.logTopic.watch(
      () => this.topics.get('log')!.size > 0,
      (line) => this.broadcastNow('log', 'log.line', line),
    );
  }

  /** Reports peers joining and leaving to `connection` subscribers. */
  attachPeers(manager: PeerManager): void {
    this.connectionTopic.attach(
      manager,
      () => this.topics.get('connection')!.size > 0,
      (e) => this.broadcastNow('connection', e.type, e.event),
    );
  }

  // ---- subscriptions ----

  /** Subscribes `sub` to a `/stream` topic; its state is sent first (clients.md §6.1). */
  subscribe(sub: Subscriber, topic: Topic, address?: Uint8Array): void {
    switch (topic) {
      case 'chain':
        this.ensureChain()
          .then(() => this.published())
          .then(
            () =>
              this.post(() => {
                if (!sub.open) return;
                sub.send(this.chainStateText!);
                this.topics.get('chain')!.add(sub);
              }),
            (e) => this.failed(sub, e),
          );
        return;
      case 'minerdist':
        this.ensureMiners().then(
          () =>
            this.post(() => {
              if (!sub.open) return;
              sub.send(this.textNow('minerdist.state', { counts: this.minerCounts }));
              this.topics.get('minerdist')!.add(sub);
            }),
          (e) => this.failed(sub, e),
        );
        return;
      case 'connection':
        return this.post(() => {
          sub.send(this.textNow('connection.state', this.connectionTopic.state()));
          this.topics.get('connection')!.add(sub);
        });
      case 'log':
        return this.post(() => {
          sub.send(this.textNow('log.state', this.logTopic.state()));
          this.topics.get('log')!.add(sub);
        });
      case 'account': {
        const key = formatAddress(address!);
        return this.post(() => {
          sub.send(this.textNow('account.state', { address: key, history: [] }));
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
    this.post(() => {
      if (sub.open) this.deltaSubscribers.add(sub);
    });
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

  /** Loads the chain topic's state once, from one view. */
  private ensureChain(): Promise<void> {
    if (this.chainTopic.loaded) return Promise.resolve();
    this.chainLoading ??= this.chain
      .read(async (view) => {
        const text = this.text(view, 'chain.state', await this.chainTopic.load(view));
        this.post(() => {
          this.chainStateText = text;
        });
      })
      .finally(() => {
        this.chainLoading = null;
      });
    return this.chainLoading;
  }

  private ensureMiners(): Promise<void> {
    if (this.miners) return Promise.resolve();
    this.minersLoading ??= this.chain
      .read(async (view) => {
        this.miners = await MinerWindow.load(view);
        const counts = this.miners.state();
        this.post(() => {
          this.minerCounts = counts;
        });
      })
      .finally(() => {
        this.minersLoading = null;
      });
    return this.minersLoading;
  }

  // ---- chain changes (inside the change's turn) ----

  /** Some topic shows blocks or what is in them: appended heights are worth noting. */
  private get wantsBlocks(): boolean {
    return (
      this.chainTopic.loaded ||
      this.chainLoading !== null ||
      this.deltaSubscribers.size > 0 ||
      this.accounts.size > 0 ||
      this.miners !== null ||
      this.minersLoading !== null
    );
  }

  private chainChanged(e: ChainEvent): void {
    const c = this.change;
    if (e.kind === 'append') {
      if (this.wantsBlocks) c.appended.push(e.block.height);
    } else if (e.kind === 'rollback') {
      const len = e.block.height - 1;
      c.appended = c.appended.filter((h) => h <= len);
      c.rollbackTo = Math.min(c.rollbackTo ?? len, len);
    }
  }

  /** The end of a change: what it did joins the unpublished changes (nothing is read here). */
  private settled(): void {
    const c = this.change;
    this.change = noChanges();
    this.accountTopic.settle();
    if (!c.appended.length && c.rollbackTo === null) return;
    const u = this.unpublished;
    if (c.rollbackTo !== null) {
      u.appended = u.appended.filter((h) => h <= c.rollbackTo!);
      u.rollbackTo = Math.min(u.rollbackTo ?? c.rollbackTo, c.rollbackTo);
    }
    u.appended.push(...c.appended);
    this.settledSeq++;
    this.scheduleFlush();
  }

  /** Resolves once every change settled so far is published (a new subscription's state then has them). */
  private published(): Promise<void> {
    const seq = this.settledSeq;
    if (this.publishedSeq >= seq) return Promise.resolve();
    if (this.flushTimer && !this.flushing) {
      // no need to wait out the spacing for this
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
      this.flush().catch((e) => process.stderr.write(`stream publication failed: ${(e as Error)?.stack ?? e}\n`));
    }
    return new Promise((resolve) => this.publishedWaiters.push({ seq, resolve }));
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.flushing) return;
    this.flushTimer = setTimeout(
      () => {
        this.flushTimer = null;
        this.flush().catch((e) => process.stderr.write(`stream publication failed: ${(e as Error)?.stack ?? e}\n`));
      },
      Math.max(0, this.lastFlushMs + FLUSH_MS - Date.now()),
    );
  }

  /** Publishes the unpublished changes, each topic read from one read view of the chain as it is now (no lock). */
  private async flush(): Promise<void> {
    this.flushing = true;
    this.lastFlushMs = Date.now();
    const u = this.unpublished;
    const seq = this.settledSeq;
    this.unpublished = noChanges();
    try {
      await this.chain.read((view) => this.publish(view, u));
    } finally {
      this.flushing = false;
      this.publishedSeq = seq;
      const waiting = this.publishedWaiters.filter((w) => w.seq <= seq);
      this.publishedWaiters = this.publishedWaiters.filter((w) => w.seq > seq);
      for (const w of waiting) w.resolve();
      if (this.unpublished.appended.length || this.unpublished.rollbackTo !== null) this.scheduleFlush();
    }
  }

  /** One publication: every producer reads `view`; the messages are written on it and posted in order. */
  private async publish(view: ReadView, u: Changes): Promise<void> {
    const heights = u.appended.filter((h) => h <= view.length);
    const appended = await readAppended(view, heights, this.chainTopic.viewFrom(heights.length, this.deltaSubscribers.size > 0), this.accounts.size > 0);

    const chain = await this.chainTopic.publish(view, appended, u.rollbackTo, this.deltaSubscribers.size > 0);
    if (chain.state) {
      const text = this.text(view, 'chain.state', chain.state);
      this.post(() => {
        this.chainStateText = text;
      });
    }
    if (chain.event) this.broadcast('chain', this.text(view, chain.event.type, chain.event.event));
    if (chain.deltas.length) {
      const messages = chain.deltas.map((m) => this.deltaText(view, m.type, m.data));
      this.post(() => {
        for (const m of messages) for (const s of this.deltaSubscribers) s.send(m);
      });
    }

    if (this.miners) {
      const deltas = await this.miners.follow(view);
      const counts = this.miners.state();
      this.post(() => {
        this.minerCounts = counts;
      });
      if (deltas.length) this.broadcast('minerdist', this.text(view, 'minerdist.delta', { deltas }));
    }

    for (const address of this.accountTopic.touched(appended)) {
      if (!this.accounts.has(address)) continue;
      const text = this.text(view, 'account.delta', await this.accountTopic.delta(view, address, appended));
      this.post(() => {
        for (const s of this.accounts.get(address) ?? []) s.send(text);
      });
    }
  }

  // ---- delivery ----

  /** A `/stream` message, written on the view it was read from (a generation's reshapes read it too). */
  private text<K extends StreamEventType>(view: ReadView, type: K, event: StreamEventBody<K>): Buffer {
    return Buffer.from(writeJson(adaptMessage(this.generation, STREAM_EVENTS[type].schema, { event, type }, { params: {}, view })));
  }

  /** A message of a topic that is no chain data (states of log, connection, minerdist, account), written on the chain as it is. */
  private textNow<K extends StreamEventType>(type: K, event: StreamEventBody<K>): Buffer {
    return this.text(this.chain.view, type, event);
  }

  private deltaText(view: ReadView, type: keyof typeof CHAIN_DELTA_EVENTS, data: unknown): Buffer {
    return Buffer.from(writeJson(adaptMessage(this.generation, CHAIN_DELTA_EVENTS[type].schema, { type, data }, { params: {}, view })));
  }

  /** Sends a written message to a topic's subscribers, in outbox order. */
  private broadcast(topic: Exclude<Topic, 'account'>, text: Buffer): void {
    this.post(() => {
      for (const s of this.topics.get(topic)!) s.send(text);
    });
  }

  /** Writes and sends an event that is no chain data, in outbox order. */
  private broadcastNow<K extends StreamEventType>(topic: Exclude<Topic, 'account'>, type: K, event: StreamEventBody<K>): void {
    this.post(() => {
      const subs = this.topics.get(topic)!;
      if (subs.size) {
        const text = this.textNow(type, event);
        for (const s of subs) s.send(text);
      }
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
        try {
          j();
        } catch (e) {
          process.stderr.write(`stream delivery failed: ${(e as Error)?.stack ?? e}\n`);
        }
      }
    });
  }
}
