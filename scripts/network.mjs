#!/usr/bin/env node
// A busy network on loopback, for an hour or more: N of our nodes and the reference 0.10.3 (its
// regtest build) in a random topology, miners on several nodes at a pace where blocks compete,
// transactions of all seven types from many accounts (a steady rate plus bursts of a thousand), and
// a fault schedule — kill -9 and restarts (also during an initial download of full blocks), clean
// restarts, partitions with mining on both sides then healed, a new empty node joining, a full
// disk, a slow peer, a peer sending garbage — all drawn from one seed.
//
// What it checks: after every fault's end and quiet period all nodes reach one tip and agree on
// the state (balances, pools and books, the history of a sample of accounts); every accepted
// transaction ends in the chain, and reaches every node (latency p50/p99 per direction:
// ours→ours, ours→reference, reference→ours); no honest peer is banned; RSS and descriptors are
// flat after warm-up (our nodes' /metrics; the references' /proc); every reference is alive at
// the end; block propagation times. One SUMMARY line; the full report in the run folder.
//
// Every node dials the others through a front (scripts/lib/netproxy.mjs) that can cut or slow links.
// Our nodes run `--regtest --api=0.10 --ban-loopback` (so a ban of an honest loopback peer shows).
// Needs `npm run build` (dist/ is copied into the run folder, so a rebuild during the run changes
// nothing), the reference binary, and root for the small filesystem of the full-disk node (else
// that fault is skipped and the run fails its coverage). Loopback only.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, symlinkSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { kids } from './sidebyside/processes.mjs';
import { big, numOf, parseJson } from './lib/exact-json.mjs';
import { Fronts, sendGarbage } from './lib/netproxy.mjs';
import { Run, answerOf, appendBlock, requireFiles, seededRandom, sleep, waitUntil } from './lib/nodes.mjs';
import { exchangeAction, freeOf, part } from './lib/traffic.mjs';
import { accountOf, loadSigner, signedRequest } from './lib/transactions.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUR_DIR = resolve(process.env.OUR_DIR ?? join(HERE, '..'));
const USAGE = `usage: node scripts/network.mjs [options]
  --seed N            the run's seed: topology, traffic, faults (default random, printed)
  --minutes M         length of the traffic-and-faults phase (default 60)
  --ours N            our nodes, one of them joining mid-run (default 6)
  --refs N            reference 0.10.3 nodes (default 2)
  --rate R            steady transactions per second (default 3)
  --burst N           transactions per burst (default 1000)
  --bursts N          bursts in the run (default: one per 5 minutes)
  --fault-every S     seconds between fault starts (default 100)
  --block-every S     mean seconds between blocks (default 12)
  --ref PATH          the reference binary (default $REF_BIN or $TMPDIR/warthog-ref/regtest/build/src/node/wart-node)
  --port-base P       ports P+10k+1..3 for node k (default 30000)
  --faults K,K,...    this fault plan instead of the seed's (kinds: kill restart killDuringDownload
                      partition join diskFull slow garbage); the run then needs no kind twice
  --keep              keep the run folder when the run passes
`;
const { values: opt } = parseArgs({
  options: Object.fromEntries(
    ['seed', 'minutes', 'ours', 'refs', 'rate', 'burst', 'bursts', 'fault-every', 'block-every', 'ref', 'port-base', 'faults']
      .map((k) => [k, { type: 'string' }])
      .concat([
        ['keep', { type: 'boolean' }],
        ['help', { type: 'boolean', short: 'h' }],
      ]),
  ),
});
if (opt.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const SEED = opt.seed === undefined ? (Math.random() * 2 ** 31) >>> 0 : Number(opt.seed);
const MINUTES = Number(opt.minutes ?? 60);
const N_OURS = Number(opt.ours ?? 6);
const N_REFS = Number(opt.refs ?? 2);
const RATE = Number(opt.rate ?? 3);
const BURST = Number(opt.burst ?? 1000);
const BURSTS = Number(opt.bursts ?? Math.max(1, Math.floor(MINUTES / 5)));
const FAULT_EVERY = Number(opt['fault-every'] ?? 100);
const BLOCK_EVERY = Number(opt['block-every'] ?? 12);
const PORT_BASE = Number(opt['port-base'] ?? 30000);
const REF_BIN = opt.ref ?? process.env.REF_BIN ?? join(process.env.TMPDIR ?? '/tmp', 'warthog-ref/regtest/build/src/node/wart-node');
if (![SEED, MINUTES, N_OURS, N_REFS, RATE, BURST, FAULT_EVERY, BLOCK_EVERY, PORT_BASE].every(Number.isFinite) || N_OURS < 3 || MINUTES <= 0) {
  process.stderr.write(USAGE);
  process.exit(2);
}
requireFiles('network', [
  [REF_BIN, 'the reference binary (--ref)'],
  [join(OUR_DIR, 'dist/node.mjs'), 'dist/node.mjs (npm run build)'],
]);

// Two streams: the traffic's draws depend on timing; the topology's and the fault plan's do not.
const R = seededRandom(`network:${SEED}`);
const { rnd, rint, pick, chance } = R;
const F = seededRandom(`network faults:${SEED}`);
const run = new Run(join(tmpdir(), `network-${SEED}-${Date.now().toString(36)}`));
const say = (m) => run.log(m);
const T0 = Date.now();
const since = () => (Date.now() - T0) / 1000;

// ---------------------------------------------------------------------------------------------
// Nodes: ours o0..o(N−1) (o0 is never killed, the last joins mid-run, o1 keeps its data on a small filesystem), the
// references r0..r(R−1). Node k: RPC 127.0.0.1:P+10k+1, P2P 127.0.1.(k+1):P+10k+2, front
// 127.0.0.1:P+10k+3, its connections leave from 127.0.2.(k+1).
const nodes = [];
for (let k = 0; k < N_OURS + N_REFS; k++) {
  const kind = k < N_OURS ? 'ours' : 'ref';
  const name = kind === 'ours' ? `o${k}` : `r${k - N_OURS}`;
  nodes.push({
    kind,
    name,
    k,
    rpc: `127.0.0.1:${PORT_BASE + 10 * k + 1}`,
    url: `http://127.0.0.1:${PORT_BASE + 10 * k + 1}`,
    p2pHost: `127.0.1.${k + 1}`,
    p2pPort: PORT_BASE + 10 * k + 2,
    front: `127.0.0.1:${PORT_BASE + 10 * k + 3}`,
    source: `127.0.2.${k + 1}`,
    proc: null,
    up: false,
    doomed: false, // no submissions: a kill is coming
    starts: 0,
    links: new Set(),
    samples: [], // {t, rss, heap, fds, db}
  });
}
const ours = nodes.filter((n) => n.kind === 'ours');
const refs = nodes.filter((n) => n.kind === 'ref');
const joiner = ours[ours.length - 1];
const diskNode = ours[1];
// Never killed or restarted: its memory and descriptors are watched over the whole run.
const steady = ours[0];
const byName = new Map(nodes.map((n) => [n.name, n]));
const upNodes = () => nodes.filter((n) => n.up);

// Topology: every node 2–4 links; a reference only to our nodes (two 0.10.3 cannot sync from
// each other); the joiner links when it joins. Connected: a random spanning tree first.
function topology() {
  const early = nodes.filter((n) => n !== joiner);
  const link = (a, b) => {
    a.links.add(b.name);
    b.links.add(a.name);
  };
  const ok = (a, b) => a !== b && !a.links.has(b.name) && (a.kind === 'ours' || b.kind === 'ours');
  const order = [...early].sort(() => F.rnd() - 0.5);
  // References last in the tree order, so each attaches to an our node.
  order.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'ours' ? -1 : 1));
  for (let i = 1; i < order.length; i++) link(order[i], F.pick(order.slice(0, i).filter((b) => ok(order[i], b))));
  for (const a of early) {
    const want = F.rint(2, 4);
    for (let tries = 0; a.links.size < want && tries < 20; tries++) {
      const b = F.pick(early);
      if (ok(a, b) && b.links.size < 4) link(a, b);
    }
  }
  for (const b of [...ours.filter((n) => n !== joiner)].sort(() => F.rnd() - 0.5).slice(0, F.rint(2, 3))) link(joiner, b);
}
topology();

// ---------------------------------------------------------------------------------------------
// Processes.
const OUR_BIN = join(run.dir, 'dist', 'node.mjs');
cpSync(join(OUR_DIR, 'dist'), join(run.dir, 'dist'), { recursive: true });
symlinkSync(join(OUR_DIR, 'node_modules'), join(run.dir, 'node_modules')); // its packages
const dataDir = (n) => (n.kind === 'ours' ? join(run.dir, `${n.name}-data`) : join(run.dir, `${n.name}-home`));
let diskMounted = false;

function connectList(n) {
  // Each link between two of ours is dialled by one side; a reference dials all of its own (it
  // needs --connect) and ours dial it too; the joiner dials its links, the others wait for it.
  return [...n.links].map((m) => byName.get(m)).filter((m) => m !== joiner && (n === joiner || n.kind === 'ref' || m.kind === 'ref' || n.k < m.k));
}

async function startNode(n) {
  const log = `${n.name}.log`;
  const peers = connectList(n).map((m) => m.front);
  if (n.kind === 'ours') {
    const args = ['--regtest', '--api=0.10', '--ban-loopback', `--datadir=${dataDir(n)}`, `--rpc=${n.rpc}`, `--bind=${n.p2pHost}:${n.p2pPort}`];
    if (peers.length) args.push(`--connect=${peers.join(',')}`);
    n.proc = run.start(n.name, OUR_BIN, args);
  } else {
    const home = dataDir(n);
    mkdirSync(join(home, '.warthog'), { recursive: true });
    n.proc = run.start(n.name, REF_BIN, ['--testnet', `--rpc=${n.rpc}`, `--bind=${n.p2pHost}:${n.p2pPort}`, `--connect=${peers.join(',')}`], {
      env: { HOME: home },
      cwd: home,
    });
  }
  n.starts++;
  n.startedAt = Date.now();
  const proc = n.proc;
  proc.on('exit', (code, sig) => {
    if (n.proc !== proc) return;
    n.up = false;
    if (!n.expectExit && !finishing) event('exit', `${n.name} exited (${code ?? sig}) unexpectedly; log ${join(run.dir, log)}`, true);
  });
  for (let i = 0; i < 600; i++) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`${n.name} exited at start; log ${join(run.dir, log)}`);
    if (await headOf(n, 1000)) {
      n.up = true;
      n.expectExit = false;
      return;
    }
    await sleep(100);
  }
  throw new Error(`${n.name} did not answer within 60 s`);
}

async function killNode(n, signal = 'SIGKILL') {
  n.expectExit = true;
  n.up = false;
  const p = n.proc;
  if (!p || p.exitCode !== null || p.signalCode !== null) return;
  p.kill(signal);
  for (let i = 0; i < 300 && p.exitCode === null && p.signalCode === null; i++) await sleep(100);
  if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (let i = 0; i < 50 && p.exitCode === null && p.signalCode === null; i++) await sleep(100);
}

// ---------------------------------------------------------------------------------------------
// HTTP with exact numbers.
async function ask(n, path, { method = 'GET', body, ms = 15_000 } = {}) {
  const a = await answerOf(n.rpc, method, path, body, ms);
  if (a.status === 0) return { code: -1, error: a.text };
  try {
    const j = parseJson(a.text);
    return { code: numOf(j.code), data: j.data, error: j.error, text: a.text };
  } catch {
    return { code: -2, error: `not JSON: ${a.text.slice(0, 120)}` };
  }
}
async function headOf(n, ms = 5000) {
  const r = await ask(n, '/chain/head', { ms });
  const h = r.code === 0 ? (r.data.chainHead ?? r.data) : null;
  return h ? { height: numOf(h.height), hash: h.hash } : null;
}

// ---------------------------------------------------------------------------------------------
// Events: what the run found. `fail` ones fail it.
const events = [];
/** Each fault done: when it began and ended (ms), and what it did. */
const faultTimes = [];
function event(kind, text, fail = false) {
  events.push({ t: since(), kind, text, fail });
  say(`${fail ? 'FAIL' : 'event'} ${kind}: ${text}`);
}

// ---------------------------------------------------------------------------------------------
// Accounts and signing.
let S;
const coinAccts = [];
const exAccts = [];
const N_COIN = 100;
const N_EX = 40;
let fee = 0n;
let pin = null; // {pinHeight, pinHash}: a pin 64+ blocks deep, unaffected by short reorgs
const accepted = new Map(); // hash → {type, kind, node, t, from}
const refusedByCode = new Map();
const typeCount = {};
const kindCount = {};
let nonceSeq = 0;

async function refreshPin() {
  const n = pick(upNodes().filter((x) => x.kind === 'ours'));
  const h = await headOf(n);
  if (!h || h.height < 96) return; // a node still downloading: next time
  const ph = 32 * Math.floor((h.height - 64) / 32);
  if (pin && pin.pinHeight >= ph) return;
  if (pin && pin.pinHeight === ph) return;
  const b = await ask(n, `/chain/block/${ph}`);
  const hash = b.code === 0 ? b.data?.header?.hash : null;
  if (hash) pin = { pinHeight: ph, pinHash: hash };
}

/** Signs and submits `payload` from `acct` to node `n`: the accepted record or null. */
async function submit(acct, payload, n, meta = {}) {
  const nonceId = Number((BigInt(SEED) * 1_000_003n + BigInt(nonceSeq++)) & 0xffffffffn);
  const txFee = fee;
  const { hash, body } = signedRequest(S, payload, { ...pin, nonceId, feeE8: txFee }, acct.sk);
  const t = Date.now();
  const r = await ask(n, '/transaction/add', { method: 'POST', body, ms: 20_000 });
  if (r.code !== 0) {
    const k = `${payload.type}:${r.code}`;
    refusedByCode.set(k, (refusedByCode.get(k) ?? 0) + 1);
    return null;
  }
  const rec = { hash, type: payload.type, kind: meta.kind ?? payload.type, node: n.name, t, from: acct.address, pinHeight: pin.pinHeight, nonceId, ...meta };
  accepted.set(hash, rec);
  typeCount[rec.type] = (typeCount[rec.type] ?? 0) + 1;
  kindCount[rec.kind] = (kindCount[rec.kind] ?? 0) + 1;
  if (rec.type === 'assetCreation') creations.push(rec);
  return rec;
}

/** A node to submit to: up, not about to be killed. */
const submitTarget = () => pick(upNodes().filter((n) => !n.doomed));

// ---------------------------------------------------------------------------------------------
// Mining: a node's own template (/chain/mine) solved here by the project's cpu_miner and appended
// back (/chain/append; the reference wants a length-prefixed body: appendBlock learns it).
let miningPaused = 0;
let mining = 0;
const blocksMined = { ours: 0, ref: 0, forks: 0 };
const mineRefusals = []; // why a template or a solved block was refused (a competing block, mostly)
const propagation = []; // seconds for a mined block to reach each node
async function mineOn(n) {
  const miner = pick(coinAccts);
  const t = await ask(n, `/chain/mine/${miner.address}`);
  if (t.code !== 0) {
    mineRefusals.push(`${n.name} template: ${t.code} ${t.error ?? ''}`);
    return null;
  }
  const task = t.data;
  const block = S.solve({ header: task.header, body: task.body, merklePrefix: task.merklePrefix, height: numOf(task.height), testnet: task.testnet === true });
  if (!block) return null;
  const b = { height: block.height, header: Buffer.from(block.header).toString('hex'), body: Buffer.from(block.body).toString('hex') };
  const { reply } = await appendBlock(n, b);
  if (reply.code !== 0) {
    mineRefusals.push(`${n.name} append: ${JSON.stringify(reply)}`);
    return null;
  }
  blocksMined[n.kind]++;
  return b;
}
async function mineRound() {
  const live = upNodes();
  if (!live.length) return;
  const miners = chance(0.15) && live.length > 1 ? [pick(live), pick(live)] : [pick(live)];
  if (miners.length === 2 && miners[0] !== miners[1]) blocksMined.forks++;
  mining++;
  try {
    const set = [...new Set(miners)];
    const done = await Promise.all(set.map((n) => mineOn(n).catch(() => null)));
    if (set.length === 1 && done[0] && chance(0.3)) trackPropagation(done[0].height, Date.now(), set[0].name);
  } finally {
    mining--;
  }
}
/** Seconds until each up node's head reaches `height` (a sample of the blocks). */
async function trackPropagation(height, t0, by) {
  const waiting = new Set(upNodes());
  for (let i = 0; i < 300 && waiting.size; i++) {
    await Promise.all(
      [...waiting].map(async (n) => {
        const h = await headOf(n, 2000);
        if (h && h.height >= height) {
          propagation.push({ from: by, to: n.name, dir: `${byName.get(by).kind}→${n.kind}`, s: (Date.now() - t0) / 1000, t: t0 });
          waiting.delete(n);
        }
      }),
    );
    await sleep(100);
  }
}
async function minerLoop() {
  while (!stopMining) {
    await sleep(-Math.log(1 - rnd()) * BLOCK_EVERY * 1000);
    if (miningPaused || stopMining) continue;
    await mineRound().catch((e) => event('miner', e.message));
  }
}
let stopMining = false;
async function pauseMining() {
  miningPaused++;
  while (mining) await sleep(50);
}
const resumeMining = () => miningPaused--;

// ---------------------------------------------------------------------------------------------
// Disturbances: per node, the windows in which a fault touched it (down, restarting and
// reconnecting, partitioned until the tip is one again, slowed). A relay or block sample that
// overlaps one of either end's windows is reported apart ("disturbed"), not as relay latency.
const windows = new Map(); // name → [{a, b}] (b Infinity while open)
function disturb(n, a = Date.now()) {
  const w = { a, b: Number.POSITIVE_INFINITY };
  (windows.get(n.name) ?? windows.set(n.name, []).get(n.name)).push(w);
  return w;
}
/** Windows that close when the next checkpoint finds one tip (the fault's effects are over then). */
const untilCheckpoint = [];
const calm = (w, ms = 10_000) => {
  w.b = Date.now() + ms;
};
const disturbed = (name, a, b) => (windows.get(name) ?? []).some((w) => w.a <= b && w.b >= a);

// Relay latency: a sample of accepted transactions is looked up on every other up node until seen
// (pending or mined); `reach` holds {dir, s, …} and `late` what did not arrive within 120 s.
const reach = [];
const late = [];
let samplesInFlight = 0;
async function sampleRelay(rec) {
  const from = byName.get(rec.node);
  const targets = upNodes().filter((n) => n !== from);
  samplesInFlight++;
  try {
    await Promise.all(
      targets.map(async (n) => {
        for (let i = 0; ; i++) {
          const s = (Date.now() - rec.t) / 1000;
          const r = s > 120 ? null : await ask(n, `/transaction/lookup/${rec.hash}`, { ms: 5000 });
          if (s > 120 || r.code === 0) {
            const sample = {
              dir: `${from.kind}→${n.kind}`,
              s,
              from: from.name,
              to: n.name,
              hash: rec.hash,
              t: rec.t,
              mined: r ? r.data?.mined !== null : null,
            };
            (s > 120 ? late : reach).push(sample);
            return;
          }
          await sleep(i < 40 ? 100 : 1000);
        }
      }),
    );
  } finally {
    samplesInFlight--;
  }
}
/** Samples split by whether either end was disturbed in the sample's window. */
const undisturbed = (xs) => xs.filter((x) => !disturbed(x.from, x.t - 5000, x.t + x.s * 1000) && !disturbed(x.to, x.t - 5000, x.t + x.s * 1000));
/**
 * Whether `to` is reachable from `from` over the links through nodes no fault touched in [a, b]
 * (ours only, for a relay between two of ours: through a reference it goes at the reference's pace).
 * A sample without such a path measured the fault (every route ran through a slowed, cut or
 * restarting node), not the relay: it is reported apart with the disturbed ones.
 */
function calmPath(from, to, a, b, oursOnly) {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    for (const y of byName.get(queue.shift()).links) {
      if (y === to) return true;
      const n = byName.get(y);
      if (seen.has(y) || disturbed(y, a, b) || (oursOnly && n.kind !== 'ours')) continue;
      seen.add(y);
      queue.push(y);
    }
  }
  return false;
}
const calmRoute = (xs) => xs.filter((x) => calmPath(x.from, x.to, x.t - 5000, x.t + x.s * 1000, x.dir === 'ours→ours'));

// ---------------------------------------------------------------------------------------------
// Coin traffic: many accounts, several pending each; balances re-read every 20 s.
const coinFree = new Map(); // address → estimated free E8
let lastCoinRead = 0;
async function readCoin(force = false) {
  if (!force && Date.now() - lastCoinRead < 20_000) return;
  lastCoinRead = Date.now();
  // From the steady node: a node behind (a full disk, a restart) answers balances from before
  // spends the others already mined, and spends counted on them could never be mined.
  const n = steady;
  await Promise.all(
    [...coinAccts, ...exAccts].map(async (a) => {
      const r = await ask(n, `/account/${a.address}/wart_balance`);
      if (r.code === 0) coinFree.set(a.address, freeOf(r.data.wart ?? r.data.coin ?? r.data, 'E8'));
    }),
  );
}
/**
 * While the network is cut (until one tip again), what each coin account may still spend: its free
 * balance when the cut began, less what it sent since. A credit mined on one side only vanishes
 * when the other side's chain wins, and with it every spend that needed it (the account model: a
 * spend must be covered by the balance; found by the hour's run, 27 transfers so lost after a
 * 12-block reorg): so no spend during a cut counts on a credit received during it.
 */
let cutBudget = null;
const spendable = (address) => {
  const f = coinFree.get(address) ?? 0n;
  const b = cutBudget?.get(address);
  return b === undefined || f < b ? f : b;
};
function coinPayload() {
  const rich = coinAccts.filter((a) => spendable(a.address) > 20n * fee);
  if (!rich.length) return null;
  const a = pick(rich);
  const free = spendable(a.address);
  let to, amount;
  const poor = exAccts.filter((x) => (coinFree.get(x.address) ?? 0n) < 100_000_000n);
  if (poor.length && chance(0.2) && free > 400_000_000n) {
    const p = pick(poor);
    to = p.raw;
    amount = BigInt(rint(100, 300)) * 1_000_000n;
    coinFree.set(p.address, 1n << 60n); // funded: not again until re-read
  } else if (chance(0.02)) {
    to = S.addressOfPrivateKey(accountOf(S, `network fresh ${SEED}`, nonceSeq).sk); // a new account
    amount = BigInt(rint(1, 100_000));
  } else {
    to = pick(coinAccts.filter((x) => x !== a)).raw;
    amount = BigInt(rint(1, 1_000_000));
  }
  coinFree.set(a.address, (coinFree.get(a.address) ?? 0n) - amount - fee);
  if (cutBudget) cutBudget.set(a.address, (cutBudget.get(a.address) ?? 0n) - amount - fee);
  return { acct: a, payload: { type: 'coinTransfer', toAddress: to, amount } };
}
let stopTraffic = false;
async function coinLoop() {
  let next = Date.now();
  while (!stopTraffic) {
    next += -Math.log(1 - rnd()) * (1000 / RATE);
    const wait = next - Date.now();
    if (wait > 0) await sleep(wait);
    else if (wait < -5000) next = Date.now();
    await readCoin();
    const c = coinPayload();
    const n = submitTarget();
    if (!c || !n || !pin) continue;
    submit(c.acct, c.payload, n, { kind: 'coin' })
      .then((rec) => rec && chance(0.1) && samplesInFlight < 30 && sampleRelay(rec))
      .catch((e) => event('submit', e.message));
  }
}
let burstsDone = 0;
let largestBurst = 0;
async function burst() {
  await readCoin(true);
  const items = [];
  for (let i = 0; i < BURST; i++) {
    const c = coinPayload();
    if (c) items.push(c);
  }
  const t0 = Date.now();
  let ok = 0;
  const queue = [...items];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (queue.length) {
        const c = queue.shift();
        const n = submitTarget();
        if (!n) continue;
        const rec = await submit(c.acct, c.payload, n, { kind: 'coin', burst: burstsDone }).catch(() => null);
        if (rec) {
          ok++;
          if (chance(0.02) && samplesInFlight < 60) sampleRelay(rec);
        }
      }
    }),
  );
  burstsDone++;
  largestBurst = Math.max(largestBurst, ok);
  say(`burst ${burstsDone}: ${ok} of ${items.length} accepted in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

// ---------------------------------------------------------------------------------------------
// Exchange traffic: one pending transaction per account (traffic.mjs says why).
const assets = []; // {hash}, mined, oldest first
const creations = []; // accepted asset creations
const markets = new Map();
const busyPools = new Set();
let creating = 0;
const exCtx = { nameSeq: 0, maxAssets: 6 };
async function readMarkets(n) {
  // New assets: their hash is the creating transaction's.
  for (const rec of creations) {
    if (rec.minedSeen) continue;
    const r = await ask(n, `/transaction/lookup/${rec.hash}`);
    if (r.code === 0 && r.data.mined) {
      rec.minedSeen = true;
      assets.push({ hash: rec.hash });
    }
  }
  await Promise.all(
    assets.map(async (a) => {
      const r = await ask(n, `/dex/market/${a.hash}`);
      const p = r.code === 0 ? r.data?.liquidityPool : null;
      markets.set(
        a.hash,
        p
          ? { base: big(p.asset?.u64 ?? p.base?.u64 ?? 0), quote: big(p.wart?.E8 ?? p.quote?.E8 ?? 0), shares: big(p.shares?.u64 ?? 0) }
          : { base: 0n, quote: 0n, shares: 0n },
      );
    }),
  );
}
async function viewOf(n, a) {
  const c = await ask(n, `/account/${a.address}/wart_balance`);
  if (c.code !== 0) return null;
  const view = { coin: freeOf(c.data.wart ?? c.data.coin ?? c.data, 'E8'), asset: new Map(), shares: new Map(), resting: [] };
  for (const as of assets) {
    for (const [kind, m] of [
      ['asset', view.asset],
      ['liquidity', view.shares],
    ]) {
      const r = await ask(n, `/account/${a.address}/balance/${kind}:${as.hash}`);
      if (r.code === 0) m.set(as.hash, freeOf(r.data.balance, 'u64'));
    }
  }
  const oo = await ask(n, `/account/${a.address}/open_orders`);
  for (const m of oo.code === 0 && Array.isArray(oo.data) ? oo.data : [])
    for (const o of [...(m.wartToAssetSwaps ?? []), ...(m.assetToWartSwaps ?? [])]) {
      const rec = accepted.get(o.txHash);
      if (!o.inMempool && rec && !a.canceled.has(o.txHash)) view.resting.push({ hash: o.txHash, pinHeight: rec.pinHeight, nonceId: rec.nonceId });
    }
  return view;
}
let marketsReadAt = 0;
async function exchangeStep() {
  const free = exAccts.filter((a) => !a.pending);
  if (!free.length) return;
  const a = pick(free);
  a.pending = true; // taken: the other exchange loops leave it alone
  let rec = null;
  try {
    rec = await exchangeTx(a);
  } finally {
    a.pending = rec ?? false;
  }
}
async function exchangeTx(a) {
  const reader = pick(upNodes().filter((x) => x.kind === 'ours' && !x.doomed));
  if (!reader) return null;
  if (Date.now() - marketsReadAt > 2000) {
    marketsReadAt = Date.now();
    await readMarkets(reader);
  }
  const view = await viewOf(reader, a);
  if (!view) return null;
  const t = exchangeAction(R, view, {
    ...exCtx,
    fee,
    assets,
    markets,
    busyPools,
    creating,
    peers: exAccts.filter((x) => x !== a && x.hasCoin).map((x) => x.raw),
  });
  exCtx.nameSeq += t?.kind === 'assetCreate' ? 1 : 0;
  if (!t) return null;
  if (t.payload.type === 'assetCreation') t.payload.name = S.assetNameBytes(t.payload.name);
  const n = submitTarget();
  if (!n || !pin || exchangePaused) return null;
  if (t.pool) busyPools.add(t.pool);
  if (t.kind === 'assetCreate') creating++;
  const rec = await submit(a, t.payload, n, { kind: t.kind, pool: t.pool }).catch(() => null);
  if (!rec) {
    if (t.pool) busyPools.delete(t.pool);
    if (t.kind === 'assetCreate') creating--;
    return null;
  }
  if (t.cancels) a.canceled.add(t.cancels);
  if (chance(0.15) && samplesInFlight < 30) sampleRelay(rec);
  return rec;
}
/** Frees exchange accounts whose transaction is mined (or gone for 5 minutes). */
async function releaseLoop() {
  while (!stopTraffic || exAccts.some((a) => a.pending)) {
    await sleep(2000);
    const reader = pick(upNodes().filter((x) => x.kind === 'ours'));
    if (!reader) continue;
    await Promise.all(
      exAccts.map(async (a) => {
        const rec = a.pending;
        if (!rec || rec === true) return;
        const r = await ask(reader, `/transaction/lookup/${rec.hash}`);
        if ((r.code === 0 && r.data.mined && numOf(r.data.confirmations) >= 2) || Date.now() - rec.t > 300_000) {
          a.pending = false;
          if (rec.pool) busyPools.delete(rec.pool);
          if (rec.kind === 'assetCreate') creating--;
        }
      }),
    );
    if (stopTraffic) break;
  }
}
async function exchangeLoop() {
  while (!stopTraffic) {
    await sleep(100);
    if (exchangePaused) continue;
    await exchangeStep().catch((e) => event('exchange', e.message));
  }
}
let exchangePaused = false;

// ---------------------------------------------------------------------------------------------
// State agreement: after a fault ends, mining pauses until every up node shows one head; then a
// sample of accounts' chain state (balances without the pending part, open orders not in the
// mempool, history), every pool and book are compared across the nodes.
let checkpoints = 0;
let divergences = 0;
async function digest(n, accts, assets) {
  const out = {};
  const get = async (p) => {
    const r = await ask(n, p, { ms: 30_000 });
    return r.code === 0 ? r.data : { refused: r.code };
  };
  for (const a of accts) {
    const c = await get(`/account/${a.address}/wart_balance`);
    const w = c.wart ?? c.coin;
    const rows = { coin: w ? [big(w.total.E8), big(w.locked.E8)].join('/') : JSON.stringify(c) };
    for (const as of assets) {
      for (const kind of ['asset', 'liquidity']) {
        const b = (await get(`/account/${a.address}/balance/${kind}:${as.hash}`)).balance;
        rows[`${kind}:${as.hash.slice(0, 8)}`] = b ? [big(b.total.u64), big(b.locked.u64)].join('/') : 'none';
      }
    }
    const h = await get(`/account/${a.address}/history/1000000000`);
    rows.history = JSON.stringify(h)
      .match(/"hash":"[0-9a-f]{64}"/g)
      ?.sort()
      .join(',');
    out[a.address] = rows;
  }
  for (const as of assets) {
    const m = await get(`/dex/market/${as.hash}`);
    const p = m.liquidityPool;
    const book = (l) =>
      (l ?? [])
        .filter((o) => !o.inMempool)
        .map((o) => `${o.txHash}:${big(o.amount?.u64 ?? 0)}:${big(o.filled?.u64 ?? 0)}`)
        .sort();
    out[`market ${as.hash.slice(0, 8)}`] = {
      pool: p ? [big(p.asset?.u64 ?? 0), big(p.wart?.E8 ?? 0), big(p.shares?.u64 ?? 0)].join('/') : 'none',
      bids: book(m.wartToAssetSwaps),
      asks: book(m.assetToWartSwaps),
    };
  }
  return JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}
async function checkpoint(label) {
  await pauseMining();
  try {
    checkpoints++;
    const live = upNodes();
    let heads = [];
    const t0 = Date.now();
    let tieBreaks = 0;
    while (Date.now() - t0 < 180_000) {
      heads = await Promise.all(live.map((n) => headOf(n, 3000)));
      if (heads.every((h) => h && h.hash === heads[0].hash)) break;
      // Two tips of equal work stay apart until a block extends one (each node keeps the one it
      // saw first), as on the real network: every 10 s without one tip, one more block.
      if (Date.now() - t0 > 10_000 * (tieBreaks + 1)) {
        tieBreaks++;
        await mineOn(pick(live)).catch(() => null);
      }
      await sleep(500);
    }
    const same = heads.every((h) => h && h.hash === heads[0]?.hash);
    if (!same) {
      divergences++;
      event(
        'tip',
        `${label}: no common tip within 180 s: ${live.map((n, i) => `${n.name}@${heads[i]?.height}:${heads[i]?.hash?.slice(0, 10)}`).join(' ')}`,
        true,
      );
      return;
    }
    for (const w of untilCheckpoint.splice(0)) calm(w);
    cutBudget = null; // one tip again: the cut's credits are the chain's
    const sample = [...[...coinAccts].sort(() => rnd() - 0.5).slice(0, 4), ...[...exAccts].sort(() => rnd() - 0.5).slice(0, 6)];
    const fixed = [...assets]; // one list for every node: an asset found meanwhile is not half-compared
    const ds = await Promise.all(live.map((n) => digest(n, sample, fixed)));
    const bad = live.filter((_n, i) => ds[i] !== ds[0]);
    if (bad.length) {
      divergences++;
      const f = join(run.dir, `divergence-${checkpoints}.json`);
      writeFileSync(f, JSON.stringify(Object.fromEntries(live.map((n, i) => [n.name, JSON.parse(ds[i])])), null, 1));
      event('state', `${label}: at height ${heads[0].height} ${bad.map((n) => n.name).join(',')} differ from ${live[0].name} (${f})`, true);
    } else
      say(
        `checkpoint ${checkpoints} (${label}): ${live.length} nodes at ${heads[0].height} ${heads[0].hash.slice(0, 12)}, state equal (${Date.now() - t0} ms to one tip${tieBreaks ? `, ${tieBreaks} blocks mined to break a tie` : ''})`,
      );
  } finally {
    resumeMining();
  }
}

// ---------------------------------------------------------------------------------------------
// Resources every minute: our nodes' /metrics, the references' /proc.
function metricValue(text, name) {
  const m = text.match(new RegExp(`^${name.replace(/[{}".]/g, '\\$&')}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm'));
  return m ? Number(m[1]) : null;
}
function dirBytes(d) {
  let s = 0;
  if (!existsSync(d)) return 0;
  for (const f of readdirSync(d, { withFileTypes: true })) s += f.isDirectory() ? dirBytes(join(d, f.name)) : statSync(join(d, f.name)).size;
  return s;
}
async function sampleResources() {
  for (const n of upNodes()) {
    const s = { t: since(), start: n.starts };
    if (n.kind === 'ours') {
      const a = await answerOf(n.rpc, 'GET', '/metrics', undefined, 10_000);
      if (a.status !== 200) continue;
      s.rss = metricValue(a.text, 'wartnode_process_resident_memory_bytes');
      s.heap = metricValue(a.text, 'wartnode_nodejs_heap_used_bytes');
      s.heapTotal = metricValue(a.text, 'wartnode_nodejs_heap_total_bytes');
      s.external = metricValue(a.text, 'wartnode_nodejs_external_memory_bytes');
      s.mempool = metricValue(a.text, 'wartnode_mempool_transactions');
      s.fds = metricValue(a.text, 'wartnode_process_open_fds');
      s.db = metricValue(a.text, 'wartnode_database_size_bytes');
      s.dbMemory = metricValue(a.text, 'wartnode_database_memory_bytes');
      s.peers = metricValue(a.text, 'wartnode_peers');
      s.opened = metricValue(a.text, 'wartnode_peer_connections_opened_total');
      s.reconnects = metricValue(a.text, 'wartnode_peer_reconnects_total');
      s.loopMax = metricValue(a.text, 'wartnode_nodejs_eventloop_delay_seconds{quantile="1"}');
      s.oldSize = metricValue(a.text, 'wartnode_nodejs_heap_space_size_bytes{space="old_space"}');
      s.oldUsed = metricValue(a.text, 'wartnode_nodejs_heap_space_used_bytes{space="old_space"}');
      s.largeSize = metricValue(a.text, 'wartnode_nodejs_heap_space_size_bytes{space="large_object_space"}');
      s.answers = [...a.text.matchAll(/^wartnode_http_answer_cache_bytes\{[^}]*\} (\S+)$/gm)].reduce((t, m) => t + Number(m[1]), 0);
      try {
        // Anonymous memory (heaps, malloc arenas, WebAssembly) apart from mapped files.
        s.anon = Number(readFileSync(`/proc/${n.proc.pid}/status`, 'utf8').match(/RssAnon:\s+(\d+)/)[1]) * 1024;
      } catch {}
    } else {
      try {
        const st = readFileSync(`/proc/${n.proc.pid}/status`, 'utf8');
        s.rss = Number(st.match(/VmRSS:\s+(\d+)/)[1]) * 1024;
        s.fds = readdirSync(`/proc/${n.proc.pid}/fd`).length;
        s.db = dirBytes(join(dataDir(n), '.warthog'));
      } catch {
        continue;
      }
    }
    n.samples.push(s);
  }
}
const mb = (v) => (v == null ? null : +(v / 2 ** 20).toFixed(1));
/** Least-squares slope per hour of `key` over the samples of one process start after `warmS` seconds in it. */
function slope(samples, key) {
  if (samples.length < 8) return null;
  const xs = samples.map((s) => s.t / 3600),
    ys = samples.map((s) => s[key]);
  const mx = xs.reduce((a, b) => a + b) / xs.length,
    my = ys.reduce((a, b) => a + b) / ys.length;
  let num = 0,
    den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return { perHour: num / den, mean: my, first: ys[0], last: ys[ys.length - 1], n: ys.length };
}

// ---------------------------------------------------------------------------------------------
// Faults.
const fronts = new Fronts({
  nodeOfListenPort: (port) => nodes.find((n) => n.p2pPort === port)?.name ?? null,
  sourceOf: (name) => byName.get(name).source,
  // Two 0.10.3 nodes cannot sync from each other (one aborts in its header download,
  // header_download.cpp:322): a reference links only to ours, also by addresses it learns.
  mayLink: (a, b) => byName.get(a).kind === 'ours' || byName.get(b).kind === 'ours',
});
const faultsDone = {};
let garbageIp = 0;
const fault = {
  async kill() {
    const n = pick(ours.filter((x) => x.up && x !== joiner && x !== steady));
    untilCheckpoint.push(disturb(n));
    n.doomed = true;
    await sleep(3000);
    await killNode(n);
    await sleep(rint(2, 20) * 1000);
    n.doomed = false;
    await startNode(n);
    return n.name;
  },
  async restart() {
    const n = pick(ours.filter((x) => x.up && x !== steady));
    untilCheckpoint.push(disturb(n));
    n.doomed = true;
    await sleep(3000);
    await killNode(n, 'SIGTERM');
    await sleep(2000);
    n.doomed = false;
    await startNode(n);
    return n.name;
  },
  /** Wipe a node and restart it; kill -9 it while it downloads the chain; restart; it finishes. */
  async killDuringDownload() {
    const candidates = ours.filter((x) => x.up && x !== diskNode && x !== steady);
    if (!candidates.length) return null;
    const n = pick(candidates);
    untilCheckpoint.push(disturb(n));
    n.doomed = true;
    await sleep(3000);
    await killNode(n);
    rmSync(dataDir(n), { recursive: true, force: true });
    const target = (await headOf(pick(upNodes()))).height;
    // Paced by its links (a few seconds for the whole chain), the download is still under way
    // when the kill comes: unpaced, a few hundred blocks took less than one look at the height.
    fronts.slowDown(n.name, 256 * 1024, 20);
    await startNode(n);
    const at = Math.floor((target * rint(10, 60)) / 100);
    const { value: r } = await waitUntil(async () => {
      const h = await headOf(n, 2000);
      return h && h.height >= at ? h.height : null;
    }, 120);
    await killNode(n);
    fronts.unslow(n.name);
    await sleep(1000);
    n.doomed = false;
    await startNode(n);
    return `${n.name} killed at ${r ?? '?'} of ${target}${r !== null && r >= target ? ' (the download had ended)' : ''}`;
  },
  async partition() {
    const live = nodes.filter((x) => x.up && x !== joiner);
    const shuffled = [...live].sort(() => rnd() - 0.5);
    const a = shuffled.slice(0, Math.ceil(shuffled.length / 2));
    const b = shuffled.slice(a.length);
    // Each side needs one of ours (a reference only syncs through ours).
    if (!a.some((x) => x.kind === 'ours') || !b.some((x) => x.kind === 'ours')) return fault.partition();
    exchangePaused = true;
    await readCoin(true);
    cutBudget = new Map(coinAccts.map((x) => [x.address, coinFree.get(x.address) ?? 0n]));
    const all = nodes.map((x) => x.name);
    for (const x of nodes) untilCheckpoint.push(disturb(x));
    fronts.partition([a.map((x) => x.name), all.filter((x) => !a.some((y) => y.name === x))]);
    const ms = rint(45, 100) * 1000;
    const t0 = Date.now();
    // Mining on both sides: each side's blocks build on its own tip.
    while (Date.now() - t0 < ms) {
      await sleep(rint(4, 9) * 1000);
      await pauseMining();
      try {
        await Promise.all([mineOn(pick(a)), mineOn(pick(b))].map((p) => p.catch(() => null)));
      } finally {
        resumeMining();
      }
    }
    fronts.heal();
    exchangePaused = false;
    return `${a.map((x) => x.name).join(',')} | ${b.map((x) => x.name).join(',')} for ${ms / 1000} s`;
  },
  async join() {
    untilCheckpoint.push(disturb(joiner));
    if (!joiner.up && joiner.starts === 0) {
      await startNode(joiner);
      return `${joiner.name} joined (links ${[...joiner.links].join(',')})`;
    }
    // Already joined once: it leaves, its data is wiped, and it joins again empty.
    joiner.doomed = true;
    await sleep(3000);
    await killNode(joiner, 'SIGTERM');
    rmSync(dataDir(joiner), { recursive: true, force: true });
    joiner.doomed = false;
    await startNode(joiner);
    return `${joiner.name} joined again, empty`;
  },
  async diskFull() {
    if (!diskMounted || !diskNode.up) return null;
    untilCheckpoint.push(disturb(diskNode));
    const filler = join(dataDir(diskNode), 'filler');
    spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M', 'count=100000'], { stdio: 'ignore' });
    const before = await headOf(diskNode);
    await sleep(rint(30, 60) * 1000);
    const during = await headOf(diskNode);
    // Every second time it is killed while full (its log may end in a torn record), then started again.
    const kill = (faultsDone.diskFull ?? 0) % 2 === 1;
    if (kill) {
      // As the kill fault: submissions stop 3 s before, so what the node accepted has been relayed
      // (run 5 lost one transaction accepted a moment before this kill).
      diskNode.doomed = true;
      await sleep(3000);
      await killNode(diskNode);
    }
    rmSync(filler, { force: true });
    if (kill) {
      diskNode.doomed = false;
      await startNode(diskNode);
    }
    return `${diskNode.name} full from height ${before?.height} to ${during?.height}${kill ? ', killed while full and started again' : ''}`;
  },
  async slow() {
    const n = pick(upNodes());
    fronts.slowDown(n.name, 4096, 300);
    untilCheckpoint.push(disturb(n));
    await sleep(rint(45, 90) * 1000);
    fronts.unslow(n.name);

    return n.name;
  },
  async garbage() {
    const n = pick(upNodes());
    const kinds = [];
    for (let i = 0; i < 3; i++) {
      const source = `127.0.5.${(garbageIp++ % 250) + 1}`;
      const bytes = pick([24, 200, 5000, 100_000]);
      await sendGarbage({ host: n.p2pHost, port: n.p2pPort, source, bytes, rnd });
      kinds.push(`${bytes} B from ${source}`);
    }
    return `${n.name}: ${kinds.join(', ')}`;
  },
};
function faultPlan(count) {
  const kinds = ['kill', 'restart', 'killDuringDownload', 'partition', 'diskFull', 'slow', 'garbage'];
  const plan = [];
  for (const k of kinds) plan.push(k, k); // every kind at least twice
  plan.push('join');
  while (plan.length < count)
    plan.push(F.pick(['kill', 'kill', 'restart', 'partition', 'partition', 'slow', 'garbage', 'killDuringDownload', 'diskFull', 'join']));
  // The joiner's first join comes early (a third of the way in); the rest shuffled.
  const rest = plan.filter((k, i) => !(k === 'join' && i === plan.indexOf('join'))).sort(() => F.rnd() - 0.5);
  rest.splice(Math.floor(rest.length / 3), 0, 'join');
  return rest;
}

// ---------------------------------------------------------------------------------------------
function percentile(xs, p) {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
let finishing = false;

// Bans: every node's list; an honest node's address (127.0.2.k, or the fronts' 127.0.0.1) must not be in one.
const bans = { honest: [], garbage: 0 };
async function readBans() {
  for (const n of upNodes()) {
    const a = await answerOf(n.rpc, 'GET', '/peers/banned', undefined, 10_000);
    for (const ip of new Set(a.text.match(/127\.0\.\d+\.\d+/g) ?? [])) {
      if (ip.startsWith('127.0.5.')) bans.garbage++;
      else bans.honest.push(`${n.name} bans ${ip}`);
    }
  }
}

async function main() {
  say(`network: seed ${SEED}, ${MINUTES} min, ${N_OURS} ours + ${N_REFS} references, rate ${RATE}/s, ${BURSTS} bursts of ${BURST}, run ${run.dir}`);
  say(`topology: ${nodes.map((n) => `${n.name}–{${[...n.links].join(',')}}`).join(' ')}`);
  S = await loadSigner(OUR_DIR, run.dir);
  for (let i = 0; i < N_COIN; i++) coinAccts.push(accountOf(S, `network coin ${SEED}`, i));
  for (let i = 0; i < N_EX; i++) exAccts.push({ ...accountOf(S, `network exchange ${SEED}`, i), pending: false, canceled: new Set(), hasCoin: false });

  // The full-disk node's data on a 256 MiB filesystem of its own.
  mkdirSync(dataDir(diskNode), { recursive: true });
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256m', 'tmpfs', dataDir(diskNode)]);
  diskMounted = m.status === 0;
  if (!diskMounted) event('setup', `no small filesystem for ${diskNode.name} (mount: ${m.stderr}); the full-disk fault is skipped`, true);

  for (const n of nodes) await fronts.open(n.name, Number(n.front.split(':')[1]), { host: n.p2pHost, port: n.p2pPort });
  for (const n of nodes) if (n !== joiner) await startNode(n);
  say(
    `started: ${upNodes()
      .map((n) => `${n.name} ${n.rpc}`)
      .join(', ')}`,
  );

  // Funding: 100 blocks to the coin accounts, mined on our first node.
  const o0 = ours[0];
  for (let i = 0; i < 100; i++) await mineOn(o0);
  if (blocksMined.ours < 100) throw new Error(`funding: ${blocksMined.ours} of 100 blocks mined (${mineRefusals.slice(-3).join('; ')})`);
  const fr = await ask(o0, '/transaction/minfee');
  fee = S.fee16Decode(S.fee16Encode(big(fr.data?.minFee?.E8 ?? fr.data?.E8 ?? 1_000_448), 'up') + 2);
  await checkpoint('funded');
  await refreshPin();
  await readCoin(true);
  say(`funded: fee ${fee} E8, pin ${pin.pinHeight}`);
  for (const a of exAccts) {
    const c = coinPayload();
    c.payload.toAddress = a.raw;
    c.payload.amount = 500_000_000n;
    if (await submit(c.acct, c.payload, o0, { kind: 'fund' })) a.hasCoin = true;
  }
  for (let i = 0; i < 3; i++) await mineOn(o0);

  // The run: miners, traffic, bursts, faults, a resource sample a minute.
  const loops = [minerLoop(), coinLoop(), exchangeLoop(), exchangeLoop(), exchangeLoop(), releaseLoop()];
  const end = Date.now() + MINUTES * 60_000;
  const tickers = [
    setInterval(() => refreshPin().catch(() => {}), 30_000),
    setInterval(() => sampleResources().catch((e) => event('metrics', e.message)), 60_000),
  ];
  await sampleResources();
  const nFaults = Math.max(8, Math.floor((MINUTES * 60) / FAULT_EVERY));
  const plan = opt.faults ? opt.faults.split(',') : faultPlan(nFaults);
  if (plan.some((k) => !fault[k])) throw new Error(`--faults: unknown kind in ${opt.faults}`);
  say(`faults planned: ${plan.join(' ')}`);
  const burstAt = Array.from({ length: BURSTS }, (_, i) => Date.now() + ((i + 0.5) * (end - Date.now())) / BURSTS);
  const burstLoop = (async () => {
    for (const t of burstAt) {
      while (Date.now() < t) await sleep(500);
      if (Date.now() > end) break;
      await burst().catch((e) => event('burst', e.message));
    }
  })();
  for (let i = 0; i < plan.length && Date.now() < end; i++) {
    const kind = plan[i];
    const startAt = Date.now();
    let what;
    try {
      what = await fault[kind]();
    } catch (e) {
      event('fault', `${kind}: ${e.message}`, true);
      continue;
    }
    if (what === null) continue;
    faultsDone[kind] = (faultsDone[kind] ?? 0) + 1;
    faultTimes.push({ a: startAt, b: Date.now(), text: `${kind}: ${what}` });
    say(`fault ${i + 1}/${plan.length} ${kind}: ${what} (${((Date.now() - startAt) / 1000).toFixed(0)} s)`);
    await checkpoint(`after ${kind}`);
    const left = FAULT_EVERY * 1000 - (Date.now() - startAt);
    if (left > 0) await sleep(Math.min(left, Math.max(0, end - Date.now())));
  }
  while (Date.now() < end) await sleep(1000);
  await burstLoop;

  // The end: traffic stops; mining goes on until every accepted transaction is in the chain.
  stopTraffic = true;
  say(`traffic stopped: ${accepted.size} accepted; draining`);
  const drainStart = Date.now();
  while (Date.now() - drainStart < 600_000) {
    const pools = await Promise.all(
      upNodes().map((n) => ask(n, '/transaction/mempool').then((r) => (r.code === 0 ? (r.data?.data ?? r.data ?? []).length : 1))),
    );
    if (pools.every((x) => x === 0)) break;
    await sleep(2000);
  }
  stopMining = true;
  await Promise.all(loops);
  await sleep(5000);
  await checkpoint('final');

  // Completeness: every accepted transaction in the final chain (walked on our first node).
  const top = (await headOf(o0)).height;
  const minedSet = new Set();
  for (let h = 1; h <= top; h++) {
    const b = await ask(o0, `/chain/block/${h}`, { ms: 30_000 });
    for (const list of Object.values(b.data?.body ?? {}))
      if (Array.isArray(list)) for (const e of list) if (e.transaction?.hash) minedSet.add(e.transaction.hash);
  }
  const lost = [...accepted.values()].filter((r) => !minedSet.has(r.hash));
  // Why each sampled one was lost: what every node answers for it, and its sender's balance now.
  for (const rec of lost.slice(0, 20)) {
    rec.seen = {};
    for (const n of upNodes()) {
      const r = await ask(n, `/transaction/lookup/${rec.hash}`);
      rec.seen[n.name] = r.code === 0 ? (r.data?.blockHeight ?? r.data?.height ?? 'mempool') : `code ${r.code}`;
    }
    const b = await ask(steady, `/account/${rec.from}/wart_balance`);
    rec.balanceNow = b.code === 0 ? (b.data?.wart ?? b.data) : `code ${b.code}`;
  }
  for (const t of tickers) clearInterval(t);
  await sampleResources();
  await readBans();
  finish({ top, lost });
}

function finish({ top, lost }) {
  finishing = true;
  const report = { seed: SEED, minutes: MINUTES, command: `node scripts/network.mjs ${process.argv.slice(2).join(' ')}`, run: run.dir, top };
  report.accepted = accepted.size;
  report.types = typeCount;
  report.kinds = kindCount;
  report.refused = Object.fromEntries(refusedByCode);
  report.lost = lost.length;
  report.lostSample = lost.slice(0, 20);
  report.faults = faultsDone;
  report.bursts = { done: burstsDone, largest: largestBurst };
  report.blocks = blocksMined;
  report.mineRefusals = mineRefusals.slice(-50);
  report.checkpoints = checkpoints;
  report.divergences = divergences;
  // Relay and block propagation per direction: the undisturbed samples (the figures), and apart
  // the ones a fault touched (a node down, restarting, partitioned, slowed, until one tip again).
  const byDir = (xs) => {
    const d = {};
    for (const x of xs) (d[x.dir] ??= []).push(x.s);
    return Object.fromEntries(
      Object.entries(d).map(([k, v]) => [k, { samples: v.length, p50: percentile(v, 50), p99: percentile(v, 99), max: Math.max(...v) }]),
    );
  };
  const calmEnds = undisturbed(reach);
  const calmReach = calmRoute(calmEnds);
  const calmLate = calmRoute(undisturbed(late));
  report.relayWithoutCalmRoute = byDir(calmEnds.filter((x) => !calmReach.includes(x)));
  report.relay = byDir(calmReach);
  for (const [d, r] of Object.entries(report.relay)) r.late = calmLate.filter((l) => l.dir === d).length;
  report.relayDisturbed = byDir(reach.filter((x) => !calmReach.includes(x)));
  report.lateDisturbed = late.length - calmLate.length;
  report.lateSample = calmLate.slice(0, 20);
  // The slowest of each direction, with the faults under way meanwhile (to read a tail's cause from).
  const faultsAt = (x) => faultTimes.filter((f) => f.a <= x.t + x.s * 1000 && f.b >= x.t - 5000).map((f) => f.text);
  report.slowest = Object.fromEntries(
    Object.keys(report.relay).map((d) => [
      d,
      calmReach
        .filter((x) => x.dir === d)
        .sort((x, y) => y.s - x.s)
        .slice(0, 10)
        .map((x) => ({ ...x, at: new Date(x.t).toISOString(), faults: faultsAt(x) })),
    ]),
  );
  const calmBlocks = calmRoute(undisturbed(propagation));
  report.blockPropagation = byDir(calmBlocks);
  report.blockPropagationDisturbed = byDir(propagation.filter((x) => !calmBlocks.includes(x)));
  report.slowestBlocks = [...calmBlocks]
    .sort((x, y) => y.s - x.s)
    .slice(0, 10)
    .map((x) => ({ ...x, at: new Date(x.t).toISOString(), faults: faultsAt(x) }));
  // Resources: per node, the samples of its last start after 10 minutes of warm-up.
  report.resources = {};
  let growth = [];
  for (const n of nodes) {
    const last = n.samples.filter((s) => s.start === n.starts);
    const warm = last.filter((s) => s.t - last[0]?.t >= 600);
    const rss = slope(warm, 'rss'),
      fds = slope(warm, 'fds');
    const hours = warm.length ? (warm[warm.length - 1].t - warm[0].t) / 3600 : 0;
    const first = n.samples.find((s) => s.start === n.starts);
    report.resources[n.name] = {
      starts: n.starts,
      samples: last.length,
      rssMB: rss && { first: +(rss.first / 2 ** 20).toFixed(1), last: +(rss.last / 2 ** 20).toFixed(1), slopeMBperHour: +(rss.perHour / 2 ** 20).toFixed(1) },
      fds: fds && { first: fds.first, last: fds.last, slopePerHour: +fds.perHour.toFixed(1) },
      dbMB: first && last.length ? [+(first.db / 2 ** 20).toFixed(1), +(last[last.length - 1].db / 2 ** 20).toFixed(1)] : null,
      reconnectsPerHour:
        n.kind === 'ours' && last.length > 1
          ? +(((last[last.length - 1].reconnects ?? 0) - (last[0].reconnects ?? 0)) / Math.max(1e-9, (last[last.length - 1].t - last[0].t) / 3600)).toFixed(1)
          : null,
      // The last start's samples, to read a slope's cause: [s, RSS MB, heap used MB, heap total MB,
      // external MB, fds, mempool, the longest the event loop was held in that minute (ms), old space
      // committed MB, old space used MB, large-object space committed MB, anonymous RSS MB, answers
      // kept by the HTTP answer caches MB, LevelDB's memtables and block cache MB].
      series: last.map((x) => [
        x.t,
        ...[x.rss, x.heap, x.heapTotal, x.external].map(mb),
        x.fds ?? null,
        x.mempool ?? null,
        x.loopMax == null ? null : Math.round(x.loopMax * 1000),
        ...[x.oldSize, x.oldUsed, x.largeSize, x.anon, x.answers, x.dbMemory].map(mb),
      ]),
      loopHeldMaxMs: n.kind === 'ours' ? Math.round(Math.max(0, ...n.samples.map((x) => x.loopMax ?? 0)) * 1000) : null,
      connectionsPerHour:
        n.kind === 'ours' && last.length > 1
          ? +(((last[last.length - 1].opened ?? 0) - (last[0].opened ?? 0)) / Math.max(1e-9, (last[last.length - 1].t - last[0].t) / 3600)).toFixed(1)
          : null,
    };
    // Growth: RSS rising by more than 10 % of its mean or 24 MB per hour, descriptors by more than 10 per hour, over at least 20 minutes.
    if (hours >= 1 / 3 && rss && rss.perHour > Math.max(0.1 * rss.mean, 24 * 2 ** 20)) growth.push(`${n.name} RSS +${(rss.perHour / 2 ** 20).toFixed(1)} MB/h`);
    if (hours >= 1 / 3 && fds && fds.perHour > 10) growth.push(`${n.name} fds +${fds.perHour.toFixed(1)}/h`);
  }
  report.growth = growth;
  report.referencesAlive = refs.map((n) => ({ name: n.name, alive: n.proc !== null && n.proc.exitCode === null && n.proc.signalCode === null }));
  report.frontRefusals = fronts.refused;
  report.bans = bans;
  report.events = events;
  const kindsMissing = (opt.faults ? [...new Set(opt.faults.split(','))] : Object.keys(fault)).filter((k) => !faultsDone[k]);
  const typesMissing = ['coinTransfer', 'assetCreation', 'tokenTransfer', 'limitSwap', 'liquidityDeposit', 'liquidityWithdrawal', 'cancelation'].filter(
    (k) => !typeCount[k],
  );
  const totalFaults = Object.values(faultsDone).reduce((a, b) => a + b, 0);
  const lateCount = calmLate.length;
  const checks = {
    divergences: divergences === 0,
    lost: lost.length === 0,
    late: lateCount === 0,
    growth: growth.length === 0,
    // Between our nodes every accepted transaction everywhere within 2 s (issue 28), over calm routes.
    oursRelayP99: (report.relay['ours→ours']?.p99 ?? 0) < 2,
    referencesAlive: report.referencesAlive.every((r) => r.alive),
    honestBans: bans.honest.length === 0,
    failEvents: !events.some((e) => e.fail),
    types: typesMissing.length === 0,
    faultKinds: kindsMissing.length === 0,
  };
  report.checks = checks;
  const ok = Object.values(checks).every(Boolean);
  writeFileSync(join(run.dir, 'report.json'), JSON.stringify(report, null, 1));
  const rel = Object.entries(report.relay)
    .map(([d, r]) => `${d} n=${r.samples} p50=${r.p50?.toFixed(2)}s p99=${r.p99?.toFixed(2)}s late=${r.late}`)
    .join('; ');
  say(
    `SUMMARY network seed=${SEED} ${ok ? 'PASS' : 'FAIL'}: ${(since() / 60).toFixed(1)} min, ${nodes.length} nodes (${N_REFS} references), height ${top}, ` +
      `${accepted.size} transactions accepted [${Object.entries(typeCount)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}], lost ${lost.length}, largest burst ${largestBurst}, ${totalFaults} faults [${Object.entries(faultsDone)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}], ${checkpoints} checkpoints, ${divergences} divergences, relay: ${rel}; ` +
      `failed: ${
        Object.entries(checks)
          .filter(([, v]) => !v)
          .map(([k]) => k)
          .join(',') || 'none'
      }${typesMissing.length ? ` (types missing: ${typesMissing.join(',')})` : ''}${kindsMissing.length ? ` (faults missing: ${kindsMissing.join(',')})` : ''}; report ${join(run.dir, 'report.json')}`,
  );
  fronts.close();
  for (const c of kids) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  setTimeout(() => {
    if (diskMounted) spawnSync('umount', ['-l', dataDir(diskNode)]);
    if (ok && !opt.keep) rmSync(run.dir, { recursive: true, force: true });
    process.exit(ok ? 0 : 1);
  }, 1000);
}

for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    event('interrupted', sig, true);
    finish({ top: null, lost: [] });
  });
main().catch((e) => {
  event('driver', e.stack ?? String(e), true);
  finish({ top: null, lost: [] });
});
