// Handshake versions and the dialects they select (p2p.md §1.4, §2.6).
import { VERSION } from '../version.js';

export interface NodeVersion { major: number; minor: number; patch: number }

/** `major<<16 | minor<<8 | patch`: 0.10.3 is 0x00000A03 (§1.4). */
export function encodeVersion(v: NodeVersion): number {
  return ((v.major & 0xffff) * 65536 + ((v.minor & 0xff) << 8) + (v.patch & 0xff)) >>> 0;
}

export function decodeVersion(u: number): NodeVersion {
  return { major: u >>> 16, minor: (u >>> 8) & 0xff, patch: u & 0xff };
}

export const OUR_VERSION = encodeVersion(VERSION);

/** v1: Init 0 and Ping 4; v2: Init 0 and PingV2; newer: InitV3 (30) and PingV2 (§2.6). */
export type Dialect = 'v1' | 'v2' | 'newer';

export function dialectOf(v: NodeVersion): Dialect {
  if (v.major > 0) return 'newer';
  if (v.minor < 5 || v.minor === 6 || v.minor === 8) return 'v1';
  if (v.minor < 7 || (v.minor === 7 && v.patch <= 54)) return 'v2';
  return 'newer';
}

/** Peers before 0.10.0 ("before defi") know only coin transfers (§2.4 Pong, §5). */
export function knowsTokens(v: NodeVersion): boolean {
  return v.major > 0 || v.minor >= 10;
}

/** Minor ≥ 8 or 0.6.x with patch ≥ 21 may lead header download; 0.7.x never (§2.6). */
export function canLeadSync(v: NodeVersion): boolean {
  if (v.major > 0) return true;
  if (v.minor === 7) return false;
  return v.minor >= 8 || (v.minor === 6 && v.patch >= 21);
}

export function versionText(v: NodeVersion): string {
  return `${v.major}.${v.minor}.${v.patch}`;
}
