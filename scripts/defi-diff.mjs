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
import { loadProject } from './lib/project.mjs';
import { Num, big, leafDiffs, numOf, parseJson, sortedJson, writeJson } from './lib/exact-json.mjs';
import { Differential, differentialOptions, prefixed, requireFiles, seededRandom } from './lib/nodes.mjs';

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
// Signing with the project's code: a small entry over ts/core and ts/kernel, bundled with the
// checkout's own esbuild.
const loadSigner = () =>
  loadProject(
    OUR_DIR,
    [
      "export { txHash, assetNameBytes } from './ts/core/transaction.ts';",
      "export { signDigest, addressOfPrivateKey, isValidPrivateKey } from './ts/core/keys.ts';",
      "export { formatAddress } from './ts/core/address.ts';",
      "export { toHex, fromHexExact } from './ts/core/hex.ts';",
      "export { initKernel } from './ts/kernel/instance.ts';",
      "export { fee16Decode, fee16Encode } from './ts/kernel/fee16.ts';",
    ],
    join(work, 'sign.mjs'),
  );

// ---------------------------------------------------------------------------------------------
// Seeded randomness (xorshift128+ seeded through SHA-256).
const { next64, rnd, rint, pick, chance, rbig } = seededRandom(`defi-diff:${SEED}`);
const I63 = (1n << 63n) - 1n;
/** A random share in [lo, hi] (fractions) of x. */
const part = (x, lo, hi) => (x * BigInt(Math.floor((lo + rnd() * (hi - lo)) * 1e6))) / 1000000n;

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
let S; // the signing module
const accounts = [];
const assets = []; // { hash, name, decimals, supply }
const sent = new Map(); // txHash → { kind, type, from, pinHeight, nonceId, node, mined, ... }
const minedByType = {};
const coverage = Object.fromEntries(
  [
    'coin',
    'coinNewAccount',
    'assetCreate',
    'assetTransfer',
    'sharesTransfer',
    'buy',
    'sell',
    'crossBook',
    'crossPool',
    'partialFill',
    'ordersInOneBlock',
    'cancelResting',
    'cancelFilled',
    'depositFirst',
    'depositMore',
    'withdraw',
  ].map((k) => [k, 0]),
);
let refusedSame = 0;
let blocks = 0;
let chainHeight = 0; // the height both nodes agree on, after the last block

function keyOf(i) {
  for (let j = 0; ; j++) {
    const sk = createHash('sha256').update(`defi-diff key ${SEED} ${i} ${j}`).digest();
    if (S.isValidPrivateKey(sk)) return new Uint8Array(sk);
  }
}

/** The reference's request JSON (create_transaction.hpp names); ours accepts every generation's names. */
function requestBody(payload, c, signature) {
  const common = { type: payload.type === 'coinTransfer' ? 'wartTransfer' : payload.type, pinHeight: c.pinHeight, nonceId: c.nonceId, feeE8: c.feeE8 };
  const p = payload,
    hex = S.toHex,
    addr = (a) => S.formatAddress(a);
  const body = {
    coinTransfer: () => ({ toAddr: addr(p.toAddress), wartE8: p.amount }),
    tokenTransfer: () => ({ assetHash: hex(p.assetHash), isLiquidity: p.isLiquidity, toAddr: addr(p.toAddress), amountU64: p.amount }),
    limitSwap: () => ({ assetHash: hex(p.assetHash), isBuy: p.isBuy, amountU64: p.amount, limit: hex(p.limit) }),
    liquidityDeposit: () => ({ assetHash: hex(p.assetHash), amountU64: p.base, wartE8: p.quote }),
    liquidityWithdrawal: () => ({ assetHash: hex(p.assetHash), amountE8: p.shares }),
    cancelation: () => ({ cancelHeight: p.cancelHeight, cancelNonceId: p.cancelNonceId }),
    assetCreation: () => ({ name: String.fromCharCode(...p.name.filter((b) => b !== 0)), supplyU64: p.supply, decimals: p.precision }),
  }[p.type]();
  return writeJson({ ...common, ...body, signature65: hex(signature) });
}

/** The 3-byte limit price nearest below `raw` (coin E8 per smallest asset unit), clamped to the grid. */
function priceBytes(raw) {
  let e2 = Math.floor(Math.log2(raw)) - 15;
  let m = Math.floor(raw / 2 ** e2);
  while (m > 0xffff) {
    m = Math.floor(m / 2);
    e2++;
  }
  while (m < 0x8000) {
    m *= 2;
    e2--;
  }
  let e = e2 + 79;
  if (e < 0) {
    m = 0x8000;
    e = 0;
  }
  if (e > 127) {
    m = 0xffff;
    e = 127;
  }
  return Uint8Array.of(m >> 8, m & 0xff, e);
}
const rawOfPrice = (b) => ((b[0] << 8) | b[1]) * 2 ** (b[2] - 79);

/** What the generator knows, read from our node (both nodes agree on it unless a DIFF was printed). */
async function snapshot() {
  const st = { coin: [], asset: [], shares: [], orders: [], markets: [], partial: new Set() };
  await Promise.all(
    accounts.map(async (a, i) => {
      const c = dataOf(await get(OURS, `/account/${a.address}/wart_balance`));
      const w = c?.wart ?? c?.coin;
      st.coin[i] = w ? big(w.total.E8) - big(w.locked.E8) - big(w.mempool.E8) : 0n;
      st.asset[i] = [];
      st.shares[i] = [];
      await Promise.all(
        assets.map(async (as, j) => {
          for (const [kind, arr] of [
            ['asset', st.asset[i]],
            ['liquidity', st.shares[i]],
          ]) {
            const b = dataOf(await get(OURS, `/account/${a.address}/balance/${kind}:${as.hash}`))?.balance;
            arr[j] = b ? big(b.total.u64) - big(b.locked.u64) - big(b.mempool.u64) : 0n;
            if (kind === 'asset' && b && big(b.total.u64) > 0n) as.rows.add(i);
          }
        }),
      );
      const oo = dataOf(await get(OURS, `/account/${a.address}/open_orders`));
      st.orders[i] = [];
      for (const m of Array.isArray(oo) ? oo : []) {
        const j = assets.findIndex((x) => x.hash === m.baseAsset?.hash);
        for (const o of [...(m.wartToAssetSwaps ?? []), ...(m.assetToWartSwaps ?? [])]) {
          if (o.inMempool) continue;
          st.orders[i].push(o.txHash);
          if (big(o.filled.u64) > 0n && big(o.filled.u64) < big(o.amount.u64)) {
            st.partial.add(j);
            coverage.partialFill++;
          }
        }
      }
    }),
  );
  await Promise.all(
    assets.map(async (as, j) => {
      const m = dataOf(await get(OURS, `/dex/market/${as.hash}`));
      const pool = m?.liquidityPool;
      const base = pool ? big(pool.asset.u64) : 0n,
        quote = pool ? big(pool.wart.E8) : 0n,
        shares = pool ? big(pool.shares.u64) : 0n;
      const bids = (m?.wartToAssetSwaps ?? []).map((o) => rawOfPrice(Buffer.from(o.limit.hex, 'hex')));
      const asks = (m?.assetToWartSwaps ?? []).map((o) => rawOfPrice(Buffer.from(o.limit.hex, 'hex')));
      st.markets[j] = { base, quote, shares, bids, asks };
    }),
  );
  return st;
}

const isqrt = (v) => {
  if (v < 2n) return v;
  let x = BigInt(Math.floor(Math.sqrt(Number(v))));
  while (x * x > v) x--;
  while ((x + 1n) * (x + 1n) <= v) x++;
  return x;
};

let nameCounter = 0;
/**
 * Builds one transaction of a kind feasible now (preferring kinds not yet covered), updating the
 * snapshot for what it spends. Returns { kind, payload, from } or null.
 *
 * The scenario keeps out of the states in which the reference aborts or cannot build a block
 * (docs/reference-differences.md, "Consensus"; our node refuses such blocks with EREFABORT and such
 * transactions at admission, so they would only show what is already known):
 * - orders only on an asset with a pool holding both sides (a bid on an empty or one-sided pool
 *   fills for 0 units), and bids only from accounts that have held the asset (a 0 credit to an
 *   account without a row of the token invalidates the block);
 * - the limit orders of one block on one asset (a partly filled new order of a later token section
 *   aborts the reference);
 * - no new order on an asset while one of its resting orders is partly filled (the reference counts
 *   that order's whole amount at its level and aborts or overfills); such an order is canceled first;
 * - deposits that mint shares and withdrawals that pay out both sides, with a margin (a deposit
 *   minting 0 shares aborts; a 0 payout of a token the account never held invalidates the block);
 * - asset supplies below 2^63 (a balance of 2^63 or more aborts the reference when read back);
 * - one transaction per account and asset in a block: the reference's mempool files an order under
 *   its asset whichever token it locks, and when a block lowers an account's free balance of the
 *   asset it drops that account's pending entries of the asset in fee order and asserts that the
 *   asset's reservation ends with the last one, which a buy (locking coin) after a sell or transfer
 *   breaks: the process aborts (mempool.cpp:307) right after appending the block.
 */
function generate(st, batch) {
  const fee = st.fee;
  const n = accounts.length;
  const withCoin = (min) => [...Array(n).keys()].filter((i) => st.coin[i] >= min + fee);
  const holders = (arr, j) => [...Array(n).keys()].filter((i) => (arr[i]?.[j] ?? 0n) > 0n);
  const others = (i) => [...Array(n).keys()].filter((k) => k !== i);
  const poolOk = (j) => st.markets[j].base > 0n && st.markets[j].quote > 0n;
  // One transaction per (account, asset) in a block: see the comment above.
  const untouched = (i, j) => !batch.some((b) => b.from === i && b.asset === j);
  const orderAsset = batch.find((b) => b.payload.type === 'limitSwap')?.asset;
  // A partly filled resting order is canceled before anything else trades on its asset.
  const partialCancel = () => {
    for (let i = 0; i < n; i++) {
      if (st.coin[i] < fee) continue;
      for (const h of st.orders[i]) {
        const o = sent.get(h);
        if (!o || !st.partial.has(o.asset) || batch.some((b) => b.cancels === h)) continue;
        st.coin[i] -= fee;
        return { kind: 'cancelResting', from: i, cancels: h, payload: { type: 'cancelation', cancelHeight: o.pinHeight, cancelNonceId: o.nonceId } };
      }
    }
    return null;
  };
  const gens = {
    coin: () => {
      const f = withCoin(200000n);
      if (!f.length) return null;
      const i = pick(f);
      const newAcc = [...Array(n).keys()].find((k) => !accounts[k].known);
      const to = newAcc !== undefined && newAcc !== i && chance(0.5) ? newAcc : pick(others(i));
      const amount = rbig(1n, st.coin[i] - fee) / (chance(0.5) ? 10n : 3n) + 1n;
      st.coin[i] -= amount + fee;
      return { kind: accounts[to].known ? 'coin' : 'coinNewAccount', from: i, to, payload: { type: 'coinTransfer', toAddress: accounts[to].raw, amount } };
    },
    assetCreate: () => {
      if (assets.length + batch.filter((b) => b.kind === 'assetCreate').length >= 4) return null;
      const f = withCoin(0n);
      if (!f.length) return null;
      const i = pick(f);
      const decimals = pick([0, 1, 2, 3, 4, 6, 8, 8, 12, 18]);
      let supply;
      // The reference keeps balances in signed 64-bit columns: a balance of 2^63 or more is written,
      // but reading it back aborts the process. So the largest supply here is 2^63 − 1 (printed exactly).
      if (decimals === 0 && chance(0.3)) supply = I63;
      else if (decimals === 18) supply = BigInt(rint(1, 9)) * 10n ** 18n;
      else supply = BigInt(rint(1000, 5000000)) * 10n ** BigInt(decimals);
      const name = `${'ABCDEFGHJKMNPQRSTUVWXYZ'[rint(0, 22)]}${String.fromCharCode(65 + (SEED % 26))}${(nameCounter++).toString(36).toUpperCase()}`.slice(0, 5);
      st.coin[i] -= fee;
      return {
        kind: 'assetCreate',
        from: i,
        name,
        decimals,
        supply,
        payload: { type: 'assetCreation', supply, precision: decimals, name: S.assetNameBytes(name) },
      };
    },
    assetTransfer: () => tokenTransfer(false),
    sharesTransfer: () => tokenTransfer(true),
    buy: () => order(true),
    sell: () => order(false),
    cancelResting: () => {
      const c = [];
      for (let i = 0; i < n; i++) if (st.coin[i] >= fee) for (const h of st.orders[i]) if (sent.has(h) && !batch.some((b) => b.cancels === h)) c.push([i, h]);
      if (!c.length) return null;
      const [i, h] = pick(c);
      st.coin[i] -= fee;
      const o = sent.get(h);
      return { kind: 'cancelResting', from: i, cancels: h, payload: { type: 'cancelation', cancelHeight: o.pinHeight, cancelNonceId: o.nonceId } };
    },
    cancelFilled: () => {
      const c = [];
      for (const [h, o] of sent) if (o.type === 'limitSwap' && o.mined && !st.orders[o.from].includes(h) && st.coin[o.from] >= fee && !o.canceled) c.push(h);
      if (!c.length) return null;
      const h = pick(c),
        o = sent.get(h);
      st.coin[o.from] -= fee;
      o.canceled = true;
      return { kind: 'cancelFilled', from: o.from, cancels: h, payload: { type: 'cancelation', cancelHeight: o.pinHeight, cancelNonceId: o.nonceId } };
    },
    depositFirst: () => deposit(true),
    depositMore: () => deposit(false),
    withdraw: () => {
      const c = [];
      assets.forEach((as, j) =>
        holders(st.shares, j).forEach((i) => {
          if (st.coin[i] >= fee && poolOk(j) && untouched(i, j) && !batch.some((b) => b.asset === j && b.kind === 'withdraw')) c.push([i, j]);
        }),
      );
      if (!c.length) return null;
      const [i, j] = pick(c);
      const m = st.markets[j];
      let shares = chance(0.15) ? st.shares[i][j] : part(st.shares[i][j], 0.05, 0.7) || 1n;
      // Both payouts well above 0, and never the whole pool.
      if (shares >= m.shares) shares = m.shares / 2n;
      if ((shares * m.base) / m.shares < 100n || (shares * m.quote) / m.shares < 100n) return null;
      st.shares[i][j] -= shares;
      st.coin[i] -= fee;
      return { kind: 'withdraw', from: i, asset: j, payload: { type: 'liquidityWithdrawal', assetHash: Buffer.from(assets[j].hash, 'hex'), shares } };
    },
  };
  function tokenTransfer(isLiquidity) {
    const arr = isLiquidity ? st.shares : st.asset;
    const c = [];
    assets.forEach((as, j) =>
      holders(arr, j).forEach((i) => {
        if (st.coin[i] >= fee && untouched(i, j)) c.push([i, j]);
      }),
    );
    if (!c.length) return null;
    const [i, j] = pick(c);
    const to = pick(others(i).filter((k) => accounts[k].known)); // a new account is made by a coin transfer
    if (to === undefined) return null;
    const amount = chance(0.1) ? arr[i][j] : part(arr[i][j], 0.01, 0.5) || 1n;
    arr[i][j] -= amount;
    st.coin[i] -= fee;
    return {
      kind: isLiquidity ? 'sharesTransfer' : 'assetTransfer',
      from: i,
      to,
      asset: j,
      payload: { type: 'tokenTransfer', assetHash: Buffer.from(assets[j].hash, 'hex'), isLiquidity, toAddress: accounts[to].raw, amount },
    };
  }
  function order(isBuy) {
    const c = [];
    assets.forEach((as, j) => {
      if (!poolOk(j) || st.partial.has(j) || (orderAsset !== undefined && orderAsset !== j)) return;
      for (let i = 0; i < n; i++) {
        if (!untouched(i, j)) continue;
        if (isBuy ? st.coin[i] >= fee + 100000n && as.rows.has(i) : st.asset[i][j] > 0n && st.coin[i] >= fee) c.push([i, j]);
      }
    });
    if (!c.length) return null;
    const [i, j] = pick(c);
    const m = st.markets[j],
      as = assets[j];
    // The reference price: the pool's; half to twice it, or across the best opposite order (the
    // pool is then moved to that order's price first: enough is spent to get there and beyond).
    const poolPrice = Number(m.quote) / Number(m.base);
    const best = isBuy ? Math.min(...m.asks) : Math.max(...m.bids);
    const crossing = Number.isFinite(best) && best > 0 && (isBuy ? best > poolPrice : best < poolPrice) && chance(coverage.crossBook ? 0.3 : 0.7);
    const raw = crossing ? (isBuy ? best * (1 + rnd() * 0.3) : best * (1 - rnd() * 0.3)) : poolPrice * 2 ** (rnd() * 2 - 1);
    const limit = priceBytes(raw);
    // What moves the pool (x·y = k) from its price to the limit: quote·(√(limit/price) − 1) coin for a buy,
    // base·(√(price/limit) − 1) units for a sell; a crossing order brings half as much again.
    const toLimit = (reserve, ratio) => BigInt(Math.floor(Number(reserve) * Math.max(0, Math.sqrt(ratio) - 1) * 1.5));
    let amount;
    if (isBuy) {
      amount = part(st.coin[i] - fee, 0.02, 0.35) || 1n;
      if (crossing) {
        const need = toLimit(m.quote, rawOfPrice(limit) / poolPrice) + 1n;
        amount = need < st.coin[i] - fee ? need : st.coin[i] - fee;
      }
      st.coin[i] -= amount + fee;
    } else {
      amount = chance(0.1) ? st.asset[i][j] : part(st.asset[i][j], 0.01, 0.4) || 1n;
      if (crossing) {
        const need = toLimit(m.base, poolPrice / rawOfPrice(limit)) + 1n;
        amount = need < st.asset[i][j] ? need : st.asset[i][j];
      }
      st.asset[i][j] -= amount;
      st.coin[i] -= fee;
    }
    (isBuy ? m.bids : m.asks).push(rawOfPrice(limit));
    return { kind: isBuy ? 'buy' : 'sell', from: i, asset: j, payload: { type: 'limitSwap', assetHash: Buffer.from(as.hash, 'hex'), isBuy, amount, limit } };
  }
  function deposit(first) {
    const c = [];
    assets.forEach((as, j) => {
      const empty = st.markets[j].base === 0n && st.markets[j].quote === 0n;
      if (empty !== first || batch.some((b) => b.asset === j && (b.kind === 'depositFirst' || b.kind === 'withdraw'))) return;
      holders(st.asset, j).forEach((i) => {
        if (st.coin[i] >= fee + 1000000n && untouched(i, j)) c.push([i, j]);
      });
    });
    if (!c.length) return null;
    const [i, j] = pick(c);
    const m = st.markets[j];
    const base = part(st.asset[i][j], 0.05, 0.5) || 1n;
    let quote;
    if (!first && chance(0.7))
      quote = (base * m.quote) / m.base; // about the pool's ratio
    else quote = part(st.coin[i] - fee, 0.05, 0.4);
    if (quote > st.coin[i] - fee) quote = st.coin[i] - fee;
    // Shares minted, well above 0: sqrt of the product at least 10^4 for a first deposit, at least
    // 1 % of the pool's shares for a later one (other transactions of the block move the pool a little).
    if (
      first
        ? isqrt(base * quote) < 10000n
        : m.shares === 0n || (m.shares * isqrt((m.base + base) * (m.quote + quote))) / isqrt(m.base * m.quote) - m.shares < m.shares / 100n + 1n
    )
      return null;
    st.asset[i][j] -= base;
    st.coin[i] -= quote + fee;
    if (first) {
      m.base = base;
      m.quote = quote;
      m.shares = isqrt(base * quote);
    }
    return {
      kind: first ? 'depositFirst' : 'depositMore',
      from: i,
      asset: j,
      payload: { type: 'liquidityDeposit', assetHash: Buffer.from(assets[j].hash, 'hex'), base, quote },
    };
  }
  /**
   * Until orders have crossed each other in a match: a sell a little below the pool's price and, from
   * another account in the same block, a buy a little above it worth as much; the block's match fills
   * both against each other (and the pool takes the rest).
   */
  function crossPair() {
    const sell = batch.find((b) => b.crossPair);
    if (sell) {
      const j = sell.asset;
      const buyers = [...Array(n).keys()].filter((i) => i !== sell.from && untouched(i, j) && assets[j].rows.has(i) && st.coin[i] >= fee + 100000n);
      if (!buyers.length) return null;
      const i = pick(buyers);
      const amount = sell.value < st.coin[i] - fee ? sell.value : st.coin[i] - fee;
      st.coin[i] -= amount + fee;
      const limit = priceBytes(sell.poolPrice * 1.1);
      return { kind: 'buy', from: i, asset: j, payload: { type: 'limitSwap', assetHash: Buffer.from(assets[j].hash, 'hex'), isBuy: true, amount, limit } };
    }
    if (batch.some((b) => b.payload.type === 'limitSwap')) return null;
    const c = [];
    assets.forEach((as, j) => {
      if (!poolOk(j) || st.partial.has(j)) return;
      for (let i = 0; i < n; i++) if (untouched(i, j) && st.asset[i][j] > 0n && st.coin[i] >= fee) c.push([i, j]);
    });
    if (!c.length) return null;
    const [i, j] = pick(c);
    const m = st.markets[j];
    const amount = part(st.asset[i][j], 0.05, 0.3) || 1n;
    const value = (amount * m.quote) / m.base;
    if (value < 100000n) return null;
    st.asset[i][j] -= amount;
    st.coin[i] -= fee;
    const poolPrice = Number(m.quote) / Number(m.base);
    return {
      kind: 'sell',
      from: i,
      asset: j,
      crossPair: true,
      value,
      poolPrice,
      payload: { type: 'limitSwap', assetHash: Buffer.from(assets[j].hash, 'hex'), isBuy: false, amount, limit: priceBytes(poolPrice * 0.9) },
    };
  }
  if (st.partial.size) {
    const t = partialCancel();
    if (t) return t;
  }
  if (!coverage.crossBook && (batch.some((b) => b.crossPair) || chance(0.5))) {
    const t = crossPair();
    if (t) return t;
  }
  // Uncovered kinds first, then weighted random kinds.
  const weights = {
    coin: 3,
    assetCreate: assets.length < 2 ? 4 : 0.4,
    assetTransfer: 2,
    sharesTransfer: 1.2,
    buy: 5,
    sell: 5,
    cancelResting: 1.5,
    cancelFilled: 0.8,
    depositFirst: 3,
    depositMore: 1.5,
    withdraw: 1.2,
  };
  const uncovered = Object.keys(gens).filter((k) => coverage[k] === 0 && !batch.some((b) => b.kind === k));
  for (const k of uncovered.sort(() => rnd() - 0.5))
    if (chance(0.6)) {
      const r = gens[k]();
      if (r) return r;
    }
  for (let tries = 0; tries < 12; tries++) {
    const total = Object.values(weights).reduce((x, y) => x + y, 0);
    let r = rnd() * total,
      k;
    for (k of Object.keys(weights)) {
      r -= weights[k];
      if (r <= 0) break;
    }
    const t = gens[k]();
    if (t) return t;
  }
  return null;
}

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
  const body = requestBody(t.payload, c, sig);
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
  S = await loadSigner();
  for (let i = 0; i < N_ACCOUNTS; i++) {
    const sk = keyOf(i),
      raw = S.addressOfPrivateKey(sk);
    accounts.push({ sk, raw, address: S.formatAddress(raw), known: false });
  }
  vsay(`accounts: ${accounts.map((a, i) => `#${i} ${a.address}`).join(', ')}`);
  // The known-defect table names lines of the document.
  const docPath = join(OUR_DIR, DOC);
  const docLines = existsSync(docPath) ? readFileSync(docPath, 'utf8').split('\n') : [];
  for (const k of KNOWN) {
    const n = docLines.findIndex((l) => l.includes(k.tag));
    if (n < 0) {
      console.error(`defi-diff: known entry ${k.id} names "${k.tag}", which ${DOC} lacks`);
      process.exit(2);
    }
    k.line = `${DOC}:${n + 1}`;
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
    const st = await snapshot();
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
