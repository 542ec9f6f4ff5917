// The header chain a light node has verified itself: every header checked with the node's own
// consensus rules (consensus/header_check.ts: link, version, target, proof of work, checkpoint,
// timestamps) before it is kept. Heights count from 1; the genesis hash anchors an empty chain.
// On a network with a checkpoint (mainnet, consensus.md §5.5) it may start there instead of at
// genesis: the headers the rules look back on from the checkpoint (the median window and the
// previous retarget) are kept once they hash-link, one by one, to the checkpoint's own header.
import { checkHeader, targetAt, type HeaderChainView } from '../consensus/header_check.js';
import type { Checkpoint } from '../consensus/checkpoint.js';
import { MEDIAN_N, type NetworkParams } from '../consensus/params.js';
import { retargetFloor } from '../consensus/retarget.js';
import { addWork, targetWork } from '../consensus/target.js';
import { NodeError } from '../core/errors.js';
import { blockHash, parseHeader } from '../core/header.js';
import { equalBytes, toHex } from '../core/hex.js';

/** The first height whose header a chain starting at `checkpoint` must hold (see anchored). */
export function anchorStart(c: Checkpoint): number {
  return Math.max(1, Math.min(c.height - MEDIAN_N + 1, retargetFloor(c.height - 1)));
}

export class LightChain implements HeaderChainView {
  private readonly hashes: Uint8Array[] = [];
  private readonly timestamps: number[] = [];
  private readonly targets: number[] = [];
  /** Cumulative work after each height (from an anchor on, the work since the checkpoint). */
  private readonly worksums: bigint[] = [];
  /** The height of the first header held, less one. */
  private base = 0;
  /** Heights at or below this one cannot be cut (the checkpoint a chain was anchored at). */
  private floor = 0;

  constructor(readonly params: NetworkParams) {}

  /**
   * A chain starting at `checkpoint`: `history` holds the headers of heights anchorStart(c) … c.height,
   * the last of them the checkpoint's header itself, each the parent of the next. Throws EGRIDMISMATCH
   * otherwise. Work counts from the checkpoint on.
   */
  static anchored(params: NetworkParams, c: Checkpoint, history: Uint8Array[]): LightChain {
    const from = anchorStart(c);
    if (history.length !== c.height - from + 1)
      throw new NodeError('EGRIDMISMATCH', `${history.length} headers before the checkpoint, not ${c.height - from + 1}`);
    if (!equalBytes(history[history.length - 1], c.header)) throw new NodeError('EGRIDMISMATCH', `header ${c.height} is not the checkpoint`);
    const chain = new LightChain(params);
    chain.base = from - 1;
    chain.floor = c.height;
    let hash = c.hash;
    for (let i = history.length - 1; i >= 0; i--) {
      if (i < history.length - 1 && !equalBytes(blockHash(history[i]), hash))
        throw new NodeError('EGRIDMISMATCH', `header ${from + i} is not the parent of ${from + i + 1}`);
      const h = parseHeader(history[i]);
      chain.hashes[i] = blockHash(history[i]);
      chain.timestamps[i] = h.timestamp;
      chain.targets[i] = h.target;
      chain.worksums[i] = 0n;
      hash = h.prevHash;
    }
    return chain;
  }

  get length(): number {
    return this.base + this.hashes.length;
  }
  /** The checkpoint height the chain was anchored at, or null when it starts at genesis. */
  get anchor(): number | null {
    return this.floor > 0 ? this.floor : null;
  }
  get tipHash(): Uint8Array {
    return this.hashes.length === 0 ? this.params.genesisHash : this.hashes[this.hashes.length - 1];
  }
  get worksum(): bigint {
    return this.hashes.length === 0 ? 0n : this.worksums[this.hashes.length - 1];
  }
  timestampAt(height: number): number {
    return this.timestamps[height - 1 - this.base];
  }
  targetAt(height: number): number {
    return this.targets[height - 1 - this.base];
  }
  hashAt(height: number): string {
    return toHex(this.hashes[height - 1 - this.base]);
  }

  /** Verifies `raw` (80 bytes) as the next header and keeps it; throws the rule's NodeError otherwise. */
  append(raw: Uint8Array, nowSeconds?: number): void {
    const c = checkHeader(this.params, this, raw, { now: nowSeconds });
    const worksum = addWork(this.worksum, targetWork(targetAt(this.params, c.height, c.header.target)));
    this.hashes.push(c.hash);
    this.timestamps.push(c.header.timestamp);
    this.targets.push(c.header.target);
    this.worksums.push(worksum);
  }

  /** Keeps heights up to `length` (a reorg or rollback below the tip); never below an anchor. */
  truncate(length: number): void {
    if (length < this.floor) throw new NodeError('EGRIDMISMATCH', `a branch from height ${length + 1}, below the checkpoint at ${this.floor}`);
    const keep = Math.max(0, length - this.base);
    for (const a of [this.hashes, this.timestamps, this.targets, this.worksums]) a.length = Math.min(a.length, keep);
  }
}
