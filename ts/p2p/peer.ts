// A peer session over one connection (p2p.md §2.3): the Init exchange, the ping cycle, one tracked
// request at a time with nonce and timeouts, and dispatch of everything else to the host (the P2P
// service). Protocol violations throw NodeError, which closes the connection with that code.
import type { PeerSocket } from './transport/socket.js';
import { randomInt } from 'node:crypto';
import { NodeError, fail } from '../core/errors.js';
import { Connection, type CloseReason, type ConnectionOptions } from './connection.js';
import { capabilitiesOf, type Capabilities } from './dialect.js';
import { NO_PRIORITY, type PeerAddress, type Priority, type TxidWithFee } from './elements.js';
import { comparePriority, priorityOf, type SignedSnapshot, type VerifiedSnapshot } from '../consensus/signed_snapshot.js';
import type { Frame } from './framing.js';
import {
  decodeMessage,
  encodeMessage,
  isReply,
  isRequest,
  replyKind,
  type InitMsg,
  type Message,
  type PingMsg,
  type PongMsg,
  type Reply,
  type Request,
  type RollbackMsg,
  type TxrepMsg,
  type TxreqMsg,
} from './messages.js';
import { PeerChain } from './peer_chain.js';
import { LIMIT, MSG, TIMER } from './protocol.js';
import { Throttle } from './throttle.js';
import { PeerBudgets } from './budget.js';

/** What a session needs from the node. */
export interface PeerHost {
  /** Our Init for this peer, describing the announced chain. */
  ourInit(peer: Peer): InitMsg;
  /** The peer's Init was valid: it now receives announcements and may serve sync. */
  registered(peer: Peer): void;
  /** The peer's chain description changed (Append, Fork, Rollback). */
  chainUpdated(peer: Peer): void;
  serve(peer: Peer, req: Request): Promise<Reply>;
  /** Up to `max` mempool txids with fees for a pong. */
  pongSample(peer: Peer, max: number): TxidWithFee[];
  /** Up to `max` verified addresses for a pong (§4.1). */
  pongAddresses(peer: Peer, max: number): PeerAddress[];
  /** Addresses a peer offered in a pong (§4.1). */
  learned(peer: Peer, addresses: PeerAddress[]): void;
  /** The throttling slack (§3.8): heights the local chain lost in rollbacks plus minutes of uptime. */
  throttleSlack(): number;
  /** Txids a peer offered (Pong or Txnotify). */
  offered(peer: Peer, txids: TxidWithFee[]): void;
  txreq(peer: Peer, m: TxreqMsg): void;
  txrep(peer: Peer, m: TxrepMsg): void;
  /** Our signed-snapshot priority, sent in pings (§2.4). */
  ourPriority(): Priority;
  /** The signer must be a leader key (§3.6): EBADLEADER, ECORRUPTEDSIG. */
  verifySnapshot(s: SignedSnapshot): VerifiedSnapshot;
  /** A Leader message passed the priority checks: the node may keep the snapshot (§3.6). */
  leader(peer: Peer, s: VerifiedSnapshot): void;
  /** Checks that a SignedPinRollback is justified (EBADROLLBACK), before the peer's chain is cut (§2.4). */
  verifyRollback(peer: Peer, s: VerifiedSnapshot): void;
  /** The peer pinged us (its priority is recorded): a Leader message may be due (§3.6). */
  pinged(peer: Peer): void;
  /**
   * The ping nonce arriving here is one we sent on another connection: both are ends of one
   * connection to ourselves (through a proxy, a NAT or our own public address). True: handled.
   */
  ownPing(peer: Peer, nonce: number): boolean;
  closed(peer: Peer, reason: CloseReason): void;
}

/** A request before the session adds its nonce. */
export type RequestWithoutNonce = Request extends infer T ? (T extends Request ? Omit<T, 'nonce'> : never) : never;

/** A tracked request that got no answer within 30 s: the caller moves on, the slot stays taken. */
export class RequestExpired extends Error {}
/** The connection closed while a request was outstanding. */
export class PeerGone extends Error {}

interface Outstanding {
  nonce: number;
  kind: Reply['kind'];
  resolve(r: Reply): void;
  reject(e: Error): void;
  expired: boolean;
  timers: NodeJS.Timeout[];
}

/** Bytes of throttled messages one peer, and all peers together, may have waiting (beyond: EMSGFLOOD). */
const HELD_BYTES = 4_000_000;
const HELD_TOTAL = 64_000_000;
let heldAcrossPeers = 0;

const nonce = (): number => randomInt(0, 0x1_0000_0000);

export class Peer {
  readonly conn: Connection;
  /** The peer's announced chain, from its Init on. */
  chain: PeerChain | null = null;
  /** What the peer understands, from its handshake version (dialect.ts); every send is checked against it. */
  caps: Capabilities = capabilitiesOf({ major: 0, minor: 10, patch: 0 });
  /** Messages not sent because the peer does not know their code (a bug of the sender; never on the wire). */
  withheld = 0;
  private outstanding: Outstanding | null = null;
  private ping: { msg: PingMsg; timer: NodeJS.Timeout } | null = null;
  private nextPing: NodeJS.Timeout | null = null;
  private initTimer: NodeJS.Timeout | null = null;
  private lastPingReceived = -Infinity;
  private serving = 0;
  /** Budgets of this peer's transaction messages (budget.ts). */
  readonly budgets = new PeerBudgets();
  /** Txnotify and Txreq messages dropped unanswered: a bunch beyond their budget (budget.ts). */
  dropped = 0;
  /** Server-side throttling of this peer's requests (§3.8). */
  readonly throttle = new Throttle();
  /** Messages held by the throttle delay, with the time each may be processed. */
  private readonly held: { f: Frame; at: number }[] = [];
  private heldBytes = 0;
  private heldTimer: NodeJS.Timeout | null = null;
  /** Signed-snapshot priorities (§3.6): the highest the peer announced, and the highest it confirmed. */
  theirs: Priority = NO_PRIORITY;
  ack: Priority = NO_PRIORITY;
  /** Load-test mode (§6), driven by loadtest.ts. */
  loadtest: 'header' | 'block' | null = null;

  constructor(
    socket: PeerSocket,
    opts: ConnectionOptions,
    private readonly host: PeerHost,
    private readonly onReady: (p: Peer) => void,
  ) {
    this.conn = new Connection(socket, opts, {
      ready: () => this.start(),
      frame: (_c, f) => this.receive(f),
      closed: (_c, reason) => this.ended(reason),
    });
  }

  get id(): number {
    return this.conn.id;
  }
  get address(): string {
    return this.conn.address;
  }
  get initialized(): boolean {
    return this.chain !== null && !this.conn.closed;
  }
  /** True while one of our tracked requests awaits its reply (§2.3). */
  get busy(): boolean {
    return this.outstanding !== null;
  }

  /** Sends `m` unless the peer does not know its code: the reference bans for an unknown code (mainnet.md §5.2). */
  send(m: Message): void {
    const { type, payload } = encodeMessage(m);
    if (!this.caps.knows.has(type)) {
      this.withheld++;
      return;
    }
    this.conn.send(type, payload);
    // The peer may re-fetch near our new tip once more without being throttled for it (throttle.ts).
    if (m.kind === 'Init' || m.kind === 'Append' || m.kind === 'Fork' || m.kind === 'SignedPinRollback') this.throttle.announced(m.length);
  }

  close(e: NodeError): void {
    this.conn.close(e);
  }

  /**
   * Sends a tracked request; resolves with the matching reply. A load-test request expires after
   * 30 s (RequestExpired) and closes the connection after 150 s (§2.3). A sync request expires after
   * 10 s, and closes the connection after 25 s (ETIMEOUT when the peer was silent, ESLOWPEER when
   * it kept sending other bytes), unless its reply is arriving at TIMER.syncReplyRate or more
   * (TIMER.syncReply*): a peer that claims work cannot hold the sync for long.
   */
  request<R extends Reply>(req: RequestWithoutNonce): Promise<R> {
    if (this.outstanding) return Promise.reject(new Error('a request is already outstanding'));
    if (this.conn.closed) return Promise.reject(new PeerGone());
    const full = { ...req, nonce: nonce() } as Request;
    const sync = this.loadtest === null;
    return new Promise<R>((resolve, reject) => {
      const o: Outstanding = { nonce: full.nonce, kind: replyKind(full.kind), resolve: resolve as (r: Reply) => void, reject, expired: false, timers: [] };
      const arriving = () => this.conn.receivingType === MSG[o.kind];
      // Runs `then` unless the reply's frame is arriving, re-checked every second while it keeps the rate.
      // (Frames do not interleave: what the connection receives meanwhile is the reply.)
      const unlessArriving = (then: () => void) => {
        if (!arriving()) return then();
        const rx = this.conn.rxBytes;
        o.timers.push(setTimeout(() => (this.conn.rxBytes - rx >= TIMER.syncReplyRate ? unlessArriving(then) : then()), 1_000));
      };
      const expire = () => {
        o.expired = true;
        reject(new RequestExpired());
      };
      if (sync) {
        o.timers.push(setTimeout(() => unlessArriving(expire), TIMER.syncReplyExpiry));
        const rxAtSend = this.conn.rxBytes;
        const giveUp = () => {
          const sent = this.conn.rxBytes - rxAtSend;
          const why = `${o.kind} not arriving within 25 s (${sent} bytes received meanwhile)`;
          this.close(new NodeError(sent >= TIMER.syncReplyAlive ? 'ESLOWPEER' : 'ETIMEOUT', why));
        };
        o.timers.push(setTimeout(() => unlessArriving(giveUp), TIMER.syncReplyStart));
      } else {
        o.timers.push(setTimeout(expire, TIMER.requestExpiry));
      }
      o.timers.push(setTimeout(() => this.close(new NodeError('ETIMEOUT', `no ${o.kind}`)), TIMER.requestHardTimeout));
      this.outstanding = o;
      this.send(full);
    });
  }

  /** A tracked request of ours expired unanswered: the peer takes no part in sync until it answers. */
  get stalled(): boolean {
    return this.outstanding?.expired ?? false;
  }

  private start(): void {
    this.caps = capabilitiesOf(this.conn.peerVersion!);
    this.onReady(this);
    if (this.conn.closed) return;
    this.send(this.host.ourInit(this));
    this.initTimer = setTimeout(() => this.close(new NodeError('ETIMEOUT', 'no Init within 30 s')), TIMER.init);
  }

  /** Every message but Init waits the throttle delay in the incoming queue (§2.3, §3.8). */
  private receive(f: Frame): void {
    const now = Date.now();
    const delay = this.chain ? this.throttle.delayMs(now) : 0;
    // A ping is answered at once: the peer's pong deadline (60 s at 0.8.x) is shorter than the queue can hold.
    if ((delay === 0 && this.held.length === 0) || f.type === MSG.Ping || f.type === MSG.PingV2) return this.process(f);
    if (this.held.length >= LIMIT.inboundQueue) fail('EMSGFLOOD', 'incoming queue full');
    const size = f.payload.length;
    if (this.heldBytes + size > HELD_BYTES || heldAcrossPeers + size > HELD_TOTAL) fail('EMSGFLOOD', 'incoming queue bytes');
    this.hold(size);
    this.held.push({ f, at: now + delay });
    this.drainLater();
  }

  private drainLater(): void {
    if (this.heldTimer || this.held.length === 0) return;
    this.heldTimer = setTimeout(
      () => {
        this.heldTimer = null;
        const next = this.held[0];
        if (this.conn.closed || !next) return;
        if (next.at > Date.now()) return this.drainLater();
        this.held.shift();
        this.hold(-next.f.payload.length);
        try {
          this.process(next.f);
        } catch (e) {
          return this.close(e instanceof NodeError ? e : new NodeError('EBUG', String((e as Error)?.stack ?? e)));
        }
        this.drainLater();
      },
      Math.max(0, this.held[0].at - Date.now()),
    );
  }

  private hold(bytes: number): void {
    this.heldBytes += bytes;
    heldAcrossPeers += bytes;
  }

  /**
   * Charges a Txnotify or Txreq to the peer's budgets by its size, before the cost of decoding it:
   * false when it is to be dropped (a bunch beyond the bucket), EMSGFLOOD beyond that (budget.ts).
   */
  private charge(f: Frame): boolean {
    const b = this.budgets;
    if (f.type === MSG.Txnotify) {
      const ids = Math.max(0, Math.floor((f.payload.length - 6) / 18)); // nonce, count, 18 bytes each
      return b.notifyMessages.spendOrDrop(1, 'Txnotify messages') && b.notifyIds.spendOrDrop(ids, 'txids offered');
    }
    if (f.type === MSG.Txreq) {
      const ids = Math.max(0, Math.floor((f.payload.length - 4) / 16)); // nonce, 16 bytes each
      return b.requestMessages.spendOrDrop(1, 'Txreq messages') && b.requestIds.spendOrDrop(ids, 'ids requested');
    }
    return true;
  }

  private process(f: Frame): void {
    if (!this.charge(f)) {
      this.dropped++;
      return;
    }
    const m = decodeMessage(f.type, f.payload);
    if (m.kind === 'Init') return this.onInit(m, f.type);
    if (!this.chain) fail('ENOINIT', `got ${m.kind}`);
    const now = Date.now();
    switch (m.kind) {
      case 'Append':
        this.chain!.append(m);
        this.host.chainUpdated(this);
        return;
      case 'Fork':
        this.chain!.fork(m, now);
        this.host.chainUpdated(this);
        return;
      case 'SignedPinRollback':
        return this.onRollback(m, now);
      case 'Ping':
        return this.onPing(m, now);
      case 'Pong':
        return this.onPong(m);
      case 'Txnotify':
        return this.host.offered(this, m.txids);
      case 'Txreq':
        return this.host.txreq(this, m);
      case 'Txrep':
        this.budgets.replyTxs.spend(
          m.txs.reduce((n, t) => n + (t ? 1 : 0), 0),
          'transactions in Txrep',
        );
        return this.host.txrep(this, m);
      case 'Leader':
        return this.onLeader(m.snapshot);
    }
    if (isRequest(m)) return this.serve(m);
    if (isReply(m)) return this.onReply(m);
  }

  private onInit(m: InitMsg, type: number): void {
    if (this.chain) fail('EINVINIT');
    // Which Init a peer may send depends on its dialect (§2.6, §8 item 1).
    // A newer peer may send InitV3 or type 0 with or without the flags byte.
    if (!this.caps.initV3) {
      if (m.v3) fail('EINITV3', `type ${type} from a ${this.caps.dialect} peer`);
      if (m.flags !== null) fail('EMSGINTEGRITY0', 'InitV1 with a flags byte');
    }
    this.chain = PeerChain.fromInit(m);
    clearTimeout(this.initTimer!);
    this.initTimer = null;
    this.host.registered(this);
    this.sendPing();
  }

  private sendPing(): void {
    this.nextPing = null;
    if (this.conn.closed) return;
    const msg: PingMsg = {
      kind: 'Ping',
      v2: this.caps.pingV2,
      nonce: nonce(),
      priority: this.host.ourPriority(),
      maxAddresses: this.conn.transport === 'tcp' ? LIMIT.pingAddresses : 0,
      maxTransactions: LIMIT.pingTransactions,
      ndiscard: 0,
    };
    const deadline = this.caps.pongDeadlineMs;
    this.ping = { msg, timer: setTimeout(() => this.close(new NodeError('ETIMEOUT', `no pong within ${deadline / 1000} s`)), deadline) };
    this.send(msg);
  }

  /** The nonce of our ping awaiting its pong, if any. */
  get pingNonce(): number | null {
    return this.ping?.msg.nonce ?? null;
  }

  private onPing(m: PingMsg, now: number): void {
    if (this.host.ownPing(this, m.nonce)) return;
    if (now - this.lastPingReceived < TIMER.minPingSpacing) fail('EMSGFLOOD', 'pings less than 5 s apart');
    this.lastPingReceived = now;
    if (m.ndiscard !== 0) fail('ERTCDISCARD_FA');
    if (higher(m.priority, this.theirs)) this.theirs = m.priority;
    const txids = this.host.pongSample(this, m.maxTransactions);
    // Addresses travel only over TCP (§2.4 Pong).
    const addresses = this.conn.transport === 'tcp' ? this.host.pongAddresses(this, Math.min(m.maxAddresses, LIMIT.pongAddresses)) : [];
    this.send({ kind: 'Pong', v2: m.v2, nonce: m.nonce, addresses, txids });
    this.host.pinged(this);
  }

  /** Leader (§2.4 code 16, §3.6): a leader key's snapshot above everything exchanged so far. */
  private onLeader(snapshot: SignedSnapshot): void {
    const s = this.host.verifySnapshot(snapshot);
    const p = priorityOf(s);
    if (comparePriority(p, this.ack) <= 0) fail('ELOWPRIORITY', `snapshot priority (${p.importance}, ${p.height})`);
    this.ack = p;
    if (higher(p, this.theirs)) this.theirs = p;
    this.host.leader(this, s);
  }

  /** SignedPinRollback (§2.4 code 3): a justified cut of the peer's chain. */
  private onRollback(m: RollbackMsg, now: number): void {
    const s = this.host.verifySnapshot(m.snapshot);
    this.host.verifyRollback(this, s);
    this.chain!.rollback(m, now);
    this.host.chainUpdated(this);
  }

  private onPong(m: PongMsg): void {
    const p = this.ping;
    if (!p || p.msg.v2 !== m.v2 || p.msg.nonce !== m.nonce) fail('EUNREQUESTED', 'pong');
    if (m.addresses.length > p!.msg.maxAddresses || m.txids.length > p!.msg.maxTransactions) fail('ERESTRICTED', 'pong exceeds the ping limits');
    clearTimeout(p!.timer);
    this.ping = null;
    this.nextPing = setTimeout(() => this.sendPing(), TIMER.pingInterval);
    if (higher(p!.msg.priority, this.ack)) this.ack = p!.msg.priority;
    if (m.addresses.length) this.host.learned(this, m.addresses);
    if (m.txids.length) this.host.offered(this, m.txids);
  }

  private serve(req: Request): void {
    if (++this.serving > LIMIT.inboundQueue) fail('EMSGFLOOD', 'too many requests in flight');
    if (req.kind === 'Batchreq') this.throttle.request('headers', req.start, req.start + req.count - 1, this.host.throttleSlack(), Date.now());
    if (req.kind === 'Blockreq') this.throttle.request('blocks', req.first, req.last, this.host.throttleSlack(), Date.now());
    this.host.serve(this, req).then(
      (reply) => {
        this.serving--;
        this.send(reply);
      },
      (e) => {
        this.serving--;
        this.close(e instanceof NodeError ? e : new NodeError('EBUG', String(e)));
      },
    );
  }

  private onReply(m: Reply): void {
    const o = this.outstanding;
    if (!o || o.kind !== m.kind || o.nonce !== m.nonce) fail('EUNREQUESTED', m.kind);
    for (const t of o!.timers) clearTimeout(t);
    this.outstanding = null;
    if (!o!.expired) o!.resolve(m); // a late reply is accepted and dropped
  }

  private ended(reason: CloseReason): void {
    for (const t of [this.initTimer, this.nextPing, this.ping?.timer, this.heldTimer, ...(this.outstanding?.timers ?? [])]) if (t) clearTimeout(t);
    this.hold(-this.heldBytes);
    const o = this.outstanding;
    this.outstanding = null;
    if (o && !o.expired) o.reject(new PeerGone());
    this.host.closed(this, reason);
  }
}

/** Priorities compare as (importance, height) (§3.6). */
function higher(a: Priority, b: Priority): boolean {
  return comparePriority(a, b) > 0;
}
