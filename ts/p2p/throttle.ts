// Server-side throttling (p2p.md §3.8): per connection, one counter for header requests (window
// 20·8640 heights) and one for block requests (window 20·30). A request that re-fetches more than
// its sliding allowance is throttled: 20 s go into the connection's delay bucket, and every later
// message from that peer waits min((bucket − now)/10, 20 s) before it is processed.

const HEADER_WINDOW = 20 * 8640;
const BLOCK_WINDOW = 20 * 30;
const PENALTY_MS = 20_000;
const MAX_DELAY_MS = 20_000;

/** One counter: `h1` the volume (low accumulator), `h2` the highest requested height. */
export class RequestThrottler {
  h1 = 0;
  h2 = 0;
  constructor(readonly window: number) {}

  /** Records a request for heights [first, last] with slack `s`; returns true when it is throttled. */
  request(first: number, last: number, s: number): boolean {
    const n = Math.max(0, last - first + 1);
    this.h2 = Math.max(this.h2, last);
    if (this.h2 + s >= this.window) this.h1 = Math.max(this.h1, this.h2 + s - this.window);
    this.h1 = Math.min(this.h1 + n, this.h2 + s + 1);
    return this.h1 > this.h2 + s;
  }
}

export class Throttle {
  readonly headers = new RequestThrottler(HEADER_WINDOW);
  readonly blocks = new RequestThrottler(BLOCK_WINDOW);
  /** The delay bucket (Unix ms). */
  private bucketMs = 0;

  /** Counts a served request; a throttled one adds 20 s to the bucket. */
  request(kind: 'headers' | 'blocks', first: number, last: number, slack: number, nowMs: number): void {
    if (this[kind].request(first, last, slack)) this.bucketMs = Math.max(this.bucketMs, nowMs) + PENALTY_MS;
  }

  /** How long each incoming message is held now (ms). */
  delayMs(nowMs: number): number {
    return Math.min(Math.max(0, this.bucketMs - nowMs) / 10, MAX_DELAY_MS);
  }
}
