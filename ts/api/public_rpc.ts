// The public RPC listener (`--publicrpc`, `--enable-public`; clients.md §1, §8): the same routes as
// the RPC endpoint minus the private ones, with a per-IP request budget (over it: HTTP 429,
// `Retry-After` and error ECONNRATELIMIT) and caps on concurrent connections, in all and per IP.
// The WebSocket streams are served there too.
import type { Server, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type Koa from 'koa';
import { writeJson } from './json.js';
import { isPublicRoute } from './public_routes.js';
import { RequestBudget, PUBLIC_BUDGET, budgetSpent } from './request_budget.js';
import type { Route } from './route.js';
import { createApp, listen } from './server.js';
import type { NodeServices } from './services.js';
import { attachStreams } from './streams/endpoint.js';
import type { StreamHub } from './streams/hub.js';

/** Concurrent connections the public listener accepts in all, and from one IP. */
export const PUBLIC_MAX_CONNECTIONS = 512;
export const PUBLIC_MAX_CONNECTIONS_PER_IP = 32;

/** The client address of a connection, IPv4-mapped IPv6 written as IPv4. */
export function clientIp(socket: Socket | IncomingMessage['socket']): string {
  const a = socket.remoteAddress ?? '';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}

/** Koa middleware: answers 429 with `Retry-After` once the client's budget is spent. */
export function budgetGuard(budget: RequestBudget): Koa.Middleware {
  return async (ctx, next) => {
    const wait = budget.take(clientIp(ctx.req.socket));
    if (wait === 0) return next();
    const e = budgetSpent(wait);
    ctx.status = 429;
    ctx.set('Retry-After', String(wait));
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = writeJson({ code: e.code, error: e.message });
  };
}

/** Drops connections beyond the per-IP cap as soon as they are accepted. */
export function capConnectionsPerIp(server: Server, perIp: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const ip = clientIp(socket);
    const n = (open.get(ip) ?? 0) + 1;
    if (n > perIp) return void socket.destroy();
    open.set(ip, n);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left > 0) open.set(ip, left);
      else open.delete(ip);
    });
  });
}

export interface PublicRpc {
  server: Server;
  budget: RequestBudget;
  closeStreams: () => void;
  app: Koa;
}

/** `budget`: the per-IP budget (the public one on the wall clock unless a test gives its own). */
export async function startPublicRpc(
  routes: Route<any>[],
  node: NodeServices,
  host: string,
  port: number,
  log: (line: string) => void,
  streams: StreamHub | null,
  budget: RequestBudget = new RequestBudget(PUBLIC_BUDGET),
): Promise<PublicRpc> {
  const app = createApp(routes.filter(isPublicRoute), node, log, budgetGuard(budget));
  const server = await listen(app, host, port);
  server.maxConnections = PUBLIC_MAX_CONNECTIONS;
  capConnectionsPerIp(server, PUBLIC_MAX_CONNECTIONS_PER_IP);
  // The streams are public in the reference (clients.md §6.1); opening one costs a request.
  const closeStreams = streams ? attachStreams(server, streams, log, (req) => budget.take(clientIp(req.socket))) : () => undefined;
  return { server, app, budget, closeStreams };
}
