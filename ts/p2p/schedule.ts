// The connection schedule (p2p.md §4.2): every known TCP address is a feeler (unverified), a
// connected-verified or a disconnected-verified entry with a timer. Whenever the earliest timer is
// due, every due entry gets a connection attempt (no fixed number of outbound connections). The
// address book (entries, verified or not) is kept in the peers' records (peer_db.ts), so a restarted
// node dials its known peers again (§4.1 "loads recently seen peers"). No IP is dialled twice within
// 30 s: the reference admits one new connection per IP per 30 s (mainnet.md §5.2, ECONNRATELIMIT), so
// an earlier redial would only be refused; loopback is exempt there, and here.
import { isLoopback } from './bans.js';
import type { PeerEndpoint } from './network.js';
import type { PeerDb } from './peer_db.js';

const BACKOFF_START_MS = 200;
const BACKOFF_GROWS_BELOW_MS = 60_000; // doubles while below 1 min: stops at 102.4 s
// A pinned peer (--connect) is retried at least every 5 s (Bitcoin Core retries -connect peers every
// 0.5 s): after a partition of a minute, the reference's 102.4 s left a healed node cut off from the
// peers it was told to use for as long again (issue 28, run 5). Remote IPs still wait PER_IP_MS.
const PINNED_BACKOFF_MAX_MS = 5_000;
const DUPLICATE_DELAY_MS = 10 * 60_000; // closed as a duplicate or evicted
const BAN_DELAY_MS = 20 * 60_000; // closed with a banning error
const SLOW_DELAY_MS = 60_000; // closed as too slow to answer the sync (ESLOWPEER), unless pinned
const RECONNECT_MS = 500; // otherwise (reference: 0 s; a short pause avoids a busy loop)
const MAX_DISCONNECTED_VERIFIED = 1000;
const PER_IP_MS = 30_000; // one dial per non-loopback IP per 30 s
const MAX_SELF = 64; // addresses found to be this node itself

export interface ScheduleEntry extends PeerEndpoint {
  address: string;
  pinned: boolean;
  verified: boolean;
  /** Unix ms of the last successful outbound connection (0: never). */
  lastVerifiedMs: number;
  lastError: string | null;
  /** The duration of the current timer. */
  sleepMs: number;
  /** When the timer expires; null while an attempt runs or a connection is established. */
  dueAtMs: number | null;
  backoffMs: number;
  /** Established outbound connections to this address. */
  connections: number;
}

export type ScheduleView = { connectedVerified: ScheduleEntry[]; disconnectedVerified: ScheduleEntry[]; feelers: ScheduleEntry[] };

export class ConnectionSchedule {
  private readonly entries = new Map<string, ScheduleEntry>();
  /** When each non-loopback IP was last dialled (only the last 30 s are kept). */
  private readonly lastDialMs = new Map<string, number>();
  /** Addresses that turned out to reach this node itself: never added again. */
  private readonly self = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;

  constructor(
    private readonly dial: (e: ScheduleEntry) => void,
    private readonly db: PeerDb | null = null,
    private readonly now: () => number = Date.now,
  ) {}

  /** Loads the stored address book: every entry is due at once. */
  async load(): Promise<void> {
    if (!this.db) return;
    for (const p of await this.db.peers()) {
      const e = this.add(endpointOf(p.address), false, false);
      if (e) {
        e.verified = p.verified;
        e.lastVerifiedMs = p.lastVerifiedS * 1000;
      }
    }
  }

  /** Adds a new address as a feeler, due at once (pinned: kept for ever). Returns the entry. */
  add(ep: PeerEndpoint, pinned: boolean, persist = true): ScheduleEntry | null {
    const address = `${ep.host}:${ep.port}`;
    if (this.self.has(address)) return null;
    const known = this.entries.get(address);
    if (known) {
      known.pinned ||= pinned;
      return known;
    }
    const e: ScheduleEntry = {
      ...ep,
      address,
      pinned,
      verified: false,
      lastVerifiedMs: 0,
      lastError: null,
      sleepMs: 0,
      dueAtMs: this.now(),
      backoffMs: BACKOFF_START_MS,
      connections: 0,
    };
    this.entries.set(address, e);
    if (persist) this.save(e);
    this.arm();
    return e;
  }

  get(address: string): ScheduleEntry | undefined {
    return this.entries.get(address);
  }

  /** The verified addresses (sampled for pongs and `/tools/sample_verified_peers`). */
  verified(): ScheduleEntry[] {
    return [...this.entries.values()].filter((e) => e.verified);
  }

  view(): ScheduleView {
    const all = [...this.entries.values()];
    return {
      connectedVerified: all.filter((e) => e.verified && e.connections > 0),
      disconnectedVerified: all.filter((e) => e.verified && e.connections === 0),
      feelers: all.filter((e) => !e.verified),
    };
  }

  /** An outbound connection completed its handshake (§4.2 "on a successful outbound connection"). */
  connected(e: ScheduleEntry): void {
    e.connections++;
    e.verified = true;
    e.lastVerifiedMs = this.now();
    e.lastError = null;
    e.backoffMs = BACKOFF_START_MS;
    e.dueAtMs = null;
    this.save(e);
    const waiting = this.view().disconnectedVerified.filter((x) => x.dueAtMs !== null);
    for (const x of waiting.slice(0, Math.max(0, this.view().disconnectedVerified.length - MAX_DISCONNECTED_VERIFIED))) this.demote(x);
  }

  /** An established outbound connection closed (§4.2 reconnect delays). */
  closed(e: ScheduleEntry, reason: { name: string }, banned: boolean): void {
    e.connections = Math.max(0, e.connections - 1);
    e.lastError = reason.name;
    if (e.connections > 0) return;
    const delay =
      reason.name === 'EDUPLICATECONNECTION' || reason.name === 'EEVICTED'
        ? DUPLICATE_DELAY_MS
        : reason.name === 'ESLOWPEER' && !e.pinned
          ? SLOW_DELAY_MS
          : e.pinned || !banned
            ? RECONNECT_MS
            : BAN_DELAY_MS;
    this.sleep(e, delay);
  }

  /**
   * The connection that `address`'s outbound one was closed in favour of (the peer's own dial, kept
   * by the mutual-dial rule) has closed: the reason for the long duplicate delay is gone.
   */
  twinClosed(address: string): void {
    const e = this.entries.get(address);
    if (e && e.connections === 0 && e.dueAtMs !== null && e.lastError === 'EDUPLICATECONNECTION') this.sleep(e, RECONNECT_MS);
  }

  /** An outbound attempt failed before registration (§4.2 "on a failed outbound attempt"). */
  failed(e: ScheduleEntry, error: string): void {
    e.lastError = error;
    if (e.connections > 0) return;
    if (!e.verified && !e.pinned) {
      this.entries.delete(e.address);
      this.db?.deletePeer(e.address);
      return;
    }
    if (e.verified && this.view().disconnectedVerified.length > MAX_DISCONNECTED_VERIFIED && !e.pinned) this.demote(e);
    this.sleep(e, e.backoffMs);
    if (e.pinned) e.backoffMs = Math.min(2 * e.backoffMs, PINNED_BACKOFF_MAX_MS);
    else if (e.backoffMs < BACKOFF_GROWS_BELOW_MS) e.backoffMs *= 2;
  }

  /** The address reaches this node itself (peer_manager.ts selfConnection): forgotten for good. */
  forgetSelf(e: ScheduleEntry): void {
    this.entries.delete(e.address);
    this.db?.deletePeer(e.address);
    this.self.add(e.address);
    if (this.self.size > MAX_SELF) this.self.delete(this.self.values().next().value!);
  }

  /** Starts dialling: due entries get their attempts from now on. */
  start(): void {
    this.started = true;
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private demote(e: ScheduleEntry): void {
    e.verified = false;
    this.save(e);
  }

  private save(e: ScheduleEntry): void {
    this.db?.putPeer({ address: e.address, verified: e.verified, lastVerifiedS: Math.floor(e.lastVerifiedMs / 1000) });
  }

  private sleep(e: ScheduleEntry, ms: number): void {
    e.sleepMs = ms;
    e.dueAtMs = this.now() + ms;
    this.arm();
  }

  /** Sets the one timer to the earliest due entry; when it fires, every due entry is dialled. */
  private arm(): void {
    if (this.stopped || !this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let first = Infinity;
    for (const e of this.entries.values()) if (e.dueAtMs !== null && e.dueAtMs < first) first = e.dueAtMs;
    if (first === Infinity) return;
    this.timer = setTimeout(() => this.fire(), Math.max(0, first - this.now()));
  }

  private fire(): void {
    this.timer = null;
    const now = this.now();
    for (const [ip, at] of this.lastDialMs) if (now - at >= PER_IP_MS) this.lastDialMs.delete(ip);
    for (const e of [...this.entries.values()]) {
      if (e.dueAtMs === null || e.dueAtMs > now) continue;
      if (!isLoopback(e.host)) {
        const last = this.lastDialMs.get(e.host);
        if (last !== undefined) {
          e.dueAtMs = last + PER_IP_MS;
          continue;
        }
        this.lastDialMs.set(e.host, now);
      }
      e.dueAtMs = null; // paused until the attempt ends
      this.dial(e);
    }
    this.arm();
  }
}

function endpointOf(address: string): PeerEndpoint {
  const i = address.lastIndexOf(':');
  return { host: address.slice(0, i), port: Number(address.slice(i + 1)) };
}
