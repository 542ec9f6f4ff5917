// Server-side throttling (p2p.md §3.8): per connection, one counter for header requests (window
// 20·8640 heights) and one for block requests (window 20·30). A request that re-fetches more than
// its sliding allowance is throttled: 20 s go into the connection's delay bucket, and every later
// message from that peer waits min((bucket − now)/10, 20 s) before it is processed.
//
// Beyond the reference: a peer that follows our chain re-fetches what lies near our tip after each
// announcement. The reference asks again for the headers of the batch slot that holds our tip, from
// that slot's start or from its fork-range lower bound (its "final partial batch request", p2p.md
// §3.3; the bound rises only by probes, so below 20 headers it asks for the whole slot every time),
// and asks again for bodies it fetched a moment before when its stage changes. Charged in full, those
// re-requests throttled a following 0.10.3 reference from its second block on and held each new block
// 2–20 s (issue 19). So each announcement makes one header request inside the tip's batch slot and
// one block request among the tip's last 30 heights, each at or below the tip, chargeable only for
// the heights the peer has not asked for before. A peer gets no more free re-fetching than we make
// announcements (at most MAX_FREE of them held), so the throttle still stops bulk re-downloads.

import { BATCH_SIZE, BLOCK_BATCH } from './protocol.js';

const HEADER_WINDOW = 20 * 8640;
const BLOCK_WINDOW = 20 * 30;
const PENALTY_MS = 20_000;
const MAX_DELAY_MS = 20_000;
/** Free tip re-requests a peer may hold per kind (announcements sent in a burst are answered later). */
const MAX_FREE = 3;

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
  /** The chain length we last announced to the peer, and the re-requests near it that are free per kind. */
  private tip = 0;
  private readonly free = { headers: 0, blocks: 0 };

  /** We announced a chain of `length` to the peer (Init, Append, Fork, SignedPinRollback). */
  announced(length: number): void {
    this.tip = length;
    this.free.headers = Math.min(this.free.headers + 1, MAX_FREE);
    this.free.blocks = Math.min(this.free.blocks + 1, MAX_FREE);
  }

  /** Counts a served request; a throttled one adds 20 s to the bucket. */
  request(kind: 'headers' | 'blocks', first: number, last: number, slack: number, nowMs: number): void {
    const counter = this[kind];
    if (first <= counter.h2 && this.free[kind] > 0 && this.nearTip(kind, first, last)) {
      // A re-request near the tip after an announcement: only the heights not asked for before count.
      this.free[kind]--;
      first = counter.h2 + 1;
      if (first > last) return;
    }
    if (counter.request(first, last, slack)) this.bucketMs = Math.max(this.bucketMs, nowMs) + PENALTY_MS;
  }

  /** [first, last] ends at or below our announced tip, inside its batch slot (headers) or its last 30 heights (blocks). */
  private nearTip(kind: 'headers' | 'blocks', first: number, last: number): boolean {
    if (last > this.tip) return false;
    const lowest = kind === 'headers' ? Math.floor((this.tip - 1) / BATCH_SIZE) * BATCH_SIZE + 1 : this.tip - BLOCK_BATCH + 1;
    return first >= lowest;
  }

  /** How long each incoming message is held now (ms). */
  delayMs(nowMs: number): number {
    return Math.min(Math.max(0, this.bucketMs - nowMs) / 10, MAX_DELAY_MS);
  }
}
