// Transaction propagation (p2p.md §5): pongs carry a random sample of our best-paying txids; a
// peer's offered txids (Pong or Txnotify) are requested with Txreq when new and paying at least our
// minimum fee, or when they replace one of ours with a higher fee; Txrep entries go through normal
// mempool admission and failures are dropped silently. Beyond the reference (which never pushes),
// new mempool transactions are pushed with Txnotify to the peers that parse it. What each peer gets
// (reply code, transaction types, pushes) is its capability table's (dialect.ts).
import { randomInt } from 'node:crypto';
import { transactionIdKey, assetNameOf, type TransactionId } from '../core/transaction.js';
import { fee16Decode } from '../kernel/fee16.js';
import { priceFromBytes } from '../kernel/price.js';
import type { SignedRequest } from '../mempool/admission.js';
import type { PendingTx } from '../mempool/pending.js';
import type { MempoolService } from '../mempool/service.js';
import type { TxidWithFee } from './elements.js';
import { OUR_REQUESTS, RateBudget } from './budget.js';
import type { TxrepMsg, TxreqMsg } from './messages.js';
import type { Peer } from './peer.js';
import { LIMIT } from './protocol.js';
import { MEMPOOL_CAPACITY } from '../mempool/mempool.js';
import type { WireTransaction } from './tx_message.js';
import { flat } from '../core/flat_string.js';

const REJECTED_MS = 60_000; // a refused (txid, fee) is not requested again for this long, or until the chain changes
const INFLIGHT_MS = 10_000; // an unanswered Txreq stops counting against its peer's in-flight cap after this
// An id asked of one peer is asked of the next peer that offered it when the first has not answered
// within this (or answered without it, or closed): a slowed or overloaded peer must not hold a
// transaction back from the whole network (Bitcoin Core re-asks after its 60 s timeout, and delays
// non-preferred peers by 2 s; found by scripts/network.mjs: relays of 28–46 s behind one slowed link).
const RETRY_MS = 2_000;
const MAX_ALTERNATES = 4; // other offerers remembered per id in flight
const MAX_PRECISION = 18;
// Memory caps (README "Peer budgets"): per peer and across peers, whatever a peer can make us hold.
const PEER_INFLIGHT = LIMIT.maxTxIds; // ids asked of one peer and unanswered: one full Txreq
const TOTAL_INFLIGHT = 20_000;
const REJECTED_LIMIT = 50_000;
const PEER_KNOWN = MEMPOOL_CAPACITY; // (txid, fee) a peer is known to have: more is never pushed
const TOTAL_KNOWN = 200_000;
const PEER_DEFERRED = LIMIT.maxTxIds; // offered ids kept while behind
const TOTAL_DEFERRED = 20_000;
const TOTAL_ADMITTING = 20_000; // received transactions waiting for admission
/** Txids pushed per call (every 500 ms, service.ts): 1,600 a second, within the 2,000 a peer allows (budget.ts). */
const PUSH_PER_CALL = 800;

/** The relay's key of an offer: the id's key (`transactionIdKey`) and the fee code. */
const feeKey = (idKey: string, feeCode: number) => flat(`${idKey}/${feeCode}`);
const keyOf = (id: TransactionId, feeCode: number) => feeKey(transactionIdKey(id), feeCode);
const txIdOf = (tx: PendingTx): TransactionId => ({ accountId: tx.originId, pinHeight: tx.pinHeight, nonceId: tx.nonceId });

/** Keys that expire a fixed time after being set, in insertion (= expiry) order, at most `limit` (oldest go first). */
class ExpiringKeys {
  private readonly until = new Map<string, number>();
  constructor(
    private readonly ttlMs: number,
    private readonly limit: number,
  ) {}
  get size(): number {
    return this.until.size;
  }
  has(k: string, now: number): boolean {
    return (this.until.get(k) ?? 0) > now;
  }
  set(k: string, now: number): void {
    this.until.delete(k);
    this.until.set(k, now + this.ttlMs);
    if (this.until.size > this.limit) this.until.delete(this.until.keys().next().value!);
  }
  delete(k: string): void {
    this.until.delete(k);
  }
  clear(): void {
    this.until.clear();
  }
  /** Drops the expired keys: O(dropped). */
  prune(now: number): void {
    for (const [k, t] of this.until) {
      if (t > now) break;
      this.until.delete(k);
    }
  }
}

/** An id we asked one peer for and have not received yet. */
interface Inflight {
  readonly id: TransactionId;
  readonly feeCode: number;
  /** The peer asked, and when (`due` is when to ask the next offerer instead). */
  from: Peer;
  due: number;
  /** Other peers that offered it meanwhile, next to ask (MAX_ALTERNATES at most). */
  readonly alternates: Peer[];
}

/** Ids in flight by key (txid/fee), at most TOTAL_INFLIGHT (the oldest go first). */
class InflightIds {
  private readonly byKey = new Map<string, Inflight>();
  get size(): number {
    return this.byKey.size;
  }
  get(k: string): Inflight | undefined {
    return this.byKey.get(k);
  }
  /** Records `k` as asked of `from` now. */
  asked(k: string, id: TransactionId, feeCode: number, from: Peer, now: number): void {
    const prior = this.byKey.get(k);
    this.byKey.delete(k);
    const alternates = prior ? prior.alternates.filter((p) => p !== from) : [];
    this.byKey.set(k, { id, feeCode, from, due: now + RETRY_MS, alternates });
    if (this.byKey.size > TOTAL_INFLIGHT) this.byKey.delete(this.byKey.keys().next().value!);
  }
  delete(k: string): void {
    this.byKey.delete(k);
  }
  /** Drops the ids asked INFLIGHT_MS ago or more and no one else offered: O(dropped). */
  prune(now: number): void {
    for (const [k, e] of this.byKey) {
      if (e.due - RETRY_MS + INFLIGHT_MS > now) break;
      if (!e.alternates.length) this.byKey.delete(k);
    }
  }
  /** The ids due for asking elsewhere (late, or their peer answered without them or left), each with the next offerer still connected. */
  *due(now: number): Generator<[string, Inflight, Peer]> {
    for (const [k, e] of this.byKey) {
      if (e.due > now && !e.from.conn.closed) continue;
      let next: Peer | undefined;
      while ((next = e.alternates.shift()) && next.conn.closed);
      if (next) yield [k, e, next];
    }
  }
}

/** What the relay holds for one peer; every part is capped. */
interface PeerTxState {
  /** Keys (txid/fee) the peer has or was told of: not pushed to it again. */
  readonly known: Set<string>;
  /** Our unanswered Txreqs to the peer, by nonce, oldest first. */
  readonly requests: Map<number, { keys: string[]; until: number }>;
  /** Ids in `requests`. */
  inflight: number;
  /** Ids of its offers waiting in `deferred`. */
  deferred: number;
  /** Our Txreqs to the peer, within what it allows (budget.ts OUR_REQUESTS). */
  readonly requestBudget: RateBudget;
  /** Offered ids waiting for the budget (PEER_DEFERRED at most): asked for together in the next Txreq. */
  held: TxidWithFee[];
}

export function toWire(tx: PendingTx): WireTransaction {
  return { id: txIdOf(tx), reserved: new Uint8Array(3), feeCode: tx.feeCode, payload: tx.payload, signature: tx.signature };
}

/** The admission request of a received transaction, or null when its fields are invalid. */
export function fromWire(t: WireTransaction): SignedRequest | null {
  const p = t.payload;
  if (p.type === 'assetCreation' && (p.precision > MAX_PRECISION || assetNameOf(p.name) === null)) return null;
  if (p.type === 'limitSwap' && !priceFromBytes(p.limit)) return null;
  return { payload: p, pinHeight: t.id.pinHeight, nonceId: t.id.nonceId, feeCode: t.feeCode, feeE8: fee16Decode(t.feeCode), signature: t.signature };
}

/** Transactions relayed since start (the `/metrics` relay counters). */
export interface RelayCounts {
  /** Transactions in the Txrep replies peers sent us. */
  received: number;
  /** Transactions in our Txrep replies to peers. */
  sent: number;
  /** Received ones the mempool admitted. */
  accepted: number;
  /** Received ones the mempool refused. */
  refused: number;
}

export class TxRelay {
  readonly counts: RelayCounts = { received: 0, sent: 0, accepted: 0, refused: 0 };
  private readonly rejected = new ExpiringKeys(REJECTED_MS, REJECTED_LIMIT);
  private readonly inflight = new InflightIds();
  private readonly peers = new Map<Peer, PeerTxState>();
  private admitting: Promise<void> = Promise.resolve();
  private admittingCount = 0;
  private deferred: { peer: Peer; txids: TxidWithFee[] }[] = [];
  private deferredCount = 0;
  /** Transactions that entered the mempool and wait for their push. */
  private backlog: PendingTx[] = [];

  constructor(
    private readonly mempool: MempoolService,
    private readonly log: (line: string) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  /** Pong sample: up to `max` txids drawn at random from the 800 highest-fee entries (§2.4 Pong). */
  sample(peer: Peer, max: number): TxidWithFee[] {
    let top = this.mempool.pool.highest(LIMIT.pongSampleFrom);
    if (!peer.caps.tokens) top = top.filter((t) => t.payload.type === 'coinTransfer');
    for (let i = 0; i < Math.min(max, top.length); i++) {
      const j = i + randomInt(top.length - i);
      [top[i], top[j]] = [top[j], top[i]];
    }
    const out = top.slice(0, max).map((t) => ({ id: txIdOf(t), feeCode: t.feeCode }));
    const st = this.state(peer);
    for (const t of out) this.markKnown(st, keyOf(t.id, t.feeCode));
    return out;
  }

  /**
   * Requests the offered txids we want (§5 "Filtering"), within the in-flight caps (ids beyond them
   * are not requested; the peer's budgets were charged on receipt, peer.ts). While the node is behind
   * its peers the offers wait (their pins and senders may be in blocks still to come) until
   * `caughtUp()`. Costs O(offered ids), whatever the mempool's size.
   */
  offered(peer: Peer, txids: TxidWithFee[], behind = false): void {
    const st = this.state(peer);
    if (!behind) return this.request(peer, st, txids);
    const room = Math.min(PEER_DEFERRED - st.deferred, TOTAL_DEFERRED - this.deferredCount);
    if (room <= 0) return;
    const kept = txids.length > room ? txids.slice(0, room) : txids;
    st.deferred += kept.length;
    this.deferredCount += kept.length;
    this.deferred.push({ peer, txids: kept });
  }

  /**
   * Asks the peer for the offered ids we want in one Txreq — or, when our Txreqs to it are spent
   * (its budget for them: budget.ts; a node catching up considers many offers at once), holds them
   * for the next call of `push` (every 500 ms), which asks for everything held in one Txreq.
   */
  private request(peer: Peer, st: PeerTxState, txids: TxidWithFee[], now = this.now()): void {
    if (st.held.length) {
      txids = [...st.held, ...txids];
      st.held = [];
    }
    if (!txids.length) return;
    if (!st.requestBudget.take(1, now)) {
      st.held = txids.length > PEER_DEFERRED ? txids.slice(0, PEER_DEFERRED) : txids;
      return;
    }
    this.expire(st, now);
    this.inflight.prune(now);
    this.rejected.prune(now);
    const pool = this.mempool.pool;
    const min = this.mempool.minFeeCode;
    const want: TransactionId[] = [];
    const keys: string[] = [];
    for (const t of txids) {
      if (st.inflight + want.length >= PEER_INFLIGHT || this.inflight.size >= TOTAL_INFLIGHT) break;
      const idKey = transactionIdKey(t.id);
      const k = feeKey(idKey, t.feeCode);
      const have = pool.byIdKey(idKey);
      if (have) this.markKnown(st, k);
      if (this.rejected.has(k, now) || !(have === undefined ? t.feeCode >= min : t.feeCode > have.feeCode)) continue;
      const flying = this.inflight.get(k);
      if (flying && (flying.from === peer || (flying.due > now && !flying.from.conn.closed))) {
        // Asked of another peer lately: this one is asked next if that one is slow (RETRY_MS).
        if (flying.from !== peer && flying.alternates.length < MAX_ALTERNATES && !flying.alternates.includes(peer)) flying.alternates.push(peer);
        continue;
      }
      want.push(t.id);
      keys.push(k);
      this.inflight.asked(k, t.id, t.feeCode, peer, now);
      this.markKnown(st, k);
    }
    if (!want.length) return;
    let n = nonce();
    while (st.requests.has(n)) n = nonce();
    st.requests.set(n, { keys, until: now + INFLIGHT_MS });
    st.inflight += keys.length;
    peer.send({ kind: 'Txreq', nonce: n, ids: want });
  }

  /**
   * Answers a Txreq with one optional entry per id, in request order (§2.4 code 14), in the reply
   * the peer knows: before 0.10 the legacy reply, where only coin transfers can be present
   * (mainnet.md §8 #1).
   */
  answer(peer: Peer, m: TxreqMsg): void {
    const st = this.state(peer);
    const pool = this.mempool.pool;
    const txs = m.ids.map((id) => {
      const idKey = transactionIdKey(id);
      const found = pool.byIdKey(idKey);
      const t = found && (peer.caps.tokens || found.payload.type === 'coinTransfer') ? found : undefined;
      if (t) this.markKnown(st, feeKey(idKey, t.feeCode));
      return t ? toWire(t) : null;
    });
    for (const t of txs) if (t) this.counts.sent++;
    peer.send({ kind: 'Txrep', legacy: peer.caps.txrep === 'LegacyTxrep', nonce: m.nonce, txs });
  }

  /**
   * Admits the transactions of a Txrep one by one; refusals are silent (§5). Only what our Txreq
   * with that nonce asked for is admitted: the reference admits unrequested entries too, but never
   * sends any, and each costs a signature check. Entries we hold (with at least that fee) or refused
   * lately are skipped; while the admission queue is full (TOTAL_ADMITTING) further replies are dropped.
   */
  receive(peer: Peer, m: TxrepMsg): void {
    const st = this.state(peer);
    const now = this.now();
    const got = m.txs.filter((t): t is WireTransaction => t !== null);
    const gotKeys = got.map((t) => keyOf(t.id, t.feeCode));
    this.counts.received += got.length;
    const n = this.requestOf(st, m, gotKeys);
    const asked = new Set(n === null ? [] : st.requests.get(n)!.keys);
    if (n !== null) this.answered(peer, st, n, new Set(gotKeys), now);
    const pool = this.mempool.pool;
    const fresh = got.filter((t, i) => {
      const k = gotKeys[i];
      this.markKnown(st, k);
      const have = pool.byIdKey(transactionIdKey(t.id));
      return asked.has(k) && !this.rejected.has(k, now) && !(have && have.feeCode >= t.feeCode);
    });
    if (!fresh.length || this.admittingCount + fresh.length > TOTAL_ADMITTING) return;
    this.admittingCount += fresh.length;
    this.admitting = this.admitting.then(async () => {
      let added = 0;
      for (const t of fresh) {
        const k = keyOf(t.id, t.feeCode);
        try {
          const req = fromWire(t);
          if (!req) throw new Error('invalid fields');
          const tx = await this.mempool.add(req);
          // The sender is recovered from the signature; the id's account must be it (EFAKEACCID).
          if (tx.originId !== t.id.accountId) {
            this.mempool.pool.remove(tx);
            throw new Error('fake account id');
          }
          added++;
          this.counts.accepted++;
        } catch {
          this.counts.refused++;
          this.rejected.set(k, this.now());
        } finally {
          this.admittingCount--;
        }
      }
      if (added) this.log(`Added ${added} transaction(s) from peer ${peer.address}`);
    });
  }

  /** The node has caught up with its peers: the offers made meanwhile are considered now. */
  caughtUp(): void {
    const offers = this.deferred;
    this.deferred = [];
    this.deferredCount = 0;
    const byPeer = new Map<Peer, TxidWithFee[]>();
    for (const o of offers) {
      const list = byPeer.get(o.peer);
      if (list) list.push(...o.txids);
      else byPeer.set(o.peer, [...o.txids]);
    }
    for (const [peer, txids] of byPeer) {
      const st = this.peers.get(peer);
      if (!st) continue;
      st.deferred = 0;
      if (!peer.conn.closed) this.request(peer, st, txids);
    }
  }

  /** After a chain change, refused transactions may have become valid (pin, sender, balance). */
  chainChanged(): void {
    this.rejected.clear();
  }

  /** The peer's connection closed: what the relay held for it goes. */
  forget(peer: Peer): void {
    this.peers.delete(peer);
  }

  /**
   * Pushes the transactions that entered the mempool since the last push to the peers that do not
   * know them (Txnotify), at most PUSH_PER_CALL a call (one message), so that even a reorg returning
   * a mempool's worth stays within what our peers allow (budget.ts); the rest waits for the next call.
   */
  push(peers: Peer[]): void {
    const now = this.now();
    this.retry(now);
    for (const [peer, st] of this.peers) if (st.held.length && !peer.conn.closed) this.request(peer, st, [], now);
    const pool = this.mempool.pool;
    const waiting = [...this.backlog, ...pool.takeAdded()].filter((t) => pool.byIdKey(transactionIdKey(txIdOf(t))) === t);
    const fresh = waiting.slice(0, PUSH_PER_CALL);
    this.backlog = waiting.slice(PUSH_PER_CALL, PUSH_PER_CALL + MEMPOOL_CAPACITY);
    if (!fresh.length) return;
    // Peers before 0.10 are not pushed to (their Txnotify parser fails, mainnet.md §5.2): they pull from pongs.
    for (const peer of peers.filter((p) => p.caps.txnotify)) {
      const st = this.state(peer);
      const txids = fresh
        .filter((t) => !st.known.has(keyOf(txIdOf(t), t.feeCode)))
        .filter((t) => peer.caps.tokens || t.payload.type === 'coinTransfer')
        .map((t) => ({ id: txIdOf(t), feeCode: t.feeCode }));
      if (!txids.length) continue;
      for (const t of txids) this.markKnown(st, keyOf(t.id, t.feeCode));
      peer.send({ kind: 'Txnotify', nonce: nonce(), txids });
    }
  }

  /** Asks the next offerer for the ids in flight whose peer is late, answered without them, or left (RETRY_MS). */
  private retry(now: number): void {
    const byPeer = new Map<Peer, TxidWithFee[]>();
    for (const [, e, next] of this.inflight.due(now)) {
      const list = byPeer.get(next);
      if (list) list.push({ id: e.id, feeCode: e.feeCode });
      else byPeer.set(next, [{ id: e.id, feeCode: e.feeCode }]);
    }
    for (const [peer, txids] of byPeer) this.request(peer, this.state(peer), txids, now);
  }

  private state(peer: Peer): PeerTxState {
    let st = this.peers.get(peer);
    if (!st)
      this.peers.set(
        peer,
        (st = { known: new Set(), requests: new Map(), inflight: 0, deferred: 0, requestBudget: new RateBudget(OUR_REQUESTS, this.now()), held: [] }),
      );
    return st;
  }

  /**
   * The nonce of the Txreq `m` answers. 0.8.x answers with a fresh random nonce instead of the
   * request's (recorded: test/vectors/p2p/ref-0.8.20-txrelay), so a legacy reply is matched by its
   * transactions instead: the one request that asked for all of them.
   */
  private requestOf(st: PeerTxState, m: TxrepMsg, keys: string[]): number | null {
    if (st.requests.has(m.nonce)) return m.nonce;
    if (!m.legacy || !keys.length) return null;
    for (const [n, r] of st.requests) {
      const asked = new Set(r.keys);
      if (keys.every((k) => asked.has(k))) return n;
    }
    return null;
  }

  /**
   * Our Txreq with this nonce was answered: what came is no longer in flight; what the peer did not
   * have is asked of the next peer that offered it, at the next push.
   */
  private answered(peer: Peer, st: PeerTxState, n: number, got: Set<string>, now: number): void {
    const r = st.requests.get(n);
    if (!r) return;
    st.requests.delete(n);
    st.inflight -= r.keys.length;
    for (const k of r.keys) {
      const e = this.inflight.get(k);
      if (e?.from !== peer) continue;
      if (got.has(k)) this.inflight.delete(k);
      else e.due = now;
    }
  }

  /** Drops the peer's Txreqs that went unanswered for INFLIGHT_MS (oldest first). */
  private expire(st: PeerTxState, now: number): void {
    for (const [n, r] of st.requests) {
      if (r.until > now) break;
      st.requests.delete(n);
      st.inflight -= r.keys.length;
    }
  }

  /** Records that the peer knows `key`; its set is cleared when it reaches its share of TOTAL_KNOWN. */
  private markKnown(st: PeerTxState, key: string): void {
    if (st.known.size >= Math.min(PEER_KNOWN, Math.floor(TOTAL_KNOWN / this.peers.size))) st.known.clear();
    st.known.add(key);
  }
}

const nonce = (): number => randomInt(0, 0x1_0000_0000);
