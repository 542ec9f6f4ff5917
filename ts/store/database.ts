// The node's one classic-level database per data directory (its key layout: keys.ts).
// Opening refuses what would silently lose data: LevelDB, told to create a database where its
// CURRENT file is missing, starts a fresh one and deletes the old files as obsolete.
import { ClassicLevel } from 'classic-level';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { classifyOpenError, damaged } from './failure.js';
import { checkDatabaseFiles } from './file_check.js';
import { HEAD_MARKER_FILE } from './head_marker.js';
import { guardWrites, markWriteFailed, readyToWrite } from './write_recovery.js';

export type Db = ClassicLevel<Uint8Array, Uint8Array>;

/** Keys read one at a time, synchronously (the database, or it with writes not yet made: WriteGroup). */
export interface KeySource {
  getSync(key: Uint8Array): Uint8Array | undefined;
}

/** A key range of an iteration. */
export interface KeyRange {
  gte?: Uint8Array;
  gt?: Uint8Array;
  lt?: Uint8Array;
  lte?: Uint8Array;
}

/** What block application reads: single keys and key ranges. */
export interface StateSource extends KeySource {
  keys(range: KeyRange): AsyncIterable<Uint8Array>;
  getMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]>;
}

/**
 * One write of an atomic batch (`db.batch`). `id`, when given, is bytesKey(key), computed already
 * (a block's state overlay has it: WriteGroup reuses it).
 */
export type BatchOp = { type: 'put'; key: Uint8Array; value: Uint8Array; id?: string } | { type: 'del'; key: Uint8Array; id?: string };

/**
 * Writes the operations of `lists`, in order, as one atomic batch. The chained form: abstract-level's
 * array form copies and checks every operation object first (twice the main-thread time for a full
 * block's ~1,700 records). Keys and values are first copied into one buffer and handed over as views
 * of it: a small Uint8Array lives in the V8 heap, and handing one to native code moves it to a
 * buffer of its own first, one allocation per key and value.
 */
export async function writeBatch(db: Db, ...lists: readonly BatchOp[][]): Promise<void> {
  let size = 0;
  for (const ops of lists) for (const op of ops) size += op.key.length + (op.type === 'put' ? op.value.length : 0);
  await readyToWrite(db);
  const packed = new Uint8Array(size);
  let at = 0;
  const view = (b: Uint8Array) => {
    packed.set(b, at);
    return packed.subarray(at, (at += b.length));
  };
  const batch = db.batch();
  try {
    for (const ops of lists) for (const op of ops) op.type === 'put' ? batch.put(view(op.key), view(op.value)) : batch.del(view(op.key));
  } catch (e) {
    await batch.close();
    throw e;
  }
  try {
    await batch.write();
  } catch (e) {
    markWriteFailed(db);
    throw e;
  }
}

export const DB_DIRNAME = 'db';

/** Up to this size the checksums of every file are checked at opening (about a second per 300 MiB). */
const CHECK_FILES_BYTES = 512n << 20n;

export const databasePath = (dataDir: string) => join(dataDir, DB_DIRNAME);
/** Where `--reindex` moves the old database while it puts the rebuilt one in its place. */
export const replacedPath = (dbPath: string) => `${dbPath}.replaced`;

/** Files LevelDB writes that mean "a database was here" (its info log `LOG` aside). */
const LEVELDB_FILE = /^(MANIFEST-\d+|\d+\.(ldb|sst|log))$/;

async function entries(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

/**
 * Opens (or creates) the database of `dataDir`. Fails with a StoreFailure naming the problem when
 * another node holds it, permissions or space are lacking, or it is damaged. `checkFiles`: first
 * check every checksum of its files (file_check.ts) when it is small enough.
 */
export async function openDatabase(dataDir: string, opts: { checkFiles?: boolean } = {}): Promise<{ db: Db; path: string }> {
  const path = databasePath(dataDir);
  try {
    const files = await entries(path);
    if (!files.includes('CURRENT') && files.some((f) => LEVELDB_FILE.test(f) || f === HEAD_MARKER_FILE)) {
      throw damaged(path, "its CURRENT file is missing (it names the database's manifest)");
    }
    if (!files.some((f) => LEVELDB_FILE.test(f)) && (await entries(replacedPath(path))).length > 0) {
      throw damaged(path, `a --reindex was interrupted while swapping it with ${replacedPath(path)}`);
    }
    // Checked before opening, as opening replays the log and drops bad records without a word.
    const problem = opts.checkFiles && files.length && (await databaseSize(path)) <= CHECK_FILES_BYTES ? await checkDatabaseFiles(path) : null;
    const db = new ClassicLevel<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open(); // fails first if another node holds the database (its log may be mid-write)
    if (problem) {
      await db.close();
      throw damaged(path, problem);
    }
    return { db: guardWrites(db), path };
  } catch (e) {
    throw classifyOpenError(e, dataDir, path);
  }
}

/**
 * Bytes LevelDB holds in memory: its memtables and block cache (`leveldb.approximate-memory-usage`),
 * bounded by two write buffers (4 MiB each) and the 8 MiB cache, classic-level's defaults. They fill
 * as the database grows and is read, which an operator reading RSS wants told apart from a leak.
 * Null once the database is closed.
 */
export function databaseMemory(db: Db): number | null {
  if (db.status !== 'open') return null;
  const bytes = Number(db.getProperty('leveldb.approximate-memory-usage'));
  return Number.isFinite(bytes) ? bytes : null;
}

/**
 * databaseSize of `path` for answers asked often (`/tools/info`, issue 20): the folder is listed at
 * most once per `maxAgeMs`; meanwhile the last figure is answered (and refreshed in the background
 * once it is older), so no request waits for a walk of the folder but the first.
 */
export function databaseSizeEvery(path: string, maxAgeMs = 2000, now = () => Date.now()): () => Promise<bigint> {
  let last: { size: bigint; at: number } | null = null;
  let running: Promise<bigint> | null = null;
  const refresh = (): Promise<bigint> =>
    (running ??= databaseSize(path).then(
      (size) => {
        last = { size, at: now() };
        running = null;
        return size;
      },
      (e) => {
        running = null;
        throw e;
      },
    ));
  return async () => {
    if (!last) return refresh();
    if (now() - last.at >= maxAgeMs) refresh().catch(() => undefined);
    return last.size;
  };
}

export async function databaseSize(path: string): Promise<bigint> {
  let total = 0n;
  for (const name of await readdir(path)) {
    const s = await stat(join(path, name)).catch(() => null);
    if (s?.isFile()) total += BigInt(s.size);
  }
  return total;
}
