// The WebSocket paths of an RPC listener (clients.md §6): `/stream` (subscribe/unsubscribe
// messages; anything malformed closes with 1002) and `/ws/chain_delta` (subscribed on open,
// incoming messages ignored). Other upgrade requests are refused. Clients are bounded in number
// and in message size; `admit` lets the public listener apply its request budget to upgrades.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseAddress } from '../../core/address.js';
import { NodeError, quoted } from '../../core/errors.js';
import { refuseOnSocket } from '../error_answer.js';
import { budgetSpent } from '../request_budget.js';
import { TOPICS, type StreamHub, type Topic } from './hub.js';
import { CLOSE_PROTOCOL, Subscriber } from './subscriber.js';

/** Stream clients one listener accepts at a time. */
export const MAX_STREAM_CLIENTS = 1000;
/** Largest message a client may send (a subscription is well under 200 bytes). */
const MAX_CLIENT_MESSAGE = 4096;
/** Account subscriptions one client may hold. */
export const MAX_ACCOUNTS_PER_CLIENT = 64;

export const STREAM_PATH = '/stream';
export const CHAIN_DELTA_PATH = '/ws/chain_delta';

interface Request {
  action: 'subscribe' | 'unsubscribe';
  topic: Topic;
  address?: Uint8Array;
}

/** A `/stream` request `{action, topic, params?: {address}}`, or null when malformed (§6.1). */
export function parseStreamRequest(text: string): Request | null {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof j !== 'object' || j === null) return null;
  const { action, topic, params } = j as Record<string, unknown>;
  if (action !== 'subscribe' && action !== 'unsubscribe') return null;
  if (typeof topic !== 'string' || !(TOPICS as readonly string[]).includes(topic)) return null;
  if (topic !== 'account') return { action, topic: topic as Topic };
  const text48 = typeof params === 'object' && params !== null ? (params as Record<string, unknown>).address : undefined;
  const address = typeof text48 === 'string' ? parseAddress(text48) : null;
  return address ? { action, topic, address } : null;
}

/**
 * Serves the streams on `server`; returns the function that cuts every stream client (at shutdown).
 * `admit` answers 0 for an upgrade the listener's budget allows, else the seconds until it would.
 * Every refusal is a JSON error (error_answer.ts).
 */
export function attachStreams(server: Server, hub: StreamHub, log: (line: string) => void, admit: (req: IncomingMessage) => number = () => 0): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?')[0];
    const protocol = (req.headers.upgrade ?? '').toLowerCase();
    if (protocol !== 'websocket') {
      return refuseOnSocket(
        server,
        socket,
        404,
        new NodeError(
          'ENOTFOUND',
          `no upgrade to ${quoted(req.headers.upgrade ?? '')}: the node speaks HTTP/1.1, and WebSocket on ${STREAM_PATH} and ${CHAIN_DELTA_PATH}`,
        ),
      );
    }
    if (path !== STREAM_PATH && path !== CHAIN_DELTA_PATH) {
      return refuseOnSocket(
        server,
        socket,
        404,
        new NodeError('ENOTFOUND', `no WebSocket at ${quoted(path)}: the streams are ${STREAM_PATH} and ${CHAIN_DELTA_PATH}`),
      );
    }
    const wait = admit(req);
    if (wait > 0) {
      return refuseOnSocket(server, socket, 429, budgetSpent(wait), { 'Retry-After': String(wait) });
    }
    if (wss.clients.size >= MAX_STREAM_CLIENTS) {
      return refuseOnSocket(server, socket, 503, new NodeError('ECONNRATELIMIT', `the node serves at most ${MAX_STREAM_CLIENTS} stream clients at once`));
    }
    wss.handleUpgrade(req, socket, head, (ws) => (path === STREAM_PATH ? serveStream(ws, hub, log) : serveChainDelta(ws, hub, log)));
  });
  return () => {
    for (const ws of wss.clients) ws.terminate();
    wss.close();
  };
}

function subscriber(ws: WebSocket, hub: StreamHub, log: (line: string) => void): Subscriber {
  const sub = new Subscriber(ws, (s) => log(`stream client #${s.id} too slow: dropped`));
  ws.on('close', () => hub.remove(sub));
  ws.on('error', () => ws.terminate());
  return sub;
}

function serveChainDelta(ws: WebSocket, hub: StreamHub, log: (line: string) => void): void {
  hub.subscribeChainDelta(subscriber(ws, hub, log));
}

function serveStream(ws: WebSocket, hub: StreamHub, log: (line: string) => void): void {
  const sub = subscriber(ws, hub, log);
  const accounts = new Set<string>();
  ws.on('message', (data, isBinary) => {
    if (!sub.open) return;
    const req = isBinary ? null : parseStreamRequest(data.toString());
    if (!req) return sub.close(CLOSE_PROTOCOL, 'invalid subscription request');
    if (req.topic === 'account') {
      const key = Buffer.from(req.address!).toString('hex');
      if (req.action === 'subscribe') {
        if (!accounts.has(key) && accounts.size >= MAX_ACCOUNTS_PER_CLIENT) return sub.close(CLOSE_PROTOCOL, 'too many account subscriptions');
        accounts.add(key);
      } else accounts.delete(key);
    }
    if (req.action === 'subscribe') hub.subscribe(sub, req.topic, req.address);
    else hub.unsubscribe(sub, req.topic, req.address);
  });
}
