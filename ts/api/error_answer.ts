// Errors as a listener writes them: the body in the numbers and texts of its API generation, and,
// for requests answered below koa (the HTTP parser's refusals, CONNECT, WebSocket upgrades the
// node does not serve), a whole HTTP/1.1 answer written on the raw socket. Every answer is JSON,
// with a code of the one error table (core/errors.ts), wherever in the server it is written; a
// generation may answer a route's refusal as its reference does (generations/: another error, a
// success or a bare text).
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERRORS, type ErrorName, type NodeError } from '../core/errors.js';
import type { Generation, RefusalAnswer, RouteRule } from './generations/generation.js';
import { CONTRACT } from './generations/index.js';
import { writeJson } from './json.js';

export interface ErrorBody {
  code: number;
  error: string;
}

/** A refusal as a generation answers it: an error body, a success with `data`, or a bare text body. */
export type RefusalReply = { error: ErrorBody } | { data: unknown } | { text: string };

/** Error `name` as generation `g` numbers and writes it; `message` is our text with its detail, when the error is ours as thrown. */
export function errorIn(g: Generation, name: ErrorName, message?: string): ErrorBody {
  const own = g.errors[name];
  if (own) return { code: own[0], error: own[1] };
  const [code, text] = ERRORS[name];
  return { code, error: g.errorText(message ?? text, text) };
}

/** What generation `g` answers for `e` on a route with `rule` (in `g`): the route's table, then the generation's; by case, then by name. */
export function refusalIn(g: Generation, e: NodeError, rule?: RouteRule): RefusalReply {
  let answer: RefusalAnswer | undefined;
  for (const table of [rule?.refusals, g.refusals]) {
    answer ??= (e.refusal && table?.[e.refusal]) || table?.[e.errorName];
  }
  if (answer === undefined || answer === e.errorName) return { error: errorIn(g, e.errorName, e.message) };
  return typeof answer === 'string' ? { error: errorIn(g, answer) } : answer;
}

/** An error as generation `g` numbers and writes it, outside any route. */
export function errorBody(g: Generation, e: NodeError): ErrorBody {
  return errorIn(g, e.errorName, e.message);
}

/** The generation each listener answers in, for the answers written below koa. */
const generationOf = new WeakMap<Server, Generation>();

export function answerIn(server: Server, g: Generation): void {
  generationOf.set(server, g);
}

/** A complete HTTP/1.1 answer with a JSON body, written on a raw socket; the connection closes. */
export function rawAnswer(status: number, body: unknown, headers: Record<string, string> = {}): string {
  const text = writeJson(body);
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(text)}\r\nAccess-Control-Allow-Origin: *\r\n${extra}Connection: close\r\n\r\n${text}`
  );
}

/** Answers `e` with `status` on a socket of `server` and closes it. */
export function refuseOnSocket(server: Server, socket: Duplex, status: number, e: NodeError, headers?: Record<string, string>): void {
  socket.end(rawAnswer(status, errorBody(generationOf.get(server) ?? CONTRACT, e), headers));
}
