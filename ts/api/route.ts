// A route: method, path pattern, the declared response shape and a handler. The server wraps
// `data` in the envelope `{code: 0, data}`; errors become `{code, error}` (http-api-details.md §1.3).
// A route says whether it reads or changes: a route without `changes` reads, and its handler gets
// the read view the server opened for it (chain/read_view.ts) and services without the chain, so
// every answer it gives belongs to one chain state by construction — never half of a reorg, never
// a balance of a later block than the entries beside it.
import type { ErrorName } from '../core/errors.js';
import type { ApiName } from '../config.js';
import type { ReadView } from '../chain/read_view.js';
import type { Shape } from './schema.js';
import type { NodeServices, ReadServices } from './services.js';
import type { AnswerKey } from './answer_cache.js';

interface RequestParts {
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  /** Parsed JSON body of a POST. */
  body: unknown;
  /** The generation the node serves (`--api`). */
  api: ApiName;
}

/** A read route's request: everything it reads of the chain and the ledger comes from `view`. */
export interface ReadRequest extends RequestParts {
  node: ReadServices;
  view: ReadView;
  /** Set by a handler whose answer must not be kept although the route names it (answerKey). */
  uncacheable?: boolean;
}

/** A changing route's request: the live chain, to change it. */
export interface ChangeRequest extends RequestParts {
  node: NodeServices;
}

interface RouteParts<T> {
  method: 'GET' | 'POST';
  path: string;
  /** Shape of `data`; null for routes that answer `{code: 0}` only. */
  response: Shape<T> | null;
  /** The document is sent as is, without the envelope (`/debug/json_schemas`). */
  raw?: boolean;
  /** With `raw`: the handler's answer is a text of this media type, sent as is (`/metrics`), not JSON. */
  text?: string;
  /** What the route is for, one or two sentences of docs/api.md (scripts/docs/api_doc.ts). */
  doc?: string;
  /** Path and query parameters whose meaning differs from the docs glossary, or that it lacks. */
  params?: Record<string, string>;
  /** Codes reported by helpers the docs generator cannot see (it reads the handler's own codes). */
  errors?: ErrorName[];
}

export interface ReadRoute<T = unknown> extends RouteParts<T> {
  changes?: undefined;
  handler(req: ReadRequest): T | Promise<T>;
  /**
   * Immutable answers (a block by its hash): the key the written answer is kept under, per listener
   * (answer_cache.ts), or null to answer afresh. Called on the handler's view before the handler,
   * which runs only on a miss.
   */
  answerKey?(req: ReadRequest): AnswerKey | null | Promise<AnswerKey | null>;
  /**
   * The answer is a function of the URL (path and query), the API generation and the chain state
   * alone ('chain'), or also of the pending transactions ('chain+mempool'): the server keeps the
   * written answer per tip (and mempool version) and serves it again until either moves. Only for
   * handlers that read nothing else (no clock, peers, configuration or randomness); a pure function
   * of the URL may say 'chain' too (kept per tip, a key wider than it needs). Beside
   * `answerKey`, it keeps what that key declines (null) or the handler marks `uncacheable`.
   */
  dependsOn?: 'chain' | 'chain+mempool';
}

export interface ChangeRoute<T = unknown> extends RouteParts<T> {
  /** It changes the chain or the mempool: never queued behind reads; a chain change holds back reads not yet started (read_gate.ts). */
  changes: 'chain' | 'mempool';
  handler(req: ChangeRequest): T | Promise<T>;
}

export type Route<T = unknown> = ReadRoute<T> | ChangeRoute<T>;

export const route = <T>(r: Route<T>): Route<T> => r;
