// The worker lifecycle (ts/kernel/worker_pool.ts): workers start on first use, only as many as the
// jobs reach, stop after IDLE_MS without a job (the timer injected, no waiting) and start again for
// the next job; a job out holds the timer off.
import { afterAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { IDLE_MS, WorkerPool, type IdleTimer } from '../../ts/kernel/worker_pool.js';

await initKernel();

/** Doubles each byte; a job {hold: true} is answered only with the next job, {release: true}. */
function doubler({ parentPort }: typeof import('node:worker_threads')): void {
  let held: number | null = null;
  parentPort!.on('message', (m: { id: number; bytes?: Uint8Array; hold?: boolean; release?: boolean }) => {
    if (m.release && held !== null) {
      parentPort!.postMessage({ id: held, answer: new Uint8Array(0) });
      parentPort!.postMessage({ id: m.id, answer: new Uint8Array(0) });
    } else if (m.hold) held = m.id;
    else parentPort!.postMessage({ id: m.id, answer: m.bytes!.map((b) => b * 2) });
  });
}

class ManualTimer implements IdleTimer {
  armed: { fn: () => void; ms: number } | null = null;
  set(fn: () => void, ms: number): unknown {
    this.armed = { fn, ms };
    return this.armed;
  }
  clear(h: unknown): void {
    if (this.armed === h) this.armed = null;
  }
  fire(): void {
    const a = this.armed!;
    this.armed = null;
    a.fn();
  }
}

const pools: WorkerPool<object, Uint8Array>[] = [];
afterAll(() => Promise.all(pools.map((p) => p.close())));

describe('WorkerPool', () => {
  it('starts workers on first use and stops them when idle, then starts them again', async () => {
    const timer = new ManualTimer();
    const pool = new WorkerPool<object, Uint8Array>('test', doubler, 3, {}, timer);
    pools.push(pool);
    expect(pool.running).toBe(0);
    expect(await pool.run({ bytes: Uint8Array.of(1, 2) }, [], 0)).toEqual(Uint8Array.of(2, 4));
    expect(pool.running).toBe(1); // only the worker the job went to
    expect(timer.armed?.ms).toBe(IDLE_MS);

    // A job out: no idle timer until it is answered.
    const held = pool.run({ hold: true }, [], 1);
    expect(pool.running).toBe(2);
    expect(timer.armed).toBeNull();
    await pool.run({ release: true }, [], 1);
    await held;
    expect(timer.armed).not.toBeNull();

    timer.fire();
    expect(pool.running).toBe(0);
    expect(await pool.run({ bytes: Uint8Array.of(3) }, [], 2)).toEqual(Uint8Array.of(6));
    expect(pool.running).toBe(1);
  });

  it('fails its jobs once closed, and arms no timer', async () => {
    const timer = new ManualTimer();
    const pool = new WorkerPool<object, Uint8Array>('test', doubler, 1, {}, timer);
    await pool.run({ bytes: Uint8Array.of(1) }, []);
    await pool.close();
    expect(pool.running).toBe(0);
    expect(timer.armed).toBeNull();
    await expect(pool.run({ bytes: Uint8Array.of(1) }, [])).rejects.toThrow(/closed/);
  });
});
