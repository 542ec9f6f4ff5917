// The RPC server: koa + @koa/router. Every answer is JSON: `{code: 0, data}`, `{code: 0}` or
// `{code, error}` with a code of the one error table (http-api-details.md §1.1, §1.3, §2).
// Handled requests answer HTTP 200 like the reference; an unknown route answers 404 with code 56
// instead of the reference's dropped connection.
import Koa from 'koa';
import Router from '@koa/router';
import type { Server } from 'node:http';
import { ERRORS, NodeError } from '../core/errors.js';
import { readJson, writeJson } from './json.js';
import type { Route } from './route.js';
import type { NodeServices } from './services.js';

/** Largest accepted POST body (a 35,000-byte block is 70,000 hex chars). */
export const MAX_BODY_BYTES = 1 << 20;

function send(ctx: Koa.Context, status: number, payload: unknown): void {
  ctx.status = status;
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = writeJson(payload);
}

function errorBody(e: NodeError): { code: number; error: string } {
  return { code: e.code, error: e.message };
}

/** Beyond this much an oversized upload is cut off instead of drained. */
const MAX_DRAIN_BYTES = 64 * MAX_BODY_BYTES;

async function readJsonBody(req: Koa.Request['req']): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // Keep reading (and discarding) an oversized body, so the client gets the error reply.
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
    else if (size > MAX_DRAIN_BYTES) { req.destroy(); break; }
  }
  if (size > MAX_BODY_BYTES) throw new NodeError('EINV_BODY', `request body larger than ${MAX_BODY_BYTES} bytes`);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return readJson(text);
  } catch {
    throw new NodeError('EINVJSON', 'the request body is not valid JSON');
  }
}

export function createApp(routes: Route<any>[], node: NodeServices, log: (line: string) => void): Koa {
  const app = new Koa();
  const router = new Router();
  for (const r of routes) {
    const handle = async (ctx: Koa.Context) => {
      const body = r.method === 'POST' ? await readJsonBody(ctx.req) : undefined;
      const query: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(ctx.query)) query[k] = Array.isArray(v) ? v[v.length - 1] : v;
      const data = await r.handler({ params: ctx.params as Record<string, string>, query, body, node });
      if (r.raw) send(ctx, 200, data);
      else send(ctx, 200, r.response === null ? { code: 0 } : { code: 0, data });
    };
    if (r.method === 'GET') router.get(r.path, handle);
    else router.post(r.path, handle);
  }
  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined) {
        const [code, text] = ERRORS.ENOTFOUND;
        send(ctx, 404, { code, error: `${text}: no route ${ctx.method} ${ctx.path}` });
      }
    } catch (e) {
      if (e instanceof NodeError) return send(ctx, 200, errorBody(e));
      // A path segment with a bad %-escape fails inside the router.
      if (e instanceof URIError) return send(ctx, 200, errorBody(new NodeError('EINV_ARGS', 'malformed URL escape')));
      log(`internal error on ${ctx.method} ${ctx.url}: ${(e as Error)?.stack ?? e}`);
      send(ctx, 500, errorBody(new NodeError('EBUG', 'internal error, see the node log')));
    }
  });
  app.use(router.routes());
  return app;
}

export function listen(app: Koa, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}
