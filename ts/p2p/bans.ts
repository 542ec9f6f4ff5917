// Offenses and bans (p2p.md §4.4), in memory: a connection closed with a code in 1–199 (except
// ECHECKSUM, EEMPTY, EPROBEDESCRIPTOR) is an offense; it bans the IPv4 address (or IPv6 /48) for
// 20 minutes. Loopback addresses are recorded but never banned.
import { isIP } from 'node:net';

export const BAN_DURATION_MS = 20 * 60_000;
const OFFENSE_LOG_LIMIT = 10_000;

export interface Offense { ip: string; timeMs: number; code: number; name: string }

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
  readonly offenses: Offense[] = [];
  private readonly bans = new Map<string, { untilMs: number; code: number }>();

  /** Records an offense; returns true when it bans (not for loopback). */
  record(ip: string, code: number, name: string, nowMs: number): boolean {
    this.offenses.push({ ip, timeMs: nowMs, code, name });
    if (this.offenses.length > OFFENSE_LOG_LIMIT) this.offenses.splice(0, this.offenses.length - OFFENSE_LOG_LIMIT);
    if (isLoopback(ip)) return false;
    this.bans.set(banKey(ip), { untilMs: nowMs + BAN_DURATION_MS, code });
    return true;
  }

  isBanned(ip: string, nowMs: number): boolean {
    const b = this.bans.get(banKey(ip));
    if (!b) return false;
    if (b.untilMs > nowMs) return true;
    this.bans.delete(banKey(ip));
    return false;
  }

  /** Active bans. */
  active(nowMs: number): { key: string; untilMs: number; code: number }[] {
    return [...this.bans].filter(([, b]) => b.untilMs > nowMs).map(([key, b]) => ({ key, ...b }));
  }
}
