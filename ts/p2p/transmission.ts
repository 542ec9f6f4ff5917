// Transmission statistics (p2p.md §4.5): received and sent bytes per peer host, summed in buckets
// of one minute and of one hour aligned to multiples of their width. A bucket is written to the
// peers' records when its period has passed; data older than 30 days is pruned hourly. The views
// return the last 24 h of minutes and the last 10 days of hours, the current bucket merged in.
import type { PeerDb, StoredBucket } from './peer_db.js';

const WIDTH_S = { m: 60, h: 3600 } as const;
const KEEP_S = { m: 24 * 3600, h: 10 * 24 * 3600 } as const;
const PRUNE_AFTER_S = 30 * 24 * 3600;

export interface Bucket {
  begin: number;
  rx: number;
  tx: number;
}
type Width = keyof typeof WIDTH_S;

export class TransmissionStats {
  /** Closed buckets by width, host, in time order. */
  private readonly closed = { m: new Map<string, Bucket[]>(), h: new Map<string, Bucket[]>() };
  /** The current bucket by width and host. */
  private readonly open = { m: new Map<string, Bucket>(), h: new Map<string, Bucket>() };
  private lastPruneS = 0;

  constructor(
    private readonly db: PeerDb | null = null,
    private readonly nowS: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async load(): Promise<void> {
    if (!this.db) return;
    for (const b of await this.db.buckets()) this.keep(b.width, b.host, { begin: b.begin, rx: b.rx, tx: b.tx });
    this.prune();
  }

  /** Counts bytes received (`rx`) and sent (`tx`) for `host`. */
  count(host: string, rx: number, tx: number): void {
    const now = this.nowS();
    for (const width of ['m', 'h'] as const) {
      const begin = now - (now % WIDTH_S[width]);
      let b = this.open[width].get(host);
      if (b && b.begin !== begin) {
        this.close(width, host, b);
        b = undefined;
      }
      if (!b) this.open[width].set(host, (b = { begin, rx: 0, tx: 0 }));
      b.rx += rx;
      b.tx += tx;
    }
    if (now - this.lastPruneS >= WIDTH_S.h) this.prune();
  }

  /** Per host, the buckets of the last 24 h (minutes) or 10 days (hours), oldest first. */
  view(width: Width): Record<string, Bucket[]> {
    const now = this.nowS();
    const from = now - KEEP_S[width];
    for (const [host, b] of this.open[width]) {
      if (b.begin + WIDTH_S[width] <= now) {
        this.close(width, host, b);
        this.open[width].delete(host);
      }
    }
    const out: Record<string, Bucket[]> = {};
    for (const host of new Set([...this.closed[width].keys(), ...this.open[width].keys()])) {
      const list = (this.closed[width].get(host) ?? []).filter((b) => b.begin >= from).map((b) => ({ ...b }));
      const cur = this.open[width].get(host);
      if (cur) {
        const last = list[list.length - 1];
        if (last && last.begin === cur.begin) {
          last.rx += cur.rx;
          last.tx += cur.tx;
        } else list.push({ ...cur });
      }
      if (list.length) out[host] = list;
    }
    return out;
  }

  /** Closes and writes every open bucket (at shutdown); a restart within the same period adds to it. */
  flush(): void {
    for (const width of ['m', 'h'] as const) {
      for (const [host, b] of this.open[width]) this.close(width, host, b);
      this.open[width].clear();
    }
  }

  private close(width: Width, host: string, b: Bucket): void {
    const total = this.keep(width, host, b);
    this.db?.putBucket({ width, host, ...total });
  }

  /** Adds a closed bucket (merged with a stored one of the same period); returns the total. */
  private keep(width: Width, host: string, b: Bucket): Bucket {
    const list = this.closed[width].get(host) ?? [];
    this.closed[width].set(host, list);
    const last = list[list.length - 1];
    if (last && last.begin === b.begin) {
      last.rx += b.rx;
      last.tx += b.tx;
      return last;
    }
    list.push({ ...b });
    return b;
  }

  private prune(): void {
    const now = this.nowS();
    this.lastPruneS = now;
    const dropped: StoredBucket[] = [];
    for (const width of ['m', 'h'] as const) {
      const from = now - (width === 'm' ? KEEP_S.m : PRUNE_AFTER_S);
      for (const [host, list] of this.closed[width]) {
        const keep = list.filter((b) => b.begin >= from);
        for (const b of list) if (b.begin < from) dropped.push({ width, host, ...b });
        if (keep.length) this.closed[width].set(host, keep);
        else this.closed[width].delete(host);
      }
    }
    this.db?.deleteBuckets(dropped);
  }
}
