#!/usr/bin/env node
// HTTP API side by side with the reference 0.10.3 (issue 20): our node (--api=0.10, same routes) and
// the reference (its regtest build, started with --testnet) hold the same chain: 60 blocks, 353 signed
// transfers each from height 3, built by the project's own builder (scripts/sidebyside/chain.mjs);
// the reference downloads it from ours over P2P. Then:
//   1. admission: MEMPOOL signed transfers (distinct nonces) posted to each node by 16 clients;
//      accepted per second (this also fills both mempools for the route load);
//   2. every GET route both serve, alternately ours then the reference, ROUNDS times: wrk -t2 -c16 -dDUR
//      (ours also with "Connection: close": the reference closes after every answer);
//   3. RSS of both after the download and after the route load.
// Prints one table: req/s ours keep-alive, ours close, reference, ratios (median of the rounds, and
// the range). Loopback only, ports 45100-45199; the reference only with --testnet and --connect.
// Needs wrk (apt-get install wrk) and a reference binary; not part of `make test`.
// Env: OUR_DIR (built checkout; default cwd), REF_WORK (default $TMPDIR/warthog-ref), ROUNDS (3),
//   DUR (5s), MEMPOOL (10000), CHAIN_CACHE (folder to keep built chains in), ROUTES (comma list filter).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, mkdirSync, openSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleChainMaker } from './sidebyside/chain.mjs';
import * as secp from '@noble/secp256k1';

const PORT_FROM = 45100, PORT_TO = 45199;
const HERE = dirname(fileURLToPath(import.meta.url));
const OUR_DIR = process.env.OUR_DIR ?? join(HERE, '..');
const REF_WORK = process.env.REF_WORK ?? join(process.env.TMPDIR ?? '/tmp', 'warthog-ref');
const REF_BIN = join(REF_WORK, 'regtest/build/src/node/wart-node');
const ROUNDS = Number(process.env.ROUNDS ?? 3), DUR = process.env.DUR ?? '5s', MEMPOOL = Number(process.env.MEMPOOL ?? 10000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Local ports held by any socket, also in TIME-WAIT (a reference cannot bind those; loopback
 *  connections take ephemeral ports in our range). */
const busyPorts = () => new Set(['/proc/net/tcp', '/proc/net/tcp6'].flatMap((f) => { try { return readFileSync(f, 'utf8').split('\n').slice(1); } catch { return []; } })
  .map((l) => l.trim().split(/\s+/)[1]).filter(Boolean).map((a) => parseInt(a.split(':').pop(), 16)));
let nextPort = PORT_FROM;
/** The next port of our range no socket holds. */
function freePort() {
  const busy = busyPorts();
  for (let i = 0; i < 900; i++) { const p = nextPort++; if (nextPort > PORT_TO) nextPort = PORT_FROM; if (!busy.has(p)) return p; }
  throw new Error('no free port');
}
const kids = [];
process.on('exit', () => { for (const c of kids) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL'); });
const work = mkdtempSync(join(tmpdir(), 'apiperf-'));
const start = (label, cmd, args, env = {}) => { const fd = openSync(join(work, `${label}.log`), 'a'); const c = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] }); c.label = label; kids.push(c); return c; };
const get = async (url) => (await fetch(url, { signal: AbortSignal.timeout(5000) })).json();
const height = async (url) => { try { const j = await get(url + '/chain/head'); return (j.data?.chainHead ?? j.data).height; } catch { return -1; } };
const rssMB = (pid) => { try { return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024; } catch { return NaN; } };

if (!existsSync(REF_BIN)) { console.log('reference binary missing'); process.exit(1); }
const N = 60;
const dir = bundleChainMaker(OUR_DIR)(N, true);
const [oRpc, oP2p, rRpc, rP2p] = [freePort(), freePort(), freePort(), freePort()];
const OURS = `http://127.0.0.1:${oRpc}`, REF = `http://127.0.0.1:${rRpc}`;
const ours = start('ours', process.execPath, [join(OUR_DIR, 'dist/node.mjs'), '--regtest', '--api=0.10', `--rpc=127.0.0.1:${oRpc}`, `--bind=127.0.0.1:${oP2p}`, `--datadir=${dir}`]);
for (let i = 0; i < 300 && (await height(OURS)) < N; i++) await sleep(100);
const home = mkdtempSync(join(work, 'h-')); mkdirSync(join(home, '.warthog'));
const ref = start('ref', REF_BIN, ['--testnet', `--rpc=127.0.0.1:${rRpc}`, `--bind=127.0.0.1:${rP2p}`, `--connect=127.0.0.1:${oP2p}`], { HOME: home });
for (let i = 0; i < 600 && (await height(REF)) < N; i++) await sleep(500);
if ((await height(REF)) < N) { console.log(`reference did not sync: ${await height(REF)}`); process.exit(1); }
const rss = { afterSync: [rssMB(ours.pid), rssMB(ref.pid)] };

// --- 1. admission: signed transfers from the chain builder's sender (bench/sync.ts), distinct nonces.
secp.hashes.sha256 = (m) => new Uint8Array(createHash('sha256').update(m).digest());
secp.hashes.hmacSha256 = (k, m) => new Uint8Array(createHmac('sha256', k).update(m).digest());
const SK = Uint8Array.from({ length: 32 }, (_, i) => 7 + i);
const blk = (await get(`${OURS}/chain/block/30`)).data;
// The transfers' recipient (the first address of the block is the reward's: the sender, who mines).
const toAddr = [...JSON.stringify(blk).matchAll(/"(?:toAddress|to|address)":"([0-9a-f]{48})"/g)].pop()?.[1];
const head = (await get(`${OURS}/chain/head`)).data.chainHead ?? (await get(`${OURS}/chain/head`)).data;
const minfee = async (u) => { try { const d = (await get(u + '/transaction/minfee')).data; return BigInt(d.minFee?.E8 ?? d.E8 ?? 1); } catch { return 1n; } };
const feeE8 = [await minfee(OURS), await minfee(REF), 1n].reduce((a, b) => (a > b ? a : b));
const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32BE(v); return b; };
const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(v)); return b; };
// Two sets of distinct nonces: the nodes relay to each other, so a set sent to one would arrive at
// the other as duplicates. Each mempool ends with both sets (relayed), 2 × MEMPOOL entries.
const signed = (base) => { const txs = [];
for (let i = 0; i < MEMPOOL; i++) {
  const nonceId = base + i;
  const bytes = Buffer.concat([Buffer.from(head.pinHash, 'hex'), u32(head.pinHeight), u32(nonceId), Buffer.alloc(3), u64(feeE8), Buffer.from(toAddr.slice(0, 40), 'hex'), u64(1)]);
  const hash = secp.hashes.sha256(bytes);
  const sig = secp.sign(hash, SK, { prehash: false, format: 'recovered', lowS: true });
  const signature65 = Buffer.from(sig.slice(1)).toString('hex') + Buffer.from(sig.slice(0, 1)).toString('hex');
  txs.push({ pinHeight: head.pinHeight, nonceId, feeE8: Number(feeE8), toAddr, signature65 });
}
return txs; };
async function admit(url, txs, bodyOf) {
  let next = 0, ok = 0; const codes = new Map();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (next < txs.length) {
      const t = txs[next++];
      try {
        const r = await (await fetch(url + '/transaction/add', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(bodyOf(t)) })).json();
        if (r.code === 0) ok++; else codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
      } catch (e) { codes.set('fetch', (codes.get('fetch') ?? 0) + 1); }
    }
  }));
  const s = (performance.now() - t0) / 1000;
  return { rate: txs.length / s, ok, codes: [...codes].map(([c, n]) => `${c}×${n}`).join(' ') };
}
// The reference names the coin "wart" in its JSON (interop.mjs); ours takes both names.
const admOurs = await admit(OURS, signed(1_000_000), (t) => ({ type: 'coinTransfer', ...t, coinE8: 1 }));
const admRef = await admit(REF, signed(2_000_000), (t) => ({ type: 'wartTransfer', ...t, wartE8: 1 }));
const mempoolSizes = [(await get(OURS + '/transaction/mempool')).data, (await get(REF + '/transaction/mempool')).data]
  .map((m) => (Array.isArray(m) ? m : m?.data ?? m?.transactions ?? []).length);

// --- 2. routes
const hdr = (await get(`${OURS}/chain/block/10/header`)).data;
const headerHex = typeof hdr === 'string' ? hdr : hdr?.header?.raw ?? hdr?.raw ?? hdr?.header;
const buriedTx = JSON.stringify(blk).match(/"(?:txHash|hash)":"([0-9a-f]{64})"/g)?.map((s) => s.slice(-65, -1)).find((h) => h !== blk.header?.hash);
const all = ['/chain/head', '/chain/grid', '/chain/block/30', '/chain/block/30/hash', '/chain/block/30/header', '/chain/block/30/binary',
  '/chain/hashrate/50', '/chain/signed_snapshot', '/chain/txcache', '/transaction/minfee', '/transaction/mempool', '/transaction/latest',
  `/transaction/lookup/${buriedTx}`, `/account/${toAddr}/wart_balance`, `/account/${toAddr}/balance/0`, `/account/${toAddr}/history/100000000`,
  `/account/${toAddr}/mempool`, '/account/richlist/0', `/tools/janushash_number/${headerHex}`, '/tools/encode16bit/from_e8/1000448',
  '/tools/info', '/peers/connected', '/peers/ip_count', '/chart/hashrate/block/1/60/10'];
const routes = process.env.ROUTES ? all.filter((r) => process.env.ROUTES.split(',').some((f) => r.includes(f))) : all;
function wrk(url, close) {
  const args = ['-t2', '-c16', `-d${DUR}`, ...(close ? ['-H', 'Connection: close'] : []), url];
  const r = spawnSync('wrk', args, { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(r.stdout)?.[1] ?? NaN);
  const bad = /Non-2xx or 3xx responses: (\d+)/.exec(r.stdout)?.[1];
  return { rps, bad: bad ? Number(bad) : 0 };
}
const med = (xs) => xs.map((x) => x.rps).sort((p, q) => p - q)[Math.floor(xs.length / 2)];
const range = (xs) => { const v = xs.map((x) => x.rps).sort((p, q) => p - q); return `${v[0].toFixed(0)}–${v[v.length - 1].toFixed(0)}`; };
const rows = [];
let peakRss = [0, 0];
for (const r of routes) {
  let codes;
  try { codes = [(await get(OURS + r)).code, (await get(REF + r)).code]; } catch (e) { codes = ['?', String(e).slice(0, 30)]; }
  if (codes[1] === undefined || codes[1] === '?' || typeof codes[1] === 'string') { rows.push(`| ${r.slice(0, 50)} | — | — | reference does not answer JSON (${codes[1]}) | — | — |`); continue; }
  const a = [], c = [], f = [];
  for (let i = 0; i < ROUNDS; i++) {
    a.push(wrk(OURS + r, false)); peakRss[0] = Math.max(peakRss[0], rssMB(ours.pid));
    f.push(wrk(REF + r, false)); peakRss[1] = Math.max(peakRss[1], rssMB(ref.pid));
    c.push(wrk(OURS + r, true));
  }
  const bad = [...a, ...c, ...f].some((x) => x.bad > 0);
  rows.push(`| ${r.length > 50 ? r.slice(0, 38) + '…' : r} | ${med(a).toFixed(0)} (${range(a)}) | ${med(c).toFixed(0)} | ${med(f).toFixed(0)} (${range(f)}) | **${(med(a) / med(f)).toFixed(2)}×** | ${(med(c) / med(f)).toFixed(2)}× |${bad ? ' non-2xx seen;' : ''} codes ${codes[0]}/${codes[1]}`);
}
rss.underLoad = peakRss;
console.log(`\nside by side, ${N} blocks × 353 transfers, mempool ${mempoolSizes[0]} (ours) / ${mempoolSizes[1]} (reference), wrk -t2 -c16 -d${DUR}, ${ROUNDS} rounds (median, range)\n`);
console.log('| route | ours keep-alive req/s | ours close | reference 0.10.3 | ratio keep-alive | ratio close | notes |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
console.log(`| POST /transaction/add, 16 clients, ${MEMPOOL} transfers | ${admOurs.rate.toFixed(0)} tx/s (accepted ${admOurs.ok}${admOurs.codes ? ', ' + admOurs.codes : ''}) | — | ${admRef.rate.toFixed(0)} tx/s (accepted ${admRef.ok}${admRef.codes ? ', ' + admRef.codes : ''}) | **${(admOurs.rate / admRef.rate).toFixed(2)}×** | — | |`);
for (const row of rows) console.log(row);
console.log(`| RSS after the download (MB) | ${rss.afterSync[0].toFixed(0)} | | ${rss.afterSync[1].toFixed(0)} | | | |`);
console.log(`| RSS peak under the route load (MB) | ${rss.underLoad[0].toFixed(0)} | | ${rss.underLoad[1].toFixed(0)} | | | |`);
console.log(`logs in ${work}`);
process.exit(0);
