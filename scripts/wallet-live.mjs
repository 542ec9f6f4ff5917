#!/usr/bin/env node
// The wallet live against both reference nodes (issue 27): every command of the built wallet
// (dist/wallet.mjs) run as a user runs it, with `--node` at the REFERENCE's RPC, its effect checked
// on the reference (balance moved, transaction in its mempool, then mined, order listed, ...).
// 0.8.20 (mainnet-era, API generation 0.8) has no assets, orders or pools: there every exchange
// command must stop with the wallet's one line "'…' needs assets, orders and pools …", exit 1, and
// nothing in the reference's mempool. No wallet run may print a TypeError, a stack trace or an
// "internal error". Prints a table command × reference, PASS/FAIL. Not part of `make test` (it
// needs the reference binaries).
//
// Usage: node scripts/wallet-live.mjs [--record DIR] [0.8.20] [0.10.3]   (default: both, in this order)
//   0.8.20  the mainnet reference built with regtest-mainnet-0.8.patch, alone: it mines its own
//           blocks through GET /chain/mine + POST /chain/append (solved by the project's cpu_miner)
//   0.10.3  the DeFi reference built with regtest.patch, connected to our --regtest node (its
//           --testnet speaks our --regtest); it mines through its own templates, ours follows
//   --record DIR  the wallet's --node is a pass-through in front of the reference that keeps every
//           request and answer: DIR/ref-<reference>.json (test/vectors/wallet-live/, replayed by
//           test/wallet/live_recorded.test.ts)
// Environment:
//   REF08_BIN   default $REF_WORK/regtest-mainnet-0.8/build/src/node/wart-node
//   REF010_BIN  default $REF_WORK/regtest/build/src/node/wart-node (REF_WORK: $TMPDIR/warthog-ref)
//   OUR_DIR     a built checkout (default this one: dist/wallet.mjs, dist/node.mjs, ts/ for the miner)
//   OUT         run folder (default a fresh temporary one, kept: node logs, every wallet run in wallet.log)
// Loopback only, ports 45600-45799; a reference runs only as
// HOME=H BIN --testnet --rpc=127.0.0.1:P --bind=127.0.0.1:Q --connect=127.0.0.1:R.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import { loadProject } from './lib/project.mjs';
import { Run, get, head, mineOne, requireFiles, startOurs, startRef, stop, waitSameHead, waitUntil, waitUp } from './lib/nodes.mjs';
import { portAllocator } from './sidebyside/processes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const REF_WORK = process.env.REF_WORK ?? `${process.env.TMPDIR ?? '/tmp'}/warthog-ref`;
const OUR_DIR = process.env.OUR_DIR ?? ROOT;
const WALLET_BIN = join(OUR_DIR, 'dist/wallet.mjs');
const OUR_BIN = join(OUR_DIR, 'dist/node.mjs');
const OUT = process.env.OUT ?? mkdtempSync(join(tmpdir(), 'wallet-live-'));
const port = portAllocator(45600, 45799);

const REFS = {
  '0.8.20': { bin: process.env.REF08_BIN ?? `${REF_WORK}/regtest-mainnet-0.8/build/src/node/wart-node`, api: '0.8', exchange: false },
  '0.10.3': { bin: process.env.REF010_BIN ?? `${REF_WORK}/regtest/build/src/node/wart-node`, api: '0.10', exchange: true },
};
const argv = process.argv.slice(2);
const recordAt = argv.indexOf('--record');
/** With `--record DIR`: every wallet run and the HTTP it exchanged, as DIR/ref-<reference>.json. */
const RECORD = recordAt >= 0 ? argv.splice(recordAt, 2)[1] : null;
if (recordAt >= 0 && !RECORD) {
  console.error('--record takes a folder');
  process.exit(2);
}
const chosen = argv.length ? argv : Object.keys(REFS);
for (const r of chosen) {
  if (!(r in REFS)) {
    console.error(`unknown reference ${r}; references: ${Object.keys(REFS).join(' ')}`);
    process.exit(2);
  }
  requireFiles('wallet-live', [[REFS[r].bin, `the ${r} binary (scripts/reference/README.md)`]]);
}
requireFiles('wallet-live', [
  [WALLET_BIN, 'the built wallet (npm run build)'],
  [OUR_BIN, 'the built node (npm run build)'],
]);
mkdirSync(OUT, { recursive: true });

const P = await loadProject(
  OUR_DIR,
  [
    "export { initKernel } from './ts/kernel/instance.ts';",
    "export { solve } from './ts/miner/cpu_miner.ts';",
    "export { randomPrivateKey, addressOfPrivateKey } from './ts/core/keys.ts';",
    "export { formatAddress } from './ts/core/address.ts';",
    "export { toHex } from './ts/core/hex.ts';",
  ],
  join(OUT, 'project.mjs'),
);

// ------------------------------------------------------------------------------------------------
// The table: per reference and command, every check made (a command passes when all of its do).

const ROWS = [
  'create',
  'restore',
  'address',
  'show',
  'balance',
  'send',
  'send --wait',
  'history',
  'history --before',
  'asset create',
  'token send',
  'token send (pool shares)',
  'liquidity deposit',
  'buy',
  'sell',
  'orders',
  'cancel',
  'liquidity withdraw',
];
const results = {}; // ref → row → {pass, notes[]}
function note(ref, row, ok, what) {
  const r = ((results[ref] ??= {})[row] ??= { pass: true, notes: [] });
  r.pass &&= ok;
  r.notes.push(`${ok ? 'ok' : 'FAIL'}: ${what}`);
  console.log(`  [${ref}] ${row}: ${ok ? 'ok' : 'FAIL'}: ${what}`);
}
/** Runs `fn`; an exception is a failed check of `row` with its message. */
async function step(ref, row, fn) {
  try {
    await fn();
  } catch (e) {
    note(
      ref,
      row,
      false,
      String(e.message ?? e)
        .split('\n')
        .slice(0, 3)
        .join(' | '),
    );
  }
}

// ------------------------------------------------------------------------------------------------
// The wallet as a user runs it: a process, its output and exit code; every run logged.

const WALLET_LOG = join(OUT, 'wallet.log');
/** What --record keeps: the runs, and the exchanges of the run under way. */
const recording = { runs: [], exchanges: null, url: null, wallets: null };
/**
 * With --record the wallet's --node is this pass-through at 127.0.0.1:port in front of the
 * reference: each request forwarded as is, the answer returned as is (a connection the reference
 * closes without answering is closed too) and both kept for the run under way.
 */
function recordingProxy(target, listenPort) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const x = { method: req.method, path: req.url, ...(body ? { body } : {}) };
      recording.exchanges?.push(x);
      const up = http.request(`${target}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (r) => {
        const back = [];
        r.on('data', (c) => back.push(c));
        r.on('end', () => {
          x.status = r.statusCode;
          x.answer = Buffer.concat(back).toString();
          res.writeHead(r.statusCode, r.headers);
          res.end(x.answer);
        });
      });
      up.on('error', (e) => {
        x.closed = e.code ?? e.message;
        req.socket.destroy();
      });
      up.end(body || undefined);
    });
  });
  return new Promise((resolve) => server.listen(listenPort, '127.0.0.1', () => resolve(server)));
}
/** A recorded text without the machine's paths and ports. */
const scrub = (text) => text.replaceAll(recording.url, 'http://reference').replaceAll(`${recording.wallets}/`, '').replaceAll(OUT, 'OUT');

function startWallet(args, env = {}) {
  if (RECORD) recording.exchanges = [];
  const proc = spawn(process.execPath, [WALLET_BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WARTNODE_WALLET_PASSPHRASE: '', ...env },
  });
  let stdout = '',
    stderr = '';
  proc.stdout.on('data', (d) => {
    stdout += d;
  });
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve) =>
    proc.once('close', (code) => {
      appendFileSync(
        WALLET_LOG,
        `$ wartnode-wallet ${args.join(' ')}\nexit ${code}\n${stdout ? `stdout:\n${stdout}` : ''}${stderr ? `stderr:\n${stderr}` : ''}\n`,
      );
      if (RECORD) {
        recording.runs.push({
          args: args.map(scrub),
          exit: code,
          stdout: scrub(stdout),
          stderr: scrub(stderr),
          exchanges: recording.exchanges.map((x) => JSON.parse(scrub(JSON.stringify(x)))),
        });
        recording.exchanges = null;
      }
      resolve({ code, stdout, stderr });
    }),
  );
}
/** A wallet run that must not have crashed: no TypeError, stack trace or internal error. */
async function runWallet(ref, row, args) {
  const r = await startWallet(args);
  if (/TypeError|ReferenceError|internal error|\n\s+at /.test(r.stderr)) note(ref, row, false, `crash in 'wallet ${args.join(' ')}': ${r.stderr.trim()}`);
  return r;
}
/** Its stdout; throws with its stderr unless it exits 0. */
async function ok(ref, row, args) {
  const r = await runWallet(ref, row, args);
  if (r.code !== 0) throw new Error(`'wallet ${args.slice(-4).join(' ')}' exited ${r.code}: ${r.stderr.trim()}`);
  return r.stdout;
}
/**
 * A run the wallet must refuse: exit 1, nothing on stdout, one line of its own on stderr matching
 * `re`, and nothing new in the reference's mempool.
 */
async function refused(ref, row, R, args, re) {
  const before = await R.mempoolHashes();
  const r = await runWallet(ref, row, args);
  // An order's line of information ("limit price …", stderr) may come first.
  const err = r.stderr.replace(/^limit price [^\n]+\n/, '');
  const line = err.trim();
  note(
    ref,
    row,
    r.code === 1 && r.stdout === '' && /^wartnode-wallet: [^\n]+\n$/.test(err) && re.test(line),
    `refused: exit ${r.code}, ${JSON.stringify(line.slice(0, 140))}`,
  );
  const after = await R.mempoolHashes();
  note(ref, row, after.length === before.length && after.every((h) => before.includes(h)), "nothing new in the reference's mempool");
}
const HASH = /^[0-9a-f]{64}$/;
function hashOf(out) {
  const h = out.trim().split('\n')[0];
  if (!HASH.test(h)) throw new Error(`no transaction hash printed: ${JSON.stringify(out)}`);
  return h;
}
/** The coin line of `balance`. */
const coinLine = (text) => `${'WART'.padEnd(6)} ${text.padStart(24)}`;
const e8Text = (e8) => `${e8 / 100_000_000n}.${(e8 % 100_000_000n).toString().padStart(8, '0')}`;

// ------------------------------------------------------------------------------------------------
// The reference as its own API tells it (generation 0.8 or 0.10 shapes).

class RefView {
  constructor(node, api) {
    this.n = node;
    this.api = api;
  }
  async data(path) {
    const j = await get(`${this.n.url}${path}`);
    if (j.code !== 0) throw new Error(`the reference refused GET ${path}: ${JSON.stringify(j)}`);
    return j.data;
  }
  async coinE8(address) {
    if (this.api === '0.8') return BigInt((await this.data(`/account/${address}/balance`)).balanceE8);
    const j = await get(`${this.n.url}/account/${address}/wart_balance`);
    return j.code === 0 ? BigInt(j.data.wart.total.E8) : 0n;
  }
  async tokenU64(address, spec) {
    const j = await get(`${this.n.url}/account/${address}/balance/${spec}`);
    return j.code === 0 ? BigInt(j.data.balance.total.u64) : 0n;
  }
  async mempoolHashes() {
    const d = await this.data('/transaction/mempool');
    return (this.api === '0.8' ? d.data : d).map((t) => t.txHash ?? t.transaction?.hash ?? t.hash);
  }
  /** The height of the block holding `hash`; 0 while pending; null when unknown. */
  async minedAt(hash) {
    const j = await get(`${this.n.url}/transaction/lookup/${hash}`);
    if (j.code !== 0) return null;
    return this.api === '0.8' ? j.data.transaction.blockHeight : (j.data.mined?.block?.height ?? 0);
  }
  async lookup(hash) {
    return this.data(`/transaction/lookup/${hash}`);
  }
  async openOrderHashes(address) {
    const j = await get(`${this.n.url}/account/${address}/open_orders`);
    if (j.code !== 0) return [];
    return j.data.flatMap((m) => [...m.wartToAssetSwaps, ...m.assetToWartSwaps].map((o) => o.txHash));
  }
  async historyHashes(address, before) {
    const j = await get(`${this.n.url}/account/${address}/history/${before}`);
    if (j.code !== 0) return [];
    const out = [];
    for (const b of j.data.perBlock) {
      if (this.api === '0.8') for (const t of [...b.transactions.rewards, ...b.transactions.transfers]) out.push(t.txHash);
      else for (const v of Object.values(b.body)) for (const e of v === null ? [] : Array.isArray(v) ? v : [v]) out.push(e.transaction.hash);
    }
    return { hashes: out, fromId: j.data.fromId };
  }
}

// ------------------------------------------------------------------------------------------------

async function session(refName) {
  const spec = REFS[refName];
  const dir = join(OUT, refName);
  const run = new Run(dir);
  const wallets = join(dir, 'wallets');
  mkdirSync(wallets, { recursive: true });
  let ours = null;
  let ref;
  const ports = { refRpc: port(), refP2p: port(), ourRpc: port(), ourP2p: port() };
  if (spec.exchange) {
    // 0.10.3 runs connected to our --regtest node (it cannot sync from another 0.10.3).
    ours = startOurs(run, { bin: OUR_BIN, network: 'regtest', rpc: `127.0.0.1:${ports.ourRpc}`, bind: `127.0.0.1:${ports.ourP2p}`, extra: ['--api=0.10'] });
    await waitUp(ours);
  }
  // 0.8.20 alone: its --connect names a port of the range nothing listens on.
  ref = startRef(run, {
    bin: spec.bin,
    rpc: `127.0.0.1:${ports.refRpc}`,
    bind: `127.0.0.1:${ports.refP2p}`,
    connect: `127.0.0.1:${ports.ourP2p}`,
    home: join(dir, 'refhome'),
    logCommunication: false,
  });
  await waitUp(ref);
  const R = new RefView(ref, spec.api);
  run.log(`${refName}: reference RPC ${ref.url}${ours ? `, ours ${ours.url} (P2P ${ours.p2p})` : ''}; wallet runs in ${WALLET_LOG}`);
  if (ours) {
    const s = await waitUntil(async () => (await get(`${ours.url}/peers/connected`)).data?.length > 0, 60, 500);
    run.log(`${refName}: connected to ours: ${!!s.value}`);
  }

  /** Mines `n` blocks on the reference (its own template) paying `address`; ours (0.10.3) follows. */
  const mine = async (address, n = 1) => {
    for (let i = 0; i < n; i++) await mineOne(ref, address, (t) => P.solve(t));
    if (ours) {
      const h = await head(ref);
      const s = await waitSameHead([ref, ours], h.height, 30);
      if (!s.head) run.log(`${refName}: ours did not follow the reference to ${h.height}: ${JSON.stringify(s.last)}`);
    }
    return (await head(ref)).height;
  };
  /** Waits until the reference's mempool holds `hash`. */
  const pending = async (hash) => {
    const w = await waitUntil(async () => (await R.mempoolHashes()).includes(hash), 20, 200);
    if (!w.value) throw new Error(`${hash} is not in the reference's mempool`);
  };
  /** Mines until the reference has mined `hash`; its height. */
  const mined = async (hash, payTo = M) => {
    await pending(hash);
    await mine(payTo);
    const h = await R.minedAt(hash);
    if (!h) throw new Error(`${hash} not mined by the reference (lookup: ${h})`);
    return h;
  };

  let url = ref.url;
  let proxy = null;
  if (RECORD) {
    const p = port();
    proxy = await recordingProxy(ref.url, p);
    url = `http://127.0.0.1:${p}`;
    Object.assign(recording, { runs: [], url, wallets });
  }
  const fileA = join(wallets, 'a.json'),
    fileB = join(wallets, 'b.json'),
    fileE = join(wallets, 'e.json'),
    passFile = join(wallets, 'passphrase.txt');
  writeFileSync(passFile, 'correct horse battery staple\n');
  const asA = ['--node', url, '--wallet', fileA]; // the wallet finds the generation itself
  const asB = ['--node', url, '--api', spec.api, '--wallet', fileB]; // told it
  const skA = P.randomPrivateKey();
  const A = P.formatAddress(P.addressOfPrivateKey(skA));
  let B = null;
  // The rewards of every block but A's funding go to M, an address without a wallet file.
  const M = P.formatAddress(P.addressOfPrivateKey(P.randomPrivateKey()));
  const asNobody = ['--node', url];

  // ---- keys ----
  await step(refName, 'restore', async () => {
    const out = await ok(refName, 'restore', [...asA, 'restore', P.toHex(skA)]);
    note(refName, 'restore', out === `${A}\n`, `restore prints the key's address ${A}`);
  });
  await step(refName, 'create', async () => {
    B = (await ok(refName, 'create', [...asB, 'create'])).trim();
    note(refName, 'create', /^[0-9a-f]{48}$/.test(B), `create prints a new address ${B}`);
    const e = (await ok(refName, 'create', ['--node', url, '--wallet', fileE, '--passphrase-file', passFile, 'create'])).trim();
    note(refName, 'create', /^[0-9a-f]{48}$/.test(e), 'create --passphrase-file (an encrypted key)');
    const j = await get(`${url}/tools/wallet/from_privkey/${P.toHex(skA)}`);
    note(refName, 'create', j.data?.address === A, "the reference derives the restored key's address the same");
  });
  await step(refName, 'address', async () => {
    note(refName, 'address', (await ok(refName, 'address', [...asA, 'address'])) === `${A}\n`, 'address of the restored wallet');
    note(refName, 'address', (await ok(refName, 'address', ['--wallet', fileB, 'address'])) === `${B}\n`, 'address of the created wallet');
  });
  await step(refName, 'show', async () => {
    const out = await ok(refName, 'show', [...asA, 'show']);
    note(refName, 'show', out.includes(`address     ${A}\n`) && out.includes(`private key ${P.toHex(skA)}\n`), 'show prints address and key');
    const bad = await runWallet(refName, 'show', ['--wallet', fileE, '--passphrase-file', fileA, 'show']);
    note(
      refName,
      'show',
      bad.code === 1 && bad.stdout === '' && /^wartnode-wallet: [^\n]*passphrase[^\n]*\n$/.test(bad.stderr),
      `a wrong passphrase: one line (${bad.stderr.trim()})`,
    );
    const good = await ok(refName, 'show', ['--wallet', fileE, '--passphrase-file', passFile, 'show']);
    note(refName, 'show', /private key [0-9a-f]{64}\n/.test(good), 'show of the encrypted wallet with its passphrase');
  });

  // ---- funding: block rewards to A, mined by the reference ----
  // M gets more than a page of history (100 entries), A six rewards.
  await mine(M, 105);
  const FUND_BLOCKS = 6;
  const h0 = (await head(ref)).height;
  await mine(A, FUND_BLOCKS);
  const fundedE8 = await R.coinE8(A);
  run.log(`${refName}: ${FUND_BLOCKS} blocks mined to A (heights ${h0 + 1}-${h0 + FUND_BLOCKS}): ${e8Text(fundedE8)} WART`);

  await step(refName, 'balance', async () => {
    const out = await ok(refName, 'balance', [...asA, 'balance']);
    note(refName, 'balance', out === `address ${A}\n${coinLine(e8Text(fundedE8))}\n`, `balance of the funded wallet is the reference's ${e8Text(fundedE8)}`);
    const outB = await ok(refName, 'balance', [...asB, 'balance']);
    note(refName, 'balance', outB === `address ${B}\n${coinLine('0')}\n`, 'balance of an address the chain has not seen: 0');
    const other = await ok(refName, 'balance', ['--node', url, 'balance', A]);
    note(refName, 'balance', other === out, 'balance <address> without a wallet file');
    note(refName, 'history', (await ok(refName, 'history', [...asB, 'history'])) === 'no history\n', 'history of an address the chain has not seen');
  });

  // ---- send: pending, then mined ----
  let sent = null;
  await step(refName, 'send', async () => {
    sent = hashOf(await ok(refName, 'send', [...asA, 'send', B, '5']));
    await pending(sent);
    note(refName, 'send', true, `${sent} in the reference's mempool`);
    const bal = await ok(refName, 'balance', [...asA, 'balance']);
    note(refName, 'balance', bal.includes('(pending 5.01000448)'), `balance shows the pending transfer and fee: ${bal.split('\n')[1]?.trim()}`);
    const hb = await ok(refName, 'history', [...asB, 'history']);
    note(
      refName,
      'history',
      hb.includes(`pending        -  coinTransfer         received 5.00000000 WART from ${A}  ${sent}`),
      'history lists the pending transfer',
    );
    const h = await mined(sent);
    note(refName, 'send', (await R.coinE8(B)) === 500_000_000n, `mined in block ${h}; the reference credits B 5 WART`);
    await refused(refName, 'send', R, [...asB, 'send', A, '1000'], /^wartnode-wallet: insufficient balance: /);
    await refused(
      refName,
      'send',
      R,
      [...asA, '--fee', '0.00000001', 'send', B, '1'],
      /^wartnode-wallet: the node refused POST \/transaction\/add: error \d+: \S/,
    );
  });

  // ---- send --wait: the wallet waits while the reference mines ----
  let sentByB = null;
  await step(refName, 'send --wait', async () => {
    const before = await R.mempoolHashes();
    const p = startWallet([...asB, '--wait', '--timeout', '120', 'send', A, '0.25']);
    const w = await waitUntil(async () => (await R.mempoolHashes()).find((x) => !before.includes(x)), 30, 200);
    if (!w.value) throw new Error('no new transaction in the reference mempool');
    const h = await mine(M);
    const r = await p;
    if (/TypeError|internal error|\n\s+at /.test(r.stderr)) note(refName, 'send --wait', false, `crash: ${r.stderr}`);
    const [hash, line] = r.stdout.trim().split('\n');
    sentByB = hash;
    note(
      refName,
      'send --wait',
      r.code === 0 && hash === w.value && line === `mined in block ${h}`,
      `prints ${hash?.slice(0, 16)}… and '${line}' (${r.stderr.trim() || 'no stderr'})`,
    );
    note(refName, 'send --wait', (await R.minedAt(hash)) === h, `the reference holds it in block ${h}`);
  });

  // ---- history: every mined entry of the reference's page, newest first ----
  await step(refName, 'history', async () => {
    const out = await ok(refName, 'history', [...asA, 'history']);
    const refPage = await R.historyHashes(A, '9223372036854775807');
    const listed = out
      .split('\n')
      .filter((l) => /^ +\d+ /.test(l))
      .map((l) => l.split('  ').pop());
    note(
      refName,
      'history',
      JSON.stringify([...listed].sort()) === JSON.stringify([...refPage.hashes].sort()),
      `the ${listed.length} entries of the reference's page`,
    );
    note(refName, 'history', out.includes(`sent 5.00000000 WART to ${B}, fee 0.01000448  ${sent}`), 'the sent transfer');
    note(refName, 'history', /mining reward [\d.]+ WART/.test(out), 'the rewards');
    const heights = listed.length
      ? out
          .split('\n')
          .filter((l) => /^ +\d+ /.test(l))
          .map((l) => Number(l.trim().split(/\s+/)[0]))
      : [];
    note(
      refName,
      'history',
      heights.every((x, i) => i === 0 || heights[i - 1] >= x),
      'newest first',
    );
  });
  await step(refName, 'history --before', async () => {
    const page = await R.historyHashes(M, '9223372036854775807');
    // An id in the middle of M's history: the reference's own page before it is what the wallet lists.
    const mid = String(BigInt(page.fromId) + 3n);
    const refBefore = await R.historyHashes(M, mid);
    const out = await ok(refName, 'history --before', [...asNobody, '--before', mid, 'history', M]);
    const listed = out
      .split('\n')
      .filter((l) => /^ +\d+ /.test(l))
      .map((l) => l.split('  ').pop());
    note(
      refName,
      'history --before',
      JSON.stringify([...listed].sort()) === JSON.stringify([...refBefore.hashes].sort()) && listed.length < page.hashes.length,
      `--before ${mid}: the reference's ${refBefore.hashes.length} entries of that page (of ${page.hashes.length})`,
    );
    // Every page, as the wallet's last line names the next one: all of the reference's entries, once each.
    const walked = [];
    let next = null,
      pages = 0;
    do {
      const out = await ok(refName, 'history --before', [...asNobody, ...(next ? ['--before', next] : []), 'history', M]);
      walked.push(
        ...out
          .split('\n')
          .filter((l) => /^ +\d+ /.test(l))
          .map((l) => l.split('  ').pop()),
      );
      next = /^older entries: history --before (\d+)$/m.exec(out)?.[1] ?? null;
      pages++;
    } while (next && pages < 20);
    const all = [];
    for (let before = '9223372036854775807'; ; ) {
      const p = await R.historyHashes(M, before);
      if (p.hashes.length === 0) break;
      all.push(...p.hashes);
      if (BigInt(p.fromId) <= 1n) break;
      before = String(p.fromId);
    }
    note(
      refName,
      'history --before',
      pages > 1 && walked.length === new Set(walked).size && JSON.stringify([...walked].sort()) === JSON.stringify([...new Set(all)].sort()),
      `${pages} pages followed by their 'older entries' line: ${walked.length} entries, the reference's ${new Set(all).size}`,
    );
    const none = await ok(refName, 'history --before', [...asA, '--before', '1', 'history']);
    note(refName, 'history --before', none === 'no entries before id 1\n', `--before 1: ${JSON.stringify(none.trim())}`);
  });

  if (!spec.exchange) {
    // ---- 0.8.20: every exchange command stops before signing, with one line ----
    const tx = '11'.repeat(32);
    for (const [args, command] of [
      [['orders'], 'orders'],
      [['token', 'send', 'TOKA', B, '1'], 'token send'],
      [['token', 'send', `liquidity:${tx}`, B, '1'], 'token send'],
      [['asset', 'create', 'TOKA', '1000', '3'], 'asset create'],
      [['buy', 'TOKA', '1', '0.01'], 'buy'],
      [['sell', 'TOKA', '1', '0.05'], 'sell'],
      [['cancel', tx], 'cancel'],
      [['liquidity', 'deposit', 'TOKA', '100', '2'], 'liquidity deposit'],
      [['liquidity', 'withdraw', 'TOKA', '0.01'], 'liquidity withdraw'],
    ]) {
      const row = args[2]?.startsWith('liquidity:') ? 'token send (pool shares)' : command;
      await step(refName, row, async () => {
        for (const as of [asA, asB]) {
          const r = await runWallet(refName, row, [...as, ...args]);
          const want = `wartnode-wallet: '${command}' needs assets, orders and pools, which the node at ${url} does not have: it speaks API generation 0.8 (the mainnet reference node 0.8.20, or ours with --api=0.8)\n`;
          note(
            refName,
            row,
            r.code === 1 && r.stdout === '' && r.stderr === want,
            `${as === asA ? 'found' : '--api 0.8'}: exit ${r.code}, ${JSON.stringify(r.stderr.trim().slice(0, 90))}`,
          );
        }
        note(refName, row, (await R.mempoolHashes()).length === 0, "nothing in the reference's mempool");
      });
    }
  } else {
    await exchange(refName, { R, ok, asA, asB, A, B, mined, pending, sentByB });
  }

  if (RECORD) {
    proxy.close();
    mkdirSync(RECORD, { recursive: true });
    const doc = {
      reference: refName,
      binary: spec.exchange
        ? 'warthog-network/core defi 58031328 (0.10.3), regtest.patch, run with --testnet'
        : 'warthog-network/core master a59f7ddf (0.8.20), regtest-mainnet-0.8.patch, run with --testnet',
      recordedBy: 'scripts/wallet-live.mjs --record',
      recordedAt: new Date().toISOString().slice(0, 10),
      note: "Every wallet run against the reference, in order: its arguments, exit code and output, and each HTTP request it made with the reference's answer as sent (a request the reference closed without answering has `closed`). The wallet's --node was a pass-through in front of the reference, written http://reference; wallet files by name.",
      runs: recording.runs,
    };
    const text = JSON.stringify(doc, null, 1);
    if (/\/w[o]rk\/|\/t[m]p\//.test(text)) throw new Error('machine path in the recording');
    writeFileSync(join(RECORD, `ref-${refName}.json`), text);
    run.log(`${refName}: ${recording.runs.length} wallet runs recorded in ${join(RECORD, `ref-${refName}.json`)}`);
  }
  await stop(ref.proc);
  if (ours) await stop(ours.proc);
}

/** 0.10.3: every exchange command, each transaction mined by the reference in a block of its own per account and asset. */
async function exchange(refName, { R, ok: run, asA, asB, A, B, mined, pending, sentByB }) {
  const ok = (row, args) => run(refName, row, args);
  /** `history` of the sender lists the transaction as pending; then the reference mines it. */
  const minedSeen = async (as, hash) => {
    await pending(hash);
    const l = (await ok('history', [...as, 'history'])).split('\n').find((x) => x.endsWith(hash)) ?? '(none)';
    note(refName, 'history', l.startsWith('pending '), `pending: ${l.replace(/\s+/g, ' ')}`);
    return mined(hash);
  };
  let asset = null;
  await step(refName, 'asset create', async () => {
    asset = hashOf(await ok('asset create', [...asA, 'asset', 'create', 'TOKA', '1000', '3']));
    const h = await minedSeen(asA, asset);
    note(refName, 'asset create', (await R.tokenU64(A, `asset:${asset}`)) === 1_000_000n, `mined in ${h}; the reference credits A 1000.000 TOKA`);
  });
  await step(refName, 'token send', async () => {
    const t = hashOf(await ok('token send', [...asA, 'token', 'send', 'TOKA', B, '12.5']));
    const h = await minedSeen(asA, t);
    note(refName, 'token send', (await R.tokenU64(B, `asset:${asset}`)) === 12_500n, `by name, mined in ${h}; the reference credits B 12.500 TOKA`);
    const t2 = hashOf(await ok('token send', [...asB, 'token', 'send', `asset:${asset}`, A, '0.5']));
    const h2 = await minedSeen(asB, t2);
    note(refName, 'token send', (await R.tokenU64(B, `asset:${asset}`)) === 12_000n, `by spec asset:<hash>, mined in ${h2}; B holds 12.000`);
  });
  let shares0 = 0n;
  await step(refName, 'liquidity deposit', async () => {
    const t = hashOf(await ok('liquidity deposit', [...asA, 'liquidity', 'deposit', 'TOKA', '100', '2']));
    const h = await minedSeen(asA, t);
    shares0 = await R.tokenU64(A, `liquidity:${asset}`);
    const pool = await R.data(`/dex/market/${asset}`).catch(() => null);
    note(refName, 'liquidity deposit', shares0 > 0n, `mined in ${h}; A holds ${shares0} pool share units; pool ${JSON.stringify(pool?.liquidityPool)}`);
  });
  // Pool price 0.02 WART/TOKA: a buy at 0.01 and a sell at 0.05 rest in the book.
  let buy = null,
    sell = null;
  await step(refName, 'buy', async () => {
    buy = hashOf(await ok('buy', [...asB, 'buy', 'TOKA', '1', '0.01']));
    const o = await ok('orders', [...asB, 'orders']);
    note(refName, 'orders', o === `buy  TOKA  1.00000000 WART at 0.01 WART/TOKA, filled 0 (in mempool)  ${buy}\n`, `orders lists the pending buy: ${o.trim()}`);
    await pending(buy);
    const hb = await ok('history', [...asB, 'history']);
    note(
      refName,
      'history',
      hb.includes(`pending        -  limitSwap            buy order: 1.00000000 WART at 0.01 WART/TOKA, fee 0.01000448  ${buy}`),
      'history lists the pending buy',
    );
    await refused(refName, 'cancel', R, [...asB, 'cancel', buy], /^wartnode-wallet: order \w+ is still in the mempool: /);
    const h = await minedSeen(asB, buy);
    note(refName, 'buy', (await R.openOrderHashes(B)).includes(buy), `mined in ${h}; open on the reference`);
  });
  await step(refName, 'sell', async () => {
    await refused(refName, 'sell', R, [...asB, 'sell', 'TOKA', '12.001', '0.05'], /^wartnode-wallet: insufficient balance: /);
    sell = hashOf(await ok('sell', [...asA, 'sell', asset, '10', '0.05']));
    const h = await minedSeen(asA, sell);
    note(refName, 'sell', (await R.openOrderHashes(A)).includes(sell), `mined in ${h}; open on the reference`);
  });
  await step(refName, 'orders', async () => {
    const oa = await ok('orders', [...asA, 'orders']);
    note(refName, 'orders', oa === `sell TOKA  10.000 TOKA at 0.05 WART/TOKA, filled 0  ${sell}\n`, `A: ${oa.trim()}`);
    const ob = await ok('orders', [...asB, 'orders', B]);
    note(refName, 'orders', ob === `buy  TOKA  1.00000000 WART at 0.01 WART/TOKA, filled 0  ${buy}\n`, `B (by address): ${ob.trim()}`);
    const book = await R.data(`/dex/market/${asset}`);
    const side = (k) => book[k].map((o) => o.txHash);
    note(refName, 'orders', side('wartToAssetSwaps').includes(buy) && side('assetToWartSwaps').includes(sell), "both in the reference's market book");
  });
  await step(refName, 'cancel', async () => {
    await refused(refName, 'cancel', R, [...asB, 'cancel', sentByB], /^wartnode-wallet: \w+ is a coinTransfer, not a limit order: /);
    await refused(refName, 'cancel', R, [...asB, 'cancel', sell], /^wartnode-wallet: \w+ was sent by \w+, not by this wallet: /);
    const c = hashOf(await ok('cancel', [...asB, 'cancel', buy]));
    const h = await minedSeen(asB, c);
    const l = await R.lookup(c);
    note(
      refName,
      'cancel',
      l.transaction?.processed?.canceledTxHash === buy,
      `mined in ${h}; the reference: canceled ${l.transaction?.processed?.canceledTxHash}`,
    );
    note(refName, 'cancel', !(await R.openOrderHashes(B)).includes(buy), 'the buy is no longer open on the reference');
    note(refName, 'orders', (await ok('orders', [...asB, 'orders'])) === 'no open orders\n', 'orders after the cancel: none');
  });
  await step(refName, 'liquidity withdraw', async () => {
    const t = hashOf(await ok('liquidity withdraw', [...asA, 'liquidity', 'withdraw', 'TOKA', '0.01']));
    const h = await minedSeen(asA, t);
    const after = await R.tokenU64(A, `liquidity:${asset}`);
    note(refName, 'liquidity withdraw', after === shares0 - 1_000_000n, `mined in ${h}; A's shares ${shares0} → ${after}`);
  });
  await step(refName, 'token send (pool shares)', async () => {
    const t = hashOf(await ok('token send (pool shares)', [...asA, 'token', 'send', `liquidity:${asset}`, B, '0.001']));
    await pending(t);
    const hp = await ok('history', [...asB, 'history']);
    const pendingLine = hp.split('\n').find((l) => l.endsWith(t)) ?? '(none)';
    note(
      refName,
      'history',
      pendingLine.includes(`received 0.00100000 TOKA-LP from ${A}`),
      `history lists the pending share transfer: ${pendingLine.replace(/\s+/g, ' ')}`,
    );
    const h = await mined(t);
    for (const [as, what] of [
      [asA, `sent 0.00100000 TOKA-LP to ${B}, fee 0.01000448  ${t}`],
      [asB, `received 0.00100000 TOKA-LP from ${A}  ${t}`],
    ]) {
      const out = await ok('history', [...as, 'history']);
      const l = out.split('\n').find((x) => x.endsWith(t)) ?? '(none)';
      note(refName, 'history', l.includes(what), `history of the mined share transfer: ${l.replace(/\s+/g, ' ')}`);
    }
    note(refName, 'token send (pool shares)', (await R.tokenU64(B, `liquidity:${asset}`)) === 100_000n, `mined in ${h}; the reference credits B 0.001 shares`);
  });
  // Orders that cross the pool and fill at once (each alone in its block; the resting sell at 0.05 is not reached).
  await step(refName, 'buy', async () => {
    const before = await R.tokenU64(B, `asset:${asset}`);
    const t = hashOf(await ok('buy', [...asB, 'buy', 'TOKA', '0.1', '0.03']));
    const h = await minedSeen(asB, t);
    const got = (await R.tokenU64(B, `asset:${asset}`)) - before;
    note(refName, 'buy', got > 0n && !(await R.openOrderHashes(B)).includes(t), `crossing the pool: mined in ${h}, B got ${got} TOKA units, not open`);
    const l = (await ok('history', [...asB, 'history'])).split('\n');
    const line = l.find((x) => x.endsWith(t)) ?? '(none)';
    note(
      refName,
      'history',
      /buy order: 0\.10000000 WART at 0\.03 WART\/TOKA, closed \(filled or canceled\), fee/.test(line),
      `the filled buy: ${line.replace(/\s+/g, ' ')}`,
    );
    note(
      refName,
      'history',
      l.some((x) => x.startsWith(`${String(h).padStart(7)} `) && /match +trade in TOKA: 1 buy and 0 sell fills/.test(x)),
      `the match of block ${h}`,
    );
  });
  await step(refName, 'sell', async () => {
    const before = await R.coinE8(A);
    const t = hashOf(await ok('sell', [...asA, 'sell', 'TOKA', '1', '0.01']));
    const h = await minedSeen(asA, t);
    const got = (await R.coinE8(A)) - before;
    note(
      refName,
      'sell',
      got > 0n && !(await R.openOrderHashes(A)).includes(t),
      `crossing the pool: mined in ${h}, A's coin ${got > 0n ? '+' : ''}${got} E8 (fee included), not open`,
    );
    const line = (await ok('history', [...asA, 'history'])).split('\n').find((x) => x.endsWith(t)) ?? '(none)';
    note(
      refName,
      'history',
      /sell order: 1\.000 TOKA at 0\.01 WART\/TOKA, closed \(filled or canceled\), fee/.test(line),
      `the filled sell: ${line.replace(/\s+/g, ' ')}`,
    );
  });
  await step(refName, 'balance', async () => {
    const out = await ok('balance', [...asA, 'balance']);
    const toka = await R.data(`/account/${A}/balance/asset:${asset}`);
    const lp = await R.tokenU64(A, `liquidity:${asset}`);
    const coin = await R.coinE8(A);
    const lines = out.split('\n');
    note(refName, 'balance', lines[1] === coinLine(e8Text(coin)), `coin as the reference's ${e8Text(coin)}`);
    note(
      refName,
      'balance',
      lines.some((l) => l.startsWith('TOKA ') && l.includes(toka.balance.total.str) && l.includes(`asset:${asset}`)),
      `TOKA ${toka.balance.total.str} (locked ${toka.balance.locked.str})`,
    );
    note(
      refName,
      'balance',
      lines.some((l) => l.startsWith('TOKA-LP') && l.includes(e8Text(lp))),
      `TOKA-LP ${e8Text(lp)}`,
    );
    const ob = await ok('balance', [...asB, 'balance']);
    note(refName, 'balance', /^TOKA-LP +0\.00100000  liquidity:/m.test(ob), 'B holds the sent pool shares');
  });
  await step(refName, 'history', async () => {
    const out = await ok('history', [...asA, 'history']);
    for (const what of [
      'created asset TOKA, supply 1000.000',
      'sent 12.500 TOKA to',
      'deposited 100.000 TOKA and 2.00000000 WART',
      'sell order: 10.000 TOKA at 0.05 WART/TOKA',
      'withdrew 0.01000000 TOKA-LP',
    ])
      note(refName, 'history', out.includes(what), `A's history: '${what}'`);
    const outB = await ok('history', [...asB, 'history']);
    note(
      refName,
      'history',
      outB.includes(`canceled ${buy}`) && outB.includes('buy order: 1.00000000 WART at 0.01 WART/TOKA, canceled'),
      "B's history: the buy and its cancel",
    );
  });
}

// ------------------------------------------------------------------------------------------------

console.log(`wallet live: ${WALLET_BIN} against ${chosen.map((r) => `${r} (${REFS[r].bin})`).join(', ')}; run folder ${OUT}`);
for (const r of chosen) {
  try {
    await session(r);
  } catch (e) {
    note(r, 'session', false, String(e.stack ?? e));
  }
}

const rows = [...ROWS, ...(chosen.some((r) => results[r]?.session) ? ['session'] : [])];
const cell = (r, row) => {
  const x = results[r]?.[row];
  if (!x) return '-';
  return x.pass
    ? REFS[r].exchange ||
      !['orders', 'token send', 'token send (pool shares)', 'asset create', 'buy', 'sell', 'cancel', 'liquidity deposit', 'liquidity withdraw'].includes(row)
      ? 'PASS'
      : 'PASS (refused)'
    : 'FAIL';
};
const w = Math.max(...rows.map((x) => x.length));
console.log(`\n${'command'.padEnd(w)}  ${chosen.map((r) => r.padEnd(14)).join('  ')}`);
for (const row of rows) console.log(`${row.padEnd(w)}  ${chosen.map((r) => cell(r, row).padEnd(14)).join('  ')}`);
writeFileSync(join(OUT, 'results.json'), JSON.stringify(results, null, 1));
const pass = chosen.every((r) => Object.values(results[r] ?? {}).every((x) => x.pass) && results[r]);
console.log(`\nSUMMARY wallet-live ${pass ? 'PASS' : 'FAIL'}; results in ${OUT}/results.json, wallet runs in ${WALLET_LOG}`);
process.exit(pass ? 0 : 1);
