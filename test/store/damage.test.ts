// Damaged data is never silently served (issue 12): a spawned node on a damaged data directory
// refuses to start with one line naming the damage and exit code 1, and `--reindex` rebuilds from
// the stored blocks exactly the state a clean replay of them gives. Clear start-up failures for a
// data directory in use or unreadable. Real classic-level, real files damaged on disk.
import { spawnSync } from 'node:child_process';
import { chmod, cp, mkdtemp, readFile, readdir, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, removeDir, startNode } from '../helpers/node.js';
import { digest } from '../helpers/digest.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { Chain } from '../../ts/chain/chain.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { openDatabase } from '../../ts/store/database.js';

const BLOCKS = 150;
const dirs: string[] = [];
let pristine: string; // a data directory of BLOCKS blocks, cleanly stopped, its log compacted to a table
let blocks: { raw: Uint8Array; body: Uint8Array }[] = [];

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'wartnode-damage-'));
  dirs.push(d);
  return d;
}

/** A copy of the pristine data directory to damage. */
async function copy(): Promise<string> {
  const d = await tempDir();
  await cp(pristine, d, { recursive: true });
  return d;
}

/** Runs the node on `dir` to its exit, under `wrapper` (a command prefix) when one is given. */
function run(dir: string, wrapper: string[] = []) {
  const argv = [process.execPath, BIN, '--regtest', '--isolated', '--rpc=127.0.0.1:0', `--datadir=${dir}`];
  const [command, ...rest] = [...wrapper, ...argv];
  const r = spawnSync(command, rest, { encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** The node refuses to start: exit 1, one error line matching `cause`, no stack trace. */
function expectRefusal(dir: string, cause: RegExp, wrapper: string[] = []): string {
  const r = run(dir, wrapper);
  expect(r.status, r.output).toBe(1);
  const errors = r.output.split('\n').filter((l) => l.includes('[error]'));
  expect(errors, r.output).toHaveLength(1);
  expect(errors[0]).toMatch(cause);
  expect(r.output).not.toMatch(/^\s+at /m);
  return errors[0];
}

/** Starts with --reindex; the rebuilt state equals a clean replay of the blocks it kept. */
async function expectReindexRestores(dir: string): Promise<number> {
  const n = await startNode(['--regtest', '--reindex'], dir);
  const height = (await n.data('/chain/head')).chainHead.height as number;
  expect(n.output()).toMatch(/Reindex: rebuilt \d+ blocks/);
  expect(await n.stop()).toBe(0);
  const rebuilt = await openDatabase(dir);
  const replayDir = await tempDir();
  const replay = await openDatabase(replayDir);
  const chain = await Chain.open(replay.db, REGTEST);
  for (const b of blocks.slice(0, height)) await chain.append(b.raw, b.body, { now: 2 ** 32 - 1, skipPow: true });
  expect(await digest(rebuilt.db)).toBe(await digest(replay.db));
  await rebuilt.db.close();
  await replay.db.close();
  // … and it starts cleanly afterwards.
  const again = await startNode(['--regtest'], dir);
  expect((await again.data('/chain/head')).chainHead.height).toBe(height);
  await again.stop();
  return height;
}

const dbFiles = async (dir: string, re: RegExp) => (await readdir(join(dir, 'db'))).filter((f) => re.test(f)).map((f) => join(dir, 'db', f));

async function flipBytes(file: string, at: number): Promise<void> {
  const b = await readFile(file);
  for (let i = 0; i < 4; i++) b[at + i] ^= 0xa5;
  await writeFile(file, b);
}

beforeAll(async () => {
  await initKernel();
  pristine = await tempDir();
  const n = await startNode(['--regtest'], pristine);
  for (let i = 0; i < BLOCKS; i++) expect((await n.get('/debug/fakemine')).body.code).toBe(0);
  expect(await n.stop()).toBe(0);
  // Read from a copy: opening moves the log into a table file, and the pristine one keeps its log.
  const reader = await tempDir();
  await cp(pristine, reader, { recursive: true });
  const { db } = await openDatabase(reader);
  const chain = await Chain.open(db, REGTEST);
  for (let h = 1; h <= chain.length; h++) {
    const b = (await chain.block(h))!;
    blocks.push({ raw: b.raw, body: b.body });
  }
  await db.close();
  expect(blocks).toHaveLength(BLOCKS);
}, 120_000);

afterAll(async () => {
  for (const d of dirs) await removeDir(d);
});

describe('a damaged database', () => {
  it('refuses to start without its CURRENT file, and --reindex restores every block', async () => {
    const d = await copy();
    await rm(join(d, 'db', 'CURRENT'));
    expectRefusal(d, /damaged: its CURRENT file is missing.*--reindex/);
    expect(await expectReindexRestores(d)).toBe(BLOCKS);
  }, 120_000);

  it('refuses a truncated write-ahead log (blocks committed but gone), and --reindex keeps the blocks still stored', async () => {
    const d = await copy();
    const [log] = await dbFiles(d, /^\d+\.log$/);
    const size = (await stat(log)).size;
    expect(size).toBeGreaterThan(5000); // the blocks are still in the log, as after a clean stop
    await truncate(log, size - 3000);
    expectRefusal(d, /damaged: blocks \d+–150 were committed but are gone \(a damaged or truncated write-ahead log\)/);
    const kept = await expectReindexRestores(d);
    expect(kept).toBeLessThan(BLOCKS);
    expect(kept).toBeGreaterThan(0);
  }, 120_000);

  it('refuses a write-ahead log with flipped bytes', async () => {
    const d = await copy();
    const [log] = await dbFiles(d, /^\d+\.log$/);
    await flipBytes(log, Math.floor((await stat(log)).size / 2));
    expectRefusal(d, /damaged: write-ahead log \d+\.log: record at \d+ fails its checksum/);
    await expectReindexRestores(d);
  }, 120_000);

  it('refuses a table file with flipped bytes, and --reindex rebuilds from what the stored blocks still hold', async () => {
    const d = await copy();
    // A clean start and stop moves the log into a table file.
    const n = await startNode(['--regtest'], d);
    await n.stop();
    const [table] = await dbFiles(d, /^\d+\.ldb$/);
    expect(table).toBeDefined();
    await flipBytes(table, Math.floor((await stat(table)).size / 3));
    expectRefusal(d, /damaged: table file \d+\.ldb: .*--reindex/);
    await expectReindexRestores(d);
  }, 120_000);

  it('refuses the moment a --reindex was interrupted in (old database moved aside), and --reindex again restores it', async () => {
    const d = await copy();
    await rename(join(d, 'db'), join(d, 'db.replaced'));
    expectRefusal(d, /damaged: a --reindex was interrupted while swapping it with .*db\.replaced/);
    expect(await expectReindexRestores(d)).toBe(BLOCKS);
    expect(await readdir(d)).not.toContain('db.replaced');
  }, 120_000);

  it('refuses when the stored tip is not the committed one (head pointer and check record disagree)', async () => {
    const d = await copy();
    // Put back an older head pointer by hand: the check record, committed with it, disagrees.
    const { db } = await openDatabase(d);
    await db.put(new TextEncoder().encode('mhead'), Uint8Array.of(0, 0, 0, 100));
    await db.close();
    expectRefusal(d, /damaged: .*(head pointer names block 100|blocks 101–150)/);
  }, 60_000);
});

describe('clear start-up failures', () => {
  it('a data directory in use by another node: one line, exit 1', async () => {
    const d = await copy();
    const a = await startNode(['--regtest'], d);
    try {
      expectRefusal(d, new RegExp(`data directory ${d} is in use by another node`));
    } finally {
      await a.stop();
    }
  });

  it('an unreadable data directory: one line naming permissions, exit 1', async () => {
    const d = await copy();
    await chmod(join(d, 'db'), 0);
    // Root reads everything: it then runs the node without capabilities (util-linux setpriv), so the
    // mode-0 directory refuses it as it would any user. The node's own files stay readable.
    const wrapper = process.getuid?.() === 0 ? ['setpriv', '--inh-caps=-all', '--bounding-set=-all', '--'] : [];
    try {
      expectRefusal(d, /no permission to use data directory/, wrapper);
    } finally {
      await chmod(join(d, 'db'), 0o755);
    }
  });
});
