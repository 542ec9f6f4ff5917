// Bounded concurrency for reads (issue 12: block application keeps priority under read load).
// Two hundred clients reading at once would each hold LevelDB reads in libuv's four worker threads
// and callbacks in the event loop's queue, and every step of a block append would wait behind all
// of them. At most `limit` reads run at a time; the others wait here, in arrival order, costing
// nothing but a queue entry. Routes that change the chain or the mempool do not pass the gate.

export class ReadGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the slot is handed over
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Reads waiting for a slot. */
  get queued(): number { return this.waiting.length; }
}
