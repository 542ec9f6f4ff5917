// Worker threads (node:worker_threads), each running one program on its own instance of the kernel
// module, answering jobs matched by id: the lifecycle pow_pool.ts and recover_pool.ts share. Workers
// start on first use and are ref'd only while a job is out (an idle pool never keeps the process
// alive); after IDLE_MS without a job they stop, giving their memory back, and the next job starts
// them again.
import { type Transferable, Worker } from 'node:worker_threads';
import { kernelModule } from './instance.js';

/**
 * A worker's whole program, run from its source text (so the same code works from the bundle and
 * from the TypeScript sources): it must be self-contained. It finds the kernel module at
 * `workerData.module` and answers each message `{ id, ...job }` with `{ id, answer }`.
 */
export type WorkerProgram = (threads: typeof import('node:worker_threads')) => void;

interface Pending<Answer> {
  resolve(v: Answer): void;
  reject(e: Error): void;
}

/** The timer the pool retires its idle workers with (injected by tests). */
export interface IdleTimer {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}
const REAL_TIMER: IdleTimer = {
  set: (fn, ms) => setTimeout(fn, ms).unref(),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Workers idle this long are stopped (each holds its own V8 heap and kernel instance, ~10 MB). */
export const IDLE_MS = 30_000;

export class WorkerPool<Job extends object, Answer> {
  /** Started on first use, one slot per thread; stopped again after IDLE_MS without jobs. */
  private readonly workers: (Worker | null)[];
  private readonly source: string;
  private readonly workerData: Record<string, unknown>;
  private readonly pending = new Map<number, Pending<Answer>>();
  private readonly retired = new WeakSet<Worker>();
  private idle: unknown = null;
  private nextId = 0;
  private turn = 0;
  private failure: Error | null = null;

  /**
   * Up to `threads` workers (at least one) running `program`, with `data` beside the module in
   * their workerData; `name` names the pool in its errors. The kernel must be initialised.
   */
  constructor(
    private readonly name: string,
    program: WorkerProgram,
    threads: number,
    data: Record<string, unknown> = {},
    private readonly timer: IdleTimer = REAL_TIMER,
  ) {
    this.source = `(${program.toString()})(require('node:worker_threads'))`;
    this.workerData = { module: kernelModule(), ...data };
    this.workers = Array.from({ length: Math.max(1, threads) }, () => null);
  }

  get threads(): number {
    return this.workers.length;
  }

  /** Workers running now (started and not yet stopped for idleness). */
  get running(): number {
    return this.workers.filter((w) => w !== null).length;
  }

  private worker(i: number): Worker {
    let w = this.workers[i];
    if (w) return w;
    w = new Worker(this.source, { eval: true, workerData: this.workerData });
    w.on('message', (m: { id: number; answer: Answer }) => this.settle(m.id, m.answer));
    w.on('error', (e) => this.fail(e));
    const started = w;
    w.on('exit', (code) => {
      if (!this.retired.has(started)) this.fail(new Error(`${this.name} worker exited with ${code}`));
    });
    this.workers[i] = w;
    return w;
  }

  /**
   * The answer to `job` from worker `worker` (modulo the pool; by default the next in turn), its
   * `transfer` buffers moved, not copied. Rejects only when a worker failed or the pool is closed.
   */
  run(job: Job, transfer: readonly Transferable[], worker = this.turn++): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.idle !== null) {
      this.timer.clear(this.idle);
      this.idle = null;
    }
    const w = this.worker(worker % this.workers.length);
    w.ref(); // busy: keep the process up until the answers
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      w.postMessage({ id, ...job }, transfer);
    });
  }

  /** Stops the workers; later calls fail. */
  async close(): Promise<void> {
    this.fail(new Error(`${this.name} pool closed`));
    await this.retire();
  }

  /** Stops the running workers (a later job starts them again). */
  private async retire(): Promise<void> {
    const running = this.workers.filter((w): w is Worker => w !== null);
    this.workers.fill(null);
    for (const w of running) this.retired.add(w);
    await Promise.all(running.map((w) => w.terminate()));
  }

  private settle(id: number, v: Answer): void {
    const p = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0) this.rest();
    p?.resolve(v);
  }

  /** No job out: the workers no longer keep the process up, and stop after IDLE_MS. */
  private rest(): void {
    for (const w of this.workers) w?.unref();
    if (this.idle === null && !this.failure)
      this.idle = this.timer.set(() => {
        this.idle = null;
        if (this.pending.size === 0) void this.retire();
      }, IDLE_MS);
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const p of this.pending.values()) p.reject(this.failure);
    this.pending.clear();
    for (const w of this.workers) w?.unref();
    if (this.idle !== null) {
      this.timer.clear(this.idle);
      this.idle = null;
    }
  }
}
