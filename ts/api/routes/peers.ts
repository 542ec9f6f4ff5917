// /peers/* (http-api.md "Peers"; http-api-details.md §8; p2p.md §4). An isolated node has no
// peers: the lists are empty and every connection id is unknown.
import { fail } from '../../core/errors.js';
import type { Peer } from '../../p2p/peer.js';
import { NodeError } from '../../core/errors.js';
import { route } from '../route.js';
import type { ReadServices } from '../services.js';
import { u32Param } from '../params.js';
import { arr, int, named, obj, str, tuple } from '../schema.js';
import {
  ConnectedPeer,
  ConnectionSchedule,
  PeerConnection,
  ThrottledPeer,
  Transmission,
  connectedPeerView,
  connectionScheduleView,
  connectionView,
  throttleView,
  transmissionView,
} from '../views/peers.js';

/** The connection `:id` names (unknown ⇒ 56, http-api-details.md §2.3). */
export function connectionParam({ node, params }: { node: ReadServices; params: Record<string, string> }, name: string): Peer {
  const id = u32Param(params[name], 'connection id');
  return node.p2p()?.manager.byId(id) ?? fail('ENOTFOUND', `no connection with id ${id}`);
}

const EMPTY_SCHEDULE = { connectedVerified: [], disconnectedVerified: [], feelers: [] };

export const peerRoutes = [
  route({
    method: 'GET',
    path: '/peers/ip_count',
    doc: 'Connected peers per IP address.',
    response: named('IpCount', arr(tuple<[string, number]>(str, int))),
    handler: ({ node }) => {
      const counts = new Map<string, number>();
      for (const p of node.p2p()?.manager.connected() ?? []) counts.set(p.conn.host, (counts.get(p.conn.host) ?? 0) + 1);
      return [...counts];
    },
  }),
  route({
    method: 'GET',
    path: '/peers/banned',
    doc: 'Banned IP addresses, until when (Unix seconds) and why.',
    response: arr(named('BannedPeer', obj({ banuntil: int, ip: str, reason: str }))),
    handler: ({ node }) =>
      (node.p2p()?.manager.bans.active(Date.now()) ?? []).map((b) => ({ banuntil: Math.floor(b.untilMs / 1000), ip: b.key, reason: b.name })),
  }),
  route({
    method: 'GET',
    path: '/peers/unban',
    doc: 'Lifts every ban.',
    response: null,
    handler: ({ node }) => {
      node.p2p()?.manager.bans.unbanAll();
      return null;
    },
  }),
  route({
    method: 'GET',
    path: '/peers/offenses/:page',
    doc: 'Recorded peer offenses, 100 per page.',
    response: arr(named('PeerOffense', obj({ ip: str, offense: str, time: int }))),
    handler: ({ node, params }) => {
      const page = u32Param(params.page, 'page');
      if (page === 0) fail('EINV_PAGE', 'pages count from 1');
      return (node.p2p()?.manager.bans.offenses(page) ?? []).map((o) => ({ ip: o.ip, offense: o.name, time: Math.floor(o.timeMs / 1000) }));
    },
  }),
  route({
    method: 'GET',
    path: '/peers/connected',
    doc: 'The connected peers: the connection, the chain each announced (length, work, where it forks from ours) and leader priorities.',
    response: arr(ConnectedPeer),
    handler: ({ node }) => {
      const p2p = node.p2p();
      return p2p ? p2p.manager.initialized().map((p) => connectedPeerView(p2p, p, Date.now())) : [];
    },
  }),
  route({
    method: 'GET',
    path: '/peers/connected/connection',
    doc: "The connected peers' connection details.",
    response: arr(PeerConnection),
    handler: ({ node }) => (node.p2p()?.manager.all() ?? []).map(connectionView),
  }),
  route({
    method: 'GET',
    path: '/peers/connection_schedule',
    doc: 'The outbound connection schedule: verified addresses (connected or not) and feelers.',
    response: ConnectionSchedule,
    handler: ({ node }) => connectionScheduleView(node.p2p()?.manager.schedule.view() ?? EMPTY_SCHEDULE, Date.now()),
  }),
  route({
    method: 'GET',
    path: '/peers/disconnect/:id',
    doc: 'Closes a peer connection.',
    params: { id: 'a connection id (see `/peers/connected`)' },
    errors: ['EINV_ARGS', 'ENOTFOUND'],
    response: null,
    handler: (req) => {
      connectionParam(req, 'id').close(new NodeError('EAPICMD', 'disconnected by /peers/disconnect'));
      return null;
    },
  }),
  route({
    method: 'GET',
    path: '/peers/throttled',
    doc: 'Peers whose requests are currently throttled.',
    response: arr(ThrottledPeer),
    handler: ({ node }) => {
      const now = Date.now();
      return (node.p2p()?.manager.connected() ?? [])
        .filter((p) => p.throttle.delayMs(now) > 0)
        .map((p) => ({ connection: { endpoint: `tcp://${p.address}`, id: p.id }, throttle: throttleView(p, now) }));
    },
  }),
  route({
    method: 'GET',
    path: '/peers/transmission_hours',
    doc: 'Bytes received and sent per peer host, per hour.',
    response: Transmission,
    handler: ({ node }) => transmissionView(node.p2p()?.manager.transmission.view('h') ?? {}),
  }),
  route({
    method: 'GET',
    path: '/peers/transmission_minutes',
    doc: 'Bytes received and sent per peer host, per minute.',
    response: Transmission,
    handler: ({ node }) => transmissionView(node.p2p()?.manager.transmission.view('m') ?? {}),
  }),
];
