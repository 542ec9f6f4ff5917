// After a failed write the database is reopened before the next one (write_recovery.ts): LevelDB's
// log then starts afresh instead of going on after a torn record, and nothing is written while the
// disk is still full. Found by scripts/network.mjs: a node whose disk filled, then killed, would
// not start again ("write-ahead log … fails its checksum"). The last case fills a real small
// filesystem (tmpfs; it needs root, as the machines running `make test` have).
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, writeBatch, type BatchOp, type Db } from '../../ts/store/database.js';
import { checkDatabaseFiles } from '../../ts/store/file_check.js';
import { guardWrites, MIN_FREE_BYTES, reopenCount } from '../../ts/store/write_recovery.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
const fresh = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wartnode-wrec-'));
  dirs.push(dir);
  return dir;
};
const key = (i: number) => Uint8Array.of(0x7e, i >> 8, i & 0xff);
const puts = (from: number, to: number, size = 16): BatchOp[] =>
  Array.from({ length: to - from }, (_, j) => ({ type: 'put' as const, key: key(from + j), value: new Uint8Array(size).fill((from + j) & 0xff) }));
const logs = async (path: string) => (await readdir(path)).filter((f) => f.endsWith('.log')).sort();
const count = async (db: Db) => (await db.keys({ gte: key(0), lte: key(0xffff) }).all()).length;

/** The next chained batch of `db` fails as LevelDB reports a full disk. */
function failNextBatch(db: Db): void {
  const batch = db.batch.bind(db) as () => ReturnType<Db['batch']>;
  db.batch = ((...a: unknown[]) => {
    if (a.length) return (batch as (...x: unknown[]) => unknown)(...a);
    const b = batch();
    b.write = async () => {
      await b.close();
      throw Object.assign(new Error('IO error: 000005.log: No space left on device'), { code: 'LEVEL_IO_ERROR' });
    };
    db.batch = batch as Db['batch'];
    return b;
  }) as Db['batch'];
}

describe('writing again after a failed write', () => {
  it('reopens the database before the next write: a new write-ahead log, every acknowledged write kept', async () => {
    const dir = await fresh();
    const { db, path } = await openDatabase(dir);
    await writeBatch(db, puts(0, 50));
    const before = await logs(path);
    failNextBatch(db);
    await expect(writeBatch(db, puts(50, 60))).rejects.toThrow(/No space left/);
    expect(reopenCount(db)).toBe(0);
    await writeBatch(db, puts(60, 80));
    expect(reopenCount(db)).toBe(1);
    const after = await logs(path);
    expect(after).not.toEqual(before); // LevelDB recovered the old log into a table and started a new one
    expect(await count(db)).toBe(70); // 0–49 and 60–79: the failed batch wrote nothing
    await db.close();
    expect(await checkDatabaseFiles(path)).toBeNull();
  });

  it('while the disk is still full: no reopening, reads go on, the write fails at once; then it writes', async () => {
    const dir = await fresh();
    const { db, path } = await openDatabase(dir);
    let free = 0;
    guardWrites(db, async () => free);
    await writeBatch(db, puts(0, 10));
    failNextBatch(db);
    await expect(writeBatch(db, puts(10, 20))).rejects.toThrow(/No space left/);
    await expect(writeBatch(db, puts(20, 30))).rejects.toThrow(/still full/);
    await expect(db.put(key(40), Uint8Array.of(1))).rejects.toThrow(/still full/);
    expect(db.status).toBe('open');
    expect(await count(db)).toBe(10);
    free = MIN_FREE_BYTES;
    await db.put(key(40), Uint8Array.of(1));
    await writeBatch(db, puts(20, 30));
    expect(reopenCount(db)).toBe(1);
    expect(await count(db)).toBe(21);
    await db.close();
    expect(await checkDatabaseFiles(path)).toBeNull();
  });

  const canMount = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;
  it.runIf(canMount)('a real full disk (tmpfs): writes fail, space is freed, writing goes on, the files check and reopen whole', async () => {
    const dir = await fresh();
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=40m', 'tmpfs', dir]).status).toBe(0);
    try {
      const { db, path } = await openDatabase(dir);
      const written: number[] = [];
      let failures = 0;
      // Fill: a filler file takes what the database leaves, then batches of 4 KiB values until they fail.
      await writeFile(join(dir, 'filler'), new Uint8Array(40 * 2 ** 20)).catch(() => undefined);
      for (let i = 0; i < 400 && failures < 3; i++) {
        try {
          await writeBatch(db, puts(i * 4, i * 4 + 4, 4096));
          written.push(i);
        } catch {
          failures++;
        }
      }
      expect(failures).toBeGreaterThan(0);
      await rm(join(dir, 'filler'));
      for (let i = 400; i < 410; i++) {
        await writeBatch(db, puts(i * 4, i * 4 + 4, 1024));
        written.push(i);
      }
      const n = await count(db);
      await db.close();
      expect(await checkDatabaseFiles(path)).toBeNull();
      const again = await openDatabase(dir, { checkFiles: true });
      expect(await count(again.db)).toBe(n);
      for (const i of written) expect(await again.db.get(key(i * 4))).toBeDefined();
      await again.db.close();
    } finally {
      spawnSync('umount', ['-l', dir]);
    }
  });
});
