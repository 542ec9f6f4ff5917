// A route: method, path pattern, the declared response shape and a handler. The server wraps
// `data` in the envelope `{code: 0, data}`; errors become `{code, error}` (http-api-details.md §1.3).
import type { ErrorName } from '../core/errors.js';
import type { Shape } from './schema.js';
import type { ApiName } from './generations/generation.js';
import type { NodeServices } from './services.js';
import type { AnswerKey } from './answer_cache.js';

export interface Request {
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  /** Parsed JSON body of a POST. */
  body: unknown;
  node: NodeServices;
  /** The generation the node serves (`--api`). */
  api: ApiName;
  /** Set by a handler whose answer must not be kept although the route names it (answerKey). */
  uncacheable?: boolean;
}

export interface Route<T = unknown> {
  method: 'GET' | 'POST';
  path: string;
  /** Shape of `data`; null for routes that answer `{code: 0}` only. */
  response: Shape<T> | null;
  /** The document is sent as is, without the envelope (`/debug/json_schemas`). */
  raw?: boolean;
  handler(req: Request): T | Promise<T>;
  /** What the route is for, one or two sentences of docs/api.md (scripts/docs/api_doc.ts). */
  doc?: string;
  /** Path and query parameters whose meaning differs from the docs glossary, or that it lacks. */
  params?: Record<string, string>;
  /** Codes reported by helpers the docs generator cannot see (it reads the handler's own codes). */
  errors?: ErrorName[];
  /** It changes the chain or the mempool: never queued behind reads; a chain change holds back reads not yet started (read_gate.ts). */
  changes?: 'chain' | 'mempool';
  /**
   * Immutable answers (a block by its hash): the key the written answer is kept under, per listener
   * (answer_cache.ts), or null to answer afresh. Called before the handler, which runs only on a miss.
   */
  answerKey?(req: Request): Promise<AnswerKey | null>;
}

export const route = <T>(r: Route<T>): Route<T> => r;
