// Proof of work of many headers at once, in worker threads (node:worker_threads), each with its own
// instance of the kernel module: header sync verifies thousands of headers per reply, and the
// hashing (§3) is independent per header, while the checks against the chain stay in order on the
// main thread. Workers are unref'd: an idle pool never keeps the process alive.
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { kernelModule } from './instance.js';
import { HEADER_BYTES, type PowVersion } from './pow.js';

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
interface Done extends PowVerdicts {
  id: number;
}
interface Pending {
  resolve(v: PowVerdicts): void;
  reject(e: Error): void;
}

/**
 * The worker's whole program, run from its source text (so the same code works from the bundle and
 * from the TypeScript sources): instantiate the kernel, then answer each job with one byte per
 * header, 1 where pow_check accepts it. Self-contained: it may use nothing from this module.
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
    parentPort!.postMessage({ id: job.id, ok, hashes }, [ok.buffer, hashes.buffer]);
  });
}

export class PowPool {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | null = null;

  /** `threads` workers (default: one per core); the kernel must be initialised. */
  constructor(threads = availableParallelism()) {
    const source = `(${workerProgram.toString()})(require('node:worker_threads'))`;
    const workerData = { module: kernelModule(), headerBytes: HEADER_BYTES };
    this.workers = Array.from({ length: Math.max(1, threads) }, () => {
      const w = new Worker(source, { eval: true, workerData });
      w.on('message', (m: Done) => this.settle(m.id, m));
      w.on('error', (e) => this.fail(e));
      w.on('exit', (code) => this.fail(new Error(`PoW worker exited with ${code}`)));
      w.unref();
      return w;
    });
  }

  get threads(): number {
    return this.workers.length;
  }

  /**
   * PoW of `headers` (n × 80 bytes, concatenated) with `versions[i]` for header i, and their hashes.
   * Rejects only when a worker failed (not a verdict on the headers).
   */
  async verify(headers: Uint8Array, versions: Uint8Array | PowVersion[]): Promise<PowVerdicts> {
    const n = versions.length;
    if (headers.length !== n * HEADER_BYTES) throw new RangeError(`${headers.length} bytes for ${n} headers`);
    const parts = Math.max(1, Math.min(this.workers.length, Math.floor(n / MIN_SLICE)));
    const per = Math.ceil(n / parts);
    const slices: Promise<PowVerdicts>[] = [];
    for (let k = 0; k * per < n; k++) {
      const from = k * per,
        to = Math.min(n, from + per);
      slices.push(
        this.run(k, {
          headers: headers.slice(from * HEADER_BYTES, to * HEADER_BYTES),
          versions: Uint8Array.from(versions.slice(from, to)),
        }),
      );
    }
    const out: PowVerdicts = { ok: new Uint8Array(n), hashes: new Uint8Array(32 * n) };
    (await Promise.all(slices)).forEach((v, k) => {
      out.ok.set(v.ok, k * per);
      out.hashes.set(v.hashes, 32 * k * per);
    });
    return out;
  }

  /** Stops the workers; later calls fail. */
  async close(): Promise<void> {
    this.fail(new Error('PoW pool closed'));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private run(k: number, job: Job): Promise<PowVerdicts> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.pending.size === 0) for (const w of this.workers) w.ref(); // busy: keep the process up until the answers
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.workers[k % this.workers.length].postMessage({ id, ...job }, [job.headers.buffer, job.versions.buffer]);
    });
  }

  private settle(id: number, v: PowVerdicts): void {
    const p = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0) for (const w of this.workers) w.unref();
    p?.resolve(v);
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const p of this.pending.values()) p.reject(this.failure);
    this.pending.clear();
    for (const w of this.workers) w.unref();
  }
}

let shared: PowPool | null = null;

/** The process's pool, started on first use. */
export function powPool(): PowPool {
  shared ??= new PowPool();
  return shared;
}
