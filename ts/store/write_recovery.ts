// Writing again after a failed write (disk full, I/O error). LevelDB appends each write to its
// write-ahead log; a write that fails half-way leaves a torn record there, and LevelDB goes on
// appending after it. Opened later, the log loses the rest of the torn record's 32 KiB block —
// writes that were acknowledged — and file_check.ts refuses the database as damaged (found by
// scripts/network.mjs: a full disk, then a kill). LevelDB also keeps a failed compaction's error
// until it is reopened: every later write fails. So after a failed write the database is closed
// and opened again before the next one: opening recovers the log (the torn record is its end then,
// the write that failed) into a table and starts a new log. Not while the disk is still full: the
// database stays open for reads, and the write fails at once.
import { statfs } from 'node:fs/promises';
import type { ClassicLevel } from 'classic-level';

/** The node's database (database.ts's Db; named here so that the two files do not import each other). */
type Db = ClassicLevel<Uint8Array, Uint8Array>;

/** Free bytes below which the disk is still full: no reopening (recovery itself writes a table). */
export const MIN_FREE_BYTES = 16 * 2 ** 20;

export type FreeBytes = (path: string) => Promise<number>;
const statfsFree: FreeBytes = async (path) => {
  const s = await statfs(path);
  return s.bavail * s.bsize;
};

interface State {
  failed: boolean;
  recovering: Promise<void> | null;
  freeBytes: FreeBytes;
  reopened: number;
  /** Told once the database is open again (the snapshots taken before are closed). */
  listeners: (() => void)[];
}
const states = new WeakMap<Db, State>();
const stateOf = (db: Db): State => {
  let s = states.get(db);
  if (!s) states.set(db, (s = { failed: false, recovering: null, freeBytes: statfsFree, reopened: 0, listeners: [] }));
  return s;
};

/** Records that a write of `db` failed: it is reopened before its next write. */
export function markWriteFailed(db: Db): void {
  stateOf(db).failed = true;
}

/** Calls `listener` whenever `db` has been reopened: the LevelDB snapshots taken before are closed then. */
export function onReopen(db: Db, listener: () => void): void {
  stateOf(db).listeners.push(listener);
}

/** How often `db` was reopened after a failed write. */
export const reopenCount = (db: Db): number => states.get(db)?.reopened ?? 0;

/** Before a write: when the last one failed, reopens `db` (once, whoever asks), or fails while the disk is still full. */
export async function readyToWrite(db: Db): Promise<void> {
  const s = states.get(db);
  if (!s?.failed) return;
  s.recovering ??= (async () => {
    try {
      if ((await s.freeBytes(db.location)) < MIN_FREE_BYTES) {
        throw Object.assign(new Error(`IO error: ${db.location}: No space left on device (still full: not writing)`), { code: 'LEVEL_IO_ERROR' });
      }
      await db.close();
      await db.open();
      s.failed = false;
      s.reopened++;
      for (const l of s.listeners) l();
    } finally {
      s.recovering = null;
    }
  })();
  await s.recovering;
}

/** Runs the write `op` of `db` when it may write, and records its failure. */
export async function guardedWrite<T>(db: Db, op: () => Promise<T>): Promise<T> {
  await readyToWrite(db);
  try {
    return await op();
  } catch (e) {
    markWriteFailed(db);
    throw e;
  }
}

/**
 * Makes every `put`, `del` and array `batch` of `db` a guarded write (the chained batch form is
 * guarded by database.ts's writeBatch, which writes it). `freeBytes`: how free space is measured.
 */
export function guardWrites(db: Db, freeBytes: FreeBytes = statfsFree): Db {
  stateOf(db).freeBytes = freeBytes;
  const put = db.put.bind(db);
  const del = db.del.bind(db);
  const batch = db.batch.bind(db) as (...a: unknown[]) => unknown;
  db.put = ((...a: Parameters<Db['put']>) => guardedWrite(db, () => put(...a))) as Db['put'];
  db.del = ((...a: Parameters<Db['del']>) => guardedWrite(db, () => del(...a))) as Db['del'];
  db.batch = ((...a: unknown[]) => (a.length === 0 ? batch() : guardedWrite(db, () => batch(...a) as Promise<void>))) as Db['batch'];
  return db;
}
