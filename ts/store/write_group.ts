// Blocks applied one after another (a branch during a download) written to the database together
// (issue 20): a LevelDB write costs ~0.25 ms of latency on this path whatever its size, as much as
// the rest of an empty block's application. Reads see the writes not yet made; an iteration first
// makes them, so it sees what a write per block would have left (few blocks iterate: the ones that
// prune transaction ids or match orders). Crash safety is unchanged: each write is one atomic
// batch ending in the head records of its last block, so the database always holds a whole chain.
// A write runs while the next blocks are applied (issue 29: waiting for each write of ~20,000
// records held the main thread ~7 ms per full block): `startWrite` hands the waiting operations to
// LevelDB and returns once the write before it is done, so the group boundaries, and the order of
// the writes, are those of writing synchronously. A write that fails (disk full, I/O error) ends
// the group: its operations are lost, so a later write would leave a database whose head names
// blocks whose records are missing; the next start and every later flush fail with the first
// error (reads still see the lost operations, the state the applied blocks left), and the chain
// takes back what was never written.
import { bytesKey } from '../core/hex.js';
import { writeBatch, type BatchOp, type Db, type KeyRange, type StateSource } from './database.js';

export class WriteGroup implements StateSource {
  /** The last operation per key, in first-write order (the final state is what matters). */
  private writes = new Map<string, BatchOp>();
  /** The operations of the write in flight, read until it is done (for good if it failed). */
  private writing: Map<string, BatchOp> | null = null;
  private inFlight: Promise<void> | null = null;
  /** The error of a failed write: the group writes nothing more. */
  private failure: { error: unknown } | null = null;

  constructor(private readonly db: Db) {}

  /** Operations waiting to be written. */
  get size(): number {
    return this.writes.size;
  }

  /** Adds the operations of `lists`, in order, to the next write. */
  add(...lists: readonly BatchOp[][]): void {
    for (const ops of lists) for (const op of ops) this.writes.set(op.id ?? bytesKey(op.key), op);
  }

  getSync(key: Uint8Array): Uint8Array | undefined {
    const k = bytesKey(key);
    const op = this.writes.get(k) ?? this.writing?.get(k);
    return op ? (op.type === 'put' ? op.value : undefined) : this.db.getSync(key);
  }

  async getMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return keys.map((k) => this.getSync(k));
  }

  async *keys(range: KeyRange): AsyncIterable<Uint8Array> {
    await this.flush();
    yield* this.db.keys(range);
  }

  /**
   * Once the write before is done, starts writing what waits as one atomic batch and returns
   * without waiting for it; throws the failure of an earlier write.
   */
  async startWrite(): Promise<void> {
    await this.settled();
    if (this.writes.size === 0) return;
    const ops = [...this.writes.values()];
    this.writing = this.writes;
    this.writes = new Map();
    this.inFlight = writeBatch(this.db, ops).then(
      () => {
        this.writing = null;
        this.inFlight = null;
      },
      (error: unknown) => {
        this.failure = { error };
        this.inFlight = null;
      },
    );
  }

  /** Writes what waits, as one atomic batch, and waits until every write is done. */
  async flush(): Promise<void> {
    await this.startWrite();
    await this.settled();
  }

  /** Waits for the write in flight; throws the failure of a write. */
  private async settled(): Promise<void> {
    if (this.inFlight) await this.inFlight;
    if (this.failure) throw this.failure.error;
  }
}
