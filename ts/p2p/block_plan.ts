// Which block ranges of a download (p2p.md §3.4) are still to be asked for, and which arrived, when
// several peers serve one branch at once. Ranges are taken lowest first and only within a window
// above the first range not yet handed on, so the bodies held out of order stay bounded whatever
// a slow peer does; a range whose peer failed is taken again by another.

export interface BlockRange {
  first: number;
  last: number;
}

export class BlockPlan<T> {
  /** Ranges nobody is asked for, lowest first. */
  private readonly open: BlockRange[] = [];
  private readonly arrived = new Map<number, { range: BlockRange; value: T }>();
  /** First height not yet handed on by `ready()`. */
  private next: number;
  private closed = false;
  private wake: (() => void) | null = null;
  private signal: Promise<void> | null = null;

  constructor(
    first: number,
    private readonly last: number,
    private readonly size: number,
    private readonly window: number,
  ) {
    this.next = first;
    for (let f = first; f <= last; f += size) this.open.push({ first: f, last: Math.min(f + size - 1, last) });
  }

  /** Every range was handed on, or the download ended. */
  get finished(): boolean {
    return this.closed || this.next > this.last;
  }

  /** The lowest open range within the window that ends at or below `maxHeight`, now taken; or null. */
  take(maxHeight: number): BlockRange | null {
    if (this.closed) return null;
    const limit = this.next + this.window * this.size;
    const i = this.open.findIndex((r) => r.last <= maxHeight);
    if (i < 0 || this.open[i].first >= limit) return null;
    return this.open.splice(i, 1)[0];
  }

  /** A taken range that was not delivered: open again. */
  giveBack(r: BlockRange): void {
    const i = this.open.findIndex((o) => o.first > r.first);
    this.open.splice(i < 0 ? this.open.length : i, 0, r);
    this.changed();
  }

  complete(r: BlockRange, value: T): void {
    if (this.closed) return;
    this.arrived.set(r.first, { range: r, value });
    this.changed();
  }

  /** The arrived ranges that continue the ones handed on before, in order. */
  ready(): { range: BlockRange; value: T }[] {
    const out: { range: BlockRange; value: T }[] = [];
    for (let a = this.arrived.get(this.next); a; a = this.arrived.get(this.next)) {
      this.arrived.delete(this.next);
      out.push(a);
      this.next = a.range.last + 1;
    }
    if (out.length) this.changed();
    return out;
  }

  /** Ends the download: nothing more is taken, what arrives is dropped, waiters return. */
  close(): void {
    this.closed = true;
    this.arrived.clear();
    this.changed();
  }

  /** Resolves at the next change (a range given back, arrived, handed on, or the end). */
  changes(): Promise<void> {
    this.signal ??= new Promise((resolve) => {
      this.wake = resolve;
    });
    return this.signal;
  }

  private changed(): void {
    const wake = this.wake;
    this.signal = null;
    this.wake = null;
    wake?.();
  }
}
