// Worker threads (node:worker_threads), each running one program on its own instance of the kernel
// module, answering jobs matched by id: the lifecycle pow_pool.ts and recover_pool.ts share. Workers
// are ref'd only while a job is out: an idle pool never keeps the process alive.
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

export class WorkerPool<Job extends object, Answer> {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, Pending<Answer>>();
  private nextId = 0;
  private turn = 0;
  private failure: Error | null = null;

  /**
   * `threads` workers (at least one) running `program`, with `data` beside the module in their
   * workerData; `name` names the pool in its errors. The kernel must be initialised.
   */
  constructor(
    private readonly name: string,
    program: WorkerProgram,
    threads: number,
    data: Record<string, unknown> = {},
  ) {
    const source = `(${program.toString()})(require('node:worker_threads'))`;
    const workerData = { module: kernelModule(), ...data };
    this.workers = Array.from({ length: Math.max(1, threads) }, () => {
      const w = new Worker(source, { eval: true, workerData });
      w.on('message', (m: { id: number; answer: Answer }) => this.settle(m.id, m.answer));
      w.on('error', (e) => this.fail(e));
      w.on('exit', (code) => this.fail(new Error(`${name} worker exited with ${code}`)));
      w.unref();
      return w;
    });
  }

  get threads(): number {
    return this.workers.length;
  }

  /**
   * The answer to `job` from worker `worker` (modulo the pool; by default the next in turn), its
   * `transfer` buffers moved, not copied. Rejects only when a worker failed or the pool is closed.
   */
  run(job: Job, transfer: readonly Transferable[], worker = this.turn++): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    if (this.pending.size === 0) for (const w of this.workers) w.ref(); // busy: keep the process up until the answers
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.workers[worker % this.workers.length].postMessage({ id, ...job }, transfer);
    });
  }

  /** Stops the workers; later calls fail. */
  async close(): Promise<void> {
    this.fail(new Error(`${this.name} pool closed`));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private settle(id: number, v: Answer): void {
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
