// Bounded read work per event-loop turn (issue 12: block application keeps priority under read load).
// Reads take their point reads synchronously (state/ledger.ts dbReader), so a read runs from its
// request to its response in one piece, and everything in one turn's I/O phase runs back to back:
// two hundred clients whose requests arrive together would be served in one 30–40 ms stretch, and
// every step of a block append (its request, its batch's completion) would wait for the whole of
// it. So reads start only in the turn's check phase (setImmediate), at most `limit` per turn and
// at most `limit` at a time; the others wait here, in arrival order, costing a queue entry. An
// append then waits at most for `limit` reads per step. Routes that change the mempool pass the
// gate; routes that change the chain pass it too and, while they run, no waiting read starts.

export class ReadGate {
  private running = 0;
  private writers = 0;
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  constructor(readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    }); // counted in `running` when started
    try {
      return await task();
    } finally {
      this.running--;
      this.schedule();
    }
  }

  /** Runs a chain change: reads waiting meanwhile start after it. */
  async write<T>(task: () => Promise<T>): Promise<T> {
    this.writers++;
    try {
      return await task();
    } finally {
      this.writers--;
      this.schedule();
    }
  }

  /** Reads waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Starts waiting reads in the check phase of the current turn (the next one from inside it). */
  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      // No read ends inside this loop (their continuations are microtasks, run after it), so at
      // most `limit` start per turn.
      while (this.writers === 0 && this.running < this.limit && this.waiting.length > 0) {
        this.running++;
        this.waiting.shift()!();
      }
    });
  }
}
