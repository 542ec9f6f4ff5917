// Proof of work of many headers at once, in worker threads (node:worker_threads), each with its own
// instance of the kernel module: header sync verifies thousands of headers per reply, and the
// hashing (§3) is independent per header, while the checks against the chain stay in order on the
// main thread. The workers' lifecycle is WorkerPool's (worker_pool.ts).
import { availableParallelism } from 'node:os';
import { HEADER_BYTES, type PowVersion } from './pow.js';
import { WorkerPool } from './worker_pool.js';

/** Below this many headers per worker, splitting costs more than it saves. */
const MIN_SLICE = 256;

interface Job {
  headers: Uint8Array<ArrayBuffer>;
  versions: Uint8Array<ArrayBuffer>;
}
/** Per header: `ok[i]` 1 when its proof of work is valid; `hashes` its SHA256d (32 bytes each, §2.2). */
export interface PowVerdicts {
  ok: Uint8Array;
  hashes: Uint8Array;
}

/**
 * The worker's WorkerProgram (self-contained: it may use nothing from this module): instantiate
 * the kernel, then answer each job with one byte per header, 1 where pow_check accepts it, and the
 * headers' hashes.
 */
function workerProgram({ parentPort, workerData }: typeof import('node:worker_threads')): void {
  const x = new WebAssembly.Instance(workerData.module as WebAssembly.Module, {}).exports as unknown as {
    memory: WebAssembly.Memory;
    wasm_alloc(n: number): number;
    pow_check(p: number, v: number): number;
    sha256d_raw(p: number, len: number, out: number): void;
  };
  const size = workerData.headerBytes as number;
  const ptr = x.wasm_alloc(size + 32);
  parentPort!.on('message', (job: { id: number; headers: Uint8Array; versions: Uint8Array }) => {
    const ok = new Uint8Array(job.versions.length);
    const hashes = new Uint8Array(32 * ok.length);
    for (let i = 0; i < ok.length; i++) {
      new Uint8Array(x.memory.buffer, ptr, size).set(job.headers.subarray(i * size, (i + 1) * size));
      ok[i] = x.pow_check(ptr, job.versions[i]) === 1 ? 1 : 0;
      x.sha256d_raw(ptr, size, ptr + size);
      hashes.set(new Uint8Array(x.memory.buffer, ptr + size, 32), 32 * i);
    }
    parentPort!.postMessage({ id: job.id, answer: { ok, hashes } }, [ok.buffer, hashes.buffer]);
  });
}

export class PowPool {
  private readonly pool: WorkerPool<Job, PowVerdicts>;

  /** `threads` workers (default: one per core); the kernel must be initialised. */
  constructor(threads = availableParallelism()) {
    this.pool = new WorkerPool('PoW', workerProgram, threads, { headerBytes: HEADER_BYTES });
  }

  get threads(): number {
    return this.pool.threads;
  }

  /**
   * PoW of `headers` (n × 80 bytes, concatenated) with `versions[i]` for header i, and their hashes.
   * Rejects only when a worker failed (not a verdict on the headers).
   */
  async verify(headers: Uint8Array, versions: Uint8Array | PowVersion[]): Promise<PowVerdicts> {
    const n = versions.length;
    if (headers.length !== n * HEADER_BYTES) throw new RangeError(`${headers.length} bytes for ${n} headers`);
    const parts = Math.max(1, Math.min(this.pool.threads, Math.floor(n / MIN_SLICE)));
    const per = Math.ceil(n / parts);
    const slices: Promise<PowVerdicts>[] = [];
    for (let k = 0; k * per < n; k++) {
      const from = k * per,
        to = Math.min(n, from + per);
      const job: Job = { headers: headers.slice(from * HEADER_BYTES, to * HEADER_BYTES), versions: Uint8Array.from(versions.slice(from, to)) };
      slices.push(this.pool.run(job, [job.headers.buffer, job.versions.buffer], k));
    }
    const out: PowVerdicts = { ok: new Uint8Array(n), hashes: new Uint8Array(32 * n) };
    (await Promise.all(slices)).forEach((v, k) => {
      out.ok.set(v.ok, k * per);
      out.hashes.set(v.hashes, 32 * k * per);
    });
    return out;
  }

  /** Stops the workers; later calls fail. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

let shared: PowPool | null = null;

/** The process's pool, started on first use. */
export function powPool(): PowPool {
  shared ??= new PowPool();
  return shared;
}
