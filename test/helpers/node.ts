// Starts a real node (the built bundle, as users run it) on a free loopback port with a temporary
// data directory, and talks HTTP to it. Every response is validated against the schema its route
// declares, as the node's API generation (`--api`) writes it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { ROUTES } from '../../ts/api/routes/index.js';
import { validate } from '../../ts/api/schema.js';
import type { ApiName } from '../../ts/api/generations/generation.js';
import { servedRoutes, validateSent, type ServedRoute } from '../../ts/api/generations/index.js';
import { writeJson } from '../../ts/api/json.js';
import { parseJsonExact } from './json.js';
import { fromHex } from '../../ts/core/hex.js';

// From the tests' sources (test/helpers/), or from a bundle in dist/ (the benchmarks, run at the repository root).
export const BIN =
  [join(import.meta.dirname, '../../dist/node.mjs'), join(process.cwd(), 'dist/node.mjs')].find((p) => existsSync(p)) ??
  join(import.meta.dirname, '../../dist/node.mjs');

export interface Reply {
  status: number;
  body: any;
  text: string;
}

export interface TestNode {
  url: string;
  /** The API generation it serves. */
  api: ApiName;
  /** The P2P endpoint `IP:PORT` when the node was started with peer-to-peer on, else null. */
  p2p: string | null;
  dataDir: string;
  proc: ChildProcess;
  output(): string;
  get(path: string): Promise<Reply>;
  /** GET that must succeed: returns `data` (throws with the reply text otherwise). */
  data(path: string): Promise<any>;
  post(path: string, body: unknown): Promise<Reply>;
  /** Sends a signal and waits for exit; returns the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const ERROR_SCHEMA = {
  type: 'object',
  properties: { code: { type: 'integer', minimum: 1 }, error: { type: 'string' } },
  required: ['code', 'error'],
  additionalProperties: false,
};

const served = new Map<ApiName, ServedRoute[]>();

/** The route a request reaches in generation `api`. */
export function routeFor(api: ApiName, method: string, path: string): ServedRoute | undefined {
  if (!served.has(api)) served.set(api, servedRoutes(api, ROUTES));
  const p = path.split('?')[0];
  return served.get(api)!.find((r) => r.method === method && new RegExp('^' + r.path.replace(/:[A-Za-z_0-9]+/g, '[^/]+') + '$').test(p));
}

const isError = (b: any) => typeof b === 'object' && b !== null && typeof b.code === 'number' && b.code !== 0 && typeof b.error === 'string';

/** Checks the envelope and validates `data` against the route's response shape in generation `api`. */
export function checkReply(method: string, path: string, reply: Reply, api: ApiName = 'contract'): void {
  const b = reply.body;
  const r = routeFor(api, method, path);
  if (r?.route.raw && !isError(b)) return;
  const sentBare = (r?.rule.envelope === 'bare' || r?.rule.envelope === 'text') && !isError(b);
  if (!sentBare && (typeof b !== 'object' || b === null || typeof b.code !== 'number')) throw new Error(`${path}: not an envelope: ${reply.text}`);
  if (!sentBare && b.code !== 0) {
    const problems = validate(ERROR_SCHEMA, b);
    if (problems.length) throw new Error(`${path}: bad error body ${reply.text}: ${problems.join('; ')}`);
    return;
  }
  if (!r) throw new Error(`${path}: success from a route the node does not declare`);
  if (r.route.response === null) {
    const expected = writeJson(r.rule.voidInData ? { code: 0, data: r.writer.voidReply } : r.writer.voidReply);
    if (reply.text !== expected) throw new Error(`${path}: void route answered ${reply.text}, expected ${expected}`);
    return;
  }
  const problems = validateSent(r, sentBare ? b : b.data);
  if (problems.length) throw new Error(`${path}: response does not match its schema: ${problems.slice(0, 5).join('; ')}\n${reply.text.slice(0, 500)}`);
}

/** The generation `--api=…` in a node's arguments selects (the contract without one). */
const apiOf = (args: string[]): ApiName => (args.find((a) => a.startsWith('--api='))?.slice(6) as ApiName | undefined) ?? 'contract';

/**
 * `list` (`IP:PORT,...`) when it names loopback addresses only; throws otherwise. Test nodes dial
 * nothing else: their `--connect` peers and their seed list (`WARTNODE_SEEDS`, config.ts) pass here.
 */
export function loopbackOnly(list: string): string {
  const bad = list.split(/[\s,]+/).filter((e) => e !== '' && !/^(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+$/.test(e));
  if (bad.length) throw new Error(`test nodes dial loopback addresses only, not ${bad.join(', ')}`);
  return list;
}

/** The environment users run the bin in: its `#!/usr/bin/env -S node …` line finds this Node.js first on PATH. */
export function binEnv(): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
}

/**
 * Starts a node, running the bin as users do. Without `--bind`, `--connect` or `--isolated` in `args` it runs `--isolated`, so
 * parallel tests neither compete for the P2P port nor dial seed peers. Its seed list is empty,
 * or `seeds` (loopback `IP:PORT,...`): a mainnet or testnet test node dials no public address
 * even without `--no-seeds`.
 */
export async function startNode(args: string[] = ['--regtest'], dataDir?: string, seeds = ''): Promise<TestNode> {
  // Mainnet and testnet nodes dial their seeds by default: a test node's list is empty or the test's loopback listeners.
  const env = { ...binEnv(), WARTNODE_SEEDS: loopbackOnly(seeds) };
  for (const a of args) if (/^(--connect=|-C)/.test(a)) loopbackOnly(a.replace(/^(--connect=|-C=?)/, ''));
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'wartnode-test-')));
  const api = apiOf(args);
  const withPeers = args.some((a) => /^(--bind|--connect|--isolated|-b|-C)/.test(a)) && !args.includes('--isolated');
  if (!args.some((a) => /^(--bind|--connect|--isolated|-b|-C)/.test(a))) args = [...args, '--isolated'];
  // A free port unless the test names one (`--rpc=…`).
  const rpc = args.some((a) => a.startsWith('--rpc=')) ? [] : ['--rpc=127.0.0.1:0'];
  const proc = spawn(BIN, [...rpc, `--datadir=${dir}`, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => {
    out += d;
  });
  proc.stderr!.on('data', (d) => {
    out += d;
  });
  let p2p: string | null = null;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node did not start:\n${out}`)), 20_000);
    const onData = () => {
      const m = /RPC endpoint is ([\d.]+:\d+)\./.exec(out);
      const p = /P2P endpoint is ([\d.]+:\d+)\./.exec(out);
      if (p) p2p = p[1];
      if (m && (p || !withPeers)) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`node exited with ${code}:\n${out}`));
    });
  });
  const request = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await fetch(url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : writeJson(body),
    });
    const text = await res.text();
    // A text route (`/metrics`) answers text; everything else JSON.
    const plain = res.headers.get('content-type')?.startsWith('text/plain') && res.status === 200;
    const reply = { status: res.status, text, body: plain ? text : parseJsonExact(text) };
    checkReply(method, path, reply, api);
    return reply;
  };
  return {
    url,
    api,
    p2p,
    dataDir: dir,
    proc,
    output: () => out,
    get: (path) => request('GET', path),
    data: async (path) => {
      const r = await request('GET', path);
      if (r.body.code !== 0) throw new Error(`${path} → ${r.text}`);
      return r.body.data;
    },
    post: (path, body) => request('POST', path, body),
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve(proc.exitCode);
        proc.once('exit', (code) => resolve(code));
        proc.kill(signal);
      }),
  };
}

/** The genesis hash of a node's chain, in any generation (0.8 answers `{hash}`): the pin of young chains. */
export async function genesisHash(node: TestNode): Promise<Uint8Array> {
  const d = (await node.get('/chain/block/0/hash')).body.data;
  return fromHex(typeof d === 'string' ? d : d.hash)!;
}

/** A free loopback port of 26000–26999 (the range this project's test listeners take when they name one). */
export async function freeLoopbackPort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = 26000 + Math.floor(Math.random() * 1000);
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer()
        .once('error', () => resolve(false))
        .listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port in 26000–26999');
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
