// Mempool admission throughput: coin transfers admitted per second through POST /transaction/add
// (JSON parsing, signature recovery, ledger reads, reservations) into a full mempool (10,000).
// Starts a real node (the built bundle) on a free loopback port with a temporary data directory.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeJson } from '../ts/api/json.js';
import { formatAddress } from '../ts/core/address.js';
import { fromHex, toHex } from '../ts/core/hex.js';
import { addressOfPrivateKey, signDigest } from '../ts/core/keys.js';
import { txHash } from '../ts/core/transaction.js';
import { fee16Decode, fee16Encode } from '../ts/kernel/fee16.js';
import { initKernel } from '../ts/kernel/instance.js';

const FILL = 10_000, MEASURE = 2_000, IN_FLIGHT = 16;

async function startNode(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  // Run from the repository root (make bench): the bundle is dist/node.mjs.
  const proc = spawn(process.execPath, [join(process.cwd(), 'dist/node.mjs'), '--regtest', '--rpc=127.0.0.1:0', `--datadir=${dir}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d) => { out += d; const m = /RPC endpoint is ([\d.]+:\d+)\./.exec(out); if (m) resolve(`http://${m[1]}`); });
    proc.once('exit', (c) => reject(new Error(`node exited ${c}: ${out}`)));
  });
  return { url, stop: () => new Promise((r) => { proc.once('exit', () => r()); proc.kill('SIGTERM'); }) };
}

export async function benchMempool(): Promise<void> {
  await initKernel();
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-bench-mempool-'));
  const node = await startNode(dir);
  try {
    const sk = Uint8Array.from({ length: 32 }, (_, i) => 3 + i);
    const from = formatAddress(addressOfPrivateKey(sk));
    const to = addressOfPrivateKey(Uint8Array.from({ length: 32 }, (_, i) => 200 - i));
    for (let i = 0; i < 40; i++) await fetch(`${node.url}/debug/fakemine/${from}`); // 120 coins
    const pinHash = fromHex(((await (await fetch(`${node.url}/chain/block/0/hash`)).json()) as { data: string }).data)!;
    const sign = (nonceId: number, feeE8: bigint) => {
      const payload = { type: 'coinTransfer' as const, toAddress: to, amount: 1n };
      const h = txHash({ pinHash, pinHeight: 0, nonceId, feeE8 }, payload);
      return writeJson({ type: 'coinTransfer', pinHeight: 0, nonceId, feeE8, toAddr: formatAddress(to), coinE8: 1n, signature65: toHex(signDigest(h, sk)) });
    };
    const base = fee16Decode(fee16Encode(1_000_448n, 'up'));
    const higher = fee16Decode(fee16Encode(2_000_000n, 'up'));
    const fill = Array.from({ length: FILL }, (_, i) => sign(i, base));
    const measure = Array.from({ length: MEASURE }, (_, i) => sign(FILL + i, higher));
    const post = async (bodies: string[]) => {
      let next = 0, ok = 0;
      await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++];
          const r = (await (await fetch(`${node.url}/transaction/add`, { method: 'POST', body })).json()) as { code: number };
          if (r.code === 0) ok++;
        }
      }));
      return ok;
    };
    const filled = await post(fill);
    const start = performance.now();
    const admitted = await post(measure);
    const s = (performance.now() - start) / 1000;
    console.log(`mempool filled with ${filled} transactions`);
    console.log(`transactions admitted/s into a full mempool (POST /transaction/add, ${IN_FLIGHT} in flight): ${Math.round(admitted / s)}`);
  } finally {
    await node.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
