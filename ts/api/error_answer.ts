// Errors as a listener writes them: the body in the numbers and texts of its API generation, and,
// for requests answered below koa (the HTTP parser's refusals, CONNECT, WebSocket upgrades the
// node does not serve), a whole HTTP/1.1 answer written on the raw socket. Every answer is JSON,
// with a code of the one error table (core/errors.ts), wherever in the server it is written.
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERRORS, type NodeError } from '../core/errors.js';
import type { Generation } from './generations/generation.js';
import { CONTRACT } from './generations/index.js';
import { writeJson } from './json.js';

/** An error as generation `g` numbers and writes it. */
export function errorBody(g: Generation, e: NodeError): { code: number; error: string } {
  return { code: g.errorCodes[e.errorName] ?? e.code, error: g.errorText(e.message, ERRORS[e.errorName][1]) };
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
