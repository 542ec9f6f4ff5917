#!/usr/bin/env node
// Mainnet differential against the reference node 0.8.20 (README, "Against the mainnet reference
// node"): our node (`--regtest-mainnet --api=0.8`) and 0.8.20 built with
// scripts/reference/regtest-mainnet-0.8.patch (its `--testnet` is our --regtest-mainnet: mainnet's
// rules of today from height 1) run one chain, connected over P2P on loopback. A seeded generator
// signs coin transfers with the project's own code (ts/core, bundled at start with esbuild) from
// many accounts funded by mining rewards (random amounts and fees, amounts and fees as E8 or as
// decimal strings, some pinned at older heights) and submits them alternately to both nodes; blocks
// are mined alternately by both (`/chain/mine` templates solved with the CPU miner's logic,
// ts/miner/cpu_miner.ts, then `POST /chain/append`). After every block, once both heads agree, both
// nodes are asked the same questions and the answers compared (scripts/lib/mainnet-compare.mjs:
// parsed with exact numbers, keys in any order; templates, peers, version and new wallets by shape):
// head, the new block by height and by hash (and its hash and header), every account's balance (by
// address and by id) and history with several beforeIds, lookups of mined, pending and unknown
// transactions, mempool, minimum fee, latest transactions, richlist, transaction cache, hashrates
// and the hashrate chart, grid, signed snapshot, peers, tools; and refusals of every kind, sent to
// both nodes: bad addresses, unknown accounts and transactions, low and inexact fees, bad
// signatures, wrong pins, malformed parameters and JSON, zero amounts, self-sends, nonce reuse,
// insufficient balance, unknown routes. Each difference is printed with both answers; one that is
// a documented print defect of the reference (KNOWN in mainnet-compare.mjs) is counted as known.
// `--record DIR` writes what the reference answered (requests, answers, the chain's blocks) for
// test/api/reference_mainnet_chain.test.ts, which replays the chain into a fresh node of ours.
//
// Usage: node scripts/mainnet-diff.mjs [--seed N] [--txs N] [--blocks N] [--accounts N] [--ref PATH]
//          [--port-base P] [--record DIR] [--keep] [--verbose] [--brief] [--hold]   (--help explains them)
// Needs `npm run build` (dist/node.mjs; OUR_DIR names another checkout) and the reference binary
// (default $TMPDIR/warthog-ref/regtest-mainnet-0.8/build/src/node/wart-node, or $REF_BIN). Loopback only.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Num, big, numOf, parseJson, writeJson } from './lib/exact-json.mjs';
import { DOC, KNOWN, answerText, compareAnswers, liveOnly, locateKnown } from './lib/mainnet-compare.mjs';
import { accountOf, keyOf as keyOfFamily, loadSigner } from './lib/transactions.mjs';
import { Differential, differentialOptions, prefixed, requireFiles, seededRandom } from './lib/nodes.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUR_DIR = resolve(process.env.OUR_DIR ?? join(HERE, '..'));
const USAGE = `usage: node scripts/mainnet-diff.mjs [options]
  --seed N         scenario seed (default: random, printed)
  --txs N          coin transfers to get into blocks (default 200)
  --blocks N       blocks to mine at least (default 40)
  --accounts N     keyed accounts, at least 6 (default 24); the first 6 are funded by mining
  --ref PATH       the reference binary (default $REF_BIN or $TMPDIR/warthog-ref/regtest-mainnet-0.8/build/src/node/wart-node)
  --port-base P    loopback ports P+1..P+4 (default random in 45100..45990, not 45300..45399)
  --record DIR     write the reference's answers and the chain to DIR/recording.json
  --keep           keep the work folder (kept anyway when a difference was found)
  --verbose        also print every transaction and block
  --brief          print only the first 3 differences of each (route, JSON path) pattern; all are counted
  --hold           at the end keep both nodes running (for questions by hand) until Ctrl-C
`;
const opt = differentialOptions(USAGE, { blocks: { type: 'string' }, record: { type: 'string' } });
const PORTS = { lo: 45100, hi: 45999, avoid: [45300, 45399] };
const portOk = (p) => p >= PORTS.lo && p <= PORTS.hi && !(p >= PORTS.avoid[0] && p <= PORTS.avoid[1]);
const randomBase = () => {
  for (;;) {
    const b = PORTS.lo + 10 * Math.floor(Math.random() * 89);
    if (portOk(b + 1) && portOk(b + 4)) return b;
  }
};
const SEED = opt.seed === undefined ? (Math.random() * 2 ** 31) >>> 0 : Number(opt.seed);
const TXS = Number(opt.txs ?? 200);
const BLOCKS = Number(opt.blocks ?? 40);
const N_ACCOUNTS = Number(opt.accounts ?? 24);
const FUNDED = 6;
const REF_BIN = opt.ref ?? process.env.REF_BIN ?? join(process.env.TMPDIR ?? '/tmp', 'warthog-ref/regtest-mainnet-0.8/build/src/node/wart-node');
const PORT_BASE = Number(opt['port-base'] ?? randomBase());
const VERBOSE = opt.verbose === true;
if (!Number.isSafeInteger(SEED) || !(TXS > 0) || !(BLOCKS > 0) || !(N_ACCOUNTS >= FUNDED) || !portOk(PORT_BASE + 1) || !portOk(PORT_BASE + 4)) {
  process.stderr.write(USAGE);
  process.exit(2);
}
requireFiles('mainnet-diff', [
  [REF_BIN, 'the reference binary (--ref)'],
  [join(OUR_DIR, 'dist/node.mjs'), 'dist/node.mjs (npm run build)'],
]);

// ---------------------------------------------------------------------------------------------
// The run: work folder, children, logging, the count of differences (scripts/lib/nodes.mjs).
const routeKeyOf = (path) =>
  path
    .replace(/[0-9a-fA-F]{48,}/g, ':x')
    .replace(/\/\d+/g, '/:n')
    .replace(/\?.*$/, '');
const run = new Differential({
  name: 'mainnet-diff',
  verbose: VERBOSE,
  brief: opt.brief === true,
  known: KNOWN,
  keep: opt.keep === true,
  hold: opt.hold === true,
  shortAt: 600,
  routeKey: routeKeyOf,
});
const work = run.work;
const say = (line) => run.say(line);
const vsay = (line) => run.vsay(line);

// ---------------------------------------------------------------------------------------------
// HTTP.
const OURS = { name: 'ours' };
const REF = { name: 'ref' };
const http = (node, method, path, body) => run.answer(node, method, path, body);
const jsonOf = (a) => {
  try {
    return parseJson(a.text);
  } catch {
    return undefined;
  }
};
const codeOf = (a) => {
  const j = jsonOf(a);
  return j && j.code instanceof Num ? Number(j.code.t) : null;
};
const dataOf = (a) => (codeOf(a) === 0 ? jsonOf(a).data : undefined);
const get = (node, path) => http(node, 'GET', path);

// ---------------------------------------------------------------------------------------------
// Signing and solving with the project's code (scripts/lib/transactions.mjs loadSigner: ts/core, ts/kernel
// and the CPU miner, bundled with the checkout's own esbuild).
let S;

// ---------------------------------------------------------------------------------------------
// Seeded randomness (xorshift128+ seeded through SHA-256).
const { next64, rnd, rint, pick, chance, rbig } = seededRandom(`mainnet-diff:${SEED}`);
const sha = (text) => createHash('sha256').update(text).digest();

// ---------------------------------------------------------------------------------------------
// Differences and the recording.
/**
 * The recording (--record): steps in the order they happened, so a replay into one node of ours
 * reproduces each state: `{get}` / `{post, body}` with the reference's answer (an index into
 * `answers`, the distinct answers as `{s: status, j: JSON}` or `{s, t: text}`), `{submit, body,
 * txHash}` (a transfer the reference received by relay), `{block}` (an index into `blocks`).
 */
const recording = { steps: [], answers: [], blocks: [] };
const answerIndex = new Map();
function recordAnswer(a) {
  const j = jsonOf(a);
  const rec = j === undefined ? { s: a.status, t: a.text } : { s: a.status, j };
  const key = writeJson(rec);
  let i = answerIndex.get(key);
  if (i === undefined) {
    i = recording.answers.length;
    recording.answers.push(rec);
    answerIndex.set(key, i);
  }
  return i;
}
const recordStep = (step) => {
  if (opt.record) recording.steps.push(step);
};

let chainHeight = 0;
/**
 * What the recording keeps of the questions (the live run asks all of them after every block): not
 * the routes about the two nodes' connection nor the random older block and transactions looked up
 * after each block (of the final walk every fifth block); the transaction cache and balances by
 * account id after every fifth block; histories, latest transactions, templates, version and new
 * wallets after every tenth; everything else, at the start and the end (there the history pages of
 * the hub and three other accounts).
 */
let recordEverything = true,
  recordHistories = true;
/** Questions left out of the recording (after a block: the older block and transactions drawn at random). */
const unrecorded = new Set();
function recordable(path) {
  if (liveOnly(path)) return false;
  if (/\/history\//.test(path) && !recordHistories) return false;
  if (unrecorded.has(path)) return false;
  if (recordEverything) return true;
  if (/^\/chain\/txcache$|^\/account\/\d+\/balance$/.test(path)) return chainHeight % 5 === 0;
  if (/\/history\/|^\/transaction\/latest$|^\/(chain\/mine\/|tools\/(version|wallet\/new)$)/.test(path)) return chainHeight % 10 === 0;
  return true;
}

/**
 * 0.8.20 answers a history request with another's data when it handles other requests meanwhile: its
 * chain server's request keeps a reference to the address, a temporary on the HTTP thread's stack
 * (GetHistory, server.hpp:78; docs/reference-differences.md, 0.8-history-race). History requests go
 * to it one at a time, with no other request of the runner in flight (compareAll asks them last).
 */
let historyLane = Promise.resolve();
function serially(fn) {
  const p = historyLane.then(fn);
  historyLane = p.catch(() => {});
  return p;
}
/** Compares one request's answers of both nodes (sent at once); returns [ours, ref]. */
async function compare(label, method, path, body, refBody = body) {
  const both = () => Promise.all([http(OURS, method, path, body), http(REF, method, path, refBody)]);
  const [o, r] = /\/history\//.test(path) ? await serially(both) : await both();
  run.comparisons++;
  const route = `${method} ${path}`;
  const { diffs, known } = compareAnswers(route, o, r, { height: chainHeight });
  for (const k of known) run.countKnown(k.id);
  for (const d of diffs) run.report(label, route, d, body);
  if (recordable(path)) recordStep(method === 'GET' ? { get: path, a: recordAnswer(r) } : { post: path, body, a: recordAnswer(r) });
  return [o, r];
}
/** Compares the answers to `paths`, four at a time; history requests after the others, one at a time (see serially). */
async function compareAll(label, paths) {
  const isHistory = (p) => /\/history\//.test(p);
  const queue = paths.filter((p) => !isHistory(p));
  await Promise.all(
    [0, 1, 2, 3].map(async () => {
      while (queue.length) await compare(label, 'GET', queue.shift());
    }),
  );
  for (const p of paths.filter(isHistory)) await compare(label, 'GET', p);
}

// ---------------------------------------------------------------------------------------------
// Nodes.
const head = (node) => run.head(node);
const waitSynced = () => run.waitSynced(OURS, REF);

/**
 * Mines one block on `node`: its `/chain/mine` template solved by the CPU miner's code, then
 * `POST /chain/append`. The reference parses the posted body as u32 length + bytes while its template
 * gives the raw body (the reference tools' mine.mjs): a plain body refused as malformed (89 in 0.10,
 * 90 in 0.8) is sent again prefixed, and so from then on. Returns the block (raw body).
 */
async function mine(node, address) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const t = dataOf(await get(node, `/chain/mine/${address}`));
    if (!t) throw new Error(`${node.name} /chain/mine failed`);
    const task = { header: t.header, body: t.body, merklePrefix: t.merklePrefix, height: numOf(t.height), testnet: t.testnet };
    const b = S.solve(task);
    if (!b) continue;
    const header = S.toHex(b.header),
      body = S.toHex(b.body);
    const append = () => http(node, 'POST', '/chain/append', JSON.stringify({ height: b.height, header, body: node.prefixBody ? prefixed(body) : body }));
    let r = await append();
    if (!node.prefixBody && [89, 90].includes(codeOf(r))) {
      node.prefixBody = true;
      r = await append();
    }
    if (codeOf(r) === 0) return { height: b.height, header, body, minedBy: node.name };
    say(`mainnet-diff: ${node.name} refused its own solved template at height ${b.height}: ${r.text}`);
  }
  throw new Error(`${node.name}: no block appended`);
}

// ---------------------------------------------------------------------------------------------
// The scenario.
const accounts = []; // { sk, raw, address, known, id, balance, pendingOut }
const sent = new Map(); // txHash → { from, to, amount, fee, pinHeight, nonceId, body, node, mined }
const pinHashes = new Map(); // pin height → pin hash, from the heads seen
const blocksMined = [];
let submitTurn = 0;
const refusalCount = new Map(); // kind → count (both refused it; each kind's answers compared)

/** The key family of this seed's accounts (and of strangers beyond them): scripts/lib/transactions.mjs keyOf. */
const KEYS = `mainnet-diff key ${SEED}`;
const keyOf = (i) => keyOfFamily(S, KEYS, i);
const e8Text = (v) => {
  const s = v.toString().padStart(9, '0');
  return `${s.slice(0, -8)}.${s.slice(-8)}`;
};
/** A decimal amount text as a user might write it: trailing zeros cut, sometimes without a dot. */
const amountText = (v) => {
  const t = e8Text(v).replace(/0+$/, '');
  return t.endsWith('.') ? (chance(0.5) ? t.slice(0, -1) : t + '0') : t;
};

/** A signed 0.8 transfer request (`fields` override members; `sign` the signed fields). */
function transferBody({ from, to, amount, feeE8, pinHeight, pinHash, nonceId, amountAs = 'e8', feeAs = 'e8', sk, fields = {} }) {
  const c = { pinHash: Buffer.from(pinHash, 'hex'), pinHeight, nonceId, feeE8 };
  const hash = S.txHash(c, { type: 'coinTransfer', toAddress: to, amount });
  const sig = S.signDigest(hash, sk ?? accounts[from].sk);
  const body = { pinHeight, nonceId };
  if (feeAs === 'e8') body.feeE8 = feeE8;
  else body.fee = e8Text(feeE8);
  body.toAddr = S.formatAddress(to);
  if (amountAs === 'e8') body.amountE8 = amount;
  else body.amount = amountText(amount);
  body.signature65 = S.toHex(sig);
  Object.assign(body, fields);
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k];
  return { hash: S.toHex(hash), body: writeJson(body) };
}

/** The spendable coins of account i: balance less what its pending transfers spend. */
const spendable = (i) => accounts[i].balance - accounts[i].pendingOut;

async function refreshAccounts() {
  await Promise.all(
    accounts.map(async (a) => {
      const d = dataOf(await get(OURS, `/account/${a.address}/balance`));
      a.balance = d ? big(d.balanceE8) : 0n;
      if (d?.accountId instanceof Num) {
        a.known = true;
        a.id = d.accountId.t;
      }
    }),
  );
  for (const a of accounts) a.pendingOut = 0n;
  for (const t of sent.values()) if (!t.mined) accounts[t.from].pendingOut += t.amount + t.fee;
}

/** A random fee on the 16-bit grid at or above the minimum. */
function randomFee(minCode) {
  const code = minCode + pick([0, 0, 0, 1, 2, rint(3, 60), rint(60, 900), rint(900, 4000)]);
  return S.fee16Decode(code);
}
/** A pin: mostly the head's, sometimes an older pin height. */
function randomPin(h) {
  const older = [...pinHashes.keys()].filter((p) => p < h.pinHeight);
  if (older.length && chance(0.25)) {
    const p = pick(older);
    return { pinHeight: p, pinHash: pinHashes.get(p) };
  }
  return { pinHeight: h.pinHeight, pinHash: h.pinHash };
}

/** One valid transfer from a random account with coins; null if none has any. */
function generateTransfer(h, minCode) {
  // Account 0 is a hub (a fifth of the transfers from it, a third to it, half the blocks' rewards), so its
  // history outgrows the reference's page of 100 entries.
  const rich = accounts.map((_, i) => i).filter((i) => spendable(i) > 2_000_000n);
  const from = rich.includes(0) && chance(0.2) ? 0 : pick(rich);
  if (from === undefined) return null;
  const fresh = accounts.map((_, i) => i).filter((i) => !accounts[i].known && !accounts[i].incoming);
  const others = accounts.map((_, i) => i).filter((i) => i !== from);
  const to = from !== 0 && chance(0.35) ? 0 : fresh.length && chance(0.3) ? pick(fresh) : pick(others);
  let feeE8 = randomFee(minCode);
  const room = spendable(from);
  if (feeE8 >= room / 2n) feeE8 = S.fee16Decode(minCode);
  const left = room - feeE8;
  const amount = pick([() => rbig(1n, 999n), () => rbig(1000n, 10_000_000n), () => rbig(1n, left / 3n), () => rbig(left / 2n, left), () => left])();
  if (amount <= 0n || amount > left) return null;
  const pin = randomPin(h);
  const nonceId = Number(next64() & 0xffffffffn);
  return { from, to, amount, feeE8, ...pin, nonceId, amountAs: chance(0.3) ? 'str' : 'e8', feeAs: chance(0.3) ? 'str' : 'e8' };
}

/** Submits a valid transfer to the next node in turn; returns [txHash, record], or null when refused (a difference). */
async function submit(t) {
  const node = submitTurn++ % 2 === 0 ? OURS : REF;
  const { hash, body } = transferBody({ ...t, to: accounts[t.to].raw });
  const r = await http(node, 'POST', '/transaction/add', body);
  run.comparisons++;
  vsay(`tx ${hash.slice(0, 12)} #${t.from} → #${t.to} ${t.amount} fee ${t.feeE8} pin ${t.pinHeight} to ${node.name}: ${r.text.slice(0, 120)}`);
  const rec = {
    from: t.from,
    to: t.to,
    amount: t.amount,
    fee: t.feeE8,
    pinHeight: t.pinHeight,
    pinHash: t.pinHash,
    nonceId: t.nonceId,
    body,
    node: node.name,
    mined: 0,
  };
  if (codeOf(r) === 0) {
    const echoed = dataOf(r)?.txHash;
    if (echoed !== hash) run.reportEvent('POST /transaction/add txHash', `${node.name} reports hash ${echoed} for ${hash}`);
    if (node === REF) recordStep({ post: '/transaction/add', body, a: recordAnswer(r) });
    else recordStep({ submit: body, txHash: hash });
    sent.set(hash, rec);
    accounts[t.from].pendingOut += t.amount + t.feeE8;
    accounts[t.to].incoming = true;
    return [hash, rec];
  }
  const other = node === OURS ? REF : OURS;
  const r2 = await http(other, 'POST', '/transaction/add', body);
  run.reportEvent(
    'POST /transaction/add (a valid transfer refused)',
    `a valid transfer ${hash} refused by ${node.name}: ${r.text}; ${other.name}: ${r2.text}\n  body: ${body}`,
  );
  return null;
}

/** Waits until both nodes know every accepted transfer (relay each way). */
const waitRelayed = (recs) =>
  run.waitRelayed(
    OURS,
    REF,
    recs,
    ([hash]) => hash,
    ([hash, t]) => [`relay ${t.node} → other`, `relay: ${hash} submitted to ${t.node} did not reach the other node in 20 s\n  body: ${t.body}`],
    150,
  );

// ---------------------------------------------------------------------------------------------
// Refusals: each kind is a request both nodes must refuse with the same code and text.
/** The largest history id the reference reads as such: it binds the u64 beforeId as an SQLite int64 (2^63 and above: nothing before it). */
const BIG = '9223372036854775807';
const UNKNOWN_HASH = sha(`unknown tx ${SEED}`).toString('hex');
function refusalPosts(h, minCode) {
  const funded = accounts.map((_, i) => i).filter((i) => spendable(i) > 10_000_000n);
  const i = pick(funded.length ? funded : [0]);
  const j = pick(accounts.map((_, k) => k).filter((k) => k !== i));
  const minFee = S.fee16Decode(minCode);
  const base = { from: i, to: accounts[j].raw, amount: 1000n + BigInt(rint(0, 1000)), feeE8: minFee, pinHeight: h.pinHeight, pinHash: h.pinHash };
  const nonce = () => Number(next64() & 0xffffffffn);
  const tx = (o = {}) => transferBody({ ...base, nonceId: nonce(), ...o }).body;
  const stranger = keyOf(10_000 + rint(0, 1_000_000));
  const pending = [...sent.values()].filter((t) => !t.mined);
  const mined = [...sent.values()].filter((t) => t.mined);
  const badChecksum = S.formatAddress(accounts[j].raw).slice(0, 40) + (S.formatAddress(accounts[j].raw).slice(40) === '00000000' ? '11111111' : '00000000');
  const list = {
    'bad address (not hex)': tx({ fields: { toAddr: 'zz' + S.formatAddress(accounts[j].raw).slice(2) } }),
    'bad address (checksum)': tx({ fields: { toAddr: badChecksum } }),
    'bad address (short)': tx({ fields: { toAddr: S.formatAddress(accounts[j].raw).slice(0, 40) } }),
    'low fee': tx({ feeE8: S.fee16Decode(Math.max(1, minCode - rint(1, 5000))) }),
    'inexact fee': tx({ feeE8: minFee + 1n }),
    'zero fee': tx({ feeE8: 0n }),
    'bad fee text': tx({ feeAs: 'str', fields: { fee: '0.0x' } }),
    'bad signature (not hex)': tx({ fields: { signature65: 'x'.repeat(130) } }),
    'bad signature (short)': tx({ fields: { signature65: 'ab'.repeat(64) } }),
    'bad signature (corrupted)': tx({ fields: { signature65: 'ff'.repeat(65) } }),
    'bad signature (another key)': tx({ sk: stranger }),
    'pin in the future': tx({ pinHeight: h.pinHeight + 32, pinHash: h.pinHash }),
    'pin not a multiple of 32': tx({ pinHeight: h.pinHeight + 1 }),
    'pin negative': tx({ fields: { pinHeight: -32 } }),
    'pin hash mismatch': tx({ pinHash: sha(`wrong pin ${rnd()}`).toString('hex') }),
    'malformed JSON': '{"pinHeight": 0, "nonceId": ',
    'not an object': '[1, 2, 3]',
    'empty object': '{}',
    'empty body': '',
    'missing nonceId': tx({ fields: { nonceId: undefined } }),
    'nonceId as text': tx({ fields: { nonceId: '7' } }),
    'nonceId too large': tx({ fields: { nonceId: 4294967296 } }),
    'missing amount': tx({ fields: { amountE8: undefined } }),
    'amount and amountE8': tx({ fields: { amount: '0.00001' } }),
    'fee and feeE8': tx({ fields: { fee: e8Text(minFee) } }),
    'amount with 9 decimals': tx({ amountAs: 'str', fields: { amount: '0.000000001' } }),
    'negative amount': tx({ fields: { amountE8: -5 } }),
    'zero amount': tx({ amount: 0n }),
    'self-send': tx({ to: accounts[i].raw }),
    'insufficient balance': tx({ amount: spendable(i) + 1n + BigInt(rint(0, 1e6)) }),
    'amount beyond 2^63': tx({ amount: (1n << 63n) + 5n }),
    'unknown sender': tx({ sk: stranger, to: accounts[i].raw }),
  };
  if (pending.length) {
    const p = pick(pending);
    list['nonce reuse (pending)'] = transferBody({
      from: p.from,
      to: accounts[p.to].raw,
      amount: p.amount + 1n,
      feeE8: p.fee,
      pinHeight: p.pinHeight,
      pinHash: p.pinHash,
      nonceId: p.nonceId,
    }).body;
  }
  if (mined.length) {
    const p = pick(mined);
    list['nonce reuse (mined)'] = transferBody({
      from: p.from,
      to: accounts[p.to].raw,
      amount: p.amount,
      feeE8: p.fee,
      pinHeight: p.pinHeight,
      pinHash: p.pinHash,
      nonceId: p.nonceId,
    }).body;
  }
  return list;
}
/** Refusals of GET requests: malformed parameters, unknown things, unknown routes. */
function refusalGets(h) {
  const a = accounts[0].address;
  const fresh = S.formatAddress(sha(`fresh ${SEED} ${h.height}`).subarray(0, 20));
  return [
    `/account/${a.slice(0, 46)}zz/balance`,
    `/account/${a.slice(0, 40)}00000000/balance`,
    `/account/${a.slice(0, 47)}/balance`,
    `/account/${fresh}/balance`,
    `/account/999999/balance`,
    `/account/0/balance`,
    `/account/-1/balance`,
    `/account/abc/balance`,
    `/account/${fresh}/history/100`,
    `/account/${a.slice(0, 40)}00000000/history/100`,
    `/account/1/history/100`,
    `/account/${a}/history/abc`,
    `/account/${a}/history/-1`,
    `/transaction/lookup/${UNKNOWN_HASH}`,
    `/transaction/lookup/${UNKNOWN_HASH.slice(0, 63)}`,
    `/transaction/lookup/${'g'.repeat(64)}`,
    `/transaction/lookup/${UNKNOWN_HASH.toUpperCase()}`,
    `/chain/block/${h.height + 5}`,
    `/chain/block/0`,
    `/chain/block/abc`,
    `/chain/block/-1`,
    `/chain/block/${UNKNOWN_HASH}`,
    `/chain/block/${h.height + 5}/hash`,
    `/chain/block/0/hash`,
    `/chain/block/abc/hash`,
    `/chain/block/${h.height + 5}/header`,
    `/chain/block/0/header`,
    `/chain/block/${UNKNOWN_HASH}/header`,
    `/chain/hashrate/abc`,
    `/chain/hashrate/0`,
    `/chain/hashrate/chart/abc/2/3`,
    `/chain/hashrate/chart/0/10/5`,
    `/chain/mine/${a.slice(0, 40)}00000000`,
    `/chain/mine/abc`,
    `/tools/encode16bit/from_e8/abc`,
    `/tools/encode16bit/from_e8/18446744073709551615`,
    `/tools/encode16bit/from_string/abc`,
    `/tools/encode16bit/from_string/0.000000001`,
    `/tools/wallet/from_privkey/zz`,
    `/tools/wallet/from_privkey/${'0'.repeat(64)}`,
    `/tools/janushash_number/zz`,
    `/peers/offenses/abc`,
    `/settings/mempool/minfee/abc`,
    `/chain/nothing`,
    `/account/${a}`,
    `/transaction/add`,
    `/chain/head/`,
  ];
}
async function refusals(label, h, minCode, all) {
  const posts = Object.entries(refusalPosts(h, minCode));
  const gets = refusalGets(h);
  const chosen = all ? posts : posts.filter(() => chance(0.3));
  for (const [kind, body] of chosen) {
    const [o, r] = await compare(`${label} (refusal: ${kind})`, 'POST', '/transaction/add', body);
    refusalCount.set(kind, (refusalCount.get(kind) ?? 0) + 1);
    for (const [side, a] of [
      ['ours', o],
      ['ref', r],
    ])
      if (codeOf(a) === 0) {
        run.reportEvent(`refusal accepted: ${kind}`, `refusal "${kind}" accepted by ${side}: ${a.text}\n  body: ${body}`);
      }
  }
  // Blocks the nodes must refuse; a body goes to the reference length-prefixed (see mine), so both read the same bytes.
  const append = (height, header, body) => [JSON.stringify({ height, header, body }), JSON.stringify({ height, header, body: prefixed(body) })];
  const zeros = '00'.repeat(80);
  const postGets = [
    ['POST', '/chain/append', '{"height":0,"header":"00","body":"00"}'],
    ['POST', '/chain/append', 'nonsense'],
    ['POST', '/chain/append', ...append(h.height + 1, zeros, '00000000')],
    ['POST', '/chain/append', ...append(h.height + 1, zeros, '00'.repeat(40))],
    ['POST', '/chain/append', ...append(h.height + 5, zeros, '00'.repeat(40))],
    ['POST', '/chain/append', ...append(h.height, zeros, '00'.repeat(40))],
    ['POST', '/chain/head', '{}'],
  ];
  for (const [m, p, b, refBody] of all ? postGets : []) await compare(`${label} (refusal)`, m, p, b, refBody);
  await compareAll(`${label} (refusals)`, all ? gets : gets.filter(() => chance(0.25)));
}

/** Every question after a block at height h (hash `hash`) with the transactions it mined. */
function questions(h, blockHash, header, minedHashes) {
  const q = [
    '/chain/head',
    `/chain/block/${h}`,
    `/chain/block/${blockHash}`,
    `/chain/block/${h}/hash`,
    `/chain/block/${h}/header`,
    `/chain/block/${blockHash}/header`,
    '/transaction/mempool',
    '/transaction/minfee',
    '/transaction/latest',
    '/account/richlist',
    '/chain/txcache',
    '/chain/grid',
    '/chain/signed_snapshot',
    '/chain/hashrate/1',
    '/chain/hashrate/2',
    `/chain/hashrate/${rint(3, 30)}`,
    '/chain/hashrate/100',
    `/chain/hashrate/chart/1/${h}/${rint(1, 10)}`,
    `/chain/hashrate/chart/${rint(1, h)}/${h + 3}/2`,
    `/chain/mine/${pick(accounts).address}`,
    `/chain/mine/${pick(accounts).address}/log`,
    '/peers/connected',
    '/peers/connected/connection',
    '/peers/ip_count',
    '/peers/banned',
    '/peers/offenses/1',
    `/tools/janushash_number/${header}`,
    `/tools/encode16bit/from_e8/${rbig(0n, 10n ** BigInt(rint(1, 12)))}`,
    `/tools/encode16bit/from_string/${amountText(rbig(1n, 10n ** BigInt(rint(1, 12))))}`,
    `/tools/wallet/from_privkey/${S.toHex(pick(accounts).sk)}`,
    '/tools/version',
    '/tools/wallet/new',
    `/transaction/lookup/${UNKNOWN_HASH}`,
  ];
  for (const x of minedHashes) q.push(`/transaction/lookup/${x}`);
  const older = [...sent.entries()].filter(([, t]) => t.mined && t.mined < h);
  unrecorded.clear();
  if (h > 1) {
    const olderBlock = `/chain/block/${rint(1, h - 1)}`;
    q.push(olderBlock);
    unrecorded.add(olderBlock);
  }
  for (let k = 0; k < 6 && older.length; k++) {
    const p = `/transaction/lookup/${pick(older)[0]}`;
    q.push(p);
    unrecorded.add(p);
  }
  for (const [x, t] of sent) if (!t.mined) q.push(`/transaction/lookup/${x}`);
  for (const a of accounts) {
    q.push(`/account/${a.address}/balance`, `/account/${a.address}/history/${BIG}`);
    if (a.id !== undefined) q.push(`/account/${a.id}/balance`);
  }
  return q;
}
/** History pages: several beforeIds of one account (from the reference's first page's ids). */
async function historyPages(label, a) {
  const first = dataOf(await serially(() => get(REF, `/account/${a.address}/history/${BIG}`)));
  if (!first) return compareAll(label, [`/account/${a.address}/history/0`, `/account/${a.address}/history/1`]);
  // History ids count every reward and transfer of the chain from 1: pages before ids around this account's.
  const from = big(first.fromId);
  const top = BigInt(blocksMined.length + [...sent.values()].filter((t) => t.mined).length);
  const ids = new Set([0n, 1n, from, from + 1n, rbig(from, top), rbig(1n, top), top, top + 1n, 4294967295n, 1n << 63n, (1n << 64n) - 1n]);
  await compareAll(
    label,
    [...ids].map((id) => `/account/${a.address}/history/${id}`),
  );
}

/** After a block: which sent transfers it mined (from our block view). */
async function recordMined(h) {
  const blk = dataOf(await get(OURS, `/chain/block/${h}`));
  const hashes = [];
  for (const r of blk?.body?.rewards ?? []) hashes.push(r.txHash);
  for (const t of blk?.body?.transfers ?? []) {
    hashes.push(t.txHash);
    const s = sent.get(t.txHash);
    if (s && !s.mined) s.mined = h;
  }
  return { hashes, header: blk?.header?.raw, hash: blk?.header?.hash };
}

async function afterBlock(label, block) {
  const synced = await waitSynced();
  if (synced.diverged) {
    run.reportEvent(
      'chain head',
      `chain: the nodes did not agree on a head within 60 s after ${label}: ours ${JSON.stringify(synced.ours)} ref ${JSON.stringify(synced.ref)}`,
    );
    return false;
  }
  chainHeight = synced.height;
  pinHashes.set(synced.pinHeight, synced.pinHash);
  blocksMined.push(block);
  if (opt.record) {
    recordStep({ block: recording.blocks.length });
    recording.blocks.push(block);
  }
  const m = await recordMined(synced.height);
  await refreshAccounts();
  await compareAll(`after ${label} (height ${synced.height})`, questions(synced.height, m.hash, m.header, m.hashes));
  const withHistory = accounts.filter((a) => a.known);
  for (let k = 0; k < 2 && withHistory.length; k++) await historyPages(`after ${label} (history pages)`, pick(withHistory));
  return true;
}

async function main() {
  say(`mainnet-diff: seed ${SEED}, ≥ ${TXS} transfers, ≥ ${BLOCKS} blocks, ${N_ACCOUNTS} accounts, work ${work}`);
  S = await loadSigner(OUR_DIR, work);
  for (let i = 0; i < N_ACCOUNTS; i++) {
    accounts.push({ ...accountOf(S, KEYS, i), known: false, balance: 0n, pendingOut: 0n });
  }
  const docText = existsSync(join(OUR_DIR, DOC)) ? readFileSync(join(OUR_DIR, DOC), 'utf8') : '';
  const missing = locateKnown(docText);
  if (missing.length) {
    console.error(`mainnet-diff: known entries ${missing.join(', ')} name tags ${DOC} lacks`);
    process.exit(2);
  }
  // The reference: its regtest-mainnet build (`--testnet`), connected to ours, loopback only.
  await run.startBoth(OURS, REF, {
    ourBin: join(OUR_DIR, 'dist/node.mjs'),
    ourArgs: ['--regtest-mainnet', '--api=0.8'],
    refBin: REF_BIN,
    portBase: PORT_BASE,
    lo: PORTS.lo,
    hi: PORTS.hi,
    portOk,
  });
  say(`mainnet-diff: ours RPC ${OURS.rpc} P2P ${OURS.p2p}; reference RPC ${REF.rpc} P2P ${REF.p2p}`);
  const h0 = await head(OURS);
  pinHashes.set(0, h0.pinHash);
  const minfee = dataOf(await get(OURS, '/transaction/minfee'));
  const minCode = S.fee16Encode(big(minfee?.E8 ?? 1000448n), 'up');
  await compareAll('at start', ['/chain/head', '/transaction/mempool', '/transaction/minfee', '/account/richlist', '/chain/txcache', '/chain/hashrate/1']);
  await refusals('at start', h0, minCode, true);

  recordEverything = false;
  // Funding: the first blocks pay the first FUNDED accounts, mined alternately.
  let turn = 0;
  for (let i = 0; i < 2 * FUNDED; i++) {
    const node = turn++ % 2 === 0 ? OURS : REF;
    const block = await mine(node, accounts[i % FUNDED].address);
    vsay(`funding block ${block.height} by ${node.name}`);
    if (!(await afterBlock(`funding block ${i + 1} (${node.name})`, block))) return finish();
  }

  const minedCount = () => [...sent.values()].filter((t) => t.mined).length;
  let round = 0;
  while ((minedCount() < TXS || blocksMined.length < BLOCKS) && round < 4 * BLOCKS + TXS) {
    round++;
    if (round % 10 === 0)
      say(`progress: round ${round}, height ${chainHeight}, ${minedCount()} transfers in blocks, ${run.comparisons} comparisons, ${run.diffCount} differences`);
    const h = await head(OURS);
    const want = rint(3, 8);
    const accepted = [];
    for (let k = 0; k < want; k++) {
      const t = generateTransfer(h, minCode);
      if (!t) continue;
      const r = await submit(t);
      if (r) accepted.push(r);
    }
    await waitRelayed(accepted);
    // The pending side, before mining: refusals (nonce reuse of pending ones), the mempool, lookups.
    await refusals(`round ${round}`, h, minCode, round % 10 === 1);
    const pendingQ = ['/transaction/mempool', '/chain/txcache'];
    for (const [x, t] of sent) if (!t.mined) pendingQ.push(`/transaction/lookup/${x}`);
    for (const [, t] of accepted) pendingQ.push(`/account/${accounts[t.from].address}/balance`, `/account/${accounts[t.from].address}/history/${BIG}`);
    await compareAll(`round ${round} before mining`, pendingQ);
    const node = turn++ % 2 === 0 ? OURS : REF;
    const miner = chance(0.5) ? accounts[0] : pick(accounts.filter((a) => a.known));
    const block = await mine(node, miner.address);
    vsay(`round ${round}: ${accepted.length} transfers; block ${block.height} by ${node.name}`);
    if (!(await afterBlock(`round ${round} (${accepted.length} transfers; ${node.name})`, block))) break;
  }
  const h = await head(OURS);
  recordEverything = true;
  await refusals('at end', h, minCode, true);
  // Every account's pages are compared; the hub's and three others' recorded.
  for (const [i, a] of accounts.entries()) {
    recordHistories = i < 4;
    if (a.known) await historyPages('at end (history pages)', a);
  }
  recordHistories = true;
  const all = [];
  unrecorded.clear();
  for (let i = 1; i <= h.height; i++) {
    all.push(`/chain/block/${i}`);
    if (i % 5 !== 0) unrecorded.add(`/chain/block/${i}`); // recorded: every fifth
  }
  await compareAll('final walk', all);
  return finish();
}

function finish() {
  const mined = [...sent.values()].filter((t) => t.mined);
  const ok = run.diffCount === 0 && mined.length >= TXS && blocksMined.length >= BLOCKS;
  run.end(ok, () => {
    const kinds = [...refusalCount.entries()].map(([k, n]) => `${k} ×${n}`).join(', ');
    say(`refusals compared: ${kinds}`);
    const pinnedOld = mined.filter((t) => t.pinHeight < pinFloorAt(t.mined)).length;
    const byRef = blocksMined.filter((b) => b.minedBy === 'ref').length;
    if (opt.record) writeRecording(ok);
    say(
      `SUMMARY mainnet-diff seed=${SEED} ${ok ? 'PASS' : 'FAIL'}: blocks=${blocksMined.length} (reference ${byRef}, ours ${blocksMined.length - byRef}) transfers=${mined.length} (pinned below the head's pin ${pinnedOld}, senders ${new Set(mined.map((t) => t.from)).size}, accounts ${accounts.filter((a) => a.known).length}) refusal-kinds=${refusalCount.size} comparisons=${run.comparisons} known=${run.knownCount} differences=${run.diffCount}${ok && !opt.keep ? '' : ` work=${work}`}`,
    );
  });
}
const pinFloorAt = (h) => 32 * Math.floor((h - 1) / 32);

function writeRecording(ok) {
  const dir = resolve(opt.record);
  mkdirSync(dir, { recursive: true });
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['-C', OUR_DIR, 'rev-parse', '--short=7', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {}
  const out = {
    note: 'Answers of the mainnet reference node 0.8.20 (regtest-mainnet build) recorded by scripts/mainnet-diff.mjs; replayed by test/api/reference_mainnet_chain.test.ts',
    seed: SEED,
    passed: ok,
    ourCommit: commit,
    accounts: accounts.map((a) => a.address),
    blocks: recording.blocks,
    steps: recording.steps,
    answers: recording.answers,
  };
  writeFileSync(join(dir, 'recording.json'), writeJson(out) + '\n');
  say(
    `recording: ${join(dir, 'recording.json')} (${recording.steps.length} steps, ${recording.answers.length} distinct answers, ${recording.blocks.length} blocks)`,
  );
}

main().catch((e) => {
  say(`mainnet-diff: ${e.stack ?? e}`);
  run.diffCount++;
  finish();
});
