#!/usr/bin/env node
// Mainnet-era interop, live (issue 27): our node on --regtest-mainnet against the mainnet reference
// 0.8.20 built with scripts/reference/regtest-mainnet-0.8.patch (its --testnet = mainnet's rules of
// today from height 1: header version 3, Janus8, V2 bodies, new merkle root, TargetV2 on mainnet's
// 720-block retarget grid, magic REGMAIN). Every P2P byte goes through the recording proxy
// (p2precord.mjs); each case prints PASS/FAIL with its figures; every wait is bounded. Not part of
// `make test` (it needs the reference binary); what it records replays there (VECTORS, below).
//
// Usage: node scripts/mainnet-interop.mjs [CASE ...]      (default: all, in this order)
//   sync-from-ref  the reference mines BLOCKS (1,500: retargets at 720 and 1,440) through its own
//                  /chain/mine templates, solved by the project's cpu_miner; our empty node dials it
//   sync-to-ref    our node mines BLOCKS (dist/miner.mjs); an empty reference dials it
//   reorg          a common base, then twice: partition, both mine (one side 2 longer), reconnect; the
//                  shorter side reorgs; tips and balances compared (ours longer, then the reference)
//   relay          a signed coin transfer submitted to ours reaches the reference's mempool and the
//                  reference mines it; one submitted to the reference reaches ours and ours mines it
//   templates      our /chain/mine template solved and appended to the reference (ours follows); the
//                  reference's template solved and appended to ours (the reference follows)
//   defi           the six exchange transaction types to both (ours: 192 EBLOCKV4); a block with an
//                  exchange section (V4 layout, header version 3 and 4) to both through /chain/append,
//                  and to ours through P2P from a scripted peer; no head moves
// Environment:
//   REF_BIN   the reference (default $REF_WORK/regtest-mainnet-0.8/build/src/node/wart-node,
//             REF_WORK default $TMPDIR/warthog-ref or /tmp/warthog-ref)
//   OUR_DIR   a built checkout (default this one: dist/node.mjs, dist/miner.mjs, ts/ for the signer)
//   OUT       run folder (default a fresh temporary one, kept: logs, results, transcripts)
//   VECTORS   when set (test/vectors/p2p), the transcripts are also written there as
//             ref-0.8.20-mainnet-<scenario>.json, replayed by test/p2p/transcripts.test.ts
//   BLOCKS (1500), BASE (20) the chain length of the sync cases, of the others' common base
//   REORG_SHORT (4), REORG_LONG (REORG_SHORT + 2) the branches each side mines in a reorg round
// Topology (all on loopback, ports 45100-45999): the reference binds 127.0.0.1:Q, our node 127.0.0.2:X;
// the proxy listens on 127.0.0.1:X (to ours, leaving from 127.0.0.2) and on 127.0.0.2:Q (to the
// reference). Each node sees the other's claimed listen port at an address that is the proxy, so
// neither can reach the other but through it (also by the addresses they learn). The reference is
// run only as HOME=H REF_BIN --testnet --rpc=127.0.0.1:P --bind=127.0.0.1:Q --connect=127.0.0.1:X.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProxy, transcript } from './p2precord.mjs';
import { portAllocator } from './sidebyside/processes.mjs';
import { loadProject } from './lib/project.mjs';
import {
  Run,
  appendBlock,
  get,
  head,
  logLines,
  mineOne,
  post,
  refLines,
  requireFiles,
  sleep,
  startOurs,
  startRef,
  stop,
  waitSameHead,
  waitUntil,
  waitUp,
} from './lib/nodes.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const REF_WORK = process.env.REF_WORK ?? `${process.env.TMPDIR ?? '/tmp'}/warthog-ref`;
const REF_BIN = process.env.REF_BIN ?? `${REF_WORK}/regtest-mainnet-0.8/build/src/node/wart-node`;
const OUR_DIR = process.env.OUR_DIR ?? ROOT;
const OUR_BIN = join(OUR_DIR, 'dist/node.mjs');
const OUR_MINER = join(OUR_DIR, 'dist/miner.mjs');
const OUT = process.env.OUT ?? mkdtempSync(join(tmpdir(), 'mainnet-interop-'));
const VECTORS = process.env.VECTORS ?? null;
const BLOCKS = Number(process.env.BLOCKS ?? 1500);
const BASE = Number(process.env.BASE ?? 20);
const NETWORK = 'regtest-mainnet';
const REF_NAME = 'ref-0.8.20';
const REF_BUILD =
  'warthog-network/core master a59f7ddf (v0.8.20, what mainnet runs), built with shims-0.8/ and scripts/reference/regtest-mainnet-0.8.patch (build-0.8.sh --regtest-mainnet); run with --testnet';
const port = portAllocator(45100, 45999);

const ALL = ['sync-from-ref', 'sync-to-ref', 'reorg', 'relay', 'templates', 'defi'];
const cases = process.argv.slice(2).length ? process.argv.slice(2) : ALL;
for (const c of cases)
  if (!ALL.includes(c)) {
    console.error(`unknown case ${c}; cases: ${ALL.join(' ')}`);
    process.exit(2);
  }
requireFiles('mainnet-interop', [
  [REF_BIN, 'the reference binary (scripts/reference/build-0.8.sh --regtest-mainnet)'],
  [OUR_BIN, 'the built node (npm run build)'],
  [OUR_MINER, 'the built miner (npm run build)'],
]);
mkdirSync(OUT, { recursive: true });

// The project's own code: the cpu_miner's solve, signing, codecs and the wire protocol.
const P = await loadProject(
  OUR_DIR,
  [
    "export { initKernel } from './ts/kernel/instance.ts';",
    "export { solve } from './ts/miner/cpu_miner.ts';",
    "export { signRequest, requestJson } from './ts/core/signed_request.ts';",
    "export { randomPrivateKey, addressOfPrivateKey } from './ts/core/keys.ts';",
    "export { formatAddress } from './ts/core/address.ts';",
    "export { assetNameBytes } from './ts/core/transaction.ts';",
    "export { fromHex, toHex } from './ts/core/hex.ts';",
    "export { parseHeader, serializeHeader, blockHash } from './ts/core/header.ts';",
    "export { parseBody, serializeBody, bodyMerkleRoot, emptyTokenSection } from './ts/core/body.ts';",
    "export { powCheck } from './ts/kernel/pow.ts';",
    "export { fee16Encode } from './ts/kernel/fee16.ts';",
    "export { PowVersion, REGTEST_MAINNET, powVersionAt } from './ts/consensus/params.ts';",
    "export { targetAt } from './ts/consensus/header_check.ts';",
    "export { targetWork } from './ts/consensus/target.ts';",
    "export { encodeFrame, FrameDecoder } from './ts/p2p/framing.ts';",
    "export { encodeMessage, decodeMessage } from './ts/p2p/messages.ts';",
    "export { connectorHello } from './ts/p2p/handshake.ts';",
  ],
  join(OUT, 'project.mjs'),
);
const hex = (b) => Buffer.from(b).toString('hex');
const bin = (h) => P.fromHex(h);
const hashOf = (headerHex) => hex(P.blockHash(bin(headerHex)));
const FEE_CODE = P.fee16Encode(1_000_448n, 'up'); // the minimum fee, 0.01000448
const solve = (task) => P.solve(task);
const json = (o) => JSON.parse(JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));

function newWallet() {
  const sk = P.randomPrivateKey();
  const addr20 = P.addressOfPrivateKey(sk);
  return { privKey: hex(sk), address: P.formatAddress(addr20), sk, addr20 };
}
const publicKeys = (w) => ({ address: w.address, privKey: w.privKey });

// ------------------------------------------------------------------------------------------------
// A pair: our node and a reference, with the proxy between them (topology in the header).

class Pair {
  constructor(name) {
    this.name = name;
    rmSync(join(OUT, name), { recursive: true, force: true });
    this.run = new Run(join(OUT, name));
    this.ports = { ourRpc: port(), X: port(), refRpc: port(), Q: port() };
    this.gate = { toOurs: false, toRef: false };
    this.phases = [{ at: performance.now(), name: 'setup' }];
    this.actions = [];
    this.extraProxies = [];
  }
  log(m) {
    this.run.log(`${this.name}: ${m}`);
  }
  async up() {
    const { X, Q } = this.ports;
    this.toOurs = startProxy({
      listenPort: X,
      host: '127.0.0.1',
      targetHost: '127.0.0.2',
      targetPort: X,
      localAddress: '127.0.0.2',
      connector: 'ref',
      acceptor: 'ours',
      admit: () => this.gate.toOurs,
    });
    this.toRef = startProxy({
      listenPort: Q,
      host: '127.0.0.2',
      targetHost: '127.0.0.1',
      targetPort: Q,
      connector: 'ours',
      acceptor: 'ref',
      admit: () => this.gate.toRef,
    });
    await Promise.all([this.toOurs.ready, this.toRef.ready]);
  }
  phase(name) {
    this.phases.push({ at: performance.now(), name });
  }
  action(kind, fields) {
    this.actions.push({ at: performance.now(), kind, ...fields });
  }
  startOurs(connect) {
    this.ours = startOurs(this.run, {
      bin: OUR_BIN,
      network: NETWORK,
      rpc: `127.0.0.1:${this.ports.ourRpc}`,
      bind: `127.0.0.2:${this.ports.X}`,
      connect: connect ? `127.0.0.2:${this.ports.Q}` : null,
    });
    return this.ours;
  }
  startRef() {
    this.ref = startRef(this.run, {
      bin: REF_BIN,
      rpc: `127.0.0.1:${this.ports.refRpc}`,
      bind: `127.0.0.1:${this.ports.Q}`,
      connect: `127.0.0.1:${this.ports.X}`,
      home: join(this.run.dir, 'refhome'),
    });
    return this.ref;
  }
  /** No connection between the two: both gates shut, live connections cut. */
  partition() {
    this.gate.toOurs = this.gate.toRef = false;
    this.toOurs.cut();
    this.toRef.cut();
  }
  /** Connections recorded, both proxies (and scripted peers'), in order, each with its phase; self-connections dropped. */
  connections() {
    const phaseAt = (t) => this.phases.filter((p) => p.at <= t).pop().name;
    const out = [];
    let dropped = 0;
    const from = [[this.toOurs, this.ports.Q], [this.toRef, this.ports.X], ...this.extraProxies.map((p) => [p, null])];
    for (const [proxy, helloPort] of from) {
      for (const rec of proxy?.conns ?? []) {
        const t = transcript(rec);
        const hello = t.messages.find((m) => m.type.name.startsWith('Handshake (connector'));
        // A node reaching itself through the proxy (by an address it learned): the hello names its own port.
        if (helloPort !== null && hello && hello.decoded.listenPort !== helloPort) {
          dropped++;
          continue;
        }
        out.push({ t0: rec.t0, phase: phaseAt(rec.t0), ...t });
      }
    }
    out.sort((a, b) => a.t0 - b.t0);
    return { conns: out, dropped };
  }
  async close() {
    await stop(this.ours?.proc);
    await stop(this.ref?.proc);
    await this.toOurs?.close();
    await this.toRef?.close();
    for (const p of this.extraProxies) await p.close();
  }
}

/** Our node's blocks from..to: {height, hash, header, body} (hex). */
async function ourBlocks(n, from, to) {
  const out = [];
  for (let h = from; h <= to; h++) {
    const hd = (await get(`${n.url}/chain/block/${h}/header`)).data.header;
    const b = (await get(`${n.url}/chain/block/${h}/binary`)).data.bytes;
    out.push({ height: h, hash: hd.hash, header: hd.raw, body: b });
  }
  return out;
}
/** The target moved after each retarget block (720, 1,440) the chain reaches (BLOCKS). */
const retargeted = (t) => (BLOCKS < 721 || t[721] !== t[720]) && (BLOCKS < 1441 || t[1441] !== t[1440]);
/** The height a /transaction/lookup answer names: 0.8.20 `transaction.blockHeight`, ours `mined.block.height`. */
const minedAt = (j) => j.data?.transaction?.blockHeight ?? j.data?.mined?.block?.height ?? null;
const withHash = (b) => ({ height: b.height, hash: hashOf(b.header), header: b.header, body: b.body });

async function mineMany(n, address, count, label) {
  const blocks = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    blocks.push(withHash(await mineOne(n, address, solve)));
    if (label && (i + 1) % 250 === 0) console.log(`  ${label}: ${i + 1}/${count} blocks, ${((i + 1) / ((performance.now() - t0) / 1000)).toFixed(1)} blocks/s`);
  }
  return { blocks, seconds: (performance.now() - t0) / 1000 };
}

async function balanceE8(n, address) {
  const j = await get(`${n.url}/account/${address}/balance`);
  return j.code === 0 ? (j.data.balanceE8 ?? null) : 0;
}
async function inMempool(n, txHash) {
  return JSON.stringify(await get(`${n.url}/transaction/mempool`, 3000)).includes(txHash);
}

/** A common base: our node mines BASE blocks to `w`, the reference starts empty and dials ours. */
async function basePair(name, w) {
  const p = new Pair(name);
  await p.up();
  const ours = p.startOurs(false);
  await waitUp(ours);
  await mineMany(ours, w.address, BASE);
  p.gate.toOurs = true;
  const ref = p.startRef();
  await waitUp(ref);
  const s = await waitSameHead([ours, ref], BASE, 60);
  if (!s.head) throw new Error(`base of ${BASE} blocks not shared: ${JSON.stringify(s.last)}`);
  p.log(`base of ${BASE} blocks shared in ${s.seconds.toFixed(1)} s`);
  return p;
}

// ------------------------------------------------------------------------------------------------
// Transcripts (test/vectors/p2p/README.md), with `network: "regtest-mainnet"`.

/** Big decoded lists (1,500 headers, bodies) shortened: the unit's `hex` holds every byte. */
function slim(unit) {
  const d = unit.decoded;
  if (!d) return unit;
  const cut = (k) => {
    if (Array.isArray(d[k]) && d[k].length > 4) {
      const n = d[k].length;
      unit.decoded = { ...unit.decoded, [k]: [...d[k].slice(0, 2), ...d[k].slice(-2)], [`${k}Shown`]: `first 2 and last 2 of ${n} (all in hex)` };
    }
  };
  cut('headers');
  cut('bodies');
  return unit;
}

function writeTranscript(p, scenario, { description, phases, chain, keys, actions, ...extra }) {
  const { conns, dropped } = p.connections();
  const chosen = conns.filter((c) => phases.includes(c.phase) && c.messages.length > 0);
  const t0 = chosen[0]?.t0 ?? 0;
  const doc = {
    reference: REF_NAME,
    referenceBuild: REF_BUILD,
    ours: 'this project, node --regtest-mainnet',
    network: NETWORK,
    scenario,
    description,
    recordedAt: new Date().toISOString().slice(0, 10),
    wire: {
      magic: 'REGMAIN GRUNT? / REGMAIN GRUNT!',
      refListenPort: p.ports.Q,
      oursListenPort: p.ports.X,
      proxy: `reference at 127.0.0.1:${p.ports.Q}, ours at 127.0.0.2:${p.ports.X}; proxy on 127.0.0.1:${p.ports.X} (to ours) and 127.0.0.2:${p.ports.Q} (to the reference)`,
    },
    connections: chosen.map(({ t0: _t, phase, connector, acceptor, messages, closeEvents }) => ({
      phase,
      connector,
      acceptor,
      ...(connector === 'script' ? { peer: 'a peer scripted by scripts/mainnet-interop.mjs with the project codecs, not the reference' } : {}),
      messages: messages.map(slim),
      closeEvents,
    })),
    chain: { ...chain, keys },
    ...(actions ? { actions: actions.map(({ at, ...a }) => ({ t_ms: +(at - t0).toFixed(1), ...a })) } : {}),
    droppedSelfConnections: dropped,
    ...extra,
  };
  const s = JSON.stringify(doc, null, 1);
  if (/\/w[o]rk\/|\/t[m]p\//.test(s)) throw new Error('machine path in the transcript');
  const file = `${REF_NAME}-mainnet-${scenario}.json`;
  writeFileSync(join(OUT, file), s);
  if (VECTORS) {
    mkdirSync(VECTORS, { recursive: true });
    writeFileSync(join(VECTORS, file), s);
  }
  const types = new Set(chosen.flatMap((c) => c.messages.filter((m) => m.type.code !== null).map((m) => `${m.dir} ${m.type.name}`)));
  return { file, connections: chosen.length, bytes: s.length, types: [...types].sort() };
}

// ------------------------------------------------------------------------------------------------
// The cases. Each returns {pass, figures, ...}; an exception is a FAIL with its message.

async function syncFromRef() {
  const p = new Pair('sync-from-ref');
  const r = {};
  try {
    await p.up();
    const ref = p.startRef();
    await waitUp(ref);
    const wRef = newWallet();
    const m = await mineMany(ref, wRef.address, BLOCKS, 'reference mines');
    r.refMining = { blocks: BLOCKS, seconds: +m.seconds.toFixed(1), blocksPerSecond: +(BLOCKS / m.seconds).toFixed(1) };
    const targets = Object.fromEntries([719, 720, 721, 1440, 1441].filter((h) => h <= BLOCKS).map((h) => [h, m.blocks[h - 1].header.slice(64, 72)]));
    r.targets = targets;
    const refHead = await head(ref);
    if (refHead.height !== BLOCKS || refHead.hash !== m.blocks[BLOCKS - 1].hash) throw new Error(`reference head ${JSON.stringify(refHead)}`);
    p.phase('sync');
    p.gate.toRef = true;
    const t0 = performance.now();
    const ours = p.startOurs(true);
    await waitUp(ours);
    const s = await waitSameHead([ref, ours], BLOCKS, 300);
    r.sync = s.head
      ? { seconds: +((performance.now() - t0) / 1000).toFixed(1), blocksPerSecond: +(BLOCKS / ((performance.now() - t0) / 1000)).toFixed(0) }
      : { failed: s.last };
    // Retarget blocks equal on both (the header carries the target).
    const hashesEqual = [];
    for (const h of Object.keys(targets)) hashesEqual.push((await get(`${ours.url}/chain/block/${h}/hash`)).data === m.blocks[h - 1].hash);
    r.retargetBlocksEqual = hashesEqual.every(Boolean);
    r.pass = !!s.head && r.retargetBlocksEqual && retargeted(targets);
    await sleep(12_000); // a ping/pong cycle after the sync
    r.ourCloses = logLines(p.run, 'ours', /closed|EMSG|ban/i).slice(0, 10);
    r.refCloses = refLines(p.run, ref, / closed: [A-Z]/).slice(0, 10);
    r.transcript = writeTranscript(p, 'sync-from-ref', {
      description: `The reference mines ${BLOCKS} blocks through its own /chain/mine templates (retargets at 720 and 1,440, targets ${JSON.stringify(targets)}); our node starts empty and dials it through the proxy (ours = connector): handshake, Init both ways, header batches, block download, ping/pong.`,
      phases: ['sync'],
      chain: { blocks: m.blocks },
      keys: { reference: publicKeys(wRef) },
      result: { synced: !!s.head, refHead, targets },
    });
  } finally {
    await p.close();
  }
  return r;
}

async function syncToRef() {
  const p = new Pair('sync-to-ref');
  const r = {};
  try {
    await p.up();
    const ours = p.startOurs(false);
    await waitUp(ours);
    const w = newWallet();
    const t0 = performance.now();
    const miner = p.run.start('miner', process.execPath, [OUR_MINER, '--rpc', ours.url, '--address', w.address, '--blocks', String(BLOCKS)]);
    const done = await waitUntil(async () => miner.exitCode !== null || miner.signalCode !== null, 900, 200);
    if (!done.value || miner.exitCode !== 0)
      throw new Error(`dist/miner.mjs did not mine ${BLOCKS} blocks (exit ${miner.exitCode ?? miner.signalCode ?? 'none in 900 s'})`);
    const secs = (performance.now() - t0) / 1000;
    r.ourMining = { blocks: BLOCKS, seconds: +secs.toFixed(1), blocksPerSecond: +(BLOCKS / secs).toFixed(1) };
    const chain = await ourBlocks(ours, 1, BLOCKS);
    const targets = Object.fromEntries([719, 720, 721, 1440, 1441].filter((h) => h <= BLOCKS).map((h) => [h, chain[h - 1].header.slice(64, 72)]));
    r.targets = targets;
    p.phase('sync');
    p.gate.toOurs = true;
    const t1 = performance.now();
    const ref = p.startRef();
    await waitUp(ref);
    const s = await waitSameHead([ref, ours], BLOCKS, 300);
    const t = (performance.now() - t1) / 1000;
    r.sync = s.head ? { seconds: +t.toFixed(1), blocksPerSecond: +(BLOCKS / t).toFixed(0) } : { failed: s.last };
    r.pass = !!s.head && retargeted(targets);
    await sleep(12_000);
    r.ourCloses = logLines(p.run, 'ours', /closed|EMSG|ban/i).slice(0, 10);
    r.refCloses = refLines(p.run, ref, / closed: [A-Z]/).slice(0, 10);
    r.transcript = writeTranscript(p, 'sync-to-ref', {
      description: `Our node mines ${BLOCKS} blocks (dist/miner.mjs; retargets at 720 and 1,440); the reference starts empty and dials ours through the proxy (reference = connector): handshake, Init both ways, its header batches and block requests, our replies with length-prefixed V2 bodies, ping/pong.`,
      phases: ['sync'],
      chain: { blocks: chain },
      keys: { ours: publicKeys(w) },
      result: { synced: !!s.head, heads: s.last, targets },
    });
  } finally {
    await p.close();
  }
  return r;
}

const REORG_SHORT = Number(process.env.REORG_SHORT ?? 4),
  REORG_LONG = Number(process.env.REORG_LONG ?? REORG_SHORT + 2);

async function reorg() {
  const wOurs = newWallet(),
    wRef = newWallet();
  const p = await basePair('reorg', wOurs);
  const r = { rounds: [] };
  try {
    const { ours, ref } = p;
    for (const [name, oursN, refN] of [
      ['ours-longer', REORG_LONG, REORG_SHORT],
      ['ref-longer', REORG_SHORT, REORG_LONG],
    ]) {
      const round = { name };
      const base = await head(ours);
      const baseBlocks = await ourBlocks(ours, 1, base.height);
      p.partition();
      p.phase(`partition-${name}`);
      const apart = await waitUntil(async () => p.toOurs.liveCount() === 0 && p.toRef.liveCount() === 0, 10, 50);
      if (!apart.value) throw new Error('the proxy did not close its connections');
      round.partitionSeconds = apart.seconds;
      const mo = await mineMany(ours, wOurs.address, oursN);
      const mr = await mineMany(ref, wRef.address, refN);
      const [ho, hr] = [await head(ours), await head(ref)];
      round.apart = { ours: ho, ref: hr };
      const longer = oursN > refN ? ho : hr;
      p.phase(name);
      const t0 = performance.now();
      p.gate.toOurs = true; // the reference dials ours again (its --connect)
      const s = await waitSameHead([ours, ref], longer.height, 180);
      round.converged = s.head ? { seconds: +((performance.now() - t0) / 1000).toFixed(1), head: s.head } : { failed: s.last };
      round.reorgDepth = Math.min(oursN, refN);
      round.reorgedSide = oursN > refN ? 'reference' : 'ours';
      round.forkHeight = base.height;
      const bal = {};
      for (const [k, w] of [
        ['oursMiner', wOurs],
        ['refMiner', wRef],
      ])
        bal[k] = { ours: await balanceE8(ours, w.address), ref: await balanceE8(ref, w.address) };
      round.balances = bal;
      round.balancesEqual = Object.values(bal).every((b) => b.ours === b.ref);
      round.pass = !!s.head && s.head.hash === longer.hash && round.balancesEqual;
      await sleep(3000);
      p.gate.toRef = false;
      round.transcript = writeTranscript(p, `reorg-${name}`, {
        description: `Both nodes share ${base.height} blocks; partitioned (the proxy refuses), ours mines ${oursN} blocks and the reference ${refN}; then the reference dials ours again and the ${round.reorgedSide === 'ours' ? 'reference' : 'our node'}'s longer branch wins: the ${round.reorgedSide === 'ours' ? 'our node' : 'reference'} reorgs ${round.reorgDepth} blocks deep. chain.blocks: the common base (1..forkHeight); chain.ours / chain.ref: each side's branch above it.`,
        phases: [name],
        chain: { blocks: baseBlocks, forkHeight: base.height, ours: mo.blocks, ref: mr.blocks },
        keys: { ours: publicKeys(wOurs), reference: publicKeys(wRef) },
        result: { finalHead: s.head, apart: round.apart, reorgDepth: round.reorgDepth, reorgedSide: round.reorgedSide, balances: bal },
      });
      r.rounds.push(round);
    }
    r.pass = r.rounds.every((x) => x.pass);
  } finally {
    await p.close();
  }
  return r;
}

async function relay() {
  const w = newWallet(),
    wRef = newWallet();
  const p = await basePair('relay', w);
  const r = {};
  try {
    const { ours, ref } = p;
    p.phase('relay');
    // the recorded connection starts when the reference dials; wait for it to be the only live one
    await sleep(2000);
    const pin = await head(ours);
    const sign = (nonceId, amount) =>
      P.signRequest(
        w.sk,
        { type: 'coinTransfer', toAddress: wRef.addr20, amount },
        { pinHeight: pin.pinHeight, pinHash: bin(pin.pinHash), nonceId, feeCode: FEE_CODE },
      );
    // 1. to ours → the reference's mempool → the reference mines it
    const tx1 = sign(1, 100_000_000n);
    const body1 = json(P.requestJson(tx1));
    p.action('submitOurs', { nonceId: 1 });
    const t1 = performance.now();
    const a1 = await post(`${ours.url}/transaction/add`, body1);
    if (a1.code !== 0) throw new Error(`ours refused tx 1: ${JSON.stringify(a1)}`);
    const h1 = a1.data.txHash;
    const seen1 = await waitUntil(() => inMempool(ref, h1), 60, 100);
    r.oursToRef = { txHash: h1, relaySeconds: seen1.seconds === null ? null : +((performance.now() - t1) / 1000).toFixed(2) };
    const b1 = await mineOne(ref, wRef.address, solve);
    const look1 = await get(`${ref.url}/transaction/lookup/${h1}`);
    const follow1 = await waitSameHead([ours, ref], b1.height, 60);
    const ourLook1 = await get(`${ours.url}/transaction/lookup/${h1}`);
    r.oursToRef.minedByRefAt = minedAt(look1);
    r.oursToRef.oursFollowedSeconds = follow1.seconds === null ? null : +follow1.seconds.toFixed(2);
    r.oursToRef.oursSeesMinedAt = minedAt(ourLook1);
    // 2. to the reference → our mempool → ours mines it
    const tx2 = sign(2, 200_000_000n);
    const j2 = json(P.requestJson(tx2));
    const refBody = { pinHeight: j2.pinHeight, nonceId: j2.nonceId, feeE8: j2.feeE8, toAddr: j2.toAddr, amountE8: j2.coinE8, signature65: j2.signature65 };
    const t2 = performance.now();
    const a2 = await post(`${ref.url}/transaction/add`, refBody);
    if (a2.code !== 0) throw new Error(`the reference refused tx 2: ${JSON.stringify(a2)}`);
    const h2 = a2.data?.txHash;
    if (!h2) throw new Error(`the reference's /transaction/add named no txHash: ${JSON.stringify(a2)}`);
    const seen2 = await waitUntil(() => inMempool(ours, h2), 60, 100);
    r.refToOurs = { txHash: h2, relaySeconds: seen2.seconds === null ? null : +((performance.now() - t2) / 1000).toFixed(2) };
    const tmpl = await get(`${ours.url}/chain/mine/${w.address}`);
    const mined = solve(tmpl.data);
    const b2 = { height: mined.height, header: hex(mined.header), body: hex(mined.body) };
    p.action('ourBlock', { height: b2.height });
    const a3 = await appendBlock(ours, b2);
    if (a3.reply.code !== 0) throw new Error(`ours refused its own block: ${JSON.stringify(a3.reply)}`);
    const follow2 = await waitSameHead([ours, ref], b2.height, 60);
    const look2 = await get(`${ref.url}/transaction/lookup/${h2}`);
    const ourLook2 = await get(`${ours.url}/transaction/lookup/${h2}`);
    r.refToOurs.minedByOursAt = minedAt(ourLook2);
    r.refToOurs.refFollowedSeconds = follow2.seconds === null ? null : +follow2.seconds.toFixed(2);
    r.refToOurs.refSeesMinedAt = minedAt(look2);
    r.balances = {};
    for (const [k, x] of [
      ['sender', w],
      ['receiver', wRef],
    ])
      r.balances[k] = { ours: await balanceE8(ours, x.address), ref: await balanceE8(ref, x.address) };
    r.pass =
      r.oursToRef.relaySeconds !== null &&
      r.oursToRef.minedByRefAt === b1.height &&
      r.oursToRef.oursSeesMinedAt === b1.height &&
      r.refToOurs.relaySeconds !== null &&
      r.refToOurs.minedByOursAt === b2.height &&
      r.refToOurs.refSeesMinedAt === b2.height &&
      Object.values(r.balances).every((b) => b.ours === b.ref);
    await sleep(2000);
    r.refCloses = refLines(p.run, ref, / closed: [A-Z]/).slice(0, 10);
    const chain = await ourBlocks(ours, 1, b2.height);
    r.transcript = writeTranscript(p, 'relay', {
      description: `Both nodes share ${BASE} blocks (mined by ours), the reference dialled ours. Tx 1 (nonceId 1) is submitted to our node: it reaches the reference (Pong sampling → its Txreq → our LegacyTxrep 15), the reference mines it in block ${b1.height} (its Append, our requests). Tx 2 (nonceId 2) is submitted to the reference: ours learns it from its Pong, asks (Txreq), takes its LegacyTxrep 15, and mines it in block ${b2.height} (actions: when ours was given tx 1 and mined its block).`,
      phases: ['setup', 'relay'],
      chain: { blocks: chain },
      keys: { sender: publicKeys(w), receiver: publicKeys(wRef) },
      actions: p.actions,
      transactions: [
        { submittedTo: 'ours', txHash: h1, oursBody: body1, minedIn: b1.height },
        { submittedTo: 'ref', txHash: h2, refBody, oursBody: j2, minedIn: b2.height },
      ],
      result: { oursToRef: r.oursToRef, refToOurs: r.refToOurs, balances: r.balances },
    });
  } finally {
    await p.close();
  }
  return r;
}

async function templates() {
  const w = newWallet(),
    wRef = newWallet();
  const p = await basePair('templates', w);
  const r = {};
  try {
    const { ours, ref } = p;
    p.phase('templates');
    await sleep(2000);
    // 1. our template, solved, appended to the reference; ours follows
    const t1 = await get(`${ours.url}/chain/mine/${w.address}`);
    const s1 = solve(t1.data);
    const b1 = { height: s1.height, header: hex(s1.header), body: hex(s1.body) };
    const a1 = await appendBlock(ref, b1);
    const refHead1 = await head(ref);
    const f1 = await waitSameHead([ours, ref], b1.height, 60);
    r.oursTemplateToRef = {
      height: b1.height,
      reply: a1.reply,
      bodyForm: a1.form,
      refHead: refHead1.height,
      oursFollowedSeconds: f1.seconds === null ? null : +f1.seconds.toFixed(2),
    };
    // 2. the reference's template, solved, appended to ours; the reference follows
    const t2 = await get(`${ref.url}/chain/mine/${wRef.address}`);
    const s2 = solve(t2.data);
    const b2 = { height: s2.height, header: hex(s2.header), body: hex(s2.body) };
    p.action('ourBlock', { height: b2.height });
    const a2 = await appendBlock(ours, b2);
    const f2 = await waitSameHead([ours, ref], b2.height, 60);
    r.refTemplateToOurs = { height: b2.height, reply: a2.reply, refFollowedSeconds: f2.seconds === null ? null : +f2.seconds.toFixed(2) };
    r.templateFields = { ours: Object.keys(t1.data).sort(), ref: Object.keys(t2.data).sort() };
    r.pass = a1.reply.code === 0 && refHead1.hash === hashOf(b1.header) && !!f1.head && a2.reply.code === 0 && !!f2.head && f2.head.hash === hashOf(b2.header);
    await sleep(2000);
    const chain = await ourBlocks(ours, 1, b2.height);
    r.transcript = writeTranscript(p, 'templates', {
      description: `Both nodes share ${BASE} blocks (mined by ours), the reference dialled ours. Our /chain/mine template for block ${b1.height}, solved by the project's cpu_miner, is appended to the reference over HTTP: the reference announces it, ours downloads it. Then the reference's template for block ${b2.height} is solved and appended to ours (action ourBlock): ours announces it, the reference downloads it.`,
      phases: ['setup', 'templates'],
      chain: { blocks: chain },
      keys: { ours: publicKeys(w), reference: publicKeys(wRef) },
      actions: p.actions,
      result: r,
    });
  } finally {
    await p.close();
  }
  return r;
}

// ---- defi: the six exchange types and a block with an exchange section

/** A block at the next height built from our template, its body in the V4 layout with a token section. */
function exchangeBlock(task, w, originId, pin, version) {
  const header = P.parseHeader(bin(task.header));
  const body = P.parseBody(bin(task.body), 'V2');
  const k = (32 * Math.floor((task.height - 1) / 32) - pin.pinHeight) / 32;
  const assetHash = new Uint8Array(32).fill(7);
  const signed = P.signRequest(
    w.sk,
    { type: 'tokenTransfer', assetHash, isLiquidity: false, toAddress: P.addressOfPrivateKey(P.randomPrivateKey()), amount: 1n },
    { pinHeight: pin.pinHeight, pinHash: bin(pin.pinHash), nonceId: 77, feeCode: FEE_CODE },
  );
  const section = P.emptyTokenSection(1n);
  section.assetTransfers.push({
    kind: 'assetTransfer',
    originId,
    pinNonce: { nonceId: 77, relativePin: k, reserved: new Uint8Array(3) },
    feeCode: FEE_CODE,
    toId: originId,
    amount: 1n,
    signature: signed.signature,
  });
  const v4 = P.serializeBody({ ...body, layout: 'V4', countFields: 4, tokenSections: [section] });
  header.version = version;
  header.merkleRoot = P.bodyMerkleRoot(P.parseBody(v4, 'V4'), true);
  const raw = P.serializeHeader(header);
  const dv = new DataView(raw.buffer, raw.byteOffset);
  for (let n = 0; !P.powCheck(raw, P.PowVersion.Janus8); n++) dv.setUint32(76, n);
  return { height: task.height, header: hex(raw), body: hex(v4), version, hash: hashOf(hex(raw)) };
}

/**
 * A peer scripted with the project's codecs (0.8.20's dialect): dials `port` on `host`, claims the
 * chain `blocks` (1..tip, the last one the bad block) with `worksum`, answers our node's header,
 * probe and block requests and pings from it, and waits until our node closes or `seconds` pass.
 */
async function scriptedPeer(host, portNo, blocks, worksum, seconds) {
  const sock = net.connect({ host, port: portNo });
  const got = [];
  let closed = false;
  sock.on('close', () => {
    closed = true;
  });
  sock.on('error', () => {});
  await new Promise((res, rej) => {
    sock.once('connect', res);
    sock.once('error', rej);
  });
  const send = (m) => {
    const { type, payload } = P.encodeMessage(m);
    sock.write(P.encodeFrame(type, payload));
  };
  const byHeight = (h) => blocks[h - 1];
  const tip = blocks.length;
  let hs = Buffer.alloc(0);
  let dec = null;
  sock.on('data', (d) => {
    if (!dec) {
      hs = Buffer.concat([hs, d]);
      if (hs.length < 22) return;
      sock.write(Buffer.from([0])); // ack
      dec = new P.FrameDecoder();
      send({ kind: 'Init', v3: false, descriptor: 1, priority: { importance: 0, height: 0 }, length: tip, worksum, grid: [], flags: null });
      d = hs.subarray(22);
      if (!d.length) return;
    }
    for (const f of dec.push(new Uint8Array(d))) {
      const m = P.decodeMessage(f.type, f.payload);
      got.push(m.kind + ('first' in m ? ` ${m.first}-${m.last}` : 'start' in m ? ` ${m.start}+${m.count}` : m.kind === 'Probereq' ? ` @${m.height}` : ''));
      if (m.kind === 'Ping') send({ kind: 'Pong', v2: false, nonce: m.nonce, addresses: [], txids: [] });
      else if (m.kind === 'Batchreq') {
        const headers = [];
        for (let h = m.start; h < m.start + m.count && h <= tip; h++) headers.push(bin(byHeight(h).header));
        send({ kind: 'Batchrep', nonce: m.nonce, headers });
      } else if (m.kind === 'Probereq')
        send({
          kind: 'Proberep',
          nonce: m.nonce,
          descriptor: 1,
          requested: m.height >= 1 && m.height <= tip ? bin(byHeight(m.height).header) : null,
          current: bin(byHeight(tip).header),
        });
      else if (m.kind === 'Blockreq') {
        const bodies = [];
        for (let h = m.first; h <= m.last && h <= tip; h++) bodies.push(bin(byHeight(h).body));
        send({ kind: 'Blockrep', nonce: m.nonce, bodies });
      }
    }
  });
  sock.write(P.connectorHello(NETWORK, 0x00000814, 0)); // version 0.8.20, no listen port
  await waitUntil(async () => closed, seconds, 100);
  sock.destroy();
  return { closedByOurs: closed, ourMessages: got };
}

async function defi() {
  const w = newWallet();
  const p = await basePair('defi', w);
  const r = { transactions: [], blocks: [], p2p: [] };
  try {
    const { ours, ref } = p;
    p.phase('defi');
    await sleep(2000);
    const before = { ours: await head(ours), ref: await head(ref) };
    const pin = before.ours;
    const h = new Uint8Array(32).fill(7);
    const to = P.addressOfPrivateKey(P.randomPrivateKey());
    const payloads = [
      { type: 'assetCreation', supply: 1_000_000n, precision: 2, name: P.assetNameBytes('TOK') },
      { type: 'tokenTransfer', assetHash: h, isLiquidity: false, toAddress: to, amount: 1n },
      { type: 'limitSwap', assetHash: h, isBuy: true, amount: 1_000n, limit: new Uint8Array([0x80, 0, 0]) },
      { type: 'liquidityDeposit', assetHash: h, base: 1n, quote: 1n },
      { type: 'liquidityWithdrawal', assetHash: h, shares: 1n },
      { type: 'cancelation', cancelHeight: 0, cancelNonceId: 1 },
    ];
    let nonce = 10;
    for (const payload of payloads) {
      const body = json(
        P.requestJson(P.signRequest(w.sk, payload, { pinHeight: pin.pinHeight, pinHash: bin(pin.pinHash), nonceId: nonce++, feeCode: FEE_CODE })),
      );
      const a = await post(`${ours.url}/transaction/add`, body);
      const b = await post(`${ref.url}/transaction/add`, body);
      r.transactions.push({ type: payload.type, body, ours: { code: a.code, error: a.error }, ref: { code: b.code, error: b.error, data: b.data } });
    }
    // Blocks with an exchange section, header version 3 (the required one) and 4 (the token era's).
    const originId = BigInt((await get(`${ours.url}/account/${w.address}/balance`)).data.accountId);
    const task = (await get(`${ours.url}/chain/mine/${w.address}`)).data;
    const bad = [3, 4].map((v) => exchangeBlock(task, w, originId, pin, v));
    for (const b of bad) {
      const a = await appendBlock(ours, b);
      p.log(`block with an exchange section, header version ${b.version}: ours ${JSON.stringify(a.reply)}`);
      let c;
      try {
        c = await appendBlock(p.ref, b);
      } catch (e) {
        // 0.8.20 computes the merkle root of a body before it checks that the body parses
        // (state.cpp append_mined_block) and aborts on view.cpp's assert(isValid): its refusal is a crash.
        await waitUntil(async () => p.ref.proc.exitCode !== null || p.ref.proc.signalCode !== null, 10, 100);
        const last = logLines(p.run, 'ref', /\S/).slice(-1)[0] ?? '';
        c = { reply: { crashed: true, request: String(e.message ?? e), exit: p.ref.proc.exitCode ?? p.ref.proc.signalCode, lastLogLine: last }, form: 'plain' };
        p.log(`the reference ended on it: ${last}; started again on its data`);
        p.startRef();
        await waitUp(p.ref);
        c.reply.headAfterRestart = await head(p.ref);
        const again = await waitSameHead([ours, p.ref], before.ours.height, 60);
        c.reply.reconnectedSeconds = again.seconds;
      }
      p.log(`the same to the reference: ${JSON.stringify(c.reply)}`);
      r.blocks.push({ headerVersion: b.version, ours: a.reply, ref: c.reply, refBodyForm: c.form, refPlainRefusal: c.plainRefused ?? null });
    }
    // Through P2P: a scripted peer claims the base plus the bad block (version 3: its body is
    // downloaded and refused; version 4: its header is refused).
    const base = await ourBlocks(ours, 1, pin.height);
    const tipWork = BigInt(before.ours.worksumHex);
    for (const b of bad) {
      const sp = port();
      const proxy = startProxy({
        listenPort: sp,
        targetHost: '127.0.0.2',
        targetPort: p.ports.X,
        localAddress: '127.0.0.2',
        connector: 'script',
        acceptor: 'ours',
      });
      await proxy.ready;
      p.extraProxies.push(proxy);
      const work = P.targetWork(P.targetAt(P.REGTEST_MAINNET, b.height, parseInt(b.header.slice(64, 72), 16)));
      const s = await scriptedPeer('127.0.0.1', sp, [...base, b], tipWork + work, 30);
      r.p2p.push({ headerVersion: b.version, ...s, oursLog: logLines(p.run, 'ours', /127\.0\.0\.2|refus|invalid|E[A-Z_]{5,}/).slice(-4) });
    }
    const after = { ours: await head(ours), ref: await head(p.ref) };
    r.heads = { before, after };
    r.pass =
      r.transactions.every((t) => t.ours.code === 192 && t.ref.code !== 0) &&
      r.blocks.every((b) => b.ours.code !== 0 && (b.ref.crashed ? b.ref.headAfterRestart.hash === before.ref.hash : b.ref.code !== 0)) &&
      r.p2p.every((x) => x.closedByOurs) &&
      after.ours.hash === before.ours.hash &&
      after.ref.hash === before.ref.hash;
    r.transcript = writeTranscript(p, 'defi', {
      description: `Both nodes share ${BASE} blocks (mined by ours), the reference dialled ours. The six exchange transaction types, signed, are submitted to both over HTTP (ours: 192 EBLOCKV4). Blocks at height ${pin.height + 1} whose bodies carry an exchange section (V4 layout, all four count fields, a token section with one asset transfer), with header version 3 and 4 and valid proof of work, are appended to both over HTTP and offered to ours over P2P by a scripted peer (connector "script"): refused everywhere, no head moves.`,
      phases: ['setup', 'defi'],
      chain: { blocks: base, exchangeBlocks: bad },
      keys: { ours: publicKeys(w) },
      transactions: r.transactions.map((t) => ({ type: t.type, oursBody: t.body, ours: t.ours, ref: t.ref })),
      result: { blocks: r.blocks, p2p: r.p2p, heads: r.heads },
    });
  } finally {
    await p.close();
  }
  return r;
}

// ------------------------------------------------------------------------------------------------

const RUN = { 'sync-from-ref': syncFromRef, 'sync-to-ref': syncToRef, reorg, relay, templates, defi };
console.log(`mainnet interop: ${REF_BIN} against ${OUR_BIN}; run folder ${OUT}`);
const results = [];
for (const c of cases) {
  const t0 = performance.now();
  let r;
  // A port handed out can be taken before a node binds it (loopback connections of other processes
  // take ephemeral ports in our range): a node that could not start is started again on other ports.
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      r = await RUN[c]();
    } catch (e) {
      r = { pass: false, error: String(e.stack ?? e) };
    }
    if (!/ exited \(|EADDRINUSE|Cannot listen/.test(r.error ?? '')) break;
    console.log(`${c}: a node did not start (${r.error.split('\n')[0]}), again on other ports`);
  }
  r.case = c;
  r.seconds = +((performance.now() - t0) / 1000).toFixed(1);
  results.push(r);
  writeFileSync(join(OUT, `result-${c}.json`), JSON.stringify(r, null, 1));
  console.log(`${r.pass ? 'PASS' : 'FAIL'} ${c} (${r.seconds} s): ${summary(r)}`);
}

function summary(r) {
  if (r.error) return `error: ${r.error.split('\n')[0]}`;
  switch (r.case) {
    case 'sync-from-ref':
      return `reference mined ${r.refMining.blocks} blocks at ${r.refMining.blocksPerSecond}/s; ours synced in ${r.sync.seconds ?? 'FAILED'} s (${r.sync.blocksPerSecond ?? '-'} blocks/s); targets ${JSON.stringify(r.targets)}`;
    case 'sync-to-ref':
      return `ours mined ${r.ourMining.blocks} blocks at ${r.ourMining.blocksPerSecond}/s; the reference synced in ${r.sync.seconds ?? 'FAILED'} s (${r.sync.blocksPerSecond ?? '-'} blocks/s); targets ${JSON.stringify(r.targets)}`;
    case 'reorg':
      return r.rounds
        .map(
          (x) =>
            `${x.name}: ${x.reorgedSide} reorged ${x.reorgDepth} deep at fork ${x.forkHeight}, converged in ${x.converged.seconds ?? 'FAILED'} s, balances equal ${x.balancesEqual}`,
        )
        .join('; ');
    case 'relay':
      return `ours→ref ${r.oursToRef.relaySeconds} s (mined by the reference at ${r.oursToRef.minedByRefAt}), ref→ours ${r.refToOurs.relaySeconds} s (mined by ours at ${r.refToOurs.minedByOursAt})`;
    case 'templates':
      return `our template on the reference: code ${r.oursTemplateToRef.reply.code} (body ${r.oursTemplateToRef.bodyForm}), ours followed in ${r.oursTemplateToRef.oursFollowedSeconds} s; the reference's template on ours: code ${r.refTemplateToOurs.reply.code}, it followed in ${r.refTemplateToOurs.refFollowedSeconds} s`;
    case 'defi':
      return `transactions ours ${r.transactions.map((t) => t.ours.code).join('/')}, reference ${r.transactions.map((t) => t.ref.code).join('/')}; blocks (v3, v4) ours ${r.blocks.map((b) => b.ours.code).join('/')}, reference ${r.blocks.map((b) => (b.ref.crashed ? `crashed (${b.ref.lastLogLine.slice(-60)}), head unchanged after restart` : b.ref.code)).join('/')}; P2P closed by ours ${r.p2p.map((x) => x.closedByOurs).join('/')}; heads unchanged ${r.heads.after.ours.hash === r.heads.before.ours.hash && r.heads.after.ref.hash === r.heads.before.ref.hash}`;
  }
  return '';
}
writeFileSync(join(OUT, 'results.json'), JSON.stringify(results, null, 1));
console.log(`results in ${OUT}/results.json`);
process.exit(results.every((r) => r.pass) ? 0 : 1);
