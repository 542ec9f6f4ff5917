// Offenses and bans (p2p.md §4.4): a connection closed with a code in 1–199 (except ECHECKSUM,
// EEMPTY, EPROBEDESCRIPTOR) is an offense; it bans the IPv4 address (or IPv6 /48) for 20 minutes.
// Loopback addresses are recorded but not banned (unless `banLoopback`, for tests on one machine).
// Both are kept in memory and written through to the peers' records (peer_db.ts), so they survive
// a restart.
import { isIP } from 'node:net';
import { ERRORS } from '../core/errors.js';
import type { PeerDb } from './peer_db.js';

export const BAN_DURATION_MS = 20 * 60_000;
const OFFENSE_LOG_LIMIT = 10_000;
/** Offenses per page of `/peers/offenses/:page` (http-api-details.md §8). */
export const OFFENSES_PER_PAGE = 100;

export interface Offense {
  seq: bigint;
  ip: string;
  timeMs: number;
  code: number;
  name: string;
}
export interface Ban {
  key: string;
  untilMs: number;
  code: number;
  name: string;
}

/** The symbolic name of an error code ("E…"), or the code as text when it is not in the table. */
export function errorNameOf(code: number): string {
  for (const [name, [c]] of Object.entries(ERRORS)) if (c === code) return name;
  return String(code);
}

/** Whether closing with `code` bans the peer. */
export function triggersBan(code: number): boolean {
  return code >= 1 && code < 200 && code !== 4 && code !== 57 && code !== 63;
}

export function isLoopback(ip: string): boolean {
  return ip.startsWith('127.') || ip === '::1' || ip.startsWith('::ffff:127.');
}

/** The key a ban applies to: the IPv4 address, or the /48 block of an IPv6 address. */
export function banKey(ip: string): string {
  if (isIP(ip) !== 6 || ip.startsWith('::ffff:')) return ip.replace(/^::ffff:/, '');
  const groups = expandIPv6(ip);
  return `${groups.slice(0, 3).join(':')}::/48`;
}

function expandIPv6(ip: string): string[] {
  const [head, tail] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}

export class BanList {
  /** Bans imposed since start (a ban renewed before it ends counts again). */
  imposed = 0;
  private readonly offenseLog: Offense[] = [];
  private readonly bans = new Map<string, { untilMs: number; code: number }>();
  private nextSeq = 1n;

  constructor(
    private readonly db: PeerDb | null = null,
    private readonly banLoopback = false,
  ) {}

  /** Loads the stored bans and offenses. */
  async load(): Promise<void> {
    if (!this.db) return;
    for (const b of await this.db.bans()) this.bans.set(b.key, { untilMs: b.untilMs, code: b.code });
    for (const o of await this.db.offenses()) {
      this.offenseLog.push({ ...o, name: errorNameOf(o.code) });
      if (o.seq >= this.nextSeq) this.nextSeq = o.seq + 1n;
    }
  }

  /** Records an offense; returns true when it bans (not for loopback). */
  record(ip: string, code: number, name: string, nowMs: number): boolean {
    const o: Offense = { seq: this.nextSeq++, ip, timeMs: nowMs, code, name };
    this.offenseLog.push(o);
    this.db?.putOffense(o);
    if (this.offenseLog.length > OFFENSE_LOG_LIMIT) {
      const dropped = this.offenseLog.splice(0, this.offenseLog.length - OFFENSE_LOG_LIMIT);
      this.db?.deleteOffenses(dropped.map((d) => d.seq));
    }
    if (isLoopback(ip) && !this.banLoopback) return false;
    const ban = { key: banKey(ip), untilMs: nowMs + BAN_DURATION_MS, code };
    this.bans.set(ban.key, ban);
    this.db?.putBan(ban);
    this.imposed++;
    return true;
  }

  isBanned(ip: string, nowMs: number): boolean {
    const b = this.bans.get(banKey(ip));
    return b !== undefined && b.untilMs > nowMs;
  }

  /** Active bans; expired ones are forgotten. */
  active(nowMs: number): Ban[] {
    const expired = [...this.bans].filter(([, b]) => b.untilMs <= nowMs).map(([k]) => k);
    for (const k of expired) this.bans.delete(k);
    this.db?.deleteBans(expired);
    return [...this.bans].map(([key, b]) => ({ key, ...b, name: errorNameOf(b.code) }));
  }

  /** Releases every ban (`/peers/unban`). */
  unbanAll(): void {
    this.db?.deleteBans([...this.bans.keys()]);
    this.bans.clear();
  }

  /** Offenses in stored order, 100 per page; pages count from 1. */
  offenses(page: number): Offense[] {
    return this.offenseLog.slice((page - 1) * OFFENSES_PER_PAGE, page * OFFENSES_PER_PAGE);
  }
}
