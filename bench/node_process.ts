// A node started for a benchmark (the built bundle, regtest, RPC on a free loopback port, a
// temporary data directory), and a mempool filled through POST /transaction/add.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { writeJson } from '../ts/api/json.js';
import { formatAddress } from '../ts/core/address.js';
import { fromHex, toHex } from '../ts/core/hex.js';
import { addressOfPrivateKey, signDigest } from '../ts/core/keys.js';
import { txHash } from '../ts/core/transaction.js';

export interface BenchNode {
  url: string;
  /** The P2P endpoint, when started with `--bind`. */
  p2p: string | null;
  pid: number;
  stop(): Promise<void>;
}

/**
 * How a benchmark starts the node bin with `args`: the bin itself (its `#!/usr/bin/env -S node …`
 * line adds the Node.js flags it runs with, scripts/build.mjs), this Node.js first on PATH. With
 * BENCH_NODE_FLAGS (`--cpu-prof --cpu-prof-dir=DIR` profiles the node; Node refuses those in
 * NODE_OPTIONS) it runs this Node.js with the bin's flags, then those, then the bin.
 */
export function nodeCommand(bin: string, args: string[]): { cmd: string; argv: string[]; env: NodeJS.ProcessEnv } {
  const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
  const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  if (!extra.length) return { cmd: bin, argv: args, env };
  const own = /^#!\/usr\/bin\/env -S node(.*)$/m.exec(readFileSync(bin, 'utf8').slice(0, 200))?.[1].split(' ').filter(Boolean) ?? [];
  return { cmd: process.execPath, argv: [...own, ...extra, bin, ...args], env };
}

export async function startBenchNode(dir: string, extra: string[] = []): Promise<BenchNode> {
  // Run from the repository root (make bench): the bundle is dist/node.mjs, run as users run it (its
  // own line adds the Node.js flags it needs, scripts/build.mjs).
  const { cmd, argv, env } = nodeCommand(join(process.cwd(), 'dist/node.mjs'), ['--regtest', '--rpc=127.0.0.1:0', `--datadir=${dir}`, ...extra]);
  const proc = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], env });
  // The node's warnings (peers closed, …) would drown the figures: kept only to explain an early exit.
  let err = '';
  proc.stderr!.on('data', (d) => {
    err = (err + d).slice(-4_000);
  });
  const wantP2p = extra.some((a) => a.startsWith('--bind'));
  let out = '';
  const [url, p2p] = await new Promise<[string, string | null]>((resolve, reject) => {
    proc.stdout!.on('data', (d) => {
      if (out.length < 100_000) out += d;
      const rpc = /RPC endpoint is ([\d.]+:\d+)\./.exec(out),
        peers = /P2P endpoint is ([\d.]+:\d+)\./.exec(out);
      if (rpc && (!wantP2p || peers)) resolve([`http://${rpc[1]}`, peers ? peers[1] : null]);
    });
    proc.once('exit', (c) => reject(new Error(`node exited ${c}: ${out}${err}`)));
  });
  return {
    url,
    p2p,
    pid: proc.pid!,
    stop: () =>
      new Promise((r) => {
        proc.once('exit', () => r());
        proc.kill('SIGTERM');
      }),
  };
}

/** POST, retried once when the connection was closed under it (a resubmitted transaction has the same id). */
async function postOnce(url: string, body: string): Promise<{ code: number }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await (await fetch(url, { method: 'POST', body })).json()) as { code: number };
    } catch (e) {
      if (attempt > 0) throw e;
    }
  }
}

/** A funded sender on a fresh regtest node (40 fake-mined blocks) and signed coin transfers of 1 unit from it. */
export async function fundedSigner(url: string): Promise<(nonceId: number, feeE8: bigint) => string> {
  const sk = Uint8Array.from({ length: 32 }, (_, i) => 3 + i);
  const from = formatAddress(addressOfPrivateKey(sk));
  const to = addressOfPrivateKey(Uint8Array.from({ length: 32 }, (_, i) => 200 - i));
  for (let i = 0; i < 40; i++) await fetch(`${url}/debug/fakemine/${from}`); // 120 coins
  const pinHash = fromHex(((await (await fetch(`${url}/chain/block/0/hash`)).json()) as { data: string }).data)!;
  return (nonceId, feeE8) => {
    const payload = { type: 'coinTransfer' as const, toAddress: to, amount: 1n };
    const h = txHash({ pinHash, pinHeight: 0, nonceId, feeE8 }, payload);
    return writeJson({ type: 'coinTransfer', pinHeight: 0, nonceId, feeE8, toAddr: formatAddress(to), coinE8: 1n, signature65: toHex(signDigest(h, sk)) });
  };
}

/** Posts the request bodies, `inFlight` at a time; returns how many were admitted. */
export async function postTransactions(url: string, bodies: string[], inFlight = 16): Promise<number> {
  let next = 0,
    ok = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const r = await postOnce(`${url}/transaction/add`, body);
        if (r.code === 0) ok++;
      }
    }),
  );
  return ok;
}
