// The RPC server: koa + @koa/router. Every answer is JSON: `{code: 0, data}`, `{code: 0}` or
// `{code, error}` with a code of the one error table (http-api-details.md §1.1, §1.3, §2), in the
// names, shapes, numbers and envelopes of the chosen API generation (generations/, clients.md §1–§3).
// Handled requests answer HTTP 200 like the reference; an unknown route answers 404 with code 56
// (the reference generations close the connection instead, as the references do). A route's
// refusal is answered as the generation that writes the route words it. Browsers get CORS
// answers (clients.md §5).
// The server opens the read view each read route runs on (route.ts) and writes its answer, the
// generation's reshapes included, on that view; a changing route's answer is written on the view
// its change left.
import Koa from 'koa';
import Router from '@koa/router';
import { createServer, maxHeaderSize as maxHeaderSizeDefault, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { NodeError, quoted } from '../core/errors.js';
import { answerIn, errorBody, refusalIn, refuseOnSocket } from './error_answer.js';
import { log as nodeLog } from '../log.js';
import { adaptValue, type Generation } from './generations/generation.js';
import { CONTRACT, GENERATIONS, servedRoutes } from './generations/index.js';
import { readJson, writeJson } from './json.js';
import { isStoreDamage } from '../chain/store_damage.js';
import { ReadGate } from './read_gate.js';
import { AnswerCache, stateAnswerKey, type AnswerKey } from './answer_cache.js';
import type { ReadRequest, Route } from './route.js';
import type { ReadView } from '../chain/read_view.js';
import type { NodeServices } from './services.js';

/** Largest accepted POST body (a 35,000-byte block is 70,000 hex chars). */
export const MAX_BODY_BYTES = 1 << 20;

/** Writes `payload` with the number form of generation `g` (the contract's when absent). */
function send(ctx: Koa.Context, status: number, payload: unknown, g?: Generation): string {
  ctx.status = status;
  ctx.type = 'application/json; charset=utf-8';
  return (ctx.body = writeJson(payload, g?.numberText));
}

/** Bytes of the answers kept under one chain state (answer_cache.ts stateAnswerKey), per listener and kind. */
const STATE_ANSWER_BYTES = 2 * 1024 * 1024;

/** An app's answer caches (answer_cache.ts): immutable answers, those of one chain state, of one chain state and mempool version. */
export type AnswerCaches = {
  immutable: AnswerCache;
  chain: AnswerCache;
  mempool: AnswerCache;
};

/** The answer caches of each app (so per listener), for the metrics. */
export const answerCachesOf = new WeakMap<Koa, AnswerCaches>();

/**
 * CORS (clients.md §5): every answer may be read by any origin (no client sends credentials), and
 * a preflight `OPTIONS` on any path is answered 204 with what the browser asked to send. `OPTIONS *`
 * names no path: it is no preflight, and no route answers it.
 */
async function cors(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  ctx.set('Access-Control-Allow-Origin', '*');
  // Pages isolated with COEP may load cross-origin answers only with this (browser-node, §4.7).
  ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  if (ctx.method !== 'OPTIONS' || ctx.req.url === '*') return next();
  ctx.status = 204;
  ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  ctx.set('Access-Control-Allow-Headers', ctx.get('Access-Control-Request-Headers') || 'Content-Type, Accept');
  ctx.set('Access-Control-Max-Age', '86400');
  // A public page calling a loopback node (Chrome's private network access preflight).
  if (ctx.get('Access-Control-Request-Private-Network') === 'true') ctx.set('Access-Control-Allow-Private-Network', 'true');
}

/** An HTTP/1.1 request must name its Host (RFC 9112 §3.2): refused with 400, in JSON, and the connection closed. */
function hostRequired(gen: Generation): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.req.httpVersion !== '1.1' || ctx.req.headers.host !== undefined) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Connection', 'close');
    send(ctx, 400, errorBody(gen, new NodeError('EINV_ARGS', 'an HTTP/1.1 request needs a Host header')), gen);
  };
}

/** Beyond this much an oversized upload is cut off instead of drained. */
const MAX_DRAIN_BYTES = 64 * MAX_BODY_BYTES;

/**
 * A request whose client went away (aborted upload) or whose body the HTTP parser refused (broken
 * chunked encoding): nobody is left to answer and nothing in the node is wrong, so it is logged
 * once at debug level, without a stack (issue 12).
 */
class ClientGone extends Error {
  constructor(failure: Error & { code?: string }) {
    super(`request body not received: ${failure.code ?? failure.message}`);
  }
}

/** The request body's bytes, read with plain listeners (an async iterator costs more than a small body's parse). */
function readBody(req: Koa.Request['req']): Promise<{ chunks: Buffer[]; size: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      // Keep reading (and discarding) an oversized body, so the client gets the error reply.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (size > MAX_DRAIN_BYTES) {
        done();
        req.destroy();
        resolve({ chunks, size });
      }
    };
    const onEnd = () => {
      done();
      resolve({ chunks, size });
    };
    const onError = (e: Error) => {
      done();
      reject(new ClientGone(e));
    };
    // Closed before its end: the client went away mid-upload.
    const onClose = () => {
      done();
      reject(new ClientGone(Object.assign(new Error('premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })));
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/**
 * JSON.parse reads a text exactly as readJson does when no integer in it can pass 2^53 (fewer than
 * 16 digits in a row anywhere), none is a negative zero (readJson's integers are never -0) and it
 * is too short to nest deeper than readJson recurses; JSON.parse is some 15 times faster.
 */
const PLAIN_JSON_CHARS = 2048;
const MAYBE_INEXACT = /\d{16}|-0(?![.eE])/;

async function readJsonBody(req: Koa.Request['req']): Promise<unknown> {
  const { chunks, size } = await readBody(req);
  if (size > MAX_BODY_BYTES) throw new NodeError('EINV_BODY', `request body larger than ${MAX_BODY_BYTES} bytes`);
  const text = (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8');
  try {
    return text.length <= PLAIN_JSON_CHARS && !MAYBE_INEXACT.test(text) ? JSON.parse(text) : readJson(text);
  } catch {
    throw new NodeError('EINVJSON', 'the request body is not valid JSON');
  }
}

/** The generation each app answers in, for the answers written below koa (listen()). */
const generationOf = new WeakMap<Koa, Generation>();
/** Reads started per event-loop turn, and running at once, per listener; more wait their turn (read_gate.ts). */
const READ_CONCURRENCY = 4;
/** Sockets whose failure was already logged (a parser error is followed by the request's abort). */
const reported = new WeakSet<Duplex>();

function peer(socket: Duplex): string {
  const s = socket as Duplex & { remoteAddress?: string; remotePort?: number };
  return `${s.remoteAddress ?? '?'}:${s.remotePort ?? '?'}`;
}

/** `guard` runs first on every request but a preflight (the public listener's request budget). */
export function createApp(routes: Route<any>[], node: NodeServices, log: (line: string) => void, guard?: Koa.Middleware): Koa {
  const app = new Koa();
  // Every listener of the node serves the generation of `--api`.
  const api = node.config.api ?? 'contract';
  const gen = GENERATIONS[api];
  generationOf.set(app, gen);
  app.use(hostRequired(gen));
  app.use(cors);
  if (guard) app.use(guard);
  // The references' router (uWebSockets) matches paths exactly.
  const exact = gen.unknownRoute === 'close';
  const router = new Router({ strict: exact, sensitive: exact });
  // Errors koa sees outside the handlers (a request stream failing): a client that went away is
  // debug, anything else an error; koa's default would print a stack for each.
  app.on('error', (e: Error & { code?: string }, ctx?: Koa.Context) => {
    if (ctx && reported.has(ctx.req.socket)) return;
    if (ctx) reported.add(ctx.req.socket);
    if (isClientFailure(e))
      nodeLog.debug(`HTTP ${ctx ? `${ctx.method} ${quoted(ctx.path)} ` : ''}from ${ctx ? peer(ctx.req.socket) : '?'}: ${e.code ?? e.message}`);
    else log(`HTTP error: ${e.stack ?? e}`);
  });
  const reads = new ReadGate(READ_CONCURRENCY);
  const answers = new AnswerCache();
  // Answers under a chain state (and mempool version) serve until the next change only: budgets of
  // their own, so that under traffic (the mempool version moves with each admission) they do not
  // push out the immutable ones; each keeps one state's answers (AnswerKey.state), so those under
  // the chain alone outlive admissions.
  const chainAnswers = new AnswerCache(STATE_ANSWER_BYTES);
  const mempoolAnswers = new AnswerCache(STATE_ANSWER_BYTES);
  answerCachesOf.set(app, { immutable: answers, chain: chainAnswers, mempool: mempoolAnswers });
  // Read routes never see the live chain: they get the services without it, and a read view.
  const { chain, ...readServices } = node;
  for (const { method, path, route: r, rule, writer } of servedRoutes(api, routes)) {
    const number = (n: number) => writeJson(n, writer.numberText);
    const cacheable = !r.raw && r.response !== null && !rule.voidSuccess && rule.envelope !== 'text';
    /** Sends `data` as `writer` writes it, reshaped on `view`; returns the text when it may be kept (answerKey). */
    const reply = async (ctx: Koa.Context, data: unknown, params: Record<string, string>, view: ReadView): Promise<string | undefined> => {
      if (r.raw && r.text !== undefined) {
        ctx.status = 200;
        ctx.type = r.text;
        ctx.body = data as string;
        return;
      }
      if (r.raw) return void send(ctx, 200, data);
      if (r.response === null || rule.voidSuccess) return void send(ctx, 200, rule.voidInData ? { code: 0, data: writer.voidReply } : writer.voidReply, writer);
      // The contract is the views' own form: nothing to adapt.
      let out = writer === CONTRACT ? data : adaptValue(writer, r.response.schema, data, { params, view });
      if (rule.reshape) out = await rule.reshape.value(out, { params, view });
      if (rule.envelope === 'text') {
        ctx.type = 'application/json; charset=utf-8';
        ctx.body = String(out);
        return;
      }
      return send(ctx, 200, rule.envelope === 'bare' ? out : { code: 0, data: out }, writer);
    };
    /** Answers a refusal of this route as its writer words it (an error, or a success or a bare text where its reference answers so). */
    const refuse = (ctx: Koa.Context, e: NodeError): void => {
      const a = refusalIn(writer, e, rule);
      if ('error' in a) return void send(ctx, 200, a.error, writer);
      if ('data' in a) return void send(ctx, 200, { code: 0, data: a.data }, writer);
      ctx.status = 200;
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = a.text;
    };
    const serve = async (ctx: Koa.Context) => {
      try {
        await answer(ctx);
      } catch (e) {
        if (!(e instanceof NodeError) || isStoreDamage(e)) throw e;
        refuse(ctx, e);
      }
    };
    const answer = async (ctx: Koa.Context) => {
      const raw = r.method === 'POST' ? await readJsonBody(ctx.req) : undefined;
      const body = rule.request ? rule.request(raw) : raw;
      const query: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(ctx.query)) query[k] = Array.isArray(v) ? v[v.length - 1] : v;
      const params = { ...(ctx.params as Record<string, string>), ...rule.fixedParams };
      if (r.changes) {
        const change = r;
        if (rule.before) await chain.read(async (view) => rule.before!({ params, view, body }));
        const data = await change.handler({ params, query, body, api, node });
        // What a change answers is written on the chain as the change left it.
        await chain.read((view) => reply(ctx, data, params, view));
        return;
      }
      const read = r;
      // One view for the whole answer: the cache key, the handler and the generation's reshapes.
      await chain.read(async (view) => {
        const req: ReadRequest = { params, query, body, api, node: readServices, view };
        // Answers kept as written bytes (answer_cache.ts): immutable ones under their own key (a
        // block by its hash), the others under the chain state (and mempool version) they were
        // computed on — also those an immutable key declined or the handler marked uncacheable.
        const own = cacheable && read.answerKey && Object.keys(query).length === 0 ? await read.answerKey(req) : null;
        // Under its own key first, then under the state's (named only then): the handler may
        // decline the own key (uncacheable: a block with orders), and the answer is then kept per state.
        const served = (key: AnswerKey | null, cache: AnswerCache): boolean => {
          const kept = key ? cache.get(key, number) : undefined;
          if (kept === undefined) return false;
          ctx.status = 200;
          ctx.type = 'application/json; charset=utf-8';
          ctx.body = kept;
          return true;
        };
        if (served(own, answers)) return;
        const withMempool = read.dependsOn === 'chain+mempool';
        const state = cacheable && read.dependsOn ? stateAnswerKey(ctx.url, view, withMempool ? readServices.mempool.version : null) : null;
        const stateAnswers = withMempool ? mempoolAnswers : chainAnswers;
        if (served(state, stateAnswers)) return;
        if (rule.before) await rule.before({ params, view });
        const data = await read.handler(req);
        const text = await reply(ctx, data, params, view);
        if (text !== undefined) {
          if (own && !req.uncacheable) answers.set(own, text, number);
          else if (state) stateAnswers.set(state, text, number);
        }
      });
    };
    const handle =
      r.changes === 'chain'
        ? (ctx: Koa.Context) => reads.write(() => serve(ctx))
        : r.changes === 'mempool'
          ? serve
          : (ctx: Koa.Context) => reads.run(() => serve(ctx));
    if (method === 'GET') router.get(path, handle);
    else router.post(path, handle);
  }
  /** A request no route serves, as the references' HTTP library: no answer, the connection closed. */
  const close = (ctx: Koa.Context) => {
    ctx.respond = false;
    ctx.req.socket.destroy();
  };
  app.use(async (ctx, next) => {
    try {
      if (exact && ctx.method === 'HEAD') return close(ctx);
      await next();
      if (ctx.body === undefined) {
        if (exact) return close(ctx);
        send(ctx, 404, errorBody(gen, new NodeError('ENOTFOUND', `no route ${ctx.method} ${quoted(ctx.path)}`)), gen);
      }
    } catch (e) {
      if (isStoreDamage(e)) {
        log(`database damaged (${(e as Error).message}): stop the node and restart it with --reindex`);
        return send(ctx, 500, errorBody(gen, new NodeError('EDBDAMAGED', 'a database file is damaged: the node must be restarted with --reindex')));
      }
      if (e instanceof NodeError) return send(ctx, 200, errorBody(gen, e), gen);
      if (e instanceof ClientGone) {
        if (!reported.has(ctx.req.socket)) nodeLog.debug(`HTTP ${ctx.method} ${quoted(ctx.path)} from ${peer(ctx.req.socket)}: ${e.message}`);
        reported.add(ctx.req.socket);
        ctx.respond = false; // nobody to answer: the connection is gone or answered already (clientError)
        return;
      }
      // A path segment with a bad %-escape fails inside the router.
      if (e instanceof URIError) return send(ctx, 200, errorBody(gen, new NodeError('EINV_ARGS', 'malformed URL escape')));
      log(`internal error on ${ctx.method} ${ctx.url}: ${(e as Error)?.stack ?? e}`);
      send(ctx, 500, errorBody(gen, new NodeError('EBUG', 'internal error, see the node log')));
    }
  });
  app.use(router.routes());
  return app;
}

/** Client-side failures: the peer went away or sent what the HTTP parser refuses. */
function isClientFailure(e: { code?: string }): boolean {
  return ['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE'].includes(e.code ?? '') || (e.code ?? '').startsWith('HPE_');
}

/** HTTP status and error for a request the parser refused (llhttp error codes). */
function refusal(code: string | undefined, maxHeaderSize: number): [number, NodeError] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, new NodeError('EINV_ARGS', `request header larger than ${maxHeaderSize} bytes`)];
    case 'HPE_INVALID_METHOD':
      return [501, new NodeError('ENOTFOUND', 'unknown HTTP method: the node answers GET, POST and OPTIONS')];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, new NodeError('ETIMEOUT', 'the request did not arrive in time')];
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_EOF_STATE':
      return [400, new NodeError('EINV_BODY', `malformed request body (${code})`)];
    default:
      return [
        400,
        new NodeError(
          'EINV_ARGS',
          `malformed HTTP request (${code ?? 'unknown'}): a space, tab or control character in the path, or a bad request line or header`,
        ),
      ];
  }
}

/**
 * Requests that never reach koa still get a JSON answer where the connection allows one (issue 12):
 * what the HTTP parser refuses (`clientError`), `CONNECT` (`connect`) and an `Expect` the node
 * does not meet (`checkExpectation`). Each is logged once at debug level.
 */
function answerBelowKoa(server: Server, gen: Generation): void {
  const maxHeaderSize = (server as Server & { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSizeDefault;
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    if (!reported.has(socket)) nodeLog.debug(`HTTP request from ${peer(socket)} refused: ${err.code ?? err.message}`);
    reported.add(socket);
    // A reset connection cannot be answered; nor can one whose answer has begun.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) return void socket.destroy();
    const [status, e] = refusal(err.code, maxHeaderSize);
    refuseOnSocket(server, socket, status, e);
  });
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    nodeLog.debug(`HTTP CONNECT from ${peer(socket)} refused`);
    socket.on('error', () => socket.destroy());
    refuseOnSocket(server, socket, 405, new NodeError('ENOTFOUND', `no route CONNECT ${quoted(req.url ?? '')}: the node is no proxy`));
  });
  server.on('checkExpectation', (req: IncomingMessage, res) => {
    nodeLog.debug(`HTTP request from ${peer(req.socket)} with Expect ${quoted(req.headers.expect ?? '')} refused`);
    res.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', 'Access-Control-Allow-Origin': '*', Connection: 'close' });
    res.end(writeJson(errorBody(gen, new NodeError('EINV_ARGS', `unsupported Expect header ${quoted(req.headers.expect ?? '')}`))));
  });
}

export function listen(app: Koa, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    // Node's own answer to an HTTP/1.1 request without Host is an empty 400: koa answers it (hostRequired).
    const server = createServer({ requireHostHeader: false }, app.callback()).listen(port, host);
    const gen = generationOf.get(app) ?? CONTRACT;
    answerIn(server, gen);
    answerBelowKoa(server, gen);
    // Idle keep-alive sockets are closed by clients first (undici: 4 s), never by us while a client may be
    // sending on one: a server-side close racing a request is the "other side closed" fetch failure.
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}
