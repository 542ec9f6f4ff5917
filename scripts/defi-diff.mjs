#!/usr/bin/env node
// Exchange differential against the reference node 0.10.3 (its regtest build; README, "Against the reference node"):
// our node (`--api=0.10`) and the reference run one regtest chain, connected over P2P on loopback.
// A seeded random scenario of all seven transaction types, signed here with the project's own
// signing code (ts/core, bundled at start with esbuild), is submitted to either node's
// `POST /transaction/add` at random (so relay runs both ways); blocks are mined by our node
// (`/debug/fakemine/:address`, or its `/chain/mine` + `/chain/append`) or by the reference
// (`/chain/mine` + `/chain/append`, as the reference tools' mine.mjs) and the other follows.
// After every block both nodes are asked the same questions and the answers compared with keys
// sorted: head and hashrate, the block, lookups of its transactions and of earlier orders, every
// account's balances (coin, each asset, each pool's shares: total, locked, mempool), open orders,
// account mempool and history, each market, asset and richlist, the mempool and the transaction-id
// cache. Before every block the pending side is compared too (mempool balances, lookups of the
// pending transactions); a transaction one node refuses must be refused by the other with the same
// code. The scenario keeps out of the states in which the reference aborts (see generate()).
// A difference is printed as `DIFF <route> <json path>` with both values; differences that are a
// documented print defect of the reference's JSON (table KNOWN below, each naming its line in
// docs/reference-differences.md) are counted as "known". Ends with one SUMMARY line; exit 0 when no
// difference was found and every scenario kind was covered.
//
// Usage: node scripts/defi-diff.mjs [--seed N] [--txs N] [--direction ours|ref|both] [--accounts N]
//          [--ref PATH] [--port-base P] [--keep] [--verbose] [--brief] [--hold]   (--help explains them)
// Needs `npm run build` (dist/node.mjs) and the reference binary (default
// $TMPDIR/warthog-ref/regtest/build/src/node/wart-node, or $REF_BIN). Loopback only.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Num, big, leafDiffs, numOf, parseJson, sortedJson } from './lib/exact-json.mjs';
import { locateKnown } from './lib/mainnet-compare.mjs';
import { Differential, differentialOptions, prefixed, requireFiles, seededRandom } from './lib/nodes.mjs';
import { defiScenario } from './lib/defi-scenario.mjs';
import { keyOf, loadSigner, requestBody } from './lib/transactions.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUR_DIR = resolve(process.env.OUR_DIR ?? join(HERE, '..'));
const USAGE = `usage: node scripts/defi-diff.mjs [options]
  --seed N              scenario seed (default: random, printed)
  --txs N               transactions to get into blocks (default 60)
  --direction D         who mines: ours (the reference follows), ref (ours follows) or both (default both)
  --accounts N          keyed accounts, at least 4 (default 5)
  --ref PATH            the reference binary (default $REF_BIN or $TMPDIR/warthog-ref/regtest/build/src/node/wart-node)
  --port-base P         loopback ports P+1..P+4 (default random in 41000..41990; a node moves to other
                        ports of 41000..41999 when one of its ports is still held by a socket)
  --keep                keep the work folder (kept anyway when a difference was found)
  --verbose             also print every transaction and block
  --brief               print only the first 3 differences of each kind (route and JSON path); all are counted
  --hold                at the end keep both nodes running (for questions by hand) until Ctrl-C
`;
const opt = differentialOptions(USAGE, { direction: { type: 'string' } });
const SEED = opt.seed === undefined ? (Math.random() * 2 ** 31) >>> 0 : Number(opt.seed);
const TXS = Number(opt.txs ?? 60);
const DIRECTION = opt.direction ?? 'both';
const N_ACCOUNTS = Number(opt.accounts ?? 5);
const REF_BIN = opt.ref ?? process.env.REF_BIN ?? join(process.env.TMPDIR ?? '/tmp', 'warthog-ref/regtest/build/src/node/wart-node');
const PORT_BASE = Number(opt['port-base'] ?? 41000 + 10 * Math.floor(Math.random() * 99));
const VERBOSE = opt.verbose === true;
if (!Number.isSafeInteger(SEED) || !(TXS > 0) || !['ours', 'ref', 'both'].includes(DIRECTION) || !(N_ACCOUNTS >= 4) || !Number.isInteger(PORT_BASE)) {
  process.stderr.write(USAGE);
  process.exit(2);
}
requireFiles('defi-diff', [
  [REF_BIN, 'the reference binary (--ref)'],
  [join(OUR_DIR, 'dist/node.mjs'), 'dist/node.mjs (npm run build)'],
]);

// ---------------------------------------------------------------------------------------------
// Known print defects of the reference's JSON. Each names the line of docs/reference-differences.md
// that describes it (found by its `tag`; the runner stops if the document lacks it). A matcher sees
// one differing leaf: { route, path (JSON path), ours, ref (texts), oursDoc, refDoc (parsed answers) }
// and must only accept a difference in how a value is printed, never in the value itself.
const DOC = 'docs/reference-differences.md';
/** The steps of a JSON path `$.a.b[2].c`. */
const stepsOf = (path) => (path.slice(1).match(/\.[A-Za-z0-9_]+|\[\d+\]/g) ?? []).map((x) => (x[0] === '.' ? x.slice(1) : Number(x.slice(1, -1))));
/** The values along a path: [root, after step 1, …, the leaf]. */
function along(doc, path) {
  const out = [doc];
  let v = doc;
  for (const k of stepsOf(path)) {
    v = v?.[k];
    out.push(v);
  }
  return out;
}
const parentPath = (path) => path.replace(/(\.[A-Za-z0-9_]+|\[\d+\])$/, '');
const isAmount = (o) => o && typeof o === 'object' && o.u64 instanceof Num && o.decimals instanceof Num && typeof o.str === 'string';
/** For a leaf `….str` or `….decimals` of a token amount: both amounts, when their u64 values are equal. */
function sameAmount(c) {
  if (!/\.(str|decimals)$/.test(c.path)) return null;
  const o = along(c.oursDoc, parentPath(c.path)).pop(),
    r = along(c.refDoc, parentPath(c.path)).pop();
  return isAmount(o) && isAmount(r) && o.u64.t === r.u64.t ? { o, r } : null;
}
/** The decimals of the asset nearest to the leaf (its order's, transaction's or market's asset). */
function assetDecimalsNear(doc, path) {
  for (const o of along(doc, path).reverse()) {
    if (!o || typeof o !== 'object') continue;
    for (const a of [o.baseAsset, o.asset, o.data?.baseAsset, o.data?.asset, o.transaction?.data?.baseAsset, o.transaction?.data?.asset]) {
      if (a && a.decimals instanceof Num) return Number(a.decimals.t);
    }
  }
  return null;
}
/** Ours in 8 decimals, the reference in the asset's. */
const assetDecimalsInstead = (c) => {
  const p = sameAmount(c);
  return p !== null && p.o.decimals.t === '8' && Number(p.r.decimals.t) === assetDecimalsNear(c.refDoc, c.path) && p.r.decimals.t !== '8';
};
/** The transaction object (`{transaction: {data, …}}`) the leaf is inside, in `doc`. */
const txAround = (doc, path) =>
  along(doc, path)
    .reverse()
    .find((o) => o && typeof o === 'object' && o.transaction?.data);
const KNOWN = [
  {
    id: 'buy-amounts',
    tag: '**buy-amounts**',
    match: (c) =>
      /(wartToAssetSwaps\[\d+\]\.(amount|filled)|\.processed\.remaining)\.(str|decimals)$/.test(c.path) &&
      (/wartToAssetSwaps/.test(c.path) || txAround(c.oursDoc, c.path)?.transaction.data.buy === true) &&
      assetDecimalsInstead(c),
  },
  {
    id: 'uninitialised-remaining',
    tag: '**uninitialised-remaining**',
    match: (c) => /\.processed\.remaining\.(str|u64|decimals)$/.test(c.path) && along(c.refDoc, parentPath(c.path)).pop()?.str === '',
  },
  {
    id: 'pending-remaining',
    tag: '**pending-remaining**',
    match: (c) =>
      c.route.startsWith('/transaction/lookup/') &&
      c.path === '$.data.transaction.processed' &&
      c.ours === 'null' &&
      c.refDoc.data?.mined === null &&
      c.refDoc.data?.transaction?.processed?.remaining?.u64?.t === '0',
  },
  {
    id: 'share-transfers',
    tag: '**share-transfers**',
    match: (c) => {
      const t = txAround(c.oursDoc, c.path);
      if (t?.transaction.data.isLiquidity !== true || !/\.transaction\.data\.(isLiquidity|tokenSpec|amount\.str|amount\.decimals)$/.test(c.path)) return false;
      if (c.path.endsWith('.isLiquidity')) return c.ours === 'true' && c.ref === 'false';
      if (c.path.endsWith('.tokenSpec')) return /^"liquidity:[0-9a-f]{64}"$/.test(c.ours) && c.ref === c.ours.replace('liquidity:', 'asset:');
      return assetDecimalsInstead(c);
    },
  },
  {
    id: 'share-amounts',
    tag: '**share-amounts**',
    match: (c) => /\.sharesReceived\.(str|decimals)$/.test(c.path) && assetDecimalsInstead(c),
  },
  {
    id: 'early-hashrate',
    tag: '**early-hashrate**',
    match: (c) =>
      ((c.route === '/chain/head' && c.path === '$.data.chainHead.hashrate') || (/^\/chain\/hashrate\/\d+$/.test(c.route) && c.path === '$.data.estimate')) &&
      chainHeight <= 720 &&
      /^\d+$/.test(c.ours) &&
      /^\d+$/.test(c.ref) &&
      BigInt(c.ref) > BigInt(c.ours),
  },
  {
    id: 'zero-balance-decimals',
    tag: '**zero-balance-decimals**',
    match: (c) =>
      /^\/account\/[^/]+\/balance\//.test(c.route) &&
      c.path.endsWith('.decimals') &&
      c.ref === '0' &&
      along(c.oursDoc, parentPath(c.path)).pop()?.u64?.t === '0' &&
      along(c.refDoc, parentPath(c.path)).pop()?.u64?.t === '0',
  },
];

// ---------------------------------------------------------------------------------------------
// The run: work folder, children, logging, the count of differences (scripts/lib/nodes.mjs).
const routeKeyOf = (path) => path.replace(/[0-9a-f]{48,64}/g, ':x').replace(/\/\d+/g, '/:n');
const run = new Differential({
  name: 'defi-diff',
  verbose: VERBOSE,
  brief: opt.brief === true,
  known: KNOWN,
  keep: opt.keep === true,
  hold: opt.hold === true,
  shortAt: 400,
  routeKey: routeKeyOf,
});
const work = run.work;
const say = (line) => run.say(line);
const vsay = (line) => run.vsay(line);

// ---------------------------------------------------------------------------------------------
// HTTP.
const OURS = { name: 'ours', rpc: `127.0.0.1:${PORT_BASE + 1}`, p2p: `127.0.0.1:${PORT_BASE + 2}` };
const REF = { name: 'ref', rpc: `127.0.0.1:${PORT_BASE + 3}`, p2p: `127.0.0.1:${PORT_BASE + 4}` };
const NODES = [OURS, REF];
const other = (n) => (n === OURS ? REF : OURS);
/** An answer with its JSON parsed (exact numbers), or `{$unparsed}` / `{$error}`. */
async function http(node, method, path, body) {
  const a = await run.answer(node, method, path, body);
  if (a.status === 0) return { status: 0, text: String(a.error), json: { $error: a.text } };
  let json;
  try {
    json = parseJson(a.text);
  } catch {
    json = { $unparsed: a.text.slice(0, 300) };
  }
  return { status: a.status, text: a.text, json };
}
const get = (node, path) => http(node, 'GET', path);
const codeOf = (j) => (j && j.code instanceof Num ? Number(j.code.t) : null);
const dataOf = (r) => (codeOf(r.json) === 0 ? r.json.data : undefined);

// ---------------------------------------------------------------------------------------------
// Seeded randomness (xorshift128+ seeded through SHA-256).
const random = seededRandom(`defi-diff:${SEED}`);
const { next64, rint, pick, chance } = random;

// ---------------------------------------------------------------------------------------------
// Differences.
/**
 * `/transaction/mempool` lists by fee, highest first; among equal fees the reference lists the
 * newest arrival first, and arrival order differs between two nodes (each gets the other's
 * transactions later): equal-fee runs are compared as sets (ordered by hash), the fee order itself
 * is checked on each side.
 */
function feeOrdered(label, path, node, doc) {
  const list = doc?.data;
  if (!Array.isArray(list)) return doc;
  const fee = (e) => big(e.transaction?.signedCommon?.fee?.E8);
  for (let i = 1; i < list.length; i++) {
    if (fee(list[i]) > fee(list[i - 1])) {
      run.report(label, path, {
        path: `$.data[${i}] (fee order)`,
        ours: node === OURS ? 'a higher fee after a lower one' : 'fee descending',
        ref: node === REF ? 'a higher fee after a lower one' : 'fee descending',
      });
      break;
    }
  }
  const sorted = [...list].sort((a, b) =>
    fee(b) > fee(a) ? 1 : fee(b) < fee(a) ? -1 : String(a.transaction?.hash).localeCompare(String(b.transaction?.hash)),
  );
  return { ...doc, data: sorted };
}
/**
 * `/account/richlist/:tokenspec` lists by balance, largest first; equal balances come in an order
 * the API leaves open (http-api-details.md §7.4). The reference's is its balance rows' ids (the
 * order in which accounts first held the token), which our ledger does not record
 * (docs/reference-differences.md, "Left open"): equal-balance runs are compared as sets.
 */
function balanceOrdered(label, path, node, doc) {
  const list = doc?.data?.richlist;
  if (!Array.isArray(list)) return doc;
  const total = (e) => big(e.balance?.u64);
  for (let i = 1; i < list.length; i++) {
    if (total(list[i]) > total(list[i - 1])) {
      run.report(label, path, {
        path: `$.data.richlist[${i}] (balance order)`,
        ours: node === OURS ? 'a larger balance after a smaller one' : 'descending',
        ref: node === REF ? 'a larger balance after a smaller one' : 'descending',
      });
      break;
    }
  }
  const sorted = [...list].sort((a, b) => (total(b) > total(a) ? 1 : total(b) < total(a) ? -1 : String(a.address).localeCompare(String(b.address))));
  return { ...doc, data: { ...doc.data, richlist: sorted } };
}
/** Compares one answer of both nodes; returns the parsed pair. */
async function compareRoute(label, path) {
  const [o, r] = await Promise.all([get(OURS, path), get(REF, path)]);
  run.comparisons++;
  if (path === '/transaction/mempool') {
    o.json = feeOrdered(label, path, OURS, o.json);
    r.json = feeOrdered(label, path, REF, r.json);
  }
  if (path.startsWith('/account/richlist/')) {
    o.json = balanceOrdered(label, path, OURS, o.json);
    r.json = balanceOrdered(label, path, REF, r.json);
  }
  const leaves = [];
  if (codeOf(o.json) !== codeOf(r.json) || o.status !== r.status)
    leaves.push({ path: '$ (status, code)', ours: `HTTP ${o.status} ${o.text}`, ref: `HTTP ${r.status} ${r.text}` });
  else leafDiffs(o.json, r.json, '$', leaves);
  for (const d of leaves) {
    const k = KNOWN.find((e) => e.match({ route: path, ...d, oursDoc: o.json, refDoc: r.json }));
    if (k) {
      run.countKnown(k.id);
      continue;
    }
    run.report(label, path, d);
  }
  return [o, r];
}

// ---------------------------------------------------------------------------------------------
// Nodes.
const head = (node) => run.head(node);
const waitSynced = () => run.waitSynced(OURS, REF);

/**
 * Mines one block on `node` with `/chain/mine` + `/chain/append`; returns the append answer. The
 * reference's append parses the body as u32 length + bytes while its template gives the raw body
 * (mine.mjs in the reference tools): a plain body refused with code 89 is sent again prefixed.
 */
async function mineByTemplate(node, address) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const t = dataOf(await get(node, `/chain/mine/${address}`));
    if (!t) throw new Error(`${node.name} /chain/mine failed`);
    const header = Buffer.from(t.header, 'hex');
    for (let nonce = 0; nonce < 40; nonce++) {
      header.writeUInt32BE((nonce + attempt * 1000) >>> 0, 76);
      const r = await http(
        node,
        'POST',
        '/chain/append',
        JSON.stringify({ height: numOf(t.height), header: header.toString('hex'), body: node.prefixBody ? prefixed(t.body) : t.body, worker: 'defi-diff' }),
      );
      if (codeOf(r.json) === 0) return r;
      if (codeOf(r.json) === 89 && !node.prefixBody) {
        node.prefixBody = true;
        nonce--;
        continue;
      }
      if (codeOf(r.json) === 89) throw new Error(`${node.name} refused its own template body: ${r.text}`);
    }
  }
  throw new Error(`${node.name}: no block appended after 800 nonces`);
}
const appendAnswers = new Map();
/** Mines one block paying `address`; `how` is 'ours-fakemine', 'ours-template' or 'ref-template'. */
async function mine(how, address) {
  if (how === 'ours-fakemine') {
    const r = await get(OURS, `/debug/fakemine/${address}`);
    if (codeOf(r.json) !== 0) throw new Error(`our fakemine failed: ${r.text}`);
    return;
  }
  const node = how === 'ours-template' ? OURS : REF;
  const r = await mineByTemplate(node, address);
  appendAnswers.set(node.name, r.text);
}
function minerFor() {
  if (DIRECTION === 'ours') return chance(0.8) ? 'ours-fakemine' : 'ours-template';
  if (DIRECTION === 'ref') return 'ref-template';
  return chance(0.5) ? 'ref-template' : chance(0.7) ? 'ours-fakemine' : 'ours-template';
}

// ---------------------------------------------------------------------------------------------
// The scenario.
let S; // the signing module (scripts/lib/transactions.mjs loadSigner)
const accounts = [];
const assets = []; // { hash, name, decimals, supply, rows }
const sent = new Map(); // txHash → { kind, type, from, pinHeight, nonceId, node, mined, ... }
// What the generator reads and builds, and which kinds it has covered (scripts/lib/defi-scenario.mjs).
const { coverage, snapshot, generate } = defiScenario({ accounts, assets, sent, random, seed: SEED, assetNameBytes: (name) => S.assetNameBytes(name) });
const minedByType = {};
let refusedSame = 0;
let blocks = 0;
let chainHeight = 0; // the height both nodes agree on, after the last block

/** Signs and submits one generated transaction to a random node; on refusal asks the other too. */
async function submit(t, pins) {
  const node = chance(0.5) ? OURS : REF;
  const pin = pins[node.name];
  const nonceId = Number(next64() & 0xffffffffn);
  const feeCode = pins.feeCode + (chance(0.3) ? rint(1, 30) : 0);
  const feeE8 = S.fee16Decode(feeCode);
  const c = { pinHash: Buffer.from(pin.pinHash, 'hex'), pinHeight: pin.pinHeight, nonceId, feeE8 };
  const hash = S.toHex(S.txHash(c, t.payload));
  const sig = S.signDigest(S.txHash(c, t.payload), accounts[t.from].sk);
  const body = requestBody(S, t.payload, c, sig);
  const r = await http(node, 'POST', '/transaction/add', body);
  const rec = { ...t, type: t.payload.type, hash, pinHeight: pin.pinHeight, nonceId, node: node.name, body, mined: null };
  vsay(`tx ${t.kind} ${hash.slice(0, 12)} from #${t.from} to ${node.name}: ${r.text.slice(0, 160)}`);
  if (codeOf(r.json) === 0) {
    const echoed = r.json.data?.txHash;
    if (echoed !== undefined && echoed !== hash) run.reportEvent('POST /transaction/add txHash', `${node.name} reports hash ${echoed} for ${t.kind} ${hash}`);
    sent.set(hash, rec);
    return rec;
  }
  // Refused: the other node must refuse it the same way (same error code).
  const r2 = await http(other(node), 'POST', '/transaction/add', body);
  run.comparisons++;
  if (codeOf(r2.json) !== codeOf(r.json)) {
    run.reportEvent(
      `POST /transaction/add ${t.kind} refused by one`,
      `POST /transaction/add (${t.kind} ${hash}) refused by ${node.name} only\n  ${node.name}: ${r.text}\n  ${other(node).name}: ${r2.text}\n  body: ${body}`,
    );
    if (codeOf(r2.json) === 0) {
      rec.node = other(node).name;
      sent.set(hash, rec);
      return rec;
    }
  } else {
    refusedSame++;
    vsay(`  refused by both: ${r.text} | ${r2.text}`);
  }
  return null;
}

/** Waits until both nodes know every accepted transaction (relay each way). */
const waitRelayed = (recs) =>
  run.waitRelayed(
    OURS,
    REF,
    recs,
    (t) => t.hash,
    (t) => [
      `relay ${t.node} → other`,
      `relay: ${t.kind} ${t.hash} submitted to ${t.node} did not reach ${other(NODES.find((x) => x.name === t.node)).name} in 20 s\n  body: ${t.body}`,
    ],
  );

/** Every question of the per-block comparison. */
function questions(height, blockTxs, pendingTxs) {
  const q = ['/chain/head', `/chain/block/${height}`, '/transaction/mempool', '/chain/txcache', '/chain/hashrate/2', '/chain/hashrate/100'];
  for (const h of blockTxs) q.push(`/transaction/lookup/${h}`);
  for (const t of pendingTxs) q.push(`/transaction/lookup/${t.hash}`);
  // Orders of earlier blocks: their `processed.remaining` is read when asked (the last 40).
  const earlier = [...sent.values()].filter((t) => t.type === 'limitSwap' && t.mined && t.mined < height && !blockTxs.includes(t.hash));
  for (const t of earlier.slice(-40)) q.push(`/transaction/lookup/${t.hash}`);
  for (const a of accounts) {
    q.push(
      `/account/${a.address}/wart_balance`,
      `/account/${a.address}/open_orders`,
      `/account/${a.address}/mempool`,
      `/account/${a.address}/history/1000000000`,
    );
    for (const as of assets)
      q.push(
        `/account/${a.address}/balance/asset:${as.hash}`,
        `/account/${a.address}/balance/liquidity:${as.hash}`,
        `/account/${a.address}/open_orders/${as.hash}`,
      );
  }
  for (const as of assets)
    q.push(`/dex/market/${as.hash}`, `/asset/lookup/${as.hash}`, `/account/richlist/asset:${as.hash}`, `/account/richlist/liquidity:${as.hash}`);
  return q;
}
async function compareAll(label, paths) {
  const queue = [...paths];
  await Promise.all(
    [0, 1, 2, 3].map(async () => {
      while (queue.length) await compareRoute(label, queue.shift());
    }),
  );
}
const probesDone = { n: 0 };
/** Answers about things that do not exist (error codes and texts). */
async function probes(label) {
  const fresh = S.formatAddress(
    createHash('sha256')
      .update(`defi-diff probe ${SEED} ${probesDone.n++}`)
      .digest()
      .subarray(0, 20),
  );
  const h = (await head(OURS)).height;
  const unknownHash = createHash('sha256').update(`unknown ${SEED}`).digest('hex');
  const paths = [
    `/account/${fresh}/open_orders`,
    `/account/${fresh}/wart_balance`,
    `/account/${fresh}/mempool`,
    `/account/${fresh}/history/1000000000`,
    `/account/${'0'.repeat(48)}/open_orders`,
    `/dex/market/${unknownHash}`,
    `/asset/lookup/${unknownHash}`,
    `/transaction/lookup/${unknownHash}`,
    `/chain/block/${h + 5}`,
    `/account/richlist/asset:${unknownHash}`,
  ];
  if (assets.length)
    paths.push(
      `/account/${fresh}/balance/asset:${assets[0].hash}`,
      `/account/${fresh}/balance/liquidity:${assets[0].hash}`,
      `/account/${fresh}/open_orders/${assets[0].hash}`,
    );
  await compareAll(label, paths);
}

/** After a block: which sent transactions it mined, by our lookup; coverage from the block. */
async function recordMined(height) {
  const blk = dataOf(await get(OURS, `/chain/block/${height}`));
  const hashes = [];
  let orders = 0;
  for (const [section, list] of Object.entries(blk?.body ?? {})) {
    if (!Array.isArray(list)) continue;
    for (const e of list) {
      const h = e.transaction?.hash;
      if (!h) continue;
      if (section !== 'match') hashes.push(h);
      if (section === 'limitSwap') orders++;
      if (section === 'match') {
        const d = e.transaction.data;
        if ((d.buySwaps?.length ?? 0) + (d.sellSwaps?.length ?? 0) > 0 && big(d.poolBefore.base.u64) !== big(d.poolAfter.base.u64)) coverage.crossPool++;
        if ((d.buySwaps?.length ?? 0) > 0 && (d.sellSwaps?.length ?? 0) > 0) coverage.crossBook++;
      }
      const t = sent.get(h);
      if (t && !t.mined) {
        t.mined = height;
        minedByType[t.type] = (minedByType[t.type] ?? 0) + 1;
        coverage[t.kind] = (coverage[t.kind] ?? 0) + 1;
        if (t.to !== undefined) accounts[t.to].known = true;
      }
    }
  }
  if (orders >= 2) coverage.ordersInOneBlock++;
  return hashes;
}
async function main() {
  say(`defi-diff: seed ${SEED}, ${TXS} transactions, direction ${DIRECTION}, ${N_ACCOUNTS} accounts, work ${work}`);
  S = await loadSigner(OUR_DIR, work);
  for (let i = 0; i < N_ACCOUNTS; i++) {
    const sk = keyOf(S, `defi-diff key ${SEED}`, i),
      raw = S.addressOfPrivateKey(sk);
    accounts.push({ sk, raw, address: S.formatAddress(raw), known: false });
  }
  vsay(`accounts: ${accounts.map((a, i) => `#${i} ${a.address}`).join(', ')}`);
  // The known-defect table names lines of the document.
  const docPath = join(OUR_DIR, DOC);
  const missing = locateKnown(existsSync(docPath) ? readFileSync(docPath, 'utf8') : '', KNOWN, DOC);
  if (missing.length) {
    console.error(`defi-diff: known entries ${missing.join(', ')} name tags ${DOC} lacks`);
    process.exit(2);
  }

  // The reference: its regtest build (`--testnet`), connected to ours, loopback only.
  await run.startBoth(OURS, REF, {
    ourBin: join(OUR_DIR, 'dist/node.mjs'),
    ourArgs: ['--regtest', '--api=0.10'],
    refBin: REF_BIN,
    portBase: PORT_BASE,
    lo: 41000,
    hi: 41999,
  });
  say(`defi-diff: ours RPC ${OURS.rpc} P2P ${OURS.p2p}; reference RPC ${REF.rpc} P2P ${REF.p2p}`);

  // Funding: rewards to all but the last account (it is created by a transfer).
  const afterBlock = async (label, pending = []) => {
    const synced = await waitSynced();
    if (synced.diverged) {
      run.reportEvent(
        'chain head',
        `chain: the nodes did not agree on a head within 60 s after ${label}: ours ${JSON.stringify(synced.ours)} ref ${JSON.stringify(synced.ref)}`,
      );
      return false;
    }
    blocks++;
    chainHeight = synced.height;
    const txs = await recordMined(synced.height);
    await compareAll(
      `after ${label} (height ${synced.height})`,
      questions(
        synced.height,
        txs,
        pending.filter((t) => !t.mined),
      ),
    );
    return true;
  };
  for (let i = 0; i < 2 * (N_ACCOUNTS - 1); i++) {
    const how = i === 0 ? 'ours-fakemine' : minerFor();
    await mine(how, accounts[i % (N_ACCOUNTS - 1)].address);
    accounts[i % (N_ACCOUNTS - 1)].known = true;
    if (!(await afterBlock(`funding block ${i + 1} (${how})`))) return finish();
  }
  await probes('probes at start');

  // Compare the append answers once each node has mined through /chain/append.
  let appendCompared = false;
  let round = 0;
  const minedTxs = () => [...sent.values()].filter((t) => t.mined).length;
  const covered = () => Object.values(coverage).every((v) => v > 0);
  // Until --txs transactions are in blocks and every kind occurred; at most 3 × --txs rounds.
  while ((minedTxs() < TXS || !covered()) && round < 3 * TXS) {
    round++;
    if (round % 10 === 0) {
      const missing = Object.entries(coverage)
        .filter(([, v]) => v === 0)
        .map(([k]) => k);
      say(
        `progress: round ${round}, height ${chainHeight}, ${minedTxs()} transactions in blocks, ${run.diffCount} differences${missing.length ? `, not yet: ${missing.join(' ')}` : ''}`,
      );
    }
    const pins = {};
    for (const node of NODES) pins[node.name] = await head(node);
    const minfee = dataOf(await get(OURS, '/transaction/minfee'));
    const minE8 = big(minfee?.minFee?.E8 ?? minfee?.E8 ?? 1000448);
    pins.feeCode = S.fee16Encode(minE8, 'up');
    const st = await snapshot(async (path) => dataOf(await get(OURS, path)));
    st.fee = S.fee16Decode(pins.feeCode + 30);
    const want = rint(1, 6);
    const batch = [];
    for (let k = 0; k < want; k++) {
      const t = generate(st, batch);
      if (t) batch.push(t);
    }
    const accepted = [];
    for (const t of batch) {
      const rec = await submit(t, pins);
      if (rec) accepted.push(rec);
    }
    await waitRelayed(accepted);
    // The pending side, before mining.
    const pending = [...sent.values()].filter((t) => !t.mined);
    const pre = ['/transaction/mempool'];
    for (const t of pending) pre.push(`/transaction/lookup/${t.hash}`);
    for (const a of accounts) {
      pre.push(`/account/${a.address}/wart_balance`, `/account/${a.address}/mempool`);
      for (const as of assets) pre.push(`/account/${a.address}/balance/asset:${as.hash}`, `/account/${a.address}/balance/liquidity:${as.hash}`);
    }
    await compareAll(`round ${round} before mining`, pre);
    const how = minerFor();
    const minerAcc = pick([...accounts.keys()].filter((k) => accounts[k].known)); // the last account is created by a transfer
    vsay(`round ${round}: ${batch.map((b) => b.kind).join(' ')}; mined by ${how}`);
    await mine(how, accounts[minerAcc].address);
    accounts[minerAcc].known = true;
    if (!(await afterBlock(`round ${round} (${batch.map((b) => b.kind).join(', ') || 'empty'}; ${how})`, pending))) break;
    // Newly created assets (their hash is the creating transaction's hash).
    for (const rec of sent.values()) {
      if (rec.kind !== 'assetCreate' || !rec.mined || assets.some((a) => a.hash === rec.hash)) continue;
      assets.push({ hash: rec.hash, name: rec.name, decimals: rec.decimals, supply: rec.supply, rows: new Set([rec.from]) });
      vsay(`asset ${rec.name} (${rec.decimals} decimals, supply ${rec.supply}): ${rec.hash}`);
    }
    if (!appendCompared && appendAnswers.has('ours') && appendAnswers.has('ref')) {
      appendCompared = true;
      run.comparisons++;
      const [o, r] = [appendAnswers.get('ours'), appendAnswers.get('ref')];
      vsay(`POST /chain/append success: ours ${o}, ref ${r}`);
      if (sortedJson(parseJson(o)) !== sortedJson(parseJson(r)))
        run.reportEvent('POST /chain/append success', `POST /chain/append success\n  ours: ${o}\n  ref:  ${r}`);
    }
  }
  await probes('probes at end');
  // The whole chain once more, block by block.
  const h = (await head(OURS)).height;
  const all = [];
  for (let i = 1; i <= h; i++) all.push(`/chain/block/${i}`);
  await compareAll('final walk', all);
  return finish();
}

function finish() {
  const t = (k) => minedByType[k] ?? 0;
  const cov = Object.entries(coverage)
    .filter(([, v]) => v === 0)
    .map(([k]) => k);
  const ok = run.diffCount === 0 && cov.length === 0;
  run.end(ok, () => {
    if (cov.length) say(`not covered: ${cov.join(', ')}`);
    const types =
      `wartTransfer=${t('coinTransfer')} assetCreation=${t('assetCreation')} tokenTransfer=${t('tokenTransfer')} (asset ${coverage.assetTransfer}, shares ${coverage.sharesTransfer}) ` +
      `limitSwap=${t('limitSwap')} (buy ${coverage.buy}, sell ${coverage.sell}) cancelation=${t('cancelation')} (resting ${coverage.cancelResting}, filled ${coverage.cancelFilled}) ` +
      `liquidityDeposit=${t('liquidityDeposit')} (first ${coverage.depositFirst}) liquidityWithdrawal=${t('liquidityWithdrawal')}`;
    say(
      `SUMMARY defi-diff seed=${SEED} direction=${DIRECTION} ${ok ? 'PASS' : 'FAIL'}: blocks=${blocks} txs=${Object.values(minedByType).reduce((a, b) => a + b, 0)} [${types}] refused-by-both=${refusedSame} comparisons=${run.comparisons} known=${run.knownCount} differences=${run.diffCount}${ok && !opt.keep ? '' : ` work=${work}`}`,
    );
  });
}

main().catch((e) => {
  say(`defi-diff: ${e.stack ?? e}`);
  run.diffCount++;
  finish();
});
