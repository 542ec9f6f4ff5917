// What a peer told us about its chain (p2p.md §3.1): descriptor, length, worksum and grid, kept
// up to date from Init, Append, Fork and SignedPinRollback with the receiver's checks (§2.4).
// Replaced descriptors are remembered for 8 minutes: until then the peer must still answer for them.
import { fail } from '../core/errors.js';
import type { AppendMsg, ForkMsg, InitMsg, RollbackMsg } from './messages.js';
import { BATCH_SIZE, TIMER } from './protocol.js';

export class PeerChain {
  /** Descriptors replaced by a Fork or Rollback, with the time (ms) they stop being "valid". */
  private readonly deprecated = new Map<number, number>();

  private constructor(
    public descriptor: number,
    public length: number,
    public worksum: bigint,
    public grid: Uint8Array[],
  ) {}

  /** Init checks: length 0 ⇔ worksum 0 (EFAKEHEIGHT, EFAKEWORK); ⌊length/8640⌋ grid entries (EINV_INITGRID). */
  static fromInit(m: InitMsg): PeerChain {
    if (m.length === 0 && m.worksum !== 0n) fail('EFAKEWORK', 'work without blocks');
    if (m.length !== 0 && m.worksum === 0n) fail('EFAKEHEIGHT', 'blocks without work');
    if (m.grid.length !== Math.floor(m.length / BATCH_SIZE)) fail('EINV_INITGRID', `${m.grid.length} grid entries for length ${m.length}`);
    return new PeerChain(m.descriptor, m.length, m.worksum, m.grid);
  }

  /** Append: length and worksum strictly grow, the grid stays complete (EAPPEND). */
  append(m: AppendMsg): void {
    if (m.length <= this.length || m.worksum <= this.worksum) fail('EAPPEND', `length ${this.length} → ${m.length}`);
    const grid = [...this.grid, ...m.grid];
    if (grid.length !== Math.floor(m.length / BATCH_SIZE)) fail('EAPPEND', `${grid.length} grid entries for length ${m.length}`);
    this.length = m.length;
    this.worksum = m.worksum;
    this.grid = grid;
  }

  /** Fork: descriptor + 1 (EDESCRIPTOR); keeps ⌊(F−1)/8640⌋ old entries, the result must be valid (EINVDSC). */
  fork(m: ForkMsg, nowMs: number): void {
    if (m.descriptor !== (this.descriptor + 1) >>> 0) fail('EDESCRIPTOR', `descriptor ${this.descriptor} → ${m.descriptor}`);
    if (m.length === 0 || m.worksum === 0n || m.forkHeight === 0) fail('EINVDSC', 'zero length, work or fork height');
    const keep = Math.floor((m.forkHeight - 1) / BATCH_SIZE);
    if (keep > this.grid.length) fail('EINVDSC', `fork height ${m.forkHeight} beyond the grid`);
    const grid = [...this.grid.slice(0, keep), ...m.grid];
    if (grid.length !== Math.floor(m.length / BATCH_SIZE)) fail('EINVDSC', `${grid.length} grid entries for length ${m.length}`);
    this.replace(m.descriptor, m.length, m.worksum, grid, nowMs);
  }

  /** SignedPinRollback: the chain shrinks (EBADROLLBACKLEN), descriptor + 1, the grid is cut. */
  rollback(m: RollbackMsg, nowMs: number): void {
    if (m.descriptor !== (this.descriptor + 1) >>> 0) fail('EDESCRIPTOR', `descriptor ${this.descriptor} → ${m.descriptor}`);
    if (m.length >= this.length) fail('EBADROLLBACKLEN', `length ${this.length} → ${m.length}`);
    if ((m.length === 0) !== (m.worksum === 0n)) fail('EFAKEWORK', 'length and work disagree');
    this.replace(m.descriptor, m.length, m.worksum, this.grid.slice(0, Math.floor(m.length / BATCH_SIZE)), nowMs);
  }

  /** True while answers for `descriptor` may still be required of the peer (§3.1). */
  expectsAnswers(descriptor: number, nowMs: number): boolean {
    if (descriptor === this.descriptor) return true;
    const until = this.deprecated.get(descriptor);
    return until !== undefined && until > nowMs;
  }

  private replace(descriptor: number, length: number, worksum: bigint, grid: Uint8Array[], nowMs: number): void {
    for (const [d, until] of this.deprecated) if (until <= nowMs) this.deprecated.delete(d);
    this.deprecated.set(this.descriptor, nowMs + TIMER.deprecatedDescriptor);
    this.descriptor = descriptor;
    this.length = length;
    this.worksum = worksum;
    this.grid = grid;
  }
}
