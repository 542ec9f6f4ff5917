// The header chain a light node has verified itself: every header checked with the node's own
// consensus rules (consensus/header_check.ts: link, version, target, proof of work, checkpoint,
// timestamps) before it is kept. Heights count from 1; the genesis hash anchors an empty chain.
import { checkHeader, targetAt, type HeaderChainView } from '../consensus/header_check.js';
import type { NetworkParams } from '../consensus/params.js';
import { addWork, targetWork } from '../consensus/target.js';
import { toHex } from '../core/hex.js';

export class LightChain implements HeaderChainView {
  private readonly hashes: Uint8Array[] = [];
  private readonly timestamps: number[] = [];
  private readonly targets: number[] = [];
  /** Cumulative work after each height. */
  private readonly worksums: bigint[] = [];

  constructor(readonly params: NetworkParams) {}

  get length(): number { return this.hashes.length; }
  get tipHash(): Uint8Array { return this.length === 0 ? this.params.genesisHash : this.hashes[this.length - 1]; }
  get worksum(): bigint { return this.length === 0 ? 0n : this.worksums[this.length - 1]; }
  timestampAt(height: number): number { return this.timestamps[height - 1]; }
  targetAt(height: number): number { return this.targets[height - 1]; }
  hashAt(height: number): string { return toHex(this.hashes[height - 1]); }

  /** Verifies `raw` (80 bytes) as the next header and keeps it; throws the rule's NodeError otherwise. */
  append(raw: Uint8Array, nowSeconds?: number): void {
    const c = checkHeader(this.params, this, raw, { now: nowSeconds });
    const worksum = addWork(this.worksum, targetWork(targetAt(this.params, c.height, c.header.target)));
    this.hashes.push(c.hash);
    this.timestamps.push(c.header.timestamp);
    this.targets.push(c.header.target);
    this.worksums.push(worksum);
  }

  /** Keeps heights 1..length (a reorg or rollback below the tip). */
  truncate(length: number): void {
    for (const a of [this.hashes, this.timestamps, this.targets, this.worksums]) a.length = Math.min(a.length, length);
  }
}
