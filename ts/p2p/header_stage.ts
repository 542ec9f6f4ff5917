// A candidate header chain for header-first sync (p2p.md §3.3): the local chain up to a fork
// height, then downloaded headers, each verified with checkHeader (link, version, target, PoW,
// checkpoint, timestamps, signed snapshot) as it is added. Its total work decides whether bodies are worth fetching.
import type { Chain } from '../chain/chain.js';
import { checkHeader, targetAt, type HeaderChainView } from '../consensus/header_check.js';
import { addWork, targetWork } from '../consensus/target.js';
import type { Header } from '../core/header.js';
import { equalBytes } from '../core/hex.js';

/** The local chain no longer contains the stage's fork point: start over (nobody's fault). */
export class ChainMoved extends Error {}

export class HeaderStage implements HeaderChainView {
  readonly raws: Uint8Array[] = [];
  readonly headers: Header[] = [];
  private readonly hashes: Uint8Array[] = [];
  private readonly worksums: bigint[] = [];
  private readonly forkHash: Uint8Array;

  constructor(private readonly chain: Chain, readonly fork: number) {
    if (fork > chain.length) throw new ChainMoved();
    this.forkHash = chain.hashAt(fork);
  }

  get length(): number { return this.fork + this.raws.length; }
  get tipHash(): Uint8Array { return this.raws.length ? this.hashes[this.hashes.length - 1] : this.forkHash; }
  get worksum(): bigint { return this.worksumAt(this.length); }

  worksumAt(height: number): bigint {
    return height <= this.fork ? this.chain.worksumAt(height) : this.worksums[height - this.fork - 1];
  }

  timestampAt(height: number): number {
    return height <= this.fork ? this.chain.timestampAt(height) : this.headers[height - this.fork - 1].timestamp;
  }

  targetAt(height: number): number {
    return height <= this.fork ? this.chain.targetAt(height) : this.headers[height - this.fork - 1].target;
  }

  /** True while the local chain still holds the fork point this stage builds on. */
  get anchored(): boolean {
    return this.chain.length >= this.fork && equalBytes(this.chain.hashAt(this.fork), this.forkHash);
  }

  /** Verifies `raw` as the next header (throws NodeError) and appends it. */
  add(raw: Uint8Array, now: number): void {
    if (!this.anchored) throw new ChainMoved();
    const c = checkHeader(this.chain.params, this, raw, { now });
    this.chain.checkSnapshot(c.height, c.hash);
    const work = targetWork(targetAt(this.chain.params, c.height, c.header.target));
    this.worksums.push(addWork(this.worksum, work));
    this.raws.push(c.raw);
    this.headers.push(c.header);
    this.hashes.push(c.hash);
  }
}
