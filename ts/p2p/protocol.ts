// Protocol constants of the reference wire protocol (p2p.md §1.4, §1.5, §2.2, §2.3, §2.5, §3).
import { GRID_MESH } from '../consensus/checkpoint.js';

/** Headers per batch slot and grid mesh (p2p.md conventions). */
export const BATCH_SIZE = GRID_MESH;
/** Block bodies requested at once (p2p.md conventions, §3.4). */
export const BLOCK_BATCH = 30;

/** Message type codes (§2.2). 12 and 17 are not accepted. */
export const MSG = {
  InitV1: 0,
  Fork: 1,
  Append: 2,
  SignedPinRollback: 3,
  Ping: 4,
  Pong: 5,
  Batchreq: 6,
  Batchrep: 7,
  Probereq: 8,
  Proberep: 9,
  Blockreq: 10,
  Blockrep: 11,
  Txnotify: 13,
  Txreq: 14,
  LegacyTxrep: 15,
  Leader: 16,
  PingV2: 28,
  PongV2: 29,
  InitV3: 30,
  Txrep: 31,
} as const;

/** The WebRTC messages (§1.7): a node without WebRTC closes with ERTCDISABLED on receipt. */
export const RTC_FIRST = 18;
export const RTC_LAST = 27;

/** Maximum payload per type code, the reference's `maxSize` (§2.2); absent: unknown type. */
export const MAX_PAYLOAD: ReadonlyMap<number, number> = new Map([
  [0, 100_000],
  [1, 20_000],
  [2, 8_040],
  [3, 141],
  [4, 30],
  [5, 18_606],
  [6, 14],
  [7, 691_204],
  [8, 12],
  [9, 189],
  [10, 48],
  [11, 1_050_120],
  [13, 80_004],
  [14, 80_006],
  [15, 740_006],
  [16, 101],
  [18, 1_000],
  [19, 100_000],
  [20, 100_000],
  [21, 10],
  [22, 100_000],
  [23, 100_000],
  [24, 100_000],
  [25, 100_000],
  [26, 100_000],
  [27, 100_000],
  [28, 40],
  [29, 18_606],
  [30, 100_000],
  [31, 740_006],
]);

/** Frame header: length u32, checksum 4, type high byte, type code (§1.5). */
export const FRAME_HEADER = 10;
/** Bytes queued for sending beyond which the connection closes with EBUFFERFULL (§1.5). */
export const SEND_QUEUE_LIMIT = 3_000_000;

/** Timers in milliseconds (§2.5). */
export const TIMER = {
  handshake: 5_000,
  init: 30_000,
  requestExpiry: 30_000,
  requestHardTimeout: 30_000 + 120_000,
  // Beyond the reference (README "Sync is not held hostage"): a sync request whose reply is not
  // arriving (at 8 KB/s or more) expires after 10 s (the peer leaves the sync role, others are used),
  // and closes the connection after 25 s, above the 20 s a throttling peer may hold us (§3.8): with
  // ETIMEOUT (an offense) when the peer sent less than syncReplyAlive bytes meanwhile (silent), with
  // ESLOWPEER (none) otherwise (a slow link: Bitcoin Core drops a stalling peer without a ban too).
  syncReplyExpiry: 10_000,
  syncReplyStart: 25_000,
  syncReplyRate: 8_000,
  syncReplyAlive: 8_000,
  pongDeadline: 120_000,
  /** Before 0.10 (mainnet.md §5.2). */
  pongDeadlineV1: 60_000,
  pingInterval: 10_000,
  minPingSpacing: 5_000,
  deprecatedDescriptor: 8 * 60_000,
  pastChainRetention: 10 * 60_000,
} as const;

/** Limits (§2.3, §2.4, §5). */
export const LIMIT = {
  maxTxIds: 5_000, // Txreq / Txrep entries
  pingAddresses: 5, // maxAddresses we ask for on TCP
  pingTransactions: 100, // maxTransactions we ask for
  pongAddresses: 20, // at most this many addresses in a pong
  pongSampleFrom: 800, // txids are sampled from this many highest-fee entries
  maxBlockRange: 35_000, // per Blockreq (§8 item 6)
  maxConnections: 200, // registered connections before eviction (§4.3)
  inboundQueue: 15, // requests being served for one peer (EMSGFLOOD beyond)
} as const;
