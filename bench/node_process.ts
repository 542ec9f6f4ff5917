// A node started for a benchmark (the built bundle, regtest, RPC on a free loopback port, a
// temporary data directory), and a mempool filled through POST /transaction/add.
import { spawn } from 'node:child_process';
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
 * The environment of a node started by a benchmark: this Node.js first on PATH (the bin's
 * `#!/usr/bin/env -S node …` line finds it), and BENCH_NODE_FLAGS added to NODE_OPTIONS
 * (`--cpu-prof --cpu-prof-dir=DIR` profiles the node).
 */
export function benchNodeEnv(): NodeJS.ProcessEnv {
  const extra = process.env.BENCH_NODE_FLAGS ?? '';
  return {
    ...process.env,
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
    NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', extra].join(' ').trim(),
  };
}

export async function startBenchNode(dir: string, extra: string[] = []): Promise<BenchNode> {
  // Run from the repository root (make bench): the bundle is dist/node.mjs, run as users run it (its
  // own line adds the Node.js flags it needs, scripts/build.mjs).
  const proc = spawn(join(process.cwd(), 'dist/node.mjs'), ['--regtest', '--rpc=127.0.0.1:0', `--datadir=${dir}`, ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: benchNodeEnv(),
  });
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
