// Reads while full blocks are applied (issue 29): a node's mempool holds thousands of signed
// transfers; blocks full of them are mined one after the other (GET /debug/fakemine, which builds
// the block from the mempool and applies it), while one client asks GET /chain/head back to back.
// Then the same with an admission flood (POST /transaction/add, 16 in flight) beside the mining.
// Prints the time each block took and /chain/head's p50/p99/max meanwhile. Target: p99 < 20 ms.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fee16Decode, fee16Encode } from '../ts/kernel/fee16.js';
import { initKernel } from '../ts/kernel/instance.js';
import { fundedSigner, postTransactions, startBenchNode } from './node_process.js';

const FILL = 8_000,
  FLOOD = 6_000,
  BLOCKS = 8;

const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? Number.NaN;
const ms = (x: number): string => `${x.toFixed(1)} ms`;

/** GET /chain/head back to back until `done()`; the latencies (ms). */
async function headReader(url: string, done: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!done()) {
    const t = performance.now();
    const r = (await (await fetch(`${url}/chain/head`)).json()) as { code: number };
    if (r.code !== 0) throw new Error(`/chain/head answered code ${r.code}`);
    latencies.push(performance.now() - t);
  }
  return latencies;
}

/** The mempool's size, from /metrics (the listing stops at 2,000). */
async function mempoolSize(url: string): Promise<number> {
  const m = /^wartnode_mempool_transactions (\d+)$/m.exec(await (await fetch(`${url}/metrics`)).text());
  if (!m) throw new Error('/metrics has no wartnode_mempool_transactions');
  return Number(m[1]);
}

/** Mines `BLOCKS` blocks from the mempool one after the other; each one's time (ms) and transaction count. */
async function mineBlocks(url: string): Promise<{ ms: number; txs: number }[]> {
  const out: { ms: number; txs: number }[] = [];
  for (let i = 0; i < BLOCKS; i++) {
    const before = await mempoolSize(url);
    const t = performance.now();
    const r = (await (await fetch(`${url}/debug/fakemine`)).json()) as { code: number };
    if (r.code !== 0) throw new Error(`/debug/fakemine answered code ${r.code}`);
    const took = performance.now() - t;
    const after = await mempoolSize(url);
    out.push({ ms: took, txs: before - after });
  }
  return out;
}

export async function benchHeadLatency(): Promise<void> {
  await initKernel();
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-bench-head-'));
  const node = await startBenchNode(dir);
  try {
    const sign = await fundedSigner(node.url);
    const fee = fee16Decode(fee16Encode(1_000_448n, 'up'));
    const filled = await postTransactions(
      node.url,
      Array.from({ length: FILL }, (_, i) => sign(i, fee)),
      16,
    );
    const report = (what: string, blocks: { ms: number; txs: number }[], lat: number[]): void => {
      const per = blocks.map((b) => `${b.txs}:${Math.round(b.ms)}`).join(' ');
      console.log(
        `head latency, ${what}: ${blocks.length} blocks (transactions:ms ${per}); /chain/head p50 ${ms(quantile(lat, 0.5))}, p99 ${ms(quantile(lat, 0.99))} (target < 20 ms), max ${ms(Math.max(...lat))}, ${lat.length} requests`,
      );
    };
    let mining = true;
    const reading = headReader(node.url, () => !mining);
    const blocks = await mineBlocks(node.url).finally(() => {
      mining = false;
    });
    report(`full blocks from a mempool of ${filled}`, blocks, await reading);

    mining = true;
    const flood = postTransactions(
      node.url,
      Array.from({ length: FLOOD }, (_, i) => sign(FILL + i, fee)),
      16,
    );
    const reading2 = headReader(node.url, () => !mining);
    const blocks2 = await mineBlocks(node.url).finally(() => {
      mining = false;
    });
    const admitted = await flood;
    report(`the same beside an admission flood (${admitted} admitted, 16 in flight)`, blocks2, await reading2);
  } finally {
    await node.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
