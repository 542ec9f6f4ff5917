// Our node and the reference nodes as child processes on loopback, and their HTTP APIs, for the live
// scripts (scripts/mainnet-interop.mjs; the differential runners at the end): start and stop with logs in a run folder, bounded waits,
// chain heads, and mining through a node's own templates (GET /chain/mine → solve → POST /chain/append).
// Children are registered in sidebyside/processes.mjs's `kids` (killed when the script exits).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { busyPorts, kids } from '../sidebyside/processes.mjs';
import { Num, numOf, parseJson } from './exact-json.mjs';

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
/**
 * A child's environment: ours, `extra`, and this Node.js first on PATH, since our bins run through
 * their `#!/usr/bin/env -S node <flags>` line (scripts/build.mjs) and must get the same Node.js.
 */
export function childEnv(extra = {}) {
  return { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, ...extra };
}

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
    const c = spawn(cmd, args, { env: childEnv(env), cwd, stdio: ['ignore', fd, fd] });
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
  const args = [`--${network}`, `--datadir=${datadir ?? join(run.dir, `${name}-data`)}`, `--rpc=${rpc}`, `--bind=${bind}`, ...extra];
  if (connect) args.push(`--connect=${connect}`);
  return { kind: 'ours', name, proc: run.start(name, bin, args), url: `http://${rpc}`, p2p: bind };
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
/** A hex body with its u32 length before it, as the references' /chain/append reads a posted body. */
export const prefixed = (hex) => (hex.length / 2).toString(16).padStart(8, '0') + hex;

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
export const refLines = (run, ref, re) => referenceLines(join(run.dir, `${ref.name}.log`), ref.home, re);

/** Distinct lines matching `re` of the file `output` (a reference's output) and of the logs in `home/.warthog/logs_testnet/`. */
export function referenceLines(output, home, re) {
  const files = [output];
  const logs = join(home, '.warthog', 'logs_testnet');
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

// ---------------------------------------------------------------------------------------------
// The differential runners (scripts/defi-diff.mjs, scripts/mainnet-diff.mjs): our node and a
// reference node on one chain, both asked the same questions; seeded randomness, the work folder
// and the children, answers as {status, text}, ports, starting, heads, relay, and the count of
// comparisons and differences.

/** The options of both runners (their USAGE explains them), with a runner's own `extra`; --help prints `usage` and exits. */
export function differentialOptions(usage, extra = {}) {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      txs: { type: 'string' },
      accounts: { type: 'string' },
      ref: { type: 'string' },
      'port-base': { type: 'string' },
      keep: { type: 'boolean' },
      verbose: { type: 'boolean' },
      brief: { type: 'boolean' },
      hold: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      ...extra,
    },
  });
  if (values.help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  return values;
}

/** Exits (2) naming the first of `files` ([path, what it is]) that does not exist. */
export function requireFiles(name, files) {
  for (const [f, what] of files) {
    if (!existsSync(f)) {
      console.error(`${name}: ${what} not found: ${f}`);
      process.exit(2);
    }
  }
}

/** Seeded randomness: xorshift128+ seeded through SHA-256 of `text`. */
export function seededRandom(text) {
  const seedBytes = createHash('sha256').update(text).digest();
  let s0 = seedBytes.readBigUInt64BE(0),
    s1 = seedBytes.readBigUInt64BE(8);
  const M64 = (1n << 64n) - 1n;
  function next64() {
    let x = s0;
    const y = s1;
    s0 = y;
    x ^= (x << 23n) & M64;
    x ^= x >> 17n;
    x ^= y ^ (y >> 26n);
    s1 = x;
    return (s0 + s1) & M64;
  }
  const rnd = () => Number(next64() >> 11n) / 2 ** 53;
  return {
    next64,
    rnd,
    /** An integer in [lo, hi]. */
    rint: (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1)),
    pick: (a) => a[Math.floor(rnd() * a.length)],
    chance: (p) => rnd() < p,
    /** A bigint in [lo, hi]. */
    rbig: (lo, hi) => (hi <= lo ? lo : lo + (((next64() << 64n) | next64()) % (hi - lo + 1n))),
    /** A key of `weights` ({key: weight}) drawn in proportion to its weight (one draw). */
    weighted: (weights) => {
      let r = rnd() * Object.values(weights).reduce((x, y) => x + y, 0);
      let k;
      for (k of Object.keys(weights)) {
        r -= weights[k];
        if (r <= 0) break;
      }
      return k;
    },
  };
}

/** One answer of the node at `rpc` (`IP:PORT`): {status, text}; status 0 (text: the error's code) when none came. */
export async function answerOf(rpc, method, path, body, ms = 20_000) {
  try {
    const r = await fetch(`http://${rpc}${path}`, {
      method,
      body,
      headers: body !== undefined ? { 'content-type': 'application/json' } : {},
      signal: AbortSignal.timeout(ms),
    });
    return { status: r.status, text: await r.text() };
  } catch (e) {
    return { status: 0, text: String(e.cause?.code ?? e.message ?? e), error: e };
  }
}

/**
 * One differential run named `name`: a work folder `$TMPDIR/name-…` with a log per child, the
 * children (killed when the script exits), what is said (`vsay` with `verbose` only), and the
 * counts of comparisons, known differences and differences (with `brief`, only the first 3 of each
 * (route, JSON path) pattern printed). `routeKey` maps a route to its pattern; `shortAt` cuts long
 * answers; `known` is the KNOWN table (each entry with its `line`); `keep` and `hold` as the options say.
 */
export class Differential {
  constructor({ name, verbose = false, brief = false, shortAt = 600, routeKey, known, keep = false, hold = false }) {
    this.known = known;
    this.keep = keep;
    this.hold = hold;
    this.name = name;
    this.verbose = verbose;
    this.brief = brief;
    this.shortAt = shortAt;
    this.routeKey = routeKey;
    this.work = mkdtempSync(join(tmpdir(), `${name}-`));
    this.finished = false;
    this.comparisons = 0;
    this.diffCount = 0;
    this.knownCount = 0;
    this.knownSeen = new Map(); // known id → count
    this.diffRoutes = new Map(); // pattern → count
    process.on('SIGINT', () => process.exit(130));
    process.on('SIGTERM', () => process.exit(143));
  }
  say(line) {
    process.stdout.write(`${line}\n`);
  }
  vsay(line) {
    if (this.verbose) this.say(line);
  }
  short(s) {
    return s.length > this.shortAt ? `${s.slice(0, this.shortAt)}…` : s;
  }
  /** A child with its output in `label.log`; its exit after its first 15 s, before the end, is a difference. */
  start(label, cmd, args, env = {}) {
    const log = join(this.work, `${label}.log`);
    const t0 = Date.now();
    const fd = openSync(log, 'a');
    const c = spawn(cmd, args, { env: childEnv(env), stdio: ['ignore', fd, fd] });
    kids.push(c);
    c.on('exit', (code, sig) => {
      if (this.finished || Date.now() - t0 < 15_000) return;
      this.reportEvent(`${label} exited`, `${label} exited (${code ?? sig}); log ${log}`);
    });
    return c;
  }
  stopAll() {
    for (const c of kids) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }
  /** Counts a difference `d` ({path, ours, ref}) of the answers to `route` and prints it (`body`: what was sent). */
  report(label, route, d, body) {
    this.diffCount++;
    const pattern = `${this.routeKey(route)} ${d.path.replace(/\[\d+\]/g, '[]')}`;
    const n = (this.diffRoutes.get(pattern) ?? 0) + 1;
    this.diffRoutes.set(pattern, n);
    const sent = body === undefined ? '' : `\n  body: ${this.short(body)}`;
    if (!this.brief || n <= 3) this.say(`DIFF ${label} ${route} ${d.path}${sent}\n  ours: ${this.short(d.ours)}\n  ref:  ${this.short(d.ref)}`);
    else if (n === 4) this.say(`DIFF (further differences of the pattern ${pattern} are counted, not printed)`);
  }
  /** A difference outside the answers' comparison (relay, refusals, the chain itself, a node gone). */
  reportEvent(pattern, text) {
    this.diffCount++;
    this.diffRoutes.set(pattern, (this.diffRoutes.get(pattern) ?? 0) + 1);
    this.say(`DIFF ${text}`);
  }
  countKnown(id) {
    this.knownCount++;
    this.knownSeen.set(id, (this.knownSeen.get(id) ?? 0) + 1);
  }
  /** The node's answer ({status, text}); `node.rpc` is `IP:PORT`. */
  answer(node, method, path, body) {
    return answerOf(node.rpc, method, path, body);
  }
  /** The node's head, or null. */
  async head(node) {
    let d;
    try {
      const j = parseJson((await this.answer(node, 'GET', '/chain/head')).text);
      if (j?.code instanceof Num && j.code.t === '0') d = j.data;
    } catch {}
    const h = d?.chainHead ?? d;
    return h ? { height: numOf(h.height), hash: h.hash, pinHeight: numOf(h.pinHeight), pinHash: h.pinHash } : null;
  }
  /** The head once both nodes show the same one; {diverged, ours, ref} after `ms`. */
  async waitSynced(ours, ref, ms = 60_000) {
    let a, b;
    for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(100)) {
      [a, b] = await Promise.all([this.head(ours), this.head(ref)]);
      if (a && b && a.hash === b.hash) return a;
    }
    return { diverged: true, ours: a, ref: b };
  }
  /**
   * Starts a node by `launch()` on the ports `rpc`, `rpc + 1` (`node.rpc`, `node.p2p`), or on another
   * free pair of [lo, hi] (`portOk`) when a socket holds one (the machine's ephemeral ports include
   * the range) or it stops at start (its log's last line says why). `others`: the nodes whose ports are taken.
   */
  async startNode(node, label, launch, { rpc, others, lo, hi, portOk = (p) => p >= lo && p <= hi }) {
    for (let attempt = 0; attempt < 6; attempt++) {
      const used = busyPorts();
      const taken = new Set(others.filter((n) => n !== node && n.rpc).flatMap((n) => [n.rpc, n.p2p].map((a) => Number(a.split(':')[1]))));
      const free = (p) => portOk(p) && !used.has(p) && !taken.has(p);
      let port = rpc;
      if (attempt > 0 || !free(port) || !free(port + 1)) {
        do port = lo + 2 * Math.floor(Math.random() * ((hi - lo) / 2));
        while (!free(port) || !free(port + 1));
      }
      node.rpc = `127.0.0.1:${port}`;
      node.p2p = `127.0.0.1:${port + 1}`;
      const proc = launch();
      if (await this.#waitUp(node, proc)) return;
      const last = readFileSync(join(this.work, `${label}.log`), 'utf8')
        .trim()
        .split('\n')
        .pop();
      this.say(`${this.name}: ${label} stopped at start (${last}); again on other ports`);
    }
    throw new Error(`${label} did not start`);
  }
  async #waitUp(node, proc, ms = 60_000) {
    for (const t0 = Date.now(); Date.now() - t0 < ms; await sleep(300)) {
      if (await this.head(node)) return true;
      if (proc.exitCode !== null) return false;
    }
    throw new Error(`${node.name} did not answer on ${node.rpc}`);
  }
  /**
   * Starts our node (`ourBin` with `ourArgs`, its data in work/ours-data) on `portBase` + 1, + 2, then
   * the reference (`refBin --testnet`, its regtest build; HOME work/ref-home with `.warthog/`;
   * `--connect` to ours) on `portBase` + 3, + 4, each moved within [lo, hi] (`portOk`) as startNode says.
   */
  async startBoth(ours, ref, { ourBin, ourArgs, refBin, portBase, lo, hi, portOk }) {
    this.ours = ours;
    this.ref = ref;
    const at = { others: [ours, ref], lo, hi, portOk };
    const ourLaunch = () => this.start('ours', ourBin, [...ourArgs, `--rpc=${ours.rpc}`, `--bind=${ours.p2p}`, `--datadir=${join(this.work, 'ours-data')}`]);
    await this.startNode(ours, 'ours', ourLaunch, { ...at, rpc: portBase + 1 });
    const home = join(this.work, 'ref-home');
    mkdirSync(join(home, '.warthog'), { recursive: true });
    const refLaunch = () => this.start('ref', refBin, ['--testnet', `--rpc=${ref.rpc}`, `--bind=${ref.p2p}`, `--connect=${ours.p2p}`], { HOME: home });
    await this.startNode(ref, 'ref', refLaunch, { ...at, rpc: portBase + 3 });
  }
  /**
   * Waits until both nodes find every transaction of `items` by `/transaction/lookup/HASH` (relay
   * each way); each one missing after 20 s is a difference `missing(item)` = [pattern, text].
   */
  async waitRelayed(ours, ref, items, hashOf, missing, stepMs = 200) {
    const left = new Set(items);
    const found = async (node, hash) => {
      try {
        const j = parseJson((await this.answer(node, 'GET', `/transaction/lookup/${hash}`)).text);
        return j?.code instanceof Num && j.code.t === '0';
      } catch {
        return false;
      }
    };
    for (const t0 = Date.now(); left.size && Date.now() - t0 < 20_000; await sleep(stepMs)) {
      await Promise.all(
        [...left].map(async (t) => {
          const [o, r] = await Promise.all([found(ours, hashOf(t)), found(ref, hashOf(t))]);
          if (o && r) left.delete(t);
        }),
      );
    }
    for (const t of left) this.reportEvent(...missing(t));
  }
  /**
   * The end: the known and differing patterns' counts, then what `summary()` says; with `hold` the
   * nodes keep running, else the children are stopped, the work folder removed (when `ok` and not
   * `keep`) and the script exits (0 when `ok`).
   */
  end(ok, summary) {
    this.finished = true;
    for (const [id, n] of this.knownSeen) this.say(`known: ${id} ×${n} (${this.known.find((e) => e.id === id)?.line})`);
    for (const [k, v] of this.diffRoutes) this.say(`differences: ${k} ×${v}`);
    summary();
    if (this.hold) {
      const [ours, ref] = [this.ours?.rpc, this.ref?.rpc];
      this.say(`holding: ours http://${ours} (log ${join(this.work, 'ours.log')}), ref http://${ref} (HOME ${join(this.work, 'ref-home')}); Ctrl-C ends`);
      return;
    }
    this.stopAll();
    if (ok && !this.keep) rmSync(this.work, { recursive: true, force: true });
    process.exit(ok ? 0 : 1);
  }
}
