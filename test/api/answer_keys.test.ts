// The server's use of the answer cache (server.ts, answer_cache.ts), in process with routes of its
// own that count their handler's runs: an answer under its own key is built once; one whose own
// key the handler declines (uncacheable) is kept per chain state and not built again while the
// state stays; answers of a slot replace each other; the state's key moves with the mempool; answers
// under a state have a budget of their own.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, listen } from '../../ts/api/server.js';
import { route, type Route } from '../../ts/api/route.js';
import { int, obj, str } from '../../ts/api/schema.js';
import type { NodeServices } from '../../ts/api/services.js';

const runs: Record<string, number> = {};
const counted = (name: string) => {
  runs[name] = (runs[name] ?? 0) + 1;
  return { n: runs[name] };
};
const Count = obj({ n: int });

const view = { length: 7, tipHash: new Uint8Array(32).fill(7), hashAt: () => new Uint8Array(32).fill(7) };
const mempool = { version: 1 };
let slotKey = 'a';

const routes: Route<any>[] = [
  route({ method: 'GET', path: '/t/own', response: Count, answerKey: () => ({ key: 'own' }), handler: () => counted('own') }),
  route({
    method: 'GET',
    path: '/t/declined',
    response: Count,
    dependsOn: 'chain+mempool',
    answerKey: () => ({ key: 'declined' }),
    handler: (req) => {
      req.uncacheable = true;
      return counted('declined');
    },
  }),
  route({
    method: 'GET',
    path: '/t/slot',
    response: Count,
    answerKey: () => ({ key: `slot ${slotKey}`, slot: 'the slot' }),
    handler: () => counted('slot'),
  }),
  route({
    method: 'GET',
    path: '/t/state/:i',
    response: obj({ n: int, filler: str }),
    dependsOn: 'chain+mempool',
    handler: () => ({ ...counted('state'), filler: 'x'.repeat(64 * 1024) }),
  }),
];

const node = {
  config: { api: 'contract', network: 'regtest' },
  mempool,
  chain: { read: (task: (v: unknown) => Promise<unknown>) => task(view) },
} as unknown as NodeServices;

let server: Server;
let base: string;
const get = async (path: string) => (await (await fetch(base + path)).json()) as { code: number; data: { n: number } };

beforeAll(async () => {
  server = await listen(
    createApp(routes, node, () => undefined),
    '127.0.0.1',
    0,
  );
  const a = server.address();
  base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('answers kept by the server', () => {
  it('builds an answer under its own key once', async () => {
    for (let i = 0; i < 3; i++) expect(await get('/t/own')).toEqual({ code: 0, data: { n: 1 } });
    expect(runs.own).toBe(1);
  });

  it('keeps an answer whose own key the handler declines per state, built again when the mempool moves', async () => {
    for (let i = 0; i < 3; i++) expect((await get('/t/declined')).data.n).toBe(1);
    expect(runs.declined).toBe(1);
    mempool.version++;
    for (let i = 0; i < 3; i++) expect((await get('/t/declined')).data.n).toBe(2);
    expect(runs.declined).toBe(2);
  });

  it('keeps answers under a state in a budget of their own: many of them push out no answer under its own key', async () => {
    expect((await get('/t/own')).data.n).toBe(1);
    // 40 MB of answers, each under a state the next admission ends (more than the whole 32 MiB budget).
    for (let i = 0; i < 640; i++) {
      mempool.version++;
      expect((await get(`/t/state/${i}`)).code).toBe(0);
    }
    expect((await get('/t/own')).data.n).toBe(1);
    expect(runs.own).toBe(1);
  });

  it('serves the latest key of a slot, and builds again when the key moves on', async () => {
    expect((await get('/t/slot')).data.n).toBe(1);
    expect((await get('/t/slot')).data.n).toBe(1);
    slotKey = 'b';
    expect((await get('/t/slot')).data.n).toBe(2);
    expect((await get('/t/slot')).data.n).toBe(2);
    slotKey = 'a'; // the slot holds b now: a is built again
    expect((await get('/t/slot')).data.n).toBe(3);
    expect(runs.slot).toBe(3);
  });
});
