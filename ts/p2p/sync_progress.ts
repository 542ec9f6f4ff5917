// What the log says while blocks come in (issue 9 §3, after Bitcoin Core's UpdateTip lines): a bulk
// download prints one progress line at most every few seconds (height, target, percent, blocks/s);
// a node following a live chain prints each new block once. Pure: the caller passes the clock.

/** The least time between two progress lines. */
export const PROGRESS_INTERVAL_MS = 5_000;
/** Downloads of at most this many blocks are a live chain being followed: one line per block. */
export const LIVE_BLOCKS = 3;

export function progressLine(height: number, target: number, blocksPerSecond: number, source: string): string {
  const percent = target > 0 ? Math.min(100, (100 * height) / target) : 100;
  return `Sync progress: height ${height} of ${target} (${percent.toFixed(2)}%), ${blocksPerSecond.toFixed(1)} blocks/s, from ${source}`;
}

export function newBlockLine(height: number, hashHex: string, source: string): string {
  return `New block #${height} ${hashHex} from ${source}`;
}

/** Rate-limits progress lines over one download. */
export class SyncProgress {
  private lastMs: number;
  private lastHeight: number;

  constructor(
    startHeight: number,
    startMs: number,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
  ) {
    this.lastMs = startMs;
    this.lastHeight = startHeight;
  }

  /** The line due now that `height` of `target` is reached, or null within the interval. */
  line(height: number, target: number, nowMs: number, source: string): string | null {
    const elapsed = nowMs - this.lastMs;
    if (elapsed < this.intervalMs) return null;
    const rate = ((height - this.lastHeight) * 1000) / elapsed;
    this.lastMs = nowMs;
    this.lastHeight = height;
    return progressLine(height, target, rate, source);
  }
}
