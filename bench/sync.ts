// Peer-to-peer sync throughput on loopback: node A serves a regtest chain built in process with real
// proof of work, node B starts with `--connect` to A, and the time until B reports A's head is
// measured (p2p.md §3.3 header download, §3.4 block download, applied with full validation).
// Figures: empty blocks here; full blocks (353 signed coin transfers each) for the scale section.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeCommand } from './node_process.js';
import { Chain } from '../ts/chain/chain.js';
import { buildTemplate } from '../ts/mining/template.js';
import { REGTEST, powVersionAt } from '../ts/consensus/params.js';
import { addressOfPrivateKey, signDigest } from '../ts/core/keys.js';
import { txHash } from '../ts/core/transaction.js';
import { initKernel } from '../ts/kernel/instance.js';
import { fee16Decode } from '../ts/kernel/fee16.js';
import { powCheck } from '../ts/kernel/pow.js';
import { solve, type MiningTask } from '../ts/miner/cpu_miner.js';
import { toHex } from '../ts/core/hex.js';
import { formatAddress } from '../ts/core/address.js';
import type { PendingTx } from '../ts/mempool/pending.js';
import { openDatabase } from '../ts/store/database.js';

const TRANSFERS_PER_BLOCK = 353;
const FULL_BLOCKS = 60;
const EMPTY_BLOCKS = 2_000;
const T0 = 1_700_000_000;

/** The node bundle, next to the bench bundle (dist/bench.mjs) or built from bench/ (tsx). */
export function nodeBin(): string {
  const here = import.meta.dirname;
  const candidates = [join(here, 'node.mjs'), join(here, '../dist/node.mjs')];
  const bin = candidates.find((p) => existsSync(p));
  if (!bin) throw new Error('dist/node.mjs not found: run `node scripts/build.mjs` first');
  return bin;
}

/** A regtest data directory holding `n` blocks with real PoW; `full`: 353 transfers per block after 2 setup blocks. */
export async function buildChain(n: number, full: boolean): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-bench-sync-'));
  const { db } = await openDatabase(dir);
  const chain = await Chain.open(db, REGTEST);
  const sk = Uint8Array.from({ length: 32 }, (_, i) => 7 + i);
  const sender = addressOfPrivateKey(sk);
  const receiver = addressOfPrivateKey(Uint8Array.from({ length: 32 }, (_, i) => 99 - i));
  let nonceId = 0;
  for (let h = 1; h <= n; h++) {
    const transfers: PendingTx[] = [];
    if (full && h > 2) {
      for (let i = 0; i < TRANSFERS_PER_BLOCK; i++, nonceId++) {
        const payload = { type: 'coinTransfer' as const, toAddress: receiver, amount: 1n };
        const pinHash = chain.hashAt(0);
        const hash = txHash({ pinHash, pinHeight: 0, nonceId, feeE8: fee16Decode(0) }, payload);
        transfers.push({
          hash,
          payload,
          originId: 1n,
          originAddress: sender,
          pinHeight: 0,
          pinHash,
          nonceId,
          feeCode: 0,
          feeE8: 1n,
          signature: signDigest(hash, sk),
        });
      }
    }
    const now = T0 + 20 * h;
    const t = await buildTemplate(chain, db, h === 2 ? receiver : sender, now, transfers);
    const v = new DataView(t.header.buffer, t.header.byteOffset);
    for (let nonce = 0; !powCheck(t.header, powVersionAt(REGTEST, h)); nonce++) v.setUint32(76, nonce);
    await chain.append(t.header, t.body, { now });
  }
  await chain.idle();
  await db.close();
  return dir;
}

export interface RunningNode {
  proc: ChildProcess;
  url: string;
  p2p: string;
  stop(): Promise<void> /** Everything it printed so far. */;
  output(): string;
}

/** Starts dist/node.mjs on loopback ports with `dataDir`; resolves once its RPC and P2P endpoints are up. */
export function startNode(dataDir: string, extra: string[]): Promise<RunningNode> {
  const { cmd, argv, env } = nodeCommand(nodeBin(), ['--regtest', '--rpc=127.0.0.1:0', '--bind=127.0.0.1:0', `--datadir=${dataDir}`, ...extra]);
  const proc = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node did not start:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      const rpc = /RPC endpoint is ([\d.]+:\d+)\./.exec(out),
        p2p = /P2P endpoint is ([\d.]+:\d+)\./.exec(out);
      if (!rpc || !p2p) return;
      clearTimeout(timer);
      resolve({
        proc,
        url: `http://${rpc[1]}`,
        p2p: p2p[1],
        output: () => out,
        stop: () =>
          new Promise((done) => {
            if (proc.exitCode !== null) return done();
            proc.once('exit', () => done());
            proc.kill('SIGTERM');
          }),
      });
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`node exited with ${code}:\n${out}`));
    });
  });
}

async function headHeight(url: string): Promise<number> {
  const r = (await (await fetch(`${url}/chain/head`)).json()) as { data: { chainHead: { height: number } } };
  return r.data.chainHead.height;
}

/** Seconds from B being up until it holds A's `height` blocks. */
export async function timeSync(dataDir: string, height: number): Promise<number> {
  const a = await startNode(dataDir, []);
  const bDir = await mkdtemp(join(tmpdir(), 'wartnode-bench-sync-b-'));
  let b: RunningNode | null = null;
  try {
    if ((await headHeight(a.url)) !== height) throw new Error('node A did not load the chain');
    const start = performance.now();
    b = await startNode(bDir, [`--connect=${a.p2p}`]);
    const deadline = Date.now() + 600_000;
    while ((await headHeight(b.url)) < height) {
      if (Date.now() > deadline) throw new Error('node B did not sync within 10 minutes');
      await new Promise((r) => setTimeout(r, 20));
    }
    return (performance.now() - start) / 1000;
  } finally {
    await b?.stop();
    await a.stop();
    await rm(bDir, { recursive: true, force: true });
  }
}

/** Full blocks synced per second between two nodes (printed by the scale section). */
export async function fullBlocksPerSecond(): Promise<number> {
  await initKernel();
  const full = await buildChain(FULL_BLOCKS, true);
  try {
    return FULL_BLOCKS / (await timeSync(full, FULL_BLOCKS));
  } finally {
    await rm(full, { recursive: true, force: true });
  }
}

/**
 * A burst of `n` blocks mined on A while B is connected (issue 9 §3): seconds from A's last block
 * until B holds it (mined with real proof of work over HTTP, as fast as this process solves them).
 */
export async function burstSeconds(n: number): Promise<number> {
  const aDir = await mkdtemp(join(tmpdir(), 'wartnode-bench-burst-a-'));
  const bDir = await mkdtemp(join(tmpdir(), 'wartnode-bench-burst-b-'));
  const a = await startNode(aDir, []);
  let b: RunningNode | null = null;
  try {
    b = await startNode(bDir, [`--connect=${a.p2p}`]);
    const deadline = Date.now() + 30_000;
    while (!/Connected to peer/.test(b.output())) {
      if (Date.now() > deadline) throw new Error('B did not connect to A');
      await new Promise((r) => setTimeout(r, 20));
    }
    const address = formatAddress(addressOfPrivateKey(Uint8Array.from({ length: 32 }, (_, i) => 3 + i)));
    for (let mined = 0; mined < n; ) {
      const task = ((await (await fetch(`${a.url}/chain/mine/${address}`)).json()) as { data: MiningTask }).data;
      const block = solve(task);
      if (!block) continue;
      const r = await fetch(`${a.url}/chain/append`, {
        method: 'POST',
        body: JSON.stringify({ height: block.height, header: toHex(block.header), body: toHex(block.body) }),
      });
      if (((await r.json()) as { code: number }).code === 0) mined++;
    }
    const start = performance.now();
    while ((await headHeight(b.url)) < n) {
      if (performance.now() - start > 300_000) throw new Error('B did not get the burst within 5 minutes');
      await new Promise((r) => setTimeout(r, 10));
    }
    return (performance.now() - start) / 1000;
  } finally {
    await b?.stop();
    await a.stop();
    await rm(aDir, { recursive: true, force: true });
    await rm(bDir, { recursive: true, force: true });
  }
}

const BURST_BLOCKS = 100;

export async function benchSync(): Promise<void> {
  await initKernel();
  console.log(`p2p burst: ${BURST_BLOCKS} blocks mined on A reach connected B ${(await burstSeconds(BURST_BLOCKS)).toFixed(2)} s after A's last one`);
  const empty = await buildChain(EMPTY_BLOCKS, false);
  try {
    const s = await timeSync(empty, EMPTY_BLOCKS);
    console.log(`p2p blocks synced/s (empty blocks, headers and bodies applied): ${Math.round(EMPTY_BLOCKS / s)}`);
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
}
