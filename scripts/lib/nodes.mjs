// Our node and the reference nodes as child processes on loopback, and their HTTP APIs, for the live
// scripts (scripts/mainnet-interop.mjs): start and stop with logs in a run folder, bounded waits,
// chain heads, and mining through a node's own templates (GET /chain/mine → solve → POST /chain/append).
// Children are registered in sidebyside/processes.mjs's `kids` (killed when the script exits).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { appendFileSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kids } from '../sidebyside/processes.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// One keep-alive agent: polling over fresh connections leaves TIME-WAIT sockets on loopback ports.
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** An HTTP request answered with JSON; rejects on a timeout of `ms` or a body that is not JSON. */
export function request(method, url, body, ms = 10_000) {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request(
      url,
      { method, agent, timeout: ms, headers: text === null ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const s = Buffer.concat(chunks).toString();
          try {
            resolve(JSON.parse(s));
          } catch {
            reject(new Error(`${method} ${url}: HTTP ${res.statusCode}, not JSON: ${s.slice(0, 200)}`));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within ${ms} ms`)));
    req.on('error', reject);
    req.end(text ?? undefined);
  });
}
export const get = (url, ms) => request('GET', url, undefined, ms);
export const post = (url, body, ms) => request('POST', url, body, ms);

/** A run folder: a driver log, one log file per child, and the commands started. */
export class Run {
  constructor(dir) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
  }
  log(m) {
    const l = `${new Date().toISOString()} ${m}`;
    console.log(l);
    appendFileSync(join(this.dir, 'driver.log'), `${l}\n`);
  }
  start(name, cmd, args, { env = {}, cwd } = {}) {
    const fd = openSync(join(this.dir, `${name}.log`), 'a');
    const c = spawn(cmd, args, { env: { ...process.env, ...env }, cwd, stdio: ['ignore', fd, fd] });
    c.label = name;
    kids.push(c);
    appendFileSync(join(this.dir, 'commands.txt'), `${name} (pid ${c.pid}): ${env.HOME ? `HOME=${env.HOME} ` : ''}${cmd} ${args.join(' ')}\n`);
    return c;
  }
}

/** SIGTERM, then SIGKILL after `ms`. */
export async function stop(c, ms = 10_000) {
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  c.kill('SIGTERM');
  for (let i = 0; i < ms / 100 && c.exitCode === null && c.signalCode === null; i++) await sleep(100);
  if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}

/** Our node (`bin` = dist/node.mjs) on `network`; `connect` an `IP:PORT` or null. */
export function startOurs(run, { name = 'ours', bin, network, rpc, bind, connect = null, datadir, extra = [] }) {
  const args = [bin, `--${network}`, `--datadir=${datadir ?? join(run.dir, `${name}-data`)}`, `--rpc=${rpc}`, `--bind=${bind}`, ...extra];
  if (connect) args.push(`--connect=${connect}`);
  return { kind: 'ours', name, proc: run.start(name, process.execPath, args), url: `http://${rpc}`, p2p: bind };
}

/**
 * A reference node: `HOME=home bin --testnet --rpc --bind --connect` (its regtest builds speak our
 * local networks on --testnet). `home/.warthog` is created; with `logCommunication` its
 * testnet_config.toml (read from the working folder, here `home`) logs every message.
 */
export function startRef(run, { name = 'ref', bin, rpc, bind, connect, home, logCommunication = true }) {
  mkdirSync(join(home, '.warthog'), { recursive: true });
  if (logCommunication) writeFileSync(join(home, 'testnet_config.toml'), '[node]\nlog-communication = true\n');
  const args = ['--testnet', `--rpc=${rpc}`, `--bind=${bind}`, `--connect=${connect}`];
  return { kind: 'ref', name, proc: run.start(name, bin, args, { env: { HOME: home }, cwd: home }), url: `http://${rpc}`, p2p: bind, home };
}

export async function head(n, ms = 5000) {
  const j = await get(`${n.url}/chain/head`, ms);
  const h = j.data?.chainHead ?? j.data;
  return { height: h.height, hash: h.hash, pinHeight: h.pinHeight, pinHash: h.pinHash, worksumHex: h.worksumHex };
}

/** Waits until `n` answers /chain/head (its process must stay alive). */
export async function waitUp(n, seconds = 30) {
  for (let i = 0; i < seconds * 10; i++) {
    if (n.proc.exitCode !== null || n.proc.signalCode !== null) throw new Error(`${n.name} exited (${n.proc.exitCode ?? n.proc.signalCode})`);
    try {
      await head(n, 1000);
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${n.name} did not answer within ${seconds} s`);
}

/** Polls `fn` every `stepMs` until it returns a truthy value or `seconds` pass: {value, seconds} or {value: null, seconds: null}. */
export async function waitUntil(fn, seconds, stepMs = 100) {
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    let v = null;
    try {
      v = await fn();
    } catch {}
    if (v) return { value: v, seconds: (performance.now() - t0) / 1000 };
    await sleep(stepMs);
  }
  return { value: null, seconds: null };
}

/** Waits until every node shows the same head at height ≥ `min`: {head, seconds} or {head: null, last}. */
export async function waitSameHead(nodes, min, seconds) {
  let last = [];
  const r = await waitUntil(async () => {
    last = await Promise.all(nodes.map((n) => head(n, 2000).catch((e) => ({ error: e.message }))));
    return last.every((h) => h.hash && h.hash === last[0].hash && h.height >= min) ? last[0] : null;
  }, seconds);
  return { head: r.value, seconds: r.seconds, last };
}

/** The POSTed body in the form `n` takes: plain, or u32-length-prefixed (the 0.10.3 reference). */
const bodyForms = new WeakMap();
const prefixed = (hex) => (hex.length / 2).toString(16).padStart(8, '0') + hex;

/**
 * POST /chain/append of {height, header, body} (hex). A reference that refuses the plain body as
 * malformed (code 89) is sent the length-prefixed one, and keeps that form. Returns the reply and the form.
 */
export async function appendBlock(n, b) {
  const form = bodyForms.get(n) ?? 'plain';
  const send = (f) =>
    post(`${n.url}/chain/append`, { height: b.height, header: b.header, body: f === 'prefixed' ? prefixed(b.body) : b.body, worker: 'interop' });
  let r = await send(form);
  if (n.kind === 'ref' && form === 'plain' && r.code === 89) {
    const r2 = await send('prefixed');
    if (r2.code === 0 || r2.code !== 89) {
      bodyForms.set(n, 'prefixed');
      return { reply: r2, form: 'prefixed', plainRefused: r };
    }
    r = r2;
  }
  return { reply: r, form };
}

/**
 * Mines one block on `n` through its own template: GET /chain/mine/ADDRESS, `solve` (the project's
 * cpu_miner), POST /chain/append. Returns {height, header, body, reply, form}; throws after `tries` refusals.
 */
export async function mineOne(n, address, solve, tries = 10) {
  let lastRefusal;
  for (let i = 0; i < tries; i++) {
    const t = await get(`${n.url}/chain/mine/${address}`);
    if (t.code !== 0) throw new Error(`${n.name} /chain/mine: ${JSON.stringify(t)}`);
    const task = t.data;
    const block = solve({ header: task.header, body: task.body, merklePrefix: task.merklePrefix, height: task.height, testnet: task.testnet });
    if (!block) continue;
    const b = { height: block.height, header: Buffer.from(block.header).toString('hex'), body: Buffer.from(block.body).toString('hex') };
    const { reply, form } = await appendBlock(n, b);
    if (reply.code === 0) return { ...b, reply, form };
    lastRefusal = reply;
  }
  throw new Error(`${n.name}: no block accepted in ${tries} templates (last: ${JSON.stringify(lastRefusal)})`);
}

/** Lines of a reference's output and logs (`.warthog/logs_testnet/`) matching `re`. */
export function refLines(run, ref, re) {
  const files = [join(run.dir, `${ref.name}.log`)];
  const logs = join(ref.home, '.warthog', 'logs_testnet');
  if (existsSync(logs)) for (const f of readdirSync(logs)) files.push(join(logs, f));
  const out = [];
  for (const f of files) {
    if (!existsSync(f)) continue;
    for (const l of readFileSync(f, 'utf8').split('\n')) if (re.test(l)) out.push(l.trim());
  }
  return [...new Set(out)];
}

/** Lines of a child's log in the run folder matching `re`. */
export function logLines(run, name, re) {
  const f = join(run.dir, `${name}.log`);
  return existsSync(f)
    ? readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => re.test(l))
    : [];
}
