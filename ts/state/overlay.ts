// Pending state changes of one block on top of the database. Reads see the pending writes; the
// first write of a key records its previous value, which makes the block's undo record
// (consensus.md §9.4) generic: rollback restores exactly the keys the block changed. Its reads are
// synchronous (ledger.ts dbReader says why).
import type { BatchOp, KeySource } from '../store/database.js';
import { bytesKey } from '../core/hex.js';
import { Reader, Writer } from '../core/bytes.js';

export class StateOverlay {
  private readonly writes = new Map<string, { key: Uint8Array; value: Uint8Array | null }>();
  private readonly before = new Map<string, { key: Uint8Array; value: Uint8Array | null }>();

  constructor(private readonly db: KeySource) {}

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const w = this.writes.get(bytesKey(key));
    if (w) return w.value ?? undefined;
    return this.db.getSync(key);
  }

  async put(key: Uint8Array, value: Uint8Array): Promise<void> {
    this.writes.set(this.remember(key), { key, value });
  }

  /**
   * Writes a key the caller knows to be absent from the database (a fresh history id, a checked
   * unused transaction id): its undo is a delete, without reading the database first.
   */
  putNew(key: Uint8Array, value: Uint8Array): void {
    const k = bytesKey(key);
    if (!this.before.has(k)) this.before.set(k, { key, value: null });
    this.writes.set(k, { key, value });
  }

  async del(key: Uint8Array): Promise<void> {
    this.writes.set(this.remember(key), { key, value: null });
  }

  /** Records the key's committed value on its first write; returns its map key. */
  private remember(key: Uint8Array): string {
    const k = bytesKey(key);
    if (!this.before.has(k)) this.before.set(k, { key, value: this.db.getSync(key) ?? null });
    return k;
  }

  /** The batch operations that apply the pending writes. */
  ops(): BatchOp[] {
    const ops: BatchOp[] = [];
    for (const [id, { key, value }] of this.writes) ops.push(value === null ? { type: 'del', key, id } : { type: 'put', key, value, id });
    return ops;
  }

  /** The undo record: every changed key with its previous value (absent = delete on undo). */
  undoRecord(): Uint8Array {
    let size = 4; // a full block's record is ~40 kB: written in place, not grown by doubling
    for (const { key, value } of this.before.values()) size += 3 + key.length + (value === null ? 0 : 4 + value.length);
    const w = new Writer(size);
    w.u32(this.before.size);
    for (const { key, value } of this.before.values()) {
      w.u16(key.length);
      w.bytes(key);
      if (value === null) w.u8(0);
      else {
        w.u8(1);
        w.u32(value.length);
        w.bytes(value);
      }
    }
    return w.finish();
  }
}

/** The batch operations that undo a block from its undo record. */
export function undoOps(record: Uint8Array): BatchOp[] {
  const r = new Reader(record);
  const n = r.u32();
  const ops: BatchOp[] = [];
  for (let i = 0; i < n; i++) {
    const key = r.bytes(r.u16());
    ops.push(r.u8() === 0 ? { type: 'del', key } : { type: 'put', key, value: r.bytes(r.u32()) });
  }
  r.end();
  return ops;
}
