// How this node describes its chain to peers (p2p.md §3.1): a descriptor that counts branch
// replacements since start, the announced length and worksum, the grid, and the Append / Fork
// announcements that keep peers up to date. Replaced chains are retained for 10 minutes so that
// requests carrying an old descriptor are still answered (§3.1, §2.4 Batchreq).
//
// Chain events arrive inside the chain's turn (Chain.onChange); `flush()` must run inside
// `chain.locked` as well, so an announcement and the replies after it always describe the same
// chain: whoever answers a request flushes first.
import type { Chain, ChainEvent } from '../chain/chain.js';
import { priorityOf, type VerifiedSnapshot } from '../consensus/signed_snapshot.js';
import type { AppendMsg, ForkMsg, InitMsg, RollbackMsg } from './messages.js';
import { BATCH_SIZE, TIMER } from './protocol.js';

/** A replaced chain: heights ≤ base are the current chain's, base+1 … length are kept here. */
interface PastChain {
  descriptor: number;
  length: number;
  base: number;
  headers: Uint8Array[];
  bodies: Uint8Array[];
  /** When it may be forgotten (ms); null while its descriptor is still the announced one. */
  expiresAt: number | null;
}

/** Read access to one described chain. */
export interface DescribedChain {
  length: number;
  header(height: number): Uint8Array | null;
  body(height: number): Promise<Uint8Array | null>;
}

export class ChainDescription {
  descriptor = 0;
  private announcedLength: number;
  private announcedWorksum: bigint;
  private dirty = false;
  /** Lowest height rolled back since the last announcement. */
  private lowestRollback: number | null = null;
  /** The signed snapshot that cut the chain since the last announcement (§3.6), if any. */
  private pinnedBy: VerifiedSnapshot | null = null;
  private past: PastChain[] = [];

  constructor(
    private readonly chain: Chain,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.announcedLength = chain.length;
    this.announcedWorksum = chain.worksum;
  }

  get length(): number {
    return this.announcedLength;
  }
  get worksum(): bigint {
    return this.announcedWorksum;
  }

  /** Records a chain change (called in the chain's turn); an announcement is then due. */
  onEvent(e: ChainEvent): void {
    this.dirty = true;
    if (e.kind === 'snapshot' && e.rolledBack) this.pinnedBy = e.snapshot;
    if (e.kind !== 'rollback') return;
    const h = e.block.height;
    this.lowestRollback = Math.min(this.lowestRollback ?? h, h);
    if (!this.past.some((p) => p.descriptor === this.descriptor)) {
      this.past.push({ descriptor: this.descriptor, length: this.announcedLength, base: h, headers: [], bodies: [], expiresAt: null });
    }
    // Chains that shared block h with the current chain keep their own copy of it.
    for (const p of this.past) {
      if (p.base !== h) continue;
      p.headers.unshift(e.block.raw);
      p.bodies.unshift(e.block.body);
      p.base = h - 1;
    }
  }

  get pending(): boolean {
    return this.dirty;
  }

  /**
   * The announcement due now, or null; call inside `chain.locked`. A chain cut by a signed snapshot
   * and still shorter than announced is a SignedPinRollback; any other replacement is a Fork.
   */
  flush(): ForkMsg | AppendMsg | RollbackMsg | null {
    const now = this.nowMs();
    this.past = this.past.filter((p) => p.expiresAt === null || p.expiresAt > now);
    if (!this.dirty) return null;
    this.dirty = false;
    const length = this.chain.length,
      worksum = this.chain.worksum;
    const pinnedBy = this.pinnedBy;
    this.pinnedBy = null;
    if (this.lowestRollback !== null) {
      const rollback = pinnedBy !== null && length < this.announcedLength;
      if (length === 0 && !rollback) return null; // a Fork needs a non-zero length: wait for the next block
      const forkHeight = Math.min(this.lowestRollback, this.announcedLength + 1);
      for (const p of this.past) if (p.descriptor === this.descriptor) p.expiresAt = now + TIMER.pastChainRetention;
      this.descriptor = (this.descriptor + 1) >>> 0;
      this.lowestRollback = null;
      this.announcedLength = length;
      this.announcedWorksum = worksum;
      if (rollback) return { kind: 'SignedPinRollback', snapshot: pinnedBy!, length, worksum, descriptor: this.descriptor };
      return {
        kind: 'Fork',
        descriptor: this.descriptor,
        length,
        worksum,
        forkHeight,
        grid: this.gridSlots(Math.floor((forkHeight - 1) / BATCH_SIZE), length),
      };
    }
    if (length <= this.announcedLength || worksum <= this.announcedWorksum) return null;
    const grid = this.gridSlots(Math.floor(this.announcedLength / BATCH_SIZE), length);
    this.announcedLength = length;
    this.announcedWorksum = worksum;
    return { kind: 'Append', length, worksum, grid };
  }

  /** Our Init for a new peer (after a flush), as InitV3 or InitV1 for the peer's dialect (§2.6). */
  init(v3: boolean): InitMsg {
    const current = this.described(this.descriptor)!;
    return {
      kind: 'Init',
      v3,
      descriptor: this.descriptor,
      priority: priorityOf(this.chain.snapshot),
      length: this.announcedLength,
      worksum: this.announcedWorksum,
      grid: this.gridSlots(0, current.length, current),
      flags: v3 ? 0 : null,
    };
  }

  /** The chain announced as `descriptor`, or null when unknown or no longer retained. */
  described(descriptor: number): DescribedChain | null {
    const now = this.nowMs();
    const p = this.past.find((x) => x.descriptor === descriptor && (x.expiresAt === null || x.expiresAt > now));
    const chain = this.chain;
    if (p) {
      return {
        length: p.length,
        header: (h) => (h < 1 || h > p.length ? null : h <= p.base ? chain.rawHeaderAt(h) : (p.headers[h - p.base - 1] ?? null)),
        body: async (h) => (h < 1 || h > p.length ? null : h <= p.base ? ((await chain.block(h))?.body ?? null) : (p.bodies[h - p.base - 1] ?? null)),
      };
    }
    if (descriptor !== this.descriptor) return null;
    const length = Math.min(this.announcedLength, chain.length);
    return {
      length,
      header: (h) => (h < 1 || h > length ? null : chain.rawHeaderAt(h)),
      body: async (h) => (h < 1 || h > length ? null : ((await chain.block(h))?.body ?? null)),
    };
  }

  /** Grid entries of slots from `firstSlot` up to the last complete slot of `length`. */
  private gridSlots(firstSlot: number, length: number, from: DescribedChain | null = null): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let i = firstSlot; (i + 1) * BATCH_SIZE <= length; i++) {
      const h = (i + 1) * BATCH_SIZE;
      out.push(from ? from.header(h)! : this.chain.rawHeaderAt(h));
    }
    return out;
  }
}
