// Mempool admission throughput: coin transfers admitted per second through POST /transaction/add
// (JSON parsing, signature recovery, ledger reads, reservations) into a full mempool (10,000).
// Starts a real node (the built bundle) on a free loopback port with a temporary data directory.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fee16Decode, fee16Encode } from '../ts/kernel/fee16.js';
import { initKernel } from '../ts/kernel/instance.js';
import { fundedSigner, postTransactions, startBenchNode } from './node_process.js';

const FILL = 10_000,
  MEASURE = 2_000,
  IN_FLIGHT = 16;

export async function benchMempool(): Promise<void> {
  await initKernel();
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-bench-mempool-'));
  const node = await startBenchNode(dir);
  try {
    const sign = await fundedSigner(node.url);
    const base = fee16Decode(fee16Encode(1_000_448n, 'up'));
    const higher = fee16Decode(fee16Encode(2_000_000n, 'up'));
    const fill = Array.from({ length: FILL }, (_, i) => sign(i, base));
    const measure = Array.from({ length: MEASURE }, (_, i) => sign(FILL + i, higher));
    const filled = await postTransactions(node.url, fill, IN_FLIGHT);
    const start = performance.now();
    const admitted = await postTransactions(node.url, measure, IN_FLIGHT);
    const s = (performance.now() - start) / 1000;
    console.log(`mempool filled with ${filled} transactions`);
    console.log(`transactions admitted/s into a full mempool (POST /transaction/add, ${IN_FLIGHT} in flight): ${Math.round(admitted / s)}`);
  } finally {
    await node.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
