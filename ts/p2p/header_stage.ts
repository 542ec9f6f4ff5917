// A candidate header chain for header-first sync (p2p.md §3.3): the local chain up to a fork
// height, then downloaded headers, each verified with checkHeader (link, version, target, PoW,
// checkpoint, timestamps, signed snapshot) as it is added. Its total work decides whether bodies are worth fetching.
import type { Chain } from '../chain/chain.js';
import { PackedHeaders } from '../chain/packed_headers.js';
import { checkHeader, type HeaderChainView } from '../consensus/header_check.js';
import { powVersionAt, type NetworkParams } from '../consensus/params.js';
import { HEADER_SIZE, type Header } from '../core/header.js';
import type { PowPool, PowVerdicts } from '../kernel/pow_pool.js';
import { equalBytes } from '../core/hex.js';

/** The local chain no longer contains the stage's fork point: start over (nobody's fault). */
export class ChainMoved extends Error {}

export class HeaderStage implements HeaderChainView {
  /** The downloaded headers, fork + 1 … length, packed (an initial sync stages millions). */
  private readonly staged: PackedHeaders;
  private readonly forkHash: Uint8Array;

  constructor(
    private readonly chain: Chain,
    readonly fork: number,
  ) {
    if (fork > chain.length) throw new ChainMoved();
    this.forkHash = chain.hashAt(fork);
    this.staged = new PackedHeaders(chain.params, fork, this.forkHash, chain.worksumAt(fork));
  }

  get length(): number {
    return this.staged.length;
  }
  get tipHash(): Uint8Array {
    return this.staged.tipHash;
  }
  get worksum(): bigint {
    return this.staged.worksum;
  }

  worksumAt(height: number): bigint {
    return height <= this.fork ? this.chain.worksumAt(height) : this.staged.worksumAt(height);
  }

  timestampAt(height: number): number {
    return height <= this.fork ? this.chain.timestampAt(height) : this.staged.timestampAt(height);
  }

  targetAt(height: number): number {
    return height <= this.fork ? this.chain.targetAt(height) : this.staged.targetAt(height);
  }

  /** Staged header `height` (fork < height ≤ length): raw and parsed. */
  rawAt(height: number): Uint8Array {
    return this.staged.rawAt(height);
  }
  headerAt(height: number): Header {
    return this.staged.headerAt(height);
  }
  hashAt(height: number): Uint8Array {
    return this.staged.hashAt(height);
  }

  /** The headers below `height` are applied (the chain holds them): their memory may go. */
  release(height: number): void {
    this.staged.release(height);
  }

  /** Headers staged. */
  get size(): number {
    return this.staged.size;
  }

  /** True while the local chain still holds the fork point this stage builds on. */
  get anchored(): boolean {
    return this.chain.length >= this.fork && equalBytes(this.chain.hashAt(this.fork), this.forkHash);
  }

  /**
   * Verifies `raw` as the next header (throws NodeError) and appends it. `computed`: its
   * proof-of-work verdict and hash when already computed (by the worker pool).
   */
  add(raw: Uint8Array, now: number, computed?: { pow: boolean; hash: Uint8Array }): void {
    if (!this.anchored) throw new ChainMoved();
    const c = checkHeader(this.chain.params, this, raw, { now, computed });
    this.chain.checkSnapshot(c.height, c.hash);
    this.staged.push(c.raw, c.hash);
  }

  /**
   * Verifies and appends `raws` as the next headers, every check in order (the first failure
   * throws, as `add`), with the proof-of-work verdicts and hashes of raws[from …] from `verifyPow`.
   */
  addBatch(raws: Uint8Array[], now: number, v: PowVerdicts, from = 0): void {
    for (let i = from; i < raws.length; i++) this.add(raws[i], now, { pow: v.ok[i] === 1, hash: v.hashes.subarray(32 * i, 32 * i + 32) });
  }
}

/**
 * Proof of work and hashes of `raws` as heights first, first + 1, … in the pool's worker threads,
 * all at once. Independent of the chain, so it may run ahead of it.
 */
export function verifyPow(params: NetworkParams, first: number, raws: Uint8Array[], pool: PowPool): Promise<PowVerdicts> {
  const all = new Uint8Array(raws.length * HEADER_SIZE);
  const versions = new Uint8Array(raws.length);
  raws.forEach((raw, i) => {
    if (raw.length === HEADER_SIZE) all.set(raw, i * HEADER_SIZE);
    versions[i] = powVersionAt(params, first + i);
  });
  return pool.verify(all, versions);
}
