#!/usr/bin/env node
// Single-block propagation latency (issue 19): the time from a block's append on one node to another
// node's /chain/head showing it, block by block, over ≥ 20 blocks. Needs the reference binaries
// (their regtest builds, README), so it is not part of `make test`.
//
// Usage: node scripts/propagation.mjs [CASE ...]     (default: all four)
//   ours-0.10   our node appends (/debug/fakemine), a 0.10.3 reference follows (it dials us)
//   ours-0.8    the same with a 0.8.20 reference
//   ref-0.10    a 0.10.3 reference mines (/chain/mine + /chain/append), a second 0.10.3 follows
//   ref-0.8     the same with two 0.8.20 references
// Environment:
//   REF010_BIN, REF08_BIN  reference binaries (default $REF_WORK/regtest/build/src/node/wart-node and
//                          $REF_WORK/regtest-0.8/..., REF_WORK default $TMPDIR/warthog-ref or /tmp/warthog-ref)
//   OUR_BIN                our bundle (default dist/node.mjs of this checkout)
//   BLOCKS (20)            measured blocks per case, after WARMUP (3) blocks the follower must have first
//   GAP_MS (1000)          pause between the follower showing a block and the next append
//   PORT_BASE (42100)      ports are taken from PORT_BASE … 42999, each one no socket uses (/proc/net/tcp),
//                          since a reference cannot bind a port a TIME-WAIT socket still holds
//   OUT                    folder for logs (default a fresh temporary folder; kept, its path is printed)
// Every node runs on 127.0.0.1; a reference always with --testnet (its regtest build) and --connect.
// The follower's head is polled every 10 ms: the figures carry ±10 ms of polling.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv, get as getJson, head as nodeHead, post as postJson, referenceLines, sleep, stop as stopProcess, waitUp } from './lib/nodes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const REF_WORK = process.env.REF_WORK ?? `${process.env.TMPDIR ?? '/tmp'}/warthog-ref`;
const BIN = {
  '0.10': process.env.REF010_BIN ?? `${REF_WORK}/regtest/build/src/node/wart-node`,
  0.8: process.env.REF08_BIN ?? `${REF_WORK}/regtest-0.8/build/src/node/wart-node`,
};
const OUR_BIN = process.env.OUR_BIN ?? join(ROOT, 'dist/node.mjs');
const BLOCKS = Number(process.env.BLOCKS ?? 20);
const WARMUP = Number(process.env.WARMUP ?? 3);
const GAP_MS = Number(process.env.GAP_MS ?? 1000);
const PORT_BASE = Number(process.env.PORT_BASE ?? 42100);
const OUT = process.env.OUT ?? mkdtempSync(join(tmpdir(), 'propagation-'));
const BLOCK_TIMEOUT_MS = 60_000;
if (PORT_BASE < 42000 || PORT_BASE + 9 > 42999) throw new Error('PORT_BASE: ports 42000–42999 only');

/** Local ports some socket holds now, in any state (TIME-WAIT included). */
function portsInUse() {
  const used = new Set();
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, 'utf8').split('\n').slice(1)) {
      const m = /^\s*\d+:\s+[0-9A-F]+:([0-9A-F]{4})\s/.exec(line);
      if (m) used.add(parseInt(m[1], 16));
    }
  }
  return used;
}
const taken = new Set();
/** A port in PORT_BASE … 42999 that no socket holds and this run has not handed out. */
function freePort() {
  const used = portsInUse();
  for (let p = PORT_BASE; p <= 42999; p++)
    if (!used.has(p) && !taken.has(p)) {
      taken.add(p);
      return p;
    }
  throw new Error('no free port in PORT_BASE … 42999');
}

const children = new Set();
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
process.on('SIGINT', () => process.exit(130));

// HTTP on scripts/lib/nodes.mjs's keep-alive agent (polling every 10 ms over fresh connections would
// leave thousands of TIME-WAIT sockets on loopback ports), 5 s unless told.
const get = (url, ms = 5000) => getJson(url, ms);
const post = (url, body, ms = 5000) => postJson(url, body, ms);

function start(dir, name, cmd, args, { env = {}, cwd } = {}) {
  const fd = openSync(join(dir, `${name}.out`), 'a');
  const c = spawn(cmd, args, { env: childEnv(env), cwd, stdio: ['ignore', fd, fd] });
  c.label = name;
  children.add(c);
  writeFileSync(join(dir, 'commands.txt'), `${name} (pid ${c.pid}): ${env.HOME ? `HOME=${env.HOME} ` : ''}${cmd} ${args.join(' ')}\n`, { flag: 'a' });
  return c;
}

async function stop(c) {
  await stopProcess(c);
  children.delete(c);
}

/** A reference node: fresh HOME with .warthog/, --testnet, loopback, communication logged (0.8 needs its config file). */
function startRef(dir, name, version, rpc, p2p, connect) {
  const home = join(dir, `${name}-home`);
  mkdirSync(join(home, '.warthog'), { recursive: true });
  // 0.8.20 logs each message only with [node] log-communication (read from testnet_config.toml in its working folder).
  if (version === '0.8') writeFileSync(join(home, 'testnet_config.toml'), '[node]\nlog-communication = true\n');
  const args = ['--testnet', `--rpc=127.0.0.1:${rpc}`, `--bind=127.0.0.1:${p2p}`, `--connect=${connect}`];
  const c = start(dir, name, BIN[version], args, { env: { HOME: home }, cwd: home });
  return { kind: 'ref', version, name, proc: c, url: `http://127.0.0.1:${rpc}`, p2p: `127.0.0.1:${p2p}`, home };
}

function startOur(dir, name, rpc, p2p) {
  const args = ['--regtest', `--datadir=${join(dir, `${name}-data`)}`, `--rpc=127.0.0.1:${rpc}`, `--bind=127.0.0.1:${p2p}`];
  const c = start(dir, name, OUR_BIN, args);
  return { kind: 'our', name, proc: c, url: `http://127.0.0.1:${rpc}`, p2p: `127.0.0.1:${p2p}` };
}

const head = (n) => nodeHead(n, 2000);

async function address(n) {
  const j = await get(`${n.url}/tools/wallet/new`);
  return j.data.address;
}

/** Appends one block on `n`; returns its height and hash once the append call returned. */
const prefixedBody = new WeakMap();
async function mineOne(n, addr) {
  if (n.kind === 'our') {
    const r = await get(`${n.url}/debug/fakemine/${addr}`, 10_000);
    if (r.code !== 0) throw new Error(`fakemine: ${JSON.stringify(r)}`);
    return head(n);
  }
  // The reference: a template, then nonces until its proof of work holds (regtest: within a few).
  // 0.10.3 wants the POSTed body length-prefixed (its regtest mining endpoint); 0.8.20 the plain body.
  for (let attempt = 0; attempt < 20; attempt++) {
    const t = await get(`${n.url}/chain/mine/${addr}`);
    if (t.code !== 0) throw new Error(`/chain/mine: ${JSON.stringify(t)}`);
    const header = Buffer.from(t.data.header, 'hex');
    for (let nonce = 0; nonce < 40; nonce++) {
      header.writeUInt32BE(nonce, 76);
      const prefixed = prefixedBody.get(n) ?? false;
      const body = prefixed ? (t.data.body.length / 2).toString(16).padStart(8, '0') + t.data.body : t.data.body;
      const r = await post(`${n.url}/chain/append`, { height: t.data.height, header: header.toString('hex'), body, worker: 'propagation' });
      if (r.code === 0) {
        const h = await head(n);
        if (h.height !== t.data.height) throw new Error(`${n.name}: appended ${t.data.height}, head ${h.height}`);
        return h;
      }
      if (r.code === 89 && !prefixed) {
        prefixedBody.set(n, true);
        nonce--;
        continue;
      }
    }
  }
  throw new Error(`${n.name}: no block accepted`);
}

/** Polls `n` every 10 ms until its head is `want`; returns ms since `t0`. */
async function waitFor(n, want, t0) {
  while (performance.now() - t0 < BLOCK_TIMEOUT_MS) {
    try {
      const h = await head(n);
      if (h.height > want.height || (h.height === want.height && h.hash === want.hash)) return performance.now() - t0;
    } catch {}
    await sleep(10);
  }
  return null;
}

/** Lines of a reference's output and logs matching `re` ("Synced in 6.6s", "send throttled reply in 2 seconds"). */
const refLines = (ref, re, dir) => referenceLines(join(dir, `${ref.name}.out`), ref.home, re);

/** The error names a reference closed its connections with (connections.log). */
const closeErrors = (ref, dir) => [...new Set(refLines(ref, / closed: [A-Z]/, dir).map((l) => / closed: ([A-Z0-9_]+)/.exec(l)[1]))];

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return {
    n: s.length,
    median: s.length % 2 ? s[(s.length - 1) >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2,
    p90: q(0.9),
    max: s[s.length - 1],
    min: s[0],
  };
};

async function runCase(name) {
  const [source, version] = name.split('-');
  const dir = join(OUT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (!existsSync(BIN[version])) throw new Error(`no ${version} reference binary at ${BIN[version]}`);
  const ports = new Map();
  const p = (i) => {
    if (!ports.has(i)) ports.set(i, freePort());
    return ports.get(i);
  };
  let a, b;
  try {
    if (source === 'ours') {
      a = startOur(dir, 'our', p(0), p(1));
      await waitUp(a);
      b = startRef(dir, `ref${version}`, version, p(2), p(3), a.p2p);
    } else {
      a = startRef(dir, `ref${version}-a`, version, p(4), p(5), `127.0.0.1:${p(7)}`);
      await waitUp(a);
      b = startRef(dir, `ref${version}-b`, version, p(6), p(7), a.p2p);
    }
    await waitUp(b);
    const addr = await address(a);
    // Warm-up: the follower must take the first blocks before anything is measured.
    let last;
    for (let i = 0; i < WARMUP; i++) last = await mineOne(a, addr);
    const warm = await waitFor(b, last, performance.now());
    if (warm === null) {
      const errors = [a, b].filter((n) => n.kind === 'ref').map((n) => `${n.name}: ${closeErrors(n, dir).join(', ') || 'none'}`);
      throw new Error(`${b.name} did not reach the warm-up head ${last.height} (connections closed with ${errors.join('; ')})`);
    }
    await sleep(GAP_MS);
    const rows = [];
    for (let i = 0; i < BLOCKS; i++) {
      const h = await mineOne(a, addr);
      const t0 = performance.now();
      const ms = await waitFor(b, h, t0);
      // Our node: does it hold the follower's requests back (/peers/throttled, p2p.md §3.8)?
      const throttled = a.kind === 'our' ? (await get(`${a.url}/peers/throttled`)).data.length : null;
      rows.push({ height: h.height, ms, throttled });
      console.log(
        `${name}: block ${h.height} ${ms === null ? `NOT SEEN within ${BLOCK_TIMEOUT_MS / 1000} s` : `${ms.toFixed(0)} ms`}${throttled ? ` (our node throttles ${throttled} peer)` : ''}`,
      );
      if (ms === null) break;
      await sleep(GAP_MS);
    }
    const seen = rows.filter((r) => r.ms !== null).map((r) => r.ms);
    const s = seen.length ? stats(seen) : null;
    const result = {
      case: name,
      blocks: rows.length,
      seen: seen.length,
      stats: s,
      perBlockMs: rows.map((r) => (r.ms === null ? null : Math.round(r.ms))),
      blocksWhileOurNodeThrottled: rows.filter((r) => r.throttled).length,
      followerSyncedLines: refLines(b, /Synced in /, dir).slice(-5),
      sourceThrottleLines: a.kind === 'ref' ? refLines(a, /send throttled reply/, dir).length : null,
    };
    writeFileSync(join(dir, 'result.json'), JSON.stringify(result, null, 2));
    return result;
  } finally {
    await stop(b?.proc);
    await stop(a?.proc);
  }
}

const ALL = ['ours-0.10', 'ours-0.8', 'ref-0.10', 'ref-0.8'];
const cases = process.argv.slice(2).length ? process.argv.slice(2) : ALL;
for (const c of cases)
  if (!ALL.includes(c)) {
    console.error(`unknown case ${c}; cases: ${ALL.join(' ')}`);
    process.exit(2);
  }
if (!existsSync(OUR_BIN) && cases.some((c) => c.startsWith('ours'))) {
  console.error(`no bundle at ${OUR_BIN} (npm run build)`);
  process.exit(2);
}
console.log(`logs in ${OUT}; ${BLOCKS} blocks per case, ${GAP_MS} ms apart; our bundle ${OUR_BIN}`);
const results = [];
for (const c of cases) {
  try {
    results.push(await runCase(c));
  } catch (e) {
    console.log(`${c}: ERROR ${e.message}`);
    results.push({ case: c, error: String(e.message ?? e) });
  }
}
console.log('\ncase        blocks  median ms   p90 ms   max ms');
for (const r of results) {
  if (r.error || !r.stats) {
    console.log(`${r.case.padEnd(11)} ${r.error ?? `${r.seen}/${r.blocks} seen`}`);
    continue;
  }
  const f = (x) => x.toFixed(0).padStart(8);
  console.log(`${r.case.padEnd(11)} ${`${r.seen}/${r.blocks}`.padStart(6)} ${f(r.stats.median)}   ${f(r.stats.p90)} ${f(r.stats.max)}`);
}
writeFileSync(join(OUT, 'results.json'), JSON.stringify(results, null, 2));
process.exit(results.every((r) => !r.error && r.seen === r.blocks) ? 0 : 1);
