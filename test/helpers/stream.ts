// A WebSocket client of the node's streams that validates every message it receives against its
// declared schema (ts/api/streams/events.ts) and lets a test wait for messages by type.
import WebSocket from 'ws';
import { CHAIN_DELTA_EVENTS, STREAM_EVENTS } from '../../ts/api/streams/events.js';
import { validate, type JsonSchema } from '../../ts/api/schema.js';
import { generationDocument } from '../../ts/api/generations/index.js';
import type { ApiName } from '../../ts/api/generations/generation.js';
import { STREAM_GENERATIONS } from '../../ts/api/streams/generation.js';
import { parseJsonExact } from './json.js';

const documents = new Map<ApiName, Record<string, JsonSchema>>();
function documentOf(api: ApiName): Record<string, JsonSchema> {
  let d = documents.get(api);
  if (!d) documents.set(api, (d = generationDocument(STREAM_GENERATIONS[api])));
  return d;
}

export interface StreamMessage {
  type: string;
  event?: any;
  data?: any;
}

export class StreamClient {
  readonly received: StreamMessage[] = [];
  private readonly waiters: (() => void)[] = [];
  /** Per type: index after the last message of that type taken by `next`. */
  private readonly cursors = new Map<string, number>();
  closed: { code: number; reason: string } | null = null;
  /** Messages that did not match their schema (a test asserts this stays empty). */
  readonly problems: string[] = [];

  /** Bytes received (all messages, also when not kept). */
  bytes = 0;

  private constructor(
    readonly ws: WebSocket,
    kind: 'stream' | 'delta',
    keep: boolean,
    api: ApiName,
  ) {
    const doc = documentOf(api);
    ws.on('message', (data: Buffer) => {
      this.bytes += data.length;
      if (!keep) return;
      const text = data.toString();
      const m = parseJsonExact(text) as StreamMessage;
      const schemas = (kind === 'stream' ? STREAM_EVENTS : CHAIN_DELTA_EVENTS) as Record<string, { schema: object }>;
      const shape = schemas[m?.type];
      if (!shape) this.problems.push(`unknown message type: ${text.slice(0, 200)}`);
      else {
        const p = validate(shape.schema as JsonSchema, m, '$', (n) => doc[n]);
        if (p.length) this.problems.push(`${m.type}: ${p.slice(0, 5).join('; ')}: ${text.slice(0, 300)}`);
      }
      this.received.push(m);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /**
   * `keep` false: messages are counted, not parsed, checked or kept (a flood receiver). `api`: the
   * node's `--api`, whose stream schemas the messages are checked against.
   */
  static open(url: string, path: '/stream' | '/ws/chain_delta', keep = true, api: ApiName = 'contract'): Promise<StreamClient> {
    const ws = new WebSocket(url.replace(/^http/, 'ws') + path);
    const c = new StreamClient(ws, path === '/stream' ? 'stream' : 'delta', keep, api);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(c));
      ws.once('error', reject);
    });
  }

  send(msg: unknown): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  subscribe(topic: string, params?: unknown): void {
    this.send({ action: 'subscribe', topic, ...(params ? { params } : {}) });
  }

  /** The next message of type `type` not yet taken (each type is read in order, independently). */
  async next(type: string, timeoutMs = 20_000): Promise<StreamMessage> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      for (let i = this.cursors.get(type) ?? 0; i < this.received.length; i++) {
        if (this.received[i].type !== type) continue;
        this.cursors.set(type, i + 1);
        return this.received[i];
      }
      if (this.closed) throw new Error(`closed (${this.closed.code}) while waiting for ${type}`);
      if (Date.now() > until) throw new Error(`no ${type} message; got ${this.received.map((m) => m.type).join(', ')}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
  }

  /** Marks every message received so far as taken, for every type. */
  skipAll(): void {
    for (const m of this.received) this.cursors.set(m.type, this.received.length);
  }

  /** Messages of `type` received so far. */
  all(type: string): StreamMessage[] {
    return this.received.filter((m) => m.type === type);
  }

  waitClosed(timeoutMs = 30_000): Promise<{ code: number; reason: string }> {
    const until = Date.now() + timeoutMs;
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.closed) return resolve(this.closed);
        if (Date.now() > until) return reject(new Error('not closed'));
        this.waiters.push(check);
        setTimeout(check, 200);
      };
      check();
    });
  }

  close(): void {
    this.ws.close();
  }
}
