// Starts a real node (the built bundle, as users run it) on a free loopback port with a temporary
// data directory, and talks HTTP to it. Every response is validated against its declared schema.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '../../ts/api/routes/index.js';
import { validate } from '../../ts/api/schema.js';
import { writeJson } from '../../ts/api/json.js';
import { parseJsonExact } from './json.js';

export const BIN = join(import.meta.dirname, '../../dist/node.mjs');

export interface Reply { status: number; body: any; text: string }

export interface TestNode {
  url: string;
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
  type: 'object', properties: { code: { type: 'integer', minimum: 1 }, error: { type: 'string' } },
  required: ['code', 'error'], additionalProperties: false,
};

function routeFor(method: string, path: string) {
  const p = path.split('?')[0];
  return ROUTES.find((r) => r.method === method &&
    new RegExp('^' + r.path.replace(/:[A-Za-z_0-9]+/g, '[^/]+') + '$').test(p));
}

/** Checks the envelope and validates `data` against the route's declared response shape. */
export function checkReply(method: string, path: string, reply: Reply): void {
  const b = reply.body;
  if (typeof b !== 'object' || b === null || typeof b.code !== 'number') throw new Error(`${path}: not an envelope: ${reply.text}`);
  const r = routeFor(method, path);
  if (b.code !== 0) {
    const problems = validate(ERROR_SCHEMA, b);
    if (problems.length) throw new Error(`${path}: bad error body ${reply.text}: ${problems.join('; ')}`);
    return;
  }
  if (!r) throw new Error(`${path}: success from a route the node does not declare`);
  if (r.raw) return;
  if (r.response === null) {
    if (Object.keys(b).length !== 1) throw new Error(`${path}: void route answered ${reply.text}`);
    return;
  }
  const problems = validate(r.response.schema, b.data);
  if (problems.length) throw new Error(`${path}: response does not match its schema: ${problems.slice(0, 5).join('; ')}\n${reply.text.slice(0, 500)}`);
}

/**
 * Starts a node. Without `--bind`, `--connect` or `--isolated` in `args` it runs `--isolated`, so
 * parallel tests neither compete for the P2P port nor dial seed peers.
 */
export async function startNode(args: string[] = ['--regtest'], dataDir?: string): Promise<TestNode> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'wartnode-test-')));
  const withPeers = args.some((a) => /^(--bind|--connect|--isolated|-b|-C)/.test(a)) && !args.includes('--isolated');
  if (!args.some((a) => /^(--bind|--connect|--isolated|-b|-C)/.test(a))) args = [...args, '--isolated'];
  const proc = spawn(process.execPath, [BIN, '--rpc=127.0.0.1:0', `--datadir=${dir}`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => { out += d; });
  proc.stderr!.on('data', (d) => { out += d; });
  let p2p: string | null = null;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node did not start:\n${out}`)), 20_000);
    const onData = () => {
      const m = /RPC endpoint is ([\d.]+:\d+)\./.exec(out);
      const p = /P2P endpoint is ([\d.]+:\d+)\./.exec(out);
      if (p) p2p = p[1];
      if (m && (p || !withPeers)) { clearTimeout(timer); resolve(`http://${m[1]}`); }
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`node exited with ${code}:\n${out}`)); });
  });
  const request = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await fetch(url + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : writeJson(body),
    });
    const text = await res.text();
    const reply = { status: res.status, text, body: parseJsonExact(text) };
    checkReply(method, path, reply);
    return reply;
  };
  return {
    url, p2p, dataDir: dir, proc,
    output: () => out,
    get: (path) => request('GET', path),
    data: async (path) => {
      const r = await request('GET', path);
      if (r.body.code !== 0) throw new Error(`${path} → ${r.text}`);
      return r.body.data;
    },
    post: (path, body) => request('POST', path, body),
    stop: (signal = 'SIGTERM') => new Promise((resolve) => {
      if (proc.exitCode !== null) return resolve(proc.exitCode);
      proc.once('exit', (code) => resolve(code));
      proc.kill(signal);
    }),
  };
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
