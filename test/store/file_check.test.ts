// The start-up file check (store/file_check.ts) reads what LevelDB would read: the tables the
// manifest names and the logs it replays. A table a compaction was writing when the process was
// killed is no part of the database (LevelDB deletes it at opening) and must not be called damage;
// a named table that is damaged or missing is. Real classic-level.
import { expect, test } from 'vitest';
import { ClassicLevel } from 'classic-level';
import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkDatabaseFiles, liveFiles } from '../../ts/store/file_check.js';

async function filledDatabase(): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'wartnode-files-')), 'db');
  const db = new ClassicLevel<string, string>(path);
  await db.open();
  for (let round = 0; round < 3; round++) {
    await db.batch(Array.from({ length: 5_000 }, (_, i) => ({ type: 'put' as const, key: `k${round}-${i}`, value: 'v'.repeat(100) })));
    await db.compactRange('k', 'l'); // tables written, older ones compacted away
  }
  await db.put('tail', 'in the log only');
  await db.close();
  return path;
}

const tables = async (path: string) => (await readdir(path)).filter((f) => f.endsWith('.ldb')).sort();

test('only the tables the manifest names are checked; an orphan is ignored, a damaged or missing named one is not', async () => {
  const path = await filledDatabase();
  try {
    const names = await tables(path);
    expect(names.length).toBeGreaterThan(0);
    const manifest = (await readFile(join(path, 'CURRENT'), 'utf8')).trim();
    const live = liveFiles(await readFile(join(path, manifest)));
    expect([...live.tables].sort((a, b) => a - b)).toEqual(names.map((n) => Number(n.slice(0, 6))));
    expect(await checkDatabaseFiles(path)).toBeNull();

    // A compaction's output cut short by kill -9: a table file without its footer, numbered after the rest.
    const orphan = join(path, '999999.ldb');
    await writeFile(orphan, (await readFile(join(path, names[0]))).subarray(0, 1000));
    expect(await checkDatabaseFiles(path)).toBeNull();
    const db = new ClassicLevel<string, string>(path);
    await db.open(); // LevelDB agrees: the orphan is not its data
    expect(await db.get('tail')).toBe('in the log only');
    await db.close();
    await rm(orphan, { force: true });

    const first = join(path, names[0]);
    const bytes = await readFile(first);
    bytes[100] ^= 0xff;
    await writeFile(first, bytes);
    expect(await checkDatabaseFiles(path)).toMatch(new RegExp(`^table file ${names[0]}: block at \\d+ fails its checksum`));
    await unlink(first);
    expect(await checkDatabaseFiles(path)).toBe(`table file ${names[0]} is missing`);
  } finally {
    await rm(join(path, '..'), { recursive: true, force: true });
  }
});
