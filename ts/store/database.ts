// The node's one classic-level database per data directory (DESIGN.md "store").
import { ClassicLevel } from 'classic-level';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export type Db = ClassicLevel<Uint8Array, Uint8Array>;

export const DB_DIRNAME = 'db';

export async function openDatabase(dataDir: string): Promise<{ db: Db; path: string }> {
  const path = join(dataDir, DB_DIRNAME);
  const db = new ClassicLevel<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view' });
  await db.open();
  return { db, path };
}

/** Bytes the database's files occupy now. */
export async function databaseSize(path: string): Promise<bigint> {
  let total = 0n;
  for (const name of await readdir(path)) {
    const s = await stat(join(path, name)).catch(() => null);
    if (s?.isFile()) total += BigInt(s.size);
  }
  return total;
}
