#!/usr/bin/env node
// HTTP API side by side with the reference 0.10.3 (issue 20): our node (--api=0.10, same routes) and
// the reference (its regtest build, started with --testnet) hold the same chain, built by the
// project's own builder (scripts/sidebyside/chain.mjs, make_chain.ts buildDexChain): 60 blocks of 353
// signed transfers each from height 3, then an exchange: asset DEX, a pool, a deep book (300 open bids
// and 300 open asks at 150 price levels each), TRADES blocks each with one trade of 8 filled orders
// (candles, trades; hundreds of history entries per trader), 200 funded senders. The reference
// downloads it from ours over P2P and must reach the same height and tip hash. Then:
//   1. admission: MEMPOOL signed transfers from the 200 senders (distinct nonces), half posted to each
//      node over 16 connections (lib/post-many.mjs); accepted per second; then each node is also given the other's half
//      (untimed; relay between them is partial), so MEMPOOL entries are behind the route load;
//   2. every GET route of the 0.10 API both serve (the reference's list: its
//      src/node/api/hook_endpoints.hxx; left out: those that change state, /peers/unban,
//      /peers/disconnect/:id, /settings/mempool/minfee/:feeE8, /debug/fakemine, /loadtest/..., and
//      the calls that end the reference process, /chain/hashrate/0 and /chart/trades with from/to),
//      alternately ours then the reference, ROUNDS times: wrk -t2 -c16 -dDUR (ours also with
//      "Connection: close": the reference closes after every answer);
//   3. RSS of both after the download (the reference is then restarted: its market history fills
//      only at start) and after the route load.
// Prints one table: req/s ours keep-alive, ours close, reference, ratios (median of the rounds, and
// the range); a route either node does not serve (not JSON, or an error code) is listed as such.
// Loopback only, ports 45100-45199; the reference only with --testnet and --connect.
// Needs wrk (apt-get install wrk) and a reference binary; not part of `make test`.
// Env: OUR_DIR (built checkout; default cwd), REF_WORK (default $TMPDIR/warthog-ref), ROUNDS (3),
//   DUR (5s), MEMPOOL (10000), TRADES (1000 trade blocks), CHAIN_CACHE (folder to keep built chains
//   in), ROUTES (comma list filter).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, mkdirSync, openSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kids, portAllocator } from './sidebyside/processes.mjs';
import { bundleChainMaker } from './sidebyside/chain.mjs';
import { childEnv, sleep } from './lib/nodes.mjs';
import { postMany } from './lib/post-many.mjs';
import * as secp from '@noble/secp256k1';

const PORT_FROM = 45100,
  PORT_TO = 45199;
const HERE = dirname(fileURLToPath(import.meta.url));
const OUR_DIR = process.env.OUR_DIR ?? join(HERE, '..');
const REF_WORK = process.env.REF_WORK ?? join(process.env.TMPDIR ?? '/tmp', 'warthog-ref');
const REF_BIN = join(REF_WORK, 'regtest/build/src/node/wart-node');
const ROUNDS = Number(process.env.ROUNDS ?? 3),
  DUR = process.env.DUR ?? '5s',
  MEMPOOL = Number(process.env.MEMPOOL ?? 10000);
const TRADES = Number(process.env.TRADES ?? 1000);
const freePort = portAllocator(PORT_FROM, PORT_TO);
const work = mkdtempSync(join(tmpdir(), 'apiperf-'));
const start = (label, cmd, args, env = {}) => {
  const fd = openSync(join(work, `${label}.log`), 'a');
  const c = spawn(cmd, args, { env: childEnv(env), stdio: ['ignore', fd, fd] });
  c.label = label;
  kids.push(c);
  return c;
};
const get = async (url) => (await fetch(url, { signal: AbortSignal.timeout(5000) })).json();
const height = async (url) => {
  try {
    const j = await get(url + '/chain/head');
    return (j.data?.chainHead ?? j.data).height;
  } catch {
    return -1;
  }
};
const rssMB = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return NaN;
  }
};

if (!existsSync(REF_BIN)) {
  console.log('reference binary missing');
  process.exit(1);
}
const N = 60;
const dir = bundleChainMaker(OUR_DIR)(N, 'dex', TRADES);
const info = JSON.parse(readFileSync(join(dir, 'chain-info.json'), 'utf8'));
const H = info.height;
if (info.refused) console.log(`chain builder: ${info.refused} transactions refused: ${JSON.stringify(info.refusals)}`);
const [oRpc, oP2p, rRpc, rP2p] = [freePort(), freePort(), freePort(), freePort()];
const OURS = `http://127.0.0.1:${oRpc}`,
  REF = `http://127.0.0.1:${rRpc}`;
const ours = start('ours', join(OUR_DIR, 'dist/node.mjs'), [
  '--regtest',
  '--api=0.10',
  `--rpc=127.0.0.1:${oRpc}`,
  `--bind=127.0.0.1:${oP2p}`,
  `--datadir=${dir}`,
]);
for (let i = 0; i < 300 && (await height(OURS)) < H; i++) await sleep(100);
const home = mkdtempSync(join(work, 'h-'));
mkdirSync(join(home, '.warthog'));
const syncStart = performance.now();
// --enable-trades-historydb: without it the reference answers /chart/candles and /chart/trades with
// EAPINOTSUPPORTED (324).
const refArgs = ['--testnet', '--enable-trades-historydb', `--rpc=127.0.0.1:${rRpc}`, `--bind=127.0.0.1:${rP2p}`, `--connect=127.0.0.1:${oP2p}`];
let ref = start('ref', REF_BIN, refArgs, { HOME: home });
for (let i = 0; i < 1200 && (await height(REF)) < H; i++) await sleep(500);
const syncSeconds = (performance.now() - syncStart) / 1000;
const tipHash = async (u) => {
  const j = await get(u + '/chain/head');
  return (j.data?.chainHead ?? j.data).hash;
};
const [oTip, rTip] = [await tipHash(OURS), await tipHash(REF)];
if ((await height(REF)) !== H || oTip !== rTip) {
  console.log(`reference did not take the chain: height ${await height(REF)} of ${H}, tip ${rTip} (ours ${oTip}); logs in ${work}`);
  process.exit(1);
}
const rss = { afterSync: [rssMB(ours.pid), rssMB(ref.pid)] };
// The reference's market history (candles, trades) stays empty for blocks it downloaded
// (EASSETHASHNOTFOUND 185) until it restarts: then it reads them back from its chain.
ref.kill('SIGTERM');
for (let i = 0; i < 300 && ref.exitCode === null && ref.signalCode === null; i++) await sleep(100);
ref = start('ref-restarted', REF_BIN, refArgs, { HOME: home });
for (let i = 0; i < 240; i++) {
  try {
    const j = await get(`${REF}/chart/trades/${info.asset}?n=1`);
    if (j.code === 0 && j.data?.[0]?.[1] >= info.tradeHeight + TRADES - 2) break; /* [timestamp, height, base, quote] */
  } catch {
    /* starting */
  }
  await sleep(500);
}

// --- 1. admission: signed transfers from the chain's 200 funded senders, distinct nonces.
secp.hashes.sha256 = (m) => new Uint8Array(createHash('sha256').update(m).digest());
secp.hashes.hmacSha256 = (k, m) => new Uint8Array(createHmac('sha256', k).update(m).digest());
const toAddr = info.receiver;
const head = (await get(`${OURS}/chain/head`)).data.chainHead ?? (await get(`${OURS}/chain/head`)).data;
const minfee = async (u) => {
  try {
    const d = (await get(u + '/transaction/minfee')).data;
    return BigInt(d.minFee?.E8 ?? d.E8 ?? 1);
  } catch {
    return 1n;
  }
};
const feeE8 = [await minfee(OURS), await minfee(REF), 1n].reduce((a, b) => (a > b ? a : b));
const u32 = (v) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return b;
};
const u64 = (v) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(v));
  return b;
};
const keys = info.senderKeys.map((k) => Buffer.from(k, 'hex'));
// Two sets of distinct nonces: the nodes relay to each other, so a set sent to one would arrive at
// the other as duplicates. Each mempool ends with both sets (relayed), MEMPOOL entries.
const signed = (base, n) => {
  const txs = [];
  for (let i = 0; i < n; i++) {
    // Distinct across senders too: the signed bytes do not name the sender, so two senders' transfers
    // with equal nonce, fee, recipient and amount have one txHash (the reference then aborts:
    // mempool.hpp:65, Assertion `*prev == next').
    const nonceId = base + i;
    const bytes = Buffer.concat([
      Buffer.from(head.pinHash, 'hex'),
      u32(head.pinHeight),
      u32(nonceId),
      Buffer.alloc(3),
      u64(feeE8),
      Buffer.from(toAddr.slice(0, 40), 'hex'),
      u64(1),
    ]);
    const hash = secp.hashes.sha256(bytes);
    const sig = secp.sign(hash, keys[i % keys.length], { prehash: false, format: 'recovered', lowS: true });
    const signature65 = Buffer.from(sig.slice(1)).toString('hex') + Buffer.from(sig.slice(0, 1)).toString('hex');
    txs.push({ pinHeight: head.pinHeight, nonceId, feeE8: Number(feeE8), toAddr, signature65 });
  }
  return txs;
};
async function admit(url, txs, bodyOf) {
  const { seconds, answers } = await postMany(
    url,
    '/transaction/add',
    txs.map((t) => bodyOf(t)),
    16,
  );
  let ok = 0;
  const codes = new Map();
  for (const a of answers) {
    const code = JSON.parse(a).code;
    if (code === 0) ok++;
    else codes.set(code, (codes.get(code) ?? 0) + 1);
  }
  return { rate: txs.length / seconds, ok, codes: [...codes].map(([c, n]) => `${c}×${n}`).join(' ') };
}
// The reference names the coin "wart" in its JSON (interop.mjs); ours takes both names.
const txsOurs = signed(1_000_000, Math.ceil(MEMPOOL / 2)),
  txsRef = signed(2_000_000, Math.floor(MEMPOOL / 2));
const admOurs = await admit(OURS, txsOurs, (t) => ({ type: 'coinTransfer', ...t, coinE8: 1 }));
const admRef = await admit(REF, txsRef, (t) => ({ type: 'wartTransfer', ...t, wartE8: 1 }));

// Relay between the two is partial (the reference's half reached ours only in part), so each node is
// also given the other's half (not timed; a transaction it holds already is refused as known).
await admit(OURS, txsRef, (t) => ({ type: 'coinTransfer', ...t, coinE8: 1 }));
await admit(REF, txsOurs, (t) => ({ type: 'wartTransfer', ...t, wartE8: 1 }));
const mempoolList = async (u) => {
  const m = (await get(u + '/transaction/mempool')).data;
  return Array.isArray(m) ? m : (m?.data ?? m?.transactions ?? []);
};
await sleep(2000); // relay settles
const mempoolSizes = [(await mempoolList(OURS)).length, (await mempoolList(REF)).length];
const pendingTx = JSON.stringify((await mempoolList(OURS))[0] ?? {}).match(/"(?:txHash|hash)":"([0-9a-f]{64})"/)?.[1];
// The listings stop at 2,000 entries; one sender's own pending transfers show whether both halves
// reached both nodes (MEMPOOL / 200 each).
const sender = (await get(`${OURS}/tools/wallet/from_privkey/${info.senderKeys[0]}`)).data.address;
const senderPending = [];
for (const u of [OURS, REF]) {
  const m = (await get(`${u}/account/${sender}/mempool`)).data;
  senderPending.push((Array.isArray(m) ? m : (m?.data ?? m?.transactions ?? [])).length);
}

// --- 2. routes
const blk = (await get(`${OURS}/chain/block/30`)).data;
const hdr = (await get(`${OURS}/chain/block/10/header`)).data;
const headerHex = typeof hdr === 'string' ? hdr : (hdr?.header?.raw ?? hdr?.raw ?? hdr?.header);
const buriedTx = JSON.stringify(blk)
  .match(/"(?:txHash|hash)":"([0-9a-f]{64})"/g)
  ?.map((s) => s.slice(-65, -1))
  .find((h) => h !== blk.header?.hash);
const A = info.asset,
  t0 = (await get(`${OURS}/chain/block/1`)).data?.header?.timestamp ?? 1_700_000_020;
const all = [
  '/chain/head',
  '/chain/grid',
  '/chain/block/30',
  `/chain/block/${info.bookHeight}`,
  `/chain/block/${info.tradeHeight + 10}`,
  '/chain/block/30/hash',
  '/chain/block/30/header',
  '/chain/block/30/binary',
  `/chain/mine/${info.miner}`,
  '/chain/hashrate/50',
  '/chain/signed_snapshot',
  '/chain/txcache',
  '/transaction/minfee',
  '/transaction/mempool',
  '/transaction/latest',
  `/transaction/lookup/${buriedTx}`,
  `/transaction/lookup/${info.filledOrder}`,
  `/transaction/lookup/${info.restingOrder}`,
  `/transaction/lookup/${pendingTx}`,
  `/asset/lookup/${A}`,
  '/asset/complete?namePrefix=DE',
  `/dex/market/${A}`,
  `/dex/open_order/${info.restingOrder}`,
  `/account/${toAddr}/wart_balance`,
  `/account/${toAddr}/balance/0`,
  `/account/${info.buyer}/balance/asset:${A}`,
  `/account/${info.miner}/balance/liquidity:${A}`,
  `/account/${toAddr}/history/100000000`,
  `/account/${info.buyer}/history/100000000`,
  `/account/${info.bidMaker}/history/100000000`,
  `/account/${sender}/mempool`,
  `/account/${info.bidMaker}/open_orders`,
  `/account/${info.askMaker}/open_orders/${A}`,
  '/account/richlist/0',
  `/account/richlist/asset:${A}`,
  `/chart/candles/${A}/5m`,
  `/chart/candles/${A}/5m?n=200`,
  `/chart/candles/${A}/1h`,
  `/chart/candles/${A}/1d`,
  `/chart/trades/${A}`,
  `/chart/trades/${A}?n=200`,
  `/chart/hashrate/block/${H - 100}/${H}/10`,
  `/chart/hashrate/time/${t0}/${t0 + 86400}/3600`,
  '/tools/encode16bit/from_e8/1000448',
  '/tools/encode16bit/from_string/0.01',
  '/tools/parse_price/0.01/2',
  '/tools/info',
  '/tools/wallet/new',
  `/tools/wallet/from_privkey/${info.bidMakerKey}`,
  `/tools/janushash_number/${headerHex}`,
  '/tools/sample_verified_peers/10',
  '/peers/connected',
  '/peers/ip_count',
  '/peers/banned',
  '/peers/offenses/0',
  '/peers/connected/connection',
  '/peers/connection_schedule',
  '/peers/throttled',
  '/peers/transmission_hours',
  '/peers/transmission_minutes',
  '/peers/endpoints',
  '/peers/connect_timers',
  '/debug/header_download',
];
/** The route with its arguments named (accounts, asset, transactions of the chain). */
const names = [
  [toAddr, '<receiver>'],
  [info.buyer, '<buyer>'],
  [info.bidMaker, '<bid maker>'],
  [info.askMaker, '<ask maker>'],
  [info.miner, '<miner>'],
  [sender, '<sender>'],
  [A, '<asset>'],
  [buriedTx, '<transfer>'],
  [info.filledOrder, '<filled order>'],
  [info.restingOrder, '<open order>'],
  [pendingTx, '<pending transfer>'],
  [headerHex, '<header>'],
  [info.bidMakerKey, '<key>'],
].filter(([v]) => v);
const label = (r) => names.reduce((t, [v, n]) => t.split(v).join(n), r);
const routes = process.env.ROUTES ? all.filter((r) => process.env.ROUTES.split(',').some((f) => r.includes(f))) : all;
function wrk(url, close) {
  const args = ['-t2', '-c16', `-d${DUR}`, ...(close ? ['-H', 'Connection: close'] : []), url];
  const r = spawnSync('wrk', args, { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(r.stdout)?.[1] ?? NaN);
  const bad = /Non-2xx or 3xx responses: (\d+)/.exec(r.stdout)?.[1];
  const errors = /Socket errors: (.*)/.exec(r.stdout)?.[1];
  return { rps, bad: bad ? Number(bad) : 0, errors };
}
const med = (xs) => xs.map((x) => x.rps).sort((p, q) => p - q)[Math.floor(xs.length / 2)];
const range = (xs) => {
  const v = xs.map((x) => x.rps).sort((p, q) => p - q);
  return `${v[0].toFixed(0)}–${v[v.length - 1].toFixed(0)}`;
};
const rows = [];
let peakRss = [0, 0];
/** The answer's code (0: served), or why there is none. */
const codeOf = async (u) => {
  try {
    const r = await fetch(u, { signal: AbortSignal.timeout(10000) });
    const t = await r.text();
    try {
      return JSON.parse(t).code ?? `HTTP ${r.status}`;
    } catch {
      return `HTTP ${r.status}, not JSON`;
    }
  } catch (e) {
    return String(e.cause?.code ?? e.name ?? e).slice(0, 30);
  }
};
const alive = (c) => c.exitCode === null && c.signalCode === null;
for (const r of routes) {
  if (!alive(ref) || !alive(ours)) {
    rows.push(`| ${label(r)} | — | — | — | — | — | ${alive(ours) ? 'reference' : 'our node'} exited: routes after this one not run |`);
    break;
  }
  const codes = [await codeOf(OURS + r), await codeOf(REF + r)];
  const show = label(r);
  if (codes[1] !== 0 || codes[0] !== 0) {
    rows.push(`| ${show} | — | — | — | — | — | not served: ours ${codes[0]}, reference ${codes[1]} |`);
    continue;
  }
  const a = [],
    c = [],
    f = [];
  for (let i = 0; i < ROUNDS; i++) {
    a.push(wrk(OURS + r, false));
    peakRss[0] = Math.max(peakRss[0], rssMB(ours.pid));
    f.push(wrk(REF + r, false));
    peakRss[1] = Math.max(peakRss[1], rssMB(ref.pid));
    c.push(wrk(OURS + r, true));
  }
  const bad = [...a, ...c, ...f].some((x) => x.bad > 0);
  const errs = [
    ['ours', a],
    ['ours close', c],
    ['reference', f],
  ].flatMap(([who, xs]) => xs.filter((x) => x.errors).map((x) => `${who}: ${x.errors}`));
  rows.push(
    `| ${show} | ${med(a).toFixed(0)} (${range(a)}) | ${med(c).toFixed(0)} | ${med(f).toFixed(0)} (${range(f)}) | **${(med(a) / med(f)).toFixed(2)}×** | ${(med(c) / med(f)).toFixed(2)}× |${bad ? ' non-2xx seen;' : ''} ${[...new Set(errs)].join('; ')} |`,
  );
}
rss.underLoad = peakRss;
console.log(
  `\nside by side: ${H} blocks (${N} × 353 transfers, asset ${A.slice(0, 8)}…, pool, 600 open orders, ${TRADES} trade blocks), both at tip ${oTip.slice(0, 16)}… (reference download ${syncSeconds.toFixed(0)} s); mempool listings ${mempoolSizes[0]} (ours) / ${mempoolSizes[1]} (reference) (both stop at 2,000), one sender's pending ${senderPending[0]} / ${senderPending[1]} of ${MEMPOOL / keys.length}; wrk -t2 -c16 -d${DUR}, ${ROUNDS} rounds (median, range)\n`,
);
console.log('| route | ours keep-alive req/s | ours close | reference 0.10.3 | ratio keep-alive | ratio close | notes |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
console.log(
  `| POST /transaction/add, 16 connections, ${Math.ceil(MEMPOOL / 2)} transfers from ${keys.length} accounts | ${admOurs.rate.toFixed(0)} tx/s (accepted ${admOurs.ok}${admOurs.codes ? ', ' + admOurs.codes : ''}) | — | ${admRef.rate.toFixed(0)} tx/s (accepted ${admRef.ok}${admRef.codes ? ', ' + admRef.codes : ''}) | **${(admOurs.rate / admRef.rate).toFixed(2)}×** | — | |`,
);
for (const row of rows) console.log(row);
console.log(`| RSS after the download (MB) | ${rss.afterSync[0].toFixed(0)} | | ${rss.afterSync[1].toFixed(0)} | | | |`);
console.log(
  `| RSS peak under the route load (MB) | ${rss.underLoad[0].toFixed(0)} | | ${rss.underLoad[1].toFixed(0)} | | | the reference restarted after the download (market history) |`,
);
console.log(`logs in ${work}`);
process.exit(0);
