#!/usr/bin/env node
// Records every exchange transaction type crossing the P2P wire between the 0.10.3 reference
// (its regtest build; README, "Recorded exchange session") and our node, both ways, in
// Txrep and in Blockrep, and the reference's HTTP answers after every block (issue 19).
// Needs a reference binary, so it is not part of `make test`; `make test` replays what it writes
// (test/p2p/exchange_transcript.test.ts, test/api/reference_exchange_chain.test.ts).
//
// One session, everything on 127.0.0.1: our node (contract API, no --connect) and the
// reference (`--testnet --connect=<proxy>`) start empty; the reference dials ours through the recording
// proxy (scripts/p2precord.mjs), so the one connection between them is recorded byte for byte.
//   1. the reference mines blocks 1–32 while the proxy still turns it away (WARMUP_S, see below), then
//      connects and ours downloads them: coin for A, and a pin (32) that is not genesis. (Ours mines only
//      in the scenario: each block the reference takes from ours costs it a throttled header request,
//      as it re-fetches headers it has; our node delays a throttled peer's messages as the reference does);
//   2. the scenario (SCENARIO below): each step signs its transactions with fixed keys and fixed nonce
//      ids, submits them to one node's POST /transaction/add, waits until the other node holds them too
//      (Txrep), and has the OTHER node mine the block (Blockrep the other way). Steps alternate
//      "submitted to the reference, mined by ours" and "submitted to ours, mined by the reference", so
//      every type goes both ways in Txrep and both ways in Blockrep;
//   3. after every block (both nodes at the same head) the reference's answers are saved: /chain/head,
//      /chain/block/H, per account wart_balance, balance/asset:X and balance/liquidity:X of every asset,
//      open_orders, history; /dex/market/X; /transaction/lookup of the block's transactions.
// Transactions are signed here (SHA-256 over the signing bytes of consensus.md §7.2, secp256k1 compact
// recoverable signature r‖s‖recid), independently of the node's code; limit prices come from the
// reference's /tools/parse_price (a buy rounds down, a sell up).
//
// Usage: node scripts/record-exchange.mjs [--out DIR]   (DIR default: test/vectors; ~6 min)
// Env: REF_BIN (default $TMPDIR/warthog-ref/regtest/build/src/node/wart-node), OUR_DIR (a built checkout,
//   default this one; test/vectors/reference-0.10.3-exchange/README.md builds a clean copy of HEAD),
//   PORT_BASE (default 43100: the first free ports from there on, within 43000–43999), WARMUP_S (150),
//   WORK (logs and data, default a fresh temp dir; a failed run leaves transcript-of-failed-run.json there).
// Do not run the replay tests at the same time: a replaying node dials the listen port the recorded
// reference announced, which may be one of this script's.
// Writes OUT/p2p/ref-0.10.3-exchange.json (the transcript) and OUT/reference-0.10.3-exchange/
// (chain.json: blocks, keys, transactions; answers/hNNN.json: the reference's answers; summary.json).
import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProxy, transcript } from './p2precord.mjs';
import { childEnv, sleep, stop as stopProcess } from './lib/nodes.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const argOut = process.argv.indexOf('--out');
const OUT = argOut > 0 ? process.argv[argOut + 1] : join(ROOT, 'test/vectors');
const REF_BIN = process.env.REF_BIN ?? join(process.env.TMPDIR ?? '/tmp', 'warthog-ref/regtest/build/src/node/wart-node');
const OUR_DIR = process.env.OUR_DIR ?? ROOT;
const WORK = process.env.WORK ?? mkdtempSync(join(tmpdir(), 'record-exchange-'));
// Five loopback ports in 43000–43999 that are free now (other programs' outgoing connections take
// ephemeral ports in this range too, and their TIME-WAIT sockets keep them): the first free ones from
// PORT_BASE on, then further ones if a node still fails to bind.
const portFree = (port) =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
let nextPort = Number(process.env.PORT_BASE ?? 43100);
async function freePort() {
  for (; nextPort <= 43999; nextPort++) if (await portFree(nextPort)) return nextPort++;
  throw new Error('no free ports in 43000–43999');
}
let P, REF, OURS;
async function setPorts() {
  P = { refRpc: await freePort(), refP2p: await freePort(), ourRpc: await freePort(), ourP2p: await freePort(), proxy: await freePort() };
  REF = `http://127.0.0.1:${P.refRpc}`;
  OURS = `http://127.0.0.1:${P.ourRpc}`;
}
await setPorts();
const FEE_E8 = 1000448n; // the minimum fee, exactly on the 16-bit fee grid
const INITIAL = { ref: 32, ours: 0 };
const WARMUP_S = Number(process.env.WARMUP_S ?? 150);

const kids = [];
process.on('exit', () => {
  for (const c of kids) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
mkdirSync(WORK, { recursive: true });
const log = (m) => {
  const l = `${new Date().toISOString()} ${m}`;
  console.log(l);
  writeFileSync(join(WORK, 'driver.log'), l + '\n', { flag: 'a' });
};
function start(label, cmd, args, env = {}) {
  const fd = openSync(join(WORK, `${label}.log`), 'a');
  const c = spawn(cmd, args, { env: childEnv(env), stdio: ['ignore', fd, fd] });
  c.label = label;
  kids.push(c);
  log(`start ${label} pid ${c.pid}: ${args.join(' ')}`);
  return c;
}
const stop = (c) => stopProcess(c, 8000);

// ---- HTTP. Answers are kept as the exact text (u64 values above 2^53 stay exact in the vectors).
async function getText(url, ms = 10000) {
  const r = await fetch(url, { signal: AbortSignal.timeout(ms) });
  return r.text();
}
const get = async (url, ms) => JSON.parse(await getText(url, ms));
async function post(url, body, ms = 10000) {
  const text = await (
    await fetch(url, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
      signal: AbortSignal.timeout(ms),
    })
  ).text();
  return { text, json: JSON.parse(text) };
}
async function waitUp(url, c, s = 40) {
  for (let i = 0; i < s * 5; i++) {
    if (c.exitCode !== null || c.signalCode !== null) throw new Error(`${c.label} exited (${c.exitCode ?? c.signalCode})`);
    try {
      await get(url + '/chain/head', 1000);
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`${c.label} did not answer within ${s} s`);
}
async function head(url) {
  const j = await get(url + '/chain/head');
  return j.data?.chainHead ?? j.data;
}
async function until(what, fn, s) {
  for (let i = 0; i < s * 5; i++) {
    const v = await fn().catch(() => null);
    if (v) return v;
    await sleep(200);
  }
  throw new Error(`timeout (${s} s) waiting for ${what}`);
}
const sameHead = (h) =>
  until(
    `both nodes at height ${h}`,
    async () => {
      const [r, o] = await Promise.all([head(REF), head(OURS)]);
      return r.height === h && o.height === h && r.hash === o.hash;
    },
    90,
  );

// ---- keys and signing (fixed keys: sha256 of a label; regtest throw-aways)
let secp;
async function signDigest(hash, privHex) {
  if (!secp) {
    secp = await import(join(ROOT, 'node_modules/@noble/secp256k1/index.js'));
    secp.hashes.sha256 = (m) => new Uint8Array(createHash('sha256').update(m).digest());
    secp.hashes.hmacSha256 = (k, m) => new Uint8Array(createHmac('sha256', k).update(m).digest());
  }
  const s = secp.sign(hash, Buffer.from(privHex, 'hex'), { prehash: false, format: 'recovered' });
  return Buffer.from(s.slice(1)).toString('hex') + Buffer.from(s.slice(0, 1)).toString('hex'); // r ‖ s ‖ recid
}
const u8 = (n) => Buffer.from([n]);
const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u64 = (n) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
const hex = (h, n) => {
  const b = Buffer.from(h, 'hex');
  if (b.length !== n) throw new Error(`${h} is not ${n} bytes`);
  return b;
};
const addr20 = (a) => hex(a.slice(0, 40), 20);

/** Signing bytes (consensus.md §7.2): pinHash ‖ pinHeight ‖ nonceId ‖ 3 reserved ‖ fee u64 ‖ the type's fields. */
function signingBytes(t) {
  const common = Buffer.concat([hex(t.pinHash, 32), u32(t.pinHeight), u32(t.nonceId), Buffer.alloc(3), u64(t.feeE8)]);
  const f = t.fields;
  switch (t.type) {
    case 'coinTransfer':
      return Buffer.concat([common, addr20(f.to), u64(f.amount)]);
    case 'tokenTransfer':
      return Buffer.concat([common, hex(f.asset, 32), u8(f.isLiquidity ? 1 : 0), addr20(f.to), u64(f.amount)]);
    case 'assetCreation': {
      const n = Buffer.alloc(5);
      n.write(f.name, 'latin1');
      return Buffer.concat([common, u64(f.supply), u8(f.decimals), n]);
    }
    case 'limitSwap':
      return Buffer.concat([common, hex(f.asset, 32), u8(f.isBuy ? 1 : 0), u64(f.amount), hex(f.limit, 3)]);
    case 'liquidityDeposit':
      return Buffer.concat([common, hex(f.asset, 32), u64(f.base), u64(f.quote)]);
    case 'liquidityWithdrawal':
      return Buffer.concat([common, hex(f.asset, 32), u64(f.shares)]);
    case 'cancelation':
      return Buffer.concat([common, u32(f.cancelHeight), u32(f.cancelNonceId)]);
  }
  throw new Error(`type ${t.type}`);
}
/** POST /transaction/add bodies: the reference's 0.10 names, and our contract's (http-api.md). */
function bodies(t) {
  // Numbers (every value here is below 2^53): the reference refused a string feeE8 ("Invalid fee").
  const f = t.fields,
    c = { pinHeight: t.pinHeight, nonceId: t.nonceId, feeE8: Number(t.feeE8), signature65: t.signature65 };
  switch (t.type) {
    case 'coinTransfer':
      return {
        ref: { type: 'wartTransfer', ...c, toAddr: f.to, wartE8: Number(f.amount) },
        ours: { type: 'coinTransfer', ...c, toAddr: f.to, coinE8: Number(f.amount) },
      };
    case 'tokenTransfer': {
      const b = { type: 'tokenTransfer', ...c, assetHash: f.asset, isLiquidity: f.isLiquidity, toAddr: f.to, amountU64: Number(f.amount) };
      return { ref: b, ours: b };
    }
    case 'assetCreation':
      return {
        ref: { type: 'assetCreation', ...c, supplyU64: Number(f.supply), decimals: f.decimals, name: f.name },
        ours: { type: 'assetCreation', ...c, supplyU64: Number(f.supply), precision: f.decimals, name: f.name },
      };
    case 'limitSwap': {
      const b = { type: 'limitSwap', ...c, assetHash: f.asset, isBuy: f.isBuy, amountU64: Number(f.amount), limit: f.limit };
      return { ref: b, ours: b };
    }
    case 'liquidityDeposit':
      return {
        ref: { type: 'liquidityDeposit', ...c, assetHash: f.asset, amountU64: Number(f.base), wartE8: Number(f.quote) },
        ours: { type: 'liquidityDeposit', ...c, assetHash: f.asset, amountU64: Number(f.base), coinE8: Number(f.quote) },
      };
    case 'liquidityWithdrawal': {
      const b = { type: 'liquidityWithdrawal', ...c, assetHash: f.asset, amountE8: Number(f.shares) };
      return { ref: b, ours: b };
    }
    case 'cancelation': {
      const b = { type: 'cancelation', ...c, cancelHeight: f.cancelHeight, cancelNonceId: f.cancelNonceId };
      return { ref: b, ours: b };
    }
  }
}

// ---- the scenario. Amounts in smallest units: WART 1e8, DEMO 2 decimals, GOLD 0 decimals, pool shares 8.
const W = (n) => BigInt(Math.round(n * 1e8));
const D = (n) => BigInt(Math.round(n * 100));
let nextNonce = 1000;
const SCENARIO = [
  {
    name: 's1-coin-and-DEMO',
    submitTo: 'ref',
    minedBy: 'ours',
    txs: (x) => [
      { label: 'A sends 20 WART to B', from: 'A', type: 'coinTransfer', fields: { to: x.B, amount: W(20) } },
      { label: 'A sends 20 WART to C', from: 'A', type: 'coinTransfer', fields: { to: x.C, amount: W(20) } },
      { label: 'A creates DEMO (10000, 2 decimals)', from: 'A', type: 'assetCreation', fields: { name: 'DEMO', supply: D(10000), decimals: 2 }, asset: 'DEMO' },
    ],
  },
  {
    name: 's2-coin-GOLD-DEMO-transfers',
    submitTo: 'ours',
    minedBy: 'ref',
    txs: (x) => [
      { label: 'A sends 5 WART to B', from: 'A', type: 'coinTransfer', fields: { to: x.B, amount: W(5) } },
      { label: 'A creates GOLD (500, 0 decimals)', from: 'A', type: 'assetCreation', fields: { name: 'GOLD', supply: 500n, decimals: 0 }, asset: 'GOLD' },
      { label: 'A sends 1000 DEMO to C', from: 'A', type: 'tokenTransfer', fields: { asset: x.DEMO, isLiquidity: false, to: x.C, amount: D(1000) } },
      { label: 'A sends 100 DEMO to B', from: 'A', type: 'tokenTransfer', fields: { asset: x.DEMO, isLiquidity: false, to: x.B, amount: D(100) } },
    ],
  },
  {
    name: 's3-orders-rest',
    submitTo: 'ref',
    minedBy: 'ours',
    txs: async (x) => [
      { label: 'A sends 50 DEMO to B', from: 'A', type: 'tokenTransfer', fields: { asset: x.DEMO, isLiquidity: false, to: x.B, amount: D(50) } },
      { label: 'A sends 10 GOLD to C', from: 'A', type: 'tokenTransfer', fields: { asset: x.GOLD, isLiquidity: false, to: x.C, amount: 10n } },
      {
        label: 'B buys DEMO for 5 WART at 0.4 (no pool: rests)',
        from: 'B',
        type: 'limitSwap',
        fields: { asset: x.DEMO, isBuy: true, amount: W(5), limit: await x.price('0.4', 2, true) },
        order: 'buy04',
      },
      {
        label: 'C sells 50 DEMO at 9 (rests)',
        from: 'C',
        type: 'limitSwap',
        fields: { asset: x.DEMO, isBuy: false, amount: D(50), limit: await x.price('9', 2, false) },
        order: 'sell9',
      },
    ],
  },
  {
    name: 's4-pool-created-cancel',
    submitTo: 'ours',
    minedBy: 'ref',
    txs: async (x) => [
      { label: 'A deposits 100 DEMO + 30 WART (creates the pool)', from: 'A', type: 'liquidityDeposit', fields: { asset: x.DEMO, base: D(100), quote: W(30) } },
      {
        label: 'C sells 20 DEMO at 8 (rests)',
        from: 'C',
        type: 'limitSwap',
        fields: { asset: x.DEMO, isBuy: false, amount: D(20), limit: await x.price('8', 2, false) },
        order: 'sell8',
      },
      {
        label: 'C cancels its sell at 9',
        from: 'C',
        type: 'cancelation',
        fields: { cancelHeight: x.orders.sell9.pinHeight, cancelNonceId: x.orders.sell9.nonceId },
      },
    ],
  },
  {
    name: 's5-buy-through-pool-deposit-cancel',
    submitTo: 'ref',
    minedBy: 'ours',
    txs: async (x) => [
      {
        label: 'B buys DEMO for 2 WART at 0.5',
        from: 'B',
        type: 'limitSwap',
        fields: { asset: x.DEMO, isBuy: true, amount: W(2), limit: await x.price('0.5', 2, true) },
      },
      { label: 'A deposits 10 DEMO + 3 WART', from: 'A', type: 'liquidityDeposit', fields: { asset: x.DEMO, base: D(10), quote: W(3) } },
      {
        label: 'C cancels its sell at 8',
        from: 'C',
        type: 'cancelation',
        fields: { cancelHeight: x.orders.sell8.pinHeight, cancelNonceId: x.orders.sell8.nonceId },
      },
    ],
  },
  {
    name: 's6-cancel-withdraw-share-transfer',
    submitTo: 'ours',
    minedBy: 'ref',
    txs: async (x) => {
      const shares = await x.liquidity('A');
      return [
        // B's buy at 0.4 (s3), partly filled through the pool in s5, is canceled: with it open, later sells
        // made the reference abort (see s8).
        {
          label: 'B cancels its buy at 0.4',
          from: 'B',
          type: 'cancelation',
          fields: { cancelHeight: x.orders.buy04.pinHeight, cancelNonceId: x.orders.buy04.nonceId },
        },
        {
          label: `A withdraws 10% of its pool shares (${shares / 10n})`,
          from: 'A',
          type: 'liquidityWithdrawal',
          fields: { asset: x.DEMO, shares: shares / 10n },
        },
        {
          label: `A sends 5% of its pool shares (${shares / 20n}) to B`,
          from: 'A',
          type: 'tokenTransfer',
          fields: { asset: x.DEMO, isLiquidity: true, to: x.B, amount: shares / 20n },
        },
      ];
    },
  },
  {
    name: 's7-withdraw-share-transfer-sell',
    submitTo: 'ref',
    minedBy: 'ours',
    txs: async (x) => {
      const shares = await x.liquidity('A');
      return [
        {
          label: `A withdraws 10% of its pool shares (${shares / 10n})`,
          from: 'A',
          type: 'liquidityWithdrawal',
          fields: { asset: x.DEMO, shares: shares / 10n },
        },
        {
          label: `A sends 5% of its pool shares (${shares / 20n}) to C`,
          from: 'A',
          type: 'tokenTransfer',
          fields: { asset: x.DEMO, isLiquidity: true, to: x.C, amount: shares / 20n },
        },
        {
          label: 'C sells 30 DEMO at 0.05 (into the pool)',
          from: 'C',
          type: 'limitSwap',
          fields: { asset: x.DEMO, isBuy: false, amount: D(30), limit: await x.price('0.05', 2, false) },
        },
        { label: 'C sends 2 WART to B', from: 'C', type: 'coinTransfer', fields: { to: x.B, amount: W(2) } },
      ];
    },
  },
  {
    name: 's8-buy-through-pool',
    submitTo: 'ours',
    minedBy: 'ref',
    txs: async (x) => [
      {
        label: 'B buys DEMO for 1 WART at 0.6',
        from: 'B',
        type: 'limitSwap',
        fields: { asset: x.DEMO, isBuy: true, amount: W(1), limit: await x.price('0.6', 2, true) },
      },
      // Not recorded: with B's buy at 0.4 still partly open (no cancel in s6), a block holding 'A (or B)
      // sells 20 DEMO at 0.1' beside 'C buys DEMO for 1 WART at 0.01' or beside 'C sells 10 DEMO at 5' made the
      // reference abort on its own block (block_applier.cpp:322: Assertion `remaining == 0' failed).
    ],
  },
  {
    name: 's9-sell-rests',
    submitTo: 'ref',
    minedBy: 'ours',
    txs: async (x) => [
      {
        label: 'C sells 10 DEMO at 5 (rests)',
        from: 'C',
        type: 'limitSwap',
        fields: { asset: x.DEMO, isBuy: false, amount: D(10), limit: await x.price('5', 2, false) },
      },
    ],
  },
  { name: 's10-empty', submitTo: null, minedBy: 'ref', txs: () => [] },
];

// ---- mining
const blocks = []; // { height, hash, header, body, minedBy, step }
async function mineRef(address) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const t = await get(`${REF}/chain/mine/${address}`);
    if (t.code !== 0) throw new Error(`/chain/mine: ${JSON.stringify(t)}`);
    const h = Buffer.from(t.data.header, 'hex');
    for (let nonce = 0; nonce < 100; nonce++) {
      h.writeUInt32BE(nonce, 76);
      // The reference's POST /chain/append wants the body length-prefixed (mine.mjs).
      const r = await post(`${REF}/chain/append`, {
        height: t.data.height,
        header: h.toString('hex'),
        body: (t.data.body.length / 2).toString(16).padStart(8, '0') + t.data.body,
        worker: 'record',
      });
      if (r.json.code === 0) return { height: t.data.height, header: h.toString('hex'), body: t.data.body };
      if (nonce % 20 === 19) break;
    }
  }
  throw new Error('the reference mined no block');
}
async function mineOurs(address) {
  const r = await get(`${OURS}/debug/fakemine/${address}`);
  if (r.code !== 0) throw new Error(`fakemine: ${JSON.stringify(r)}`);
  const h = (await head(OURS)).height;
  const hd = (await get(`${OURS}/chain/block/${h}/header`)).data.header;
  const b = (await get(`${OURS}/chain/block/${h}/binary`)).data.bytes;
  return { height: h, header: hd.raw, body: b };
}
const dsha = (hexs) =>
  createHash('sha256')
    .update(createHash('sha256').update(Buffer.from(hexs, 'hex')).digest())
    .digest('hex');

// ---- main
if (!existsSync(REF_BIN)) {
  console.error(`no reference binary at ${REF_BIN}`);
  process.exit(2);
}
if (!existsSync(join(OUR_DIR, 'dist/node.mjs'))) {
  console.error(`no built node in ${OUR_DIR} (npm run build)`);
  process.exit(2);
}
const actions = []; // what the replay must do on our node, at the proxy time (ms since the connection's accept) it was done
let proxy, ref, ours;
const tConn = () => +(performance.now() - proxy.conns[0].t0).toFixed(1);
const result = { steps: [], problems: [] };
try {
  // A port found free can be taken by another program's outgoing connection before a node binds it:
  // then the next free block of ports.
  for (let attempt = 1; ; attempt++) {
    rmSync(join(WORK, 'ourdata'), { recursive: true, force: true });
    ours = start('ours', join(OUR_DIR, 'dist/node.mjs'), [
      '--regtest',
      `--datadir=${join(WORK, 'ourdata')}`,
      `--rpc=127.0.0.1:${P.ourRpc}`,
      `--bind=127.0.0.1:${P.ourP2p}`,
    ]);
    try {
      await waitUp(OURS, ours);
      break;
    } catch (e) {
      if (attempt >= 5) throw e;
      await stop(ours);
      await setPorts();
      log(`our node did not start (${e.message}); ports ${JSON.stringify(P)}`);
    }
  }
  // The proxy turns the reference away until it has run WARMUP_S: the reference throttles a peer whose
  // header requests re-fetch more heights than its slack, and the slack is its minutes of uptime
  // (p2p.md §3.8; ts/p2p/throttle.ts). A throttled peer's messages wait up to 20 s, longer than our
  // node's request timeout, so the session would stall at the first re-fetched header.
  let gateOpen = false;
  proxy = startProxy({ listenPort: P.proxy, targetPort: P.ourP2p, connector: 'ref', admit: () => gateOpen && proxy.conns.length === 0 });
  const home = join(WORK, 'refhome');
  mkdirSync(join(home, '.warthog'), { recursive: true });
  ref = start('ref', REF_BIN, ['--testnet', `--rpc=127.0.0.1:${P.refRpc}`, `--bind=127.0.0.1:${P.refP2p}`, `--connect=127.0.0.1:${P.proxy}`], { HOME: home });
  const refStarted = Date.now();
  await waitUp(REF, ref);

  // keys
  const keys = {};
  for (const n of ['A', 'B', 'C']) {
    const privKey = createHash('sha256').update(`warthog exchange recording ${n}`).digest('hex');
    const w = (await get(`${REF}/tools/wallet/from_privkey/${privKey}`)).data;
    keys[n] = { address: w.address, privKey, pubKey: w.pubKey };
  }
  log(
    `keys: ${Object.entries(keys)
      .map(([n, k]) => `${n} ${k.address}`)
      .join(', ')}`,
  );
  const answersByHeight = new Map();
  const assets = {}; // name -> { hash, decimals }
  const txsAll = [];

  // Account history (the bulk of the answers) only where it changes by more than a reward: for an account
  // that signed or received a transaction of the block, and for every account at the first, the last
  // initial and the final height.
  async function snapshot(h, txHashes, historyOf = Object.keys(keys)) {
    const paths = ['/chain/head', `/chain/block/${h}`, '/transaction/mempool'];
    for (const n of Object.keys(keys)) {
      const a = keys[n].address;
      paths.push(`/account/${a}/wart_balance`, `/account/${a}/open_orders`);
      if (historyOf.includes(n)) paths.push(`/account/${a}/history/9223372036854775807`);
      for (const x of Object.values(assets)) paths.push(`/account/${a}/balance/asset:${x.hash}`, `/account/${a}/balance/liquidity:${x.hash}`);
    }
    for (const x of Object.values(assets)) paths.push(`/dex/market/${x.hash}`, `/asset/lookup/${x.hash}`);
    for (const t of txHashes) paths.push(`/transaction/lookup/${t}`);
    const out = [];
    for (const p of paths) out.push([p, (await getText(REF + p)).trim()]);
    answersByHeight.set(h, out);
    const mp = JSON.parse(out[2][1]);
    if (mp.code !== 0 || (Array.isArray(mp.data) ? mp.data.length : Object.keys(mp.data ?? {}).length)) {
      // An empty mempool is what the chain replay (no mempool) can compare with.
      if (JSON.stringify(mp.data).length > 2) result.problems.push(`height ${h}: reference mempool not empty: ${out[2][1].slice(0, 200)}`);
    }
  }
  // An action's time is when its HTTP call started: every reference unit recorded later is replayed after it.
  async function mine(by, step) {
    const t0 = gateOpen ? tConn() : null;
    const m = by === 'ref' ? await mineRef(keys.A.address) : await mineOurs(keys.A.address);
    if (by === 'ours') actions.push({ t_ms: t0, kind: 'ourBlock', height: m.height });
    if (gateOpen) await sameHead(m.height);
    const hash = dsha(m.header);
    const refHash = (await head(REF)).hash;
    if (hash !== refHash) throw new Error(`block ${m.height}: header hashes to ${hash}, the reference has ${refHash}`);
    blocks.push({ height: m.height, hash, header: m.header, body: m.body, minedBy: by, step });
    log(`block ${m.height} mined by ${by} (${step}); both nodes at ${hash.slice(0, 16)}`);
    return m.height;
  }

  // 1. blocks for coin and a non-genesis pin, mined by the reference while it is alone (our node downloads
  // them when the proxy lets the reference in)
  for (let i = 1; i <= INITIAL.ref; i++) await snapshot(await mine('ref', 'initial'), [], i === 1 || i === INITIAL.ref ? undefined : []);
  const warm = refStarted + WARMUP_S * 1000 - Date.now();
  log(`waiting ${Math.max(0, Math.round(warm / 1000))} s for the reference's uptime slack`);
  if (warm > 0) await sleep(warm);
  gateOpen = true;
  await until(
    'the reference connected through the proxy',
    async () => proxy.conns.length > 0 && transcript(proxy.conns[0]).messages.some((m) => m.type.code === 30 && m.dir === 'ours→ref'),
    120,
  );
  log('the reference is connected through the proxy');
  await sameHead(INITIAL.ref);
  for (let i = 0; i < INITIAL.ours; i++) await snapshot(await mine('ours', 'initial'), [], []);

  // 2. the scenario
  const ctx = {
    A: keys.A.address,
    B: keys.B.address,
    C: keys.C.address,
    orders: {},
    async price(p, decimals, isBuy) {
      const j = await get(`${REF}/tools/parse_price/${p}/${decimals}`);
      if (j.code !== 0) throw new Error(`parse_price ${p}: ${JSON.stringify(j)}`);
      return (isBuy ? j.data.floor : j.data.ceil).hex;
    },
    async liquidity(n) {
      const j = await get(`${REF}/account/${keys[n].address}/balance/liquidity:${assets.DEMO.hash}`);
      return BigInt(j.data.balance.total.u64);
    },
  };
  for (const step of SCENARIO) {
    const pin = await head(REF);
    const specs = await step.txs(ctx);
    const txs = [];
    for (const s of specs) {
      const t = {
        step: step.name,
        label: s.label,
        from: s.from,
        type: s.type,
        fields: s.fields,
        pinHeight: pin.pinHeight,
        pinHash: pin.pinHash,
        nonceId: nextNonce++,
        feeE8: FEE_E8,
      };
      const sb = signingBytes(t);
      t.signingBytes = sb.toString('hex');
      t.txHash = createHash('sha256').update(sb).digest('hex');
      t.signature65 = await signDigest(new Uint8Array(Buffer.from(t.txHash, 'hex')), keys[s.from].privKey);
      const b = bodies(t);
      t.refBody = b.ref;
      t.oursBody = b.ours;
      t.submittedTo = step.submitTo;
      const url = step.submitTo === 'ref' ? REF : OURS;
      const tAdd = tConn();
      const r = await post(`${url}/transaction/add`, step.submitTo === 'ref' ? b.ref : b.ours);
      if (step.submitTo === 'ours') actions.push({ t_ms: tAdd, kind: 'submitOurs', txHash: t.txHash });
      t.addReply = r.json;
      if (r.json.code !== 0) throw new Error(`${s.label}: ${step.submitTo} refused: ${r.text}`);
      const echoed = r.json.data?.txHash ?? r.json.txHash;
      if (echoed && echoed !== t.txHash) throw new Error(`${s.label}: ${step.submitTo} says hash ${echoed}, signed ${t.txHash}`);
      if (s.asset) assets[s.asset] = { name: s.asset, hash: t.txHash, decimals: s.fields.decimals };
      if (s.order) ctx.orders[s.order] = { pinHeight: t.pinHeight, nonceId: t.nonceId, txHash: t.txHash };
      txs.push(t);
      log(`${step.name}: ${s.label} -> ${step.submitTo} ${t.txHash.slice(0, 16)}`);
    }
    for (const a of Object.values(assets)) ctx[a.name] = a.hash;
    // relay: the other node must hold them all (Txrep) before the other node mines
    const other = step.submitTo === 'ref' ? OURS : REF;
    const t0 = performance.now();
    if (txs.length) {
      try {
        await until(
          `${step.name}: relay to ${step.submitTo === 'ref' ? 'ours' : 'the reference'}`,
          async () => {
            const text = await getText(other + '/transaction/mempool');
            return txs.every((t) => text.includes(t.txHash));
          },
          60,
        );
      } catch (e) {
        // Why: the missing ones submitted to the other node's HTTP API directly.
        const text = await getText(other + '/transaction/mempool');
        const why = [];
        for (const t of txs.filter((x) => !text.includes(x.txHash)))
          why.push(`${t.label}: ${(await post(`${other}/transaction/add`, step.submitTo === 'ref' ? t.oursBody : t.refBody)).text}`);
        throw new Error(`${e.message}; submitted directly: ${why.join('; ')}`);
      }
    }
    const relayMs = Math.round(performance.now() - t0);
    const h = await mine(step.minedBy, step.name);
    const blockText = await getText(`${REF}/chain/block/${h}`);
    const missing = txs.filter((t) => !blockText.includes(t.txHash)).map((t) => t.label);
    if (missing.length) result.problems.push(`${step.name}: block ${h} lacks ${missing.join('; ')}`);
    for (const t of txs) t.minedIn = missing.includes(t.label) ? null : h;
    txsAll.push(...txs);
    const involved = Object.keys(keys).filter((n) => txs.some((t) => t.from === n || t.fields.to === keys[n].address));
    await snapshot(
      h,
      txs.map((t) => t.txHash),
      step === SCENARIO[SCENARIO.length - 1] ? undefined : involved,
    );
    result.steps.push({ step: step.name, submittedTo: step.submitTo, minedBy: step.minedBy, height: h, relayMs, types: [...new Set(txs.map((t) => t.type))] });
  }
  // every transaction looked up at the end
  const lastH = blocks[blocks.length - 1].height;
  const last = answersByHeight.get(lastH);
  for (const t of txsAll) {
    const p = `/transaction/lookup/${t.txHash}`;
    if (!last.some(([q]) => q === p)) last.push([p, (await getText(REF + p)).trim()]);
  }
  await sleep(12000); // one more ping round, so the session ends quietly
  const refOffenses = await getText(`${REF}/peers/offenses/1`).catch((e) => String(e));
  const refPeers = await getText(`${REF}/peers/connected`).catch((e) => String(e));

  // ---- write
  await stop(ref);
  await stop(ours);
  await proxy.close();
  const conns = proxy.conns.map(transcript);
  const chain = blocks.map(({ height, hash, header, body }) => ({ height, hash, header, body }));
  const keyOut = Object.fromEntries(Object.entries(keys).map(([n, k]) => [n, k]));
  const txOut = txsAll.map(
    ({
      step,
      label,
      from,
      type,
      fields,
      pinHeight,
      pinHash,
      nonceId,
      feeE8,
      txHash,
      signature65,
      submittedTo,
      minedIn,
      refBody,
      oursBody,
      signingBytes: sb,
    }) => ({
      step,
      label,
      from,
      type,
      submittedTo,
      minedIn,
      txHash,
      pinHeight,
      pinHash,
      nonceId,
      feeE8: String(feeE8),
      signature65,
      signingBytes: sb,
      fields: JSON.parse(JSON.stringify(fields, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))),
      refBody,
      oursBody,
    }),
  );
  const blockInfo = blocks.map(({ height, hash, minedBy, step }) => ({ height, hash, minedBy, step }));
  const doc = {
    reference: 'ref-0.10.3',
    referenceBuild: 'warthog-network/core defi 58031328 (v0.10.3), built with shims/ and regtest.patch; run with --testnet',
    ours: 'this project, node --regtest',
    scenario: 'exchange',
    description:
      'Both nodes start empty; the reference dials ours through the proxy (one connection). The reference mines 1-32 (before it connects), then each step of result.steps submits its transactions to one node (Txrep to the other) and the other node mines the block (Blockrep back). Every exchange type crosses in Txrep and Blockrep both ways. actions: when (ms since the connection was accepted) our node mined a block (ourBlock) or had a transaction submitted (submitOurs); a replay does them before the first reference unit recorded after that time.',
    recordedAt: new Date().toISOString().slice(0, 10),
    network: { magic: 'REGTEST GRUNT? / REGTEST GRUNT!', refListenPort: P.refP2p, oursListenPort: P.ourP2p, proxyPort: P.proxy },
    connections: conns,
    chain: { blocks: chain, keys: keyOut },
    blocks: blockInfo,
    assets,
    transactions: txOut,
    actions,
    result: { steps: result.steps, problems: result.problems, refOffenses, refPeers },
  };
  const s = JSON.stringify(doc, null, 1);
  if (/\/w[o]rk\/|\/t[m]p\//.test(s)) throw new Error('machine path in the transcript');
  mkdirSync(join(OUT, 'p2p'), { recursive: true });
  writeFileSync(join(OUT, 'p2p/ref-0.10.3-exchange.json'), s);
  const dir = join(OUT, 'reference-0.10.3-exchange');
  rmSync(join(dir, 'answers'), { recursive: true, force: true });
  mkdirSync(join(dir, 'answers'), { recursive: true });
  writeFileSync(
    join(dir, 'chain.json'),
    JSON.stringify(
      {
        keys: keyOut,
        assets,
        blocks: blocks.map(({ height, hash, header, body, minedBy, step }) => ({ height, hash, minedBy, step, header, body })),
        transactions: txOut,
      },
      null,
      1,
    ),
  );
  for (const [h, list] of answersByHeight) {
    // the reference's answer texts verbatim (exact u64 values), one per line
    const text = `{"height":${h},"answers":{\n` + list.map(([p, t]) => ` ${JSON.stringify(p)}: ${t}`).join(',\n') + '\n}}\n';
    JSON.parse(text);
    writeFileSync(join(dir, 'answers', `h${String(h).padStart(3, '0')}.json`), text);
  }
  // summary: which types crossed where
  const conn = conns[0];
  const txrep = { 'ref→ours': new Set(), 'ours→ref': new Set() };
  for (const m of conn.messages)
    if (m.type.code === 31)
      for (const e of m.decoded.entries ?? [])
        if (e?.kind)
          txrep[m.dir].add(
            e.kind === 'limitSwap'
              ? e.isBuy
                ? 'limitSwap buy'
                : 'limitSwap sell'
              : e.kind === 'tokenTransfer' && e.isLiquidity
                ? 'tokenTransfer (pool shares)'
                : e.kind,
          );
  const byHeight = new Map(txsAll.filter((t) => t.minedIn).map((t) => [t.minedIn, []]));
  for (const t of txsAll)
    if (t.minedIn)
      byHeight
        .get(t.minedIn)
        .push(
          t.type === 'limitSwap'
            ? t.fields.isBuy
              ? 'limitSwap buy'
              : 'limitSwap sell'
            : t.type === 'tokenTransfer' && t.fields.isLiquidity
              ? 'tokenTransfer (pool shares)'
              : t.type,
        );
  const reqs = new Map(conn.messages.filter((m) => m.type.code === 10).map((m) => [`${m.dir}:${m.decoded.nonce}`, m.decoded]));
  const blockrep = { 'ref→ours': new Set(), 'ours→ref': new Set() };
  const blockrepHeights = { 'ref→ours': [], 'ours→ref': [] };
  for (const m of conn.messages.filter((x) => x.type.code === 11)) {
    const back = m.dir === 'ref→ours' ? 'ours→ref' : 'ref→ours';
    const q = reqs.get(`${back}:${m.decoded.nonce}`);
    if (!q) continue;
    for (let h = q.first; h <= q.last; h++) {
      blockrepHeights[m.dir].push(h);
      for (const k of byHeight.get(h) ?? []) blockrep[m.dir].add(k);
    }
  }
  const summary = {
    connections: conns.length,
    messages: conn.messages.length,
    txrep: Object.fromEntries(Object.entries(txrep).map(([k, v]) => [k, [...v].sort()])),
    blockrep: Object.fromEntries(Object.entries(blockrep).map(([k, v]) => [k, [...v].sort()])),
    blockrepHeights,
    steps: result.steps,
    problems: result.problems,
    closeEvents: conns.map((c) => c.closeEvents),
  };
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 1));
  console.log(JSON.stringify(summary, null, 1));
  log(`written: ${join(OUT, 'p2p/ref-0.10.3-exchange.json')}, ${dir}; logs in ${WORK}`);
} catch (e) {
  log(`FAILED: ${e.stack ?? e}`);
  await stop(ref);
  await stop(ours);
  if (proxy) await proxy.close();
  if (proxy) writeFileSync(join(WORK, 'transcript-of-failed-run.json'), JSON.stringify({ connections: proxy.conns.map(transcript), actions, blocks }, null, 1));
  console.log(`logs in ${WORK}`);
  process.exit(1);
}
process.exit(result.problems.length ? 1 : 0);
