// Bounded concurrency for reads (issue 12: block application keeps priority under read load).
// Two hundred clients reading at once would each hold LevelDB reads in libuv's four worker threads
// and callbacks in the event loop's queue, and every step of a block append would wait behind all
// of them. At most `limit` reads run at a time; the others wait here, in arrival order, costing
// nothing but a queue entry. Routes that change the mempool pass the gate; routes that change the
// chain pass it too and, while they run, no waiting read starts (the ones running finish), so an
// append competes with at most `limit` reads, never with a stream of new ones.

export class ReadGate {
  private running = 0;
  private writers = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.writers === 0 && this.running < this.limit && this.waiting.length === 0) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // counted in `running` by admit()
    try {
      return await task();
    } finally {
      this.running--;
      this.admit();
    }
  }

  /** Runs a chain change: reads waiting meanwhile start after it. */
  async write<T>(task: () => Promise<T>): Promise<T> {
    this.writers++;
    try {
      return await task();
    } finally {
      this.writers--;
      this.admit();
    }
  }

  /** Reads waiting for a slot. */
  get queued(): number { return this.waiting.length; }

  private admit(): void {
    while (this.writers === 0 && this.running < this.limit && this.waiting.length > 0) {
      this.running++;
      this.waiting.shift()!();
    }
  }
}
