// Handshake versions and what a peer of each version understands (p2p.md §1.4, §2.6; mainnet.md
// §5.2, §5.5). `capabilitiesOf` is the one table every sender consults: which Init and Ping a peer
// speaks, which message codes it parses (an unknown code makes the reference ban us), which
// transaction reply it expects, whether it may be pushed Txnotify, how many blocks one Blockreq may
// ask for, and how long it waits for our pong.
import { VERSION } from '../version.js';
import { BLOCK_BATCH, LIMIT, MSG, TIMER } from './protocol.js';

export interface NodeVersion {
  major: number;
  minor: number;
  patch: number;
}

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

/** What a peer understands, decided once from its handshake version. */
export interface Capabilities {
  dialect: Dialect;
  /** Message codes the peer parses. Any other code is EMSGTYPE at the reference: a 20-min ban (mainnet.md §5.2). */
  knows: ReadonlySet<number>;
  /** Init as InitV3 (30, with flags) or as type 0 without the flags byte (§2.6, §8 item 1). */
  initV3: boolean;
  /** PingV2/PongV2 (28/29) or Ping/Pong (4/5). */
  pingV2: boolean;
  /** Transaction types other than coin transfers (pong samples, Txnotify, Txrep). */
  tokens: boolean;
  /** Txreq is answered with Txrep 31, or with the legacy reply 15 (coin transfers only, mainnet.md §8 #1). */
  txrep: 'Txrep' | 'LegacyTxrep';
  /** Non-empty Txnotify may be pushed: 0.8.x fails to parse it and bans (mainnet.md §5.2, §5.5). */
  txnotify: boolean;
  /** Blocks per Blockreq: more is EBLOCKRANGE (a ban) before 0.10 (mainnet.md §5.2). */
  maxBlocksPerRequest: number;
  /** How long the peer waits for our pong (mainnet.md §5.2: 60 s at 0.8.x, 2 min from 0.10). */
  pongDeadlineMs: number;
  /** It may lead header download (§2.6). */
  mayLeadSync: boolean;
}

/** Codes every version parses (mainnet.md §5.1; 12 and 17 are nobody's, 13 only empty at 0.8.x). */
const BASE_CODES = [
  MSG.InitV1,
  MSG.Fork,
  MSG.Append,
  MSG.SignedPinRollback,
  MSG.Ping,
  MSG.Pong,
  MSG.Batchreq,
  MSG.Batchrep,
  MSG.Probereq,
  MSG.Proberep,
  MSG.Blockreq,
  MSG.Blockrep,
  MSG.Txnotify,
  MSG.Txreq,
  MSG.LegacyTxrep,
  MSG.Leader,
];

export function capabilitiesOf(v: NodeVersion): Capabilities {
  const dialect = dialectOf(v);
  const defi = knowsTokens(v);
  const knows = new Set<number>(BASE_CODES);
  if (dialect !== 'v1') {
    knows.add(MSG.PingV2);
    knows.add(MSG.PongV2);
  }
  if (dialect === 'newer') knows.add(MSG.InitV3);
  if (defi) knows.add(MSG.Txrep);
  return {
    dialect,
    knows,
    initV3: dialect === 'newer',
    pingV2: dialect !== 'v1',
    tokens: defi,
    txrep: defi ? 'Txrep' : 'LegacyTxrep',
    txnotify: defi,
    maxBlocksPerRequest: defi ? LIMIT.maxBlockRange : BLOCK_BATCH,
    pongDeadlineMs: defi ? TIMER.pongDeadline : TIMER.pongDeadlineV1,
    mayLeadSync: canLeadSync(v),
  };
}
