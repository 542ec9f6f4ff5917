// secp256k1 public-key recovery of many signatures at once, in worker threads (node:worker_threads),
// each with its own instance of the kernel module, as pow_pool.ts does for proof of work: a block of
// 353 signed transfers spends most of its application in recovery, which is independent per
// signature. The workers' lifecycle is WorkerPool's (worker_pool.ts).
import { availableParallelism } from 'node:os';
import { WorkerPool } from './worker_pool.js';

/** Bytes of one job item: digest(32) ‖ signature(65). */
export const RECOVER_ITEM = 97;
/** Bytes of one hinted job item: digest(32) ‖ signature(65) ‖ the key expected (33; zeros: none). */
export const HINTED_ITEM = 130;
/** Bytes of one answer: status(1, 0 = recovered) ‖ compressed key(33). */
export const RECOVERED_ITEM = 34;
/** Below this many signatures per worker, splitting costs more than it saves. */
const MIN_SLICE = 32;

/**
 * The worker's WorkerProgram (self-contained: it may use nothing from this module): the job's
 * items digest ‖ signature through the kernel's secp256k1_recover_many in one call (it shares the
 * inversions across the job), or, hinted, digest ‖ signature ‖ key through
 * secp256k1_recover_many_hinted; answered as status ‖ key each.
 */
function workerProgram({ parentPort, workerData }: typeof import('node:worker_threads')): void {
  const x = new WebAssembly.Instance(workerData.module as WebAssembly.Module, {}).exports as unknown as {
    memory: WebAssembly.Memory;
    wasm_alloc(n: number): number;
    wasm_free(p: number, n: number): void;
    secp256k1_recover_many(items: number, n: number, out: number): void;
    secp256k1_recover_many_hinted(items: number, n: number, out: number): void;
  };
  parentPort!.on('message', (job: { id: number; items: Uint8Array; hinted: boolean }) => {
    const item = job.hinted ? 130 : 97;
    const n = job.items.length / item;
    const size = (item + 34) * n;
    const ptr = x.wasm_alloc(size);
    new Uint8Array(x.memory.buffer, ptr, item * n).set(job.items);
    if (job.hinted) x.secp256k1_recover_many_hinted(ptr, n, ptr + item * n);
    else x.secp256k1_recover_many(ptr, n, ptr + item * n);
    const out = new Uint8Array(x.memory.buffer, ptr + item * n, 34 * n).slice();
    x.wasm_free(ptr, size);
    parentPort!.postMessage({ id: job.id, answer: out }, [out.buffer]);
  });
}

export class RecoverPool {
  private readonly pool: WorkerPool<{ items: Uint8Array; hinted: boolean }, Uint8Array>;

  /** `threads` workers (default: one per core); the kernel must be initialised. */
  constructor(threads = availableParallelism()) {
    this.pool = new WorkerPool('recovery', workerProgram, threads);
  }

  get threads(): number {
    return this.pool.threads;
  }

  /**
   * Recovers n signatures: `items` is n × (digest ‖ signature), or `hinted` n × (digest ‖ signature
   * ‖ expected key) (HINTED_ITEM, recoverManyHintedKernel: the same answers, faster where the keys
   * are right); the answer n × (status ‖ key), status 0 where a key recovers (the kernel's statuses
   * otherwise, see RECOVER_ERRORS). Rejects only when a worker failed (not a verdict on the signatures).
   */
  async recover(items: Uint8Array, hinted = false): Promise<Uint8Array> {
    const size = hinted ? HINTED_ITEM : RECOVER_ITEM;
    if (items.length % size !== 0) throw new RangeError(`${items.length} bytes are not whole items`);
    const n = items.length / size;
    const parts = Math.max(1, Math.min(this.pool.threads, Math.floor(n / MIN_SLICE)));
    const per = Math.ceil(n / parts);
    const slices: Promise<Uint8Array>[] = [];
    for (let from = 0; from < n; from += per) {
      const slice = items.slice(from * size, Math.min(n, from + per) * size);
      slices.push(this.pool.run({ items: slice, hinted }, [slice.buffer]));
    }
    const out = new Uint8Array(n * RECOVERED_ITEM);
    (await Promise.all(slices)).forEach((v, k) => out.set(v, k * per * RECOVERED_ITEM));
    return out;
  }

  /** Stops the workers; later calls fail. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

let shared: RecoverPool | null = null;

/** The process's pool, started on first use. */
export function recoverPool(): RecoverPool {
  shared ??= new RecoverPool();
  return shared;
}
