// The wallet's only channel to a node: its HTTP JSON interface (http-api.md). Every answer is an
// envelope `{code:0,data}` or `{code,error}`; a refusal surfaces as NodeRefusal with the node's code
// and text, an unreachable node or a non-JSON answer as a wallet error (EHTTPREQUEST, EINVJSON).
// What is inside `data` differs between API generations: node_api.ts reads it.
import { WalletError } from './wallet_error.js';
import { readJson, writeJson } from '../core/json.js';

/** The node answered with an error envelope. */
export class NodeRefusal extends Error {
  constructor(
    readonly code: number,
    readonly text: string,
    readonly route: string,
  ) {
    super(`the node refused ${route}: error ${code}: ${text}`);
  }
}

/** Bounds one request, so a node that accepts but never answers cannot hang the wallet. */
const REQUEST_TIMEOUT_MS = 30_000;

export class NodeClient {
  readonly base: string;

  constructor(url: string) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new WalletError(`--node '${url}' is not a URL (example: http://127.0.0.1:3000)`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new WalletError(`--node '${url}' must be an http:// URL`);
    this.base = url.replace(/\/+$/, '');
  }

  get<T = unknown>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T = unknown>(path: string, body: string): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  /** `data` of a successful answer. */
  async request<T>(method: string, path: string, body?: string): Promise<T> {
    const route = `${method} ${path}`;
    let text: string;
    try {
      const res = await fetch(this.base + path, {
        method,
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      });
      text = await res.text();
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (e as Error).message;
      // The reference nodes close the connection, without an answer, on a route they do not serve.
      if (why === 'UND_ERR_SOCKET' || why === 'ECONNRESET') {
        throw new WalletError(
          `the node at ${this.base} closed the connection without answering ${route}: it does not serve that route ` +
            '(a node of another API generation than the wallet took it for? --api GENERATION says which)',
        );
      }
      throw new WalletError(
        `cannot reach the node at ${this.base} (${why}). Is a node running there? ` +
          'Start one with `wartnode` (or `node dist/node.mjs --regtest`), or give its address with --node http://IP:PORT',
      );
    }
    let reply: unknown;
    try {
      reply = readJson(text);
    } catch {
      throw new WalletError(`${this.base} answered ${route} with something that is not a node's JSON reply: ${text.slice(0, 200)}`);
    }
    return replyData<T>(reply, route, this.base);
  }
}

/** `data` of an envelope `{code:0,data}`; a NodeRefusal for `{code,error}`; a WalletError for anything else. */
export function replyData<T>(reply: unknown, route: string, base = 'the node'): T {
  const r = reply as { code?: unknown; error?: unknown; data?: unknown } | null;
  if (typeof r !== 'object' || r === null || Array.isArray(r) || typeof r.code !== 'number') {
    throw new WalletError(`${base} answered ${route} with something that is not a node's JSON reply: ${writeJson(reply).slice(0, 200)}`);
  }
  if (r.code !== 0) throw new NodeRefusal(r.code, String(r.error ?? ''), route);
  return r.data as T;
}
