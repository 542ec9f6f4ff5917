// JSON views of peers (http-api.md "Peers"; p2p.md §4.7). Where http-api.md and the reference
// differ (http-api-details.md §8), http-api.md's names are used: priorities are {priority, since}
// (priority ← importance, since ← height of the signed-snapshot priority, §3.6); a throttle
// counter is {priority, since} (priority ← the volume h1, since ← the highest requested height h2,
// §3.8); transmission buckets are {rxBytes, txBytes, timestamp}.
import { worksumDouble, worksumHex } from '../../consensus/target.js';
import { toHex } from '../../core/hex.js';
import type { Priority } from '../../p2p/elements.js';
import type { Peer } from '../../p2p/peer.js';
import type { ScheduleEntry } from '../../p2p/schedule.js';
import type { P2PNode } from '../../p2p/service.js';
import type { RequestThrottler } from '../../p2p/throttle.js';
import type { Bucket } from '../../p2p/transmission.js';
import { arr, hexStr, int, named, nullable, num, obj, record, str, strMatching, u64, type Infer } from '../schema.js';

export const PeerConnection = named('PeerConnection', obj({ ip: str, port: int, since: int }));
const PriorityPair = named('PriorityPair', obj({ priority: int, since: int }));
export const ThrottleState = named('ThrottleState', obj({ blockRequest: PriorityPair, delay: int, headerRequest: PriorityPair }));
const Schedule = named('ScheduleEntry', obj({ address: str, expiresIn: nullable(int), lastError: nullable(str), sleepDuration: int }));
const VerifiedSchedule = named('VerifiedScheduleEntry', obj({ schedule: Schedule, secondsSinceVerified: int }));

export const ConnectedPeer = named(
  'ConnectedPeer',
  obj({
    chain: obj({
      descriptor: int,
      forkLower: int,
      forkUpper: int,
      grid: arr(hexStr(160)),
      length: int,
      worksum: num,
      worksumHex: strMatching('^0x[0-9a-f]{64}$'),
    }),
    connection: PeerConnection,
    leaderPriority: obj({ ack: PriorityPair, theirs: PriorityPair }),
    throttle: ThrottleState,
  }),
);
export const ThrottledPeer = named('ThrottledPeer', obj({ connection: obj({ endpoint: str, id: int }), throttle: ThrottleState }));
export const ConnectionSchedule = named(
  'ConnectionSchedule',
  obj({
    connectedVerified: arr(VerifiedSchedule),
    disconnectedVerified: arr(VerifiedSchedule),
    feelers: arr(Schedule),
  }),
);
export const Transmission = named(
  'Transmission',
  obj({
    byHost: record(arr(named('TransmissionBucket', obj({ rxBytes: u64, txBytes: u64, timestamp: int })))),
  }),
);

const seconds = (ms: number) => Math.floor(ms / 1000);

export function connectionView(p: Peer): Infer<typeof PeerConnection> {
  return { ip: p.conn.host, port: p.conn.port, since: seconds(p.conn.since) };
}

const priorityView = (p: Priority) => ({ priority: p.importance, since: p.height });
const counterView = (t: RequestThrottler) => ({ priority: t.h1, since: t.h2 });

export function throttleView(p: Peer, nowMs: number): Infer<typeof ThrottleState> {
  const t = p.throttle;
  return { blockRequest: counterView(t.blocks), delay: Math.ceil(t.delayMs(nowMs) / 1000), headerRequest: counterView(t.headers) };
}

export function connectedPeerView(node: P2PNode, p: Peer, nowMs: number): Infer<typeof ConnectedPeer> {
  const c = p.chain!;
  const fork = node.forkRange(p);
  return {
    chain: {
      descriptor: c.descriptor,
      forkLower: fork.lower,
      forkUpper: fork.upper,
      grid: c.grid.map(toHex),
      length: c.length,
      worksum: worksumDouble(c.worksum),
      worksumHex: worksumHex(c.worksum),
    },
    connection: connectionView(p),
    leaderPriority: { ack: priorityView(p.ack), theirs: priorityView(p.theirs) },
    throttle: throttleView(p, nowMs),
  };
}

function scheduleView(e: ScheduleEntry, nowMs: number): Infer<typeof Schedule> {
  return {
    address: e.address,
    expiresIn: e.dueAtMs === null ? null : Math.max(0, Math.ceil((e.dueAtMs - nowMs) / 1000)),
    lastError: e.lastError,
    sleepDuration: Math.round(e.sleepMs / 1000),
  };
}

export function connectionScheduleView(
  entries: { connectedVerified: ScheduleEntry[]; disconnectedVerified: ScheduleEntry[]; feelers: ScheduleEntry[] },
  nowMs: number,
): Infer<typeof ConnectionSchedule> {
  const verified = (e: ScheduleEntry) => ({ schedule: scheduleView(e, nowMs), secondsSinceVerified: Math.max(0, seconds(nowMs - e.lastVerifiedMs)) });
  return {
    connectedVerified: entries.connectedVerified.map(verified),
    disconnectedVerified: entries.disconnectedVerified.map(verified),
    feelers: entries.feelers.map((e) => scheduleView(e, nowMs)),
  };
}

export function transmissionView(byHost: Record<string, Bucket[]>): Infer<typeof Transmission> {
  const out: Record<string, { rxBytes: number; txBytes: number; timestamp: number }[]> = {};
  for (const [host, list] of Object.entries(byHost)) out[host] = list.map((b) => ({ rxBytes: b.rx, txBytes: b.tx, timestamp: b.begin }));
  return { byHost: out };
}
