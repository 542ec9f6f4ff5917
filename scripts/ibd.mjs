#!/usr/bin/env node
// Initial block download side by side (issue 20): one of our nodes (A) serves a regtest chain built
// with real proof of work by the project's own builder (scripts/sidebyside/chain.mjs); then, one
// receiver at a time, started empty with --connect=A, our node, the reference 0.8.20 (regtest-0.8)
// and the reference 0.10.3 (regtest) each download it, alternating, ROUNDS times; seconds from the
// receiver's start until it reports A's height (headers + bodies, full validation), its CPU seconds
// (user + system, all threads) and its RSS at the end. Prints one table of ratios to 0.10.3.
// Loopback only, ports 45200-45999, every wait bounded; a reference only with --testnet and --connect.
// Needs reference binaries; not part of `make test`.
// Env: OUR_DIR (built checkout; default this checkout), REF_WORK (default $TMPDIR/warthog-ref),
//   EMPTY (blocks, default 20000; 0 skips), FULL (blocks of 353 transfers, default 60), MAINNET
//   (mainnet-shaped blocks, default 0: issue 29's million-block table is MAINNET=1000000 with its
//   size on disk and a restart on it), ROUNDS (3),
//   RECEIVERS ("ours,ref08,ref10"), CHAIN_CACHE (folder to keep built chains in).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, openSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kids, portAllocator } from './sidebyside/processes.mjs';
import { bundleChainMaker } from './sidebyside/chain.mjs';
import { childEnv, sleep, stop } from './lib/nodes.mjs';

const PORT_FROM = 45200,
  PORT_TO = 45999;
const HERE = dirname(fileURLToPath(import.meta.url));
const OUR_DIR = process.env.OUR_DIR ?? join(HERE, '..');
const REF_WORK = process.env.REF_WORK ?? join(process.env.TMPDIR ?? '/tmp', 'warthog-ref');
const EMPTY = Number(process.env.EMPTY ?? 20000),
  FULL = Number(process.env.FULL ?? 60),
  ROUNDS = Number(process.env.ROUNDS ?? 3);
const MAINNET = Number(process.env.MAINNET ?? 0);
const RECEIVERS = (process.env.RECEIVERS ?? 'ours,ref08,ref10').split(',');
const BIN = { ref08: join(REF_WORK, 'regtest-0.8/build/src/node/wart-node'), ref10: join(REF_WORK, 'regtest/build/src/node/wart-node') };
const freePort = portAllocator(PORT_FROM, PORT_TO);
const work = mkdtempSync(join(tmpdir(), 'ibd-'));
const makeChain = bundleChainMaker(OUR_DIR);
const TICK = 100; // clock ticks per second (getconf CLK_TCK on Linux)
const cpuSeconds = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / TICK;
  } catch {
    return NaN;
  }
};
const rssMB = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return NaN;
  }
};

/** Size on disk of a folder, MB (du: what the files take, not their lengths). */
const diskMB = (dir) => Number(spawnSync('du', ['-sk', dir], { encoding: 'utf8' }).stdout.split('\t')[0]) / 1024;

async function head(url) {
  try {
    const j = await (await fetch(url + '/chain/head', { signal: AbortSignal.timeout(2000) })).json();
    const h = j.data?.chainHead ?? j.data;
    return h.height;
  } catch {
    return -1;
  }
}
function start(label, cmd, args, env = {}) {
  const fd = openSync(join(work, `${label}-${kids.length}.log`), 'a');
  const c = spawn(cmd, args, { env: childEnv(env), stdio: ['ignore', fd, fd] });
  c.label = label;
  kids.push(c);
  return c;
}
async function waitUp(url, c) {
  for (let i = 0; i < 300; i++) {
    if (c.exitCode !== null || c.signalCode !== null) throw new Error(`${c.label} exited`);
    if ((await head(url)) >= 0) return;
    await sleep(100);
  }
  throw new Error(`${c.label} not up`);
}

const results = {}; // kind -> who -> [{rate, cpu, rss}]
async function round(dir, n, kind) {
  const aRpc = freePort(),
    aP2p = freePort();
  const a = start('A', join(OUR_DIR, 'dist', 'node.mjs'), ['--regtest', `--rpc=127.0.0.1:${aRpc}`, `--bind=127.0.0.1:${aP2p}`, `--datadir=${dir}`]);
  await waitUp(`http://127.0.0.1:${aRpc}`, a);
  if ((await head(`http://127.0.0.1:${aRpc}`)) !== n) throw new Error('A did not load the chain');
  for (const who of RECEIVERS) {
    const rpc = freePort(),
      p2p = freePort();
    const url = `http://127.0.0.1:${rpc}`;
    if (who !== 'ours' && !existsSync(BIN[who])) {
      console.log(`${kind} ${n} ${who}: binary missing`);
      continue;
    }
    // Where the receiver keeps its data (its size on disk is reported), and how it is started: empty
    // with --connect=A, then (mainnet-shaped chains) again on what it downloaded, alone.
    const data = mkdtempSync(join(work, who === 'ours' ? 'b-' : 'h-'));
    if (who !== 'ours') mkdirSync(join(data, '.warthog'));
    const launch = (connect) =>
      who === 'ours'
        ? start(who, join(OUR_DIR, 'dist', 'node.mjs'), ['--regtest', `--rpc=127.0.0.1:${rpc}`, `--bind=127.0.0.1:${p2p}`, `--datadir=${data}`, connect])
        : start(who, BIN[who], ['--testnet', `--rpc=127.0.0.1:${rpc}`, `--bind=127.0.0.1:${p2p}`, connect], { HOME: data });
    /** Seconds until the node reports height n, or null (it exited, or the deadline passed). */
    const reach = async (c, t0) => {
      const deadline = Date.now() + Math.max(900_000, n * 5);
      while (Date.now() < deadline && c.exitCode === null && c.signalCode === null) {
        if ((await head(url)) >= n) return (performance.now() - t0) / 1000;
        await sleep(25);
      }
      return null;
    };
    const t0 = performance.now();
    const c = launch(`--connect=127.0.0.1:${aP2p}`);
    const s = await reach(c, t0);
    const cpu = cpuSeconds(c.pid),
      rss = rssMB(c.pid);
    await stop(c);
    if (s === null) {
      console.log(`${kind} ${n} ${who}: FAILED at height ${await head(url)}`);
      continue;
    }
    const row = { rate: n / s, cpu, rss, disk: diskMB(data) };
    if (kind === 'mainnet') {
      // A node holding the chain starts again: seconds until it answers at height n, and its RSS then.
      const t1 = performance.now();
      const again = launch('--connect=127.0.0.1:1'); // nobody there: it runs on what it holds
      row.startup = await reach(again, t1);
      row.startRss = rssMB(again.pid);
      await stop(again);
    }
    console.log(
      `${kind} ${n} ${who}: ${s.toFixed(2)} s, ${row.rate.toFixed(1)} blocks/s, ${cpu.toFixed(1)} CPU s, RSS ${rss.toFixed(0)} MB, ${row.disk.toFixed(0)} MB on disk${row.startup === undefined ? '' : `, restart ${row.startup?.toFixed(2) ?? 'FAILED'} s (RSS ${row.startRss.toFixed(0)} MB)`}`,
    );
    ((results[kind] ??= {})[who] ??= []).push(row);
  }
  await stop(a);
}

const empty = EMPTY > 0 ? makeChain(EMPTY, false) : null;
const full = FULL > 0 ? makeChain(FULL, true) : null;
const mainnet = MAINNET > 0 ? makeChain(MAINNET, 'mainnet') : null;
for (let r = 0; r < ROUNDS; r++) {
  if (empty) await round(empty, EMPTY, `empty`);
  if (full) await round(full, FULL, `full353`);
  if (mainnet) await round(mainnet, MAINNET, 'mainnet');
}
const fmt = (xs, f, d = 0) => {
  if (!xs?.length) return '—';
  const v = xs.map(f).sort((p, q) => p - q);
  return v[0] === v[v.length - 1] ? v[0].toFixed(d) : `${v[0].toFixed(d)}–${v[v.length - 1].toFixed(d)}`;
};
const median = (xs, f) => {
  const v = xs.map(f).sort((p, q) => p - q);
  return v[Math.floor(v.length / 2)];
};
console.log(`\ninitial download side by side, ${ROUNDS} rounds alternating (range; ratio of medians)\n`);
console.log(
  '| chain | ours blocks/s | 0.8.20 | 0.10.3 | ratio to 0.10.3 | CPU s ours / 0.8.20 / 0.10.3 | RSS MB ours / 0.8.20 / 0.10.3 | disk MB ours / 0.8.20 / 0.10.3 |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
const CHAINS = [
  ['empty', EMPTY, 'empty blocks'],
  ['full353', FULL, 'blocks × 353 transfers'],
  ['mainnet', MAINNET, 'mainnet-shaped blocks (~1.2 transfers a block)'],
];
const three = (r, f, d = 0) => [r.ours, r.ref08, r.ref10].map((xs) => fmt(xs, f, d)).join(' / ');
for (const [kind, n, what] of CHAINS) {
  const r = results[kind];
  if (!r) continue;
  const ratio = r.ours && r.ref10 ? (median(r.ours, (x) => x.rate) / median(r.ref10, (x) => x.rate)).toFixed(2) + '×' : '—';
  console.log(
    `| ${n} ${what} | ${fmt(r.ours, (x) => x.rate)} | ${fmt(r.ref08, (x) => x.rate)} | ${fmt(r.ref10, (x) => x.rate)} | **${ratio}** | ${three(r, (x) => x.cpu, 1)} | ${three(r, (x) => x.rss)} | ${three(r, (x) => x.disk)} |`,
  );
}
const held = results.mainnet;
if (held) {
  console.log(`\nstarting on the downloaded ${MAINNET}-block chain: seconds until it answers at its height; RSS then (MB)\n`);
  console.log('| | ours | 0.8.20 | 0.10.3 |\n| --- | --- | --- | --- |');
  console.log(`| start-up s | ${three(held, (x) => x.startup ?? NaN, 2).replaceAll(' / ', ' | ')} |`);
  console.log(`| RSS MB | ${three(held, (x) => x.startRss).replaceAll(' / ', ' | ')} |`);
}
console.log(`logs in ${work}`);
process.exit(0);
