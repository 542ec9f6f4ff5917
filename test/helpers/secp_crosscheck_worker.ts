// A worker thread of the signature cross-check: batches [fromBatch, toBatch) under `seed`, drawn,
// run through its own kernel instance and judged against libsecp256k1; posts its Tally. Bundled by
// the test with esbuild (worker threads cannot load TypeScript).
import { parentPort, workerData } from 'node:worker_threads';
import { initKernel } from '../../ts/kernel/instance.js';
import { Libsecp256k1 } from './libsecp256k1.js';
import { drawBatch } from './secp_cases.js';
import { checkBatch, MAX_FAILURES, newTally } from './secp_crosscheck.js';

export interface CrosscheckJob {
  seed: number;
  fromBatch: number;
  toBatch: number;
  /** where the `secp256k1` package is (a worker's bundle is not beside node_modules) */
  packageDir: string;
}

async function main(job: CrosscheckJob): Promise<void> {
  await initKernel();
  const lib = new Libsecp256k1(job.packageDir);
  const tally = newTally();
  for (let b = job.fromBatch; b < job.toBatch && tally.failures.length < MAX_FAILURES; b++) checkBatch(drawBatch(job.seed, b, lib), lib, tally, job.seed);
  parentPort!.postMessage(tally);
}

// a rejection ends the worker with an 'error' event, which fails the test
void main(workerData as CrosscheckJob);
