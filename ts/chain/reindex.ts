// `--reindex` (as Bitcoin Core's -reindex): rebuilds the whole state from the blocks stored in the
// database. Where LevelDB cannot open it (a missing CURRENT), its repair first recovers what the
// files still hold; then every stored block from height 1 on is applied afresh to a new
// database, up to the first that is missing, unreadable or does not link to the one before. The
// new database replaces the old one. Peers, bans and the signed snapshot are carried over
// (store/keys.ts PREFIX says which record kinds).
import { ClassicLevel } from 'classic-level';
import { readdir, rename, rm } from 'node:fs/promises';
import type { NetworkParams } from '../consensus/params.js';
import { HASH_SIZE } from '../core/header.js';
import { equalBytes } from '../core/hex.js';
import { databasePath, replacedPath, writeBatch, type Db } from '../store/database.js';
import { classifyOpenError } from '../store/failure.js';
import { CARRIED_BY_REINDEX, bodyKey, headerKey, prefixRange, type Prefix } from '../store/keys.js';
import { Chain } from './chain.js';

const PROGRESS_EVERY = 10_000;

async function copyPrefix(from: Db, to: Db, prefix: Prefix): Promise<void> {
  const it = from.iterator(prefixRange(prefix));
  try {
    for (let rows = await it.nextv(1024); rows.length > 0; rows = await it.nextv(1024)) {
      await writeBatch(
        to,
        rows.map(([key, value]) => ({ type: 'put' as const, key, value })),
      );
    }
  } catch {
    /* what cannot be read is not carried over */
  } finally {
    await it.close();
  }
}

/**
 * Opens the old database as it is; only if LevelDB cannot (a missing CURRENT, a damaged manifest),
 * lets LevelDB's repair recover what its files hold first. Never repairs a database another node
 * holds.
 */
async function openForReading(path: string, dataDir: string): Promise<Db> {
  const open = async () => {
    const db = new ClassicLevel<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view', createIfMissing: false });
    await db.open();
    return db;
  };
  try {
    return await open();
  } catch (e) {
    const failure = classifyOpenError(e, dataDir, path);
    if (failure.problem !== 'damaged' && failure.problem !== 'unusable') throw failure;
  }
  try {
    await ClassicLevel.repair(path);
    return await open();
  } catch (e) {
    throw classifyOpenError(e, dataDir, path);
  }
}

/** Rebuilds the database of `dataDir`; returns the height of the rebuilt chain. */
export async function reindex(dataDir: string, params: NetworkParams, log: (line: string) => void): Promise<number> {
  const path = databasePath(dataDir);
  const fresh = `${path}.reindex`;
  const replaced = replacedPath(path);
  const holdsFiles = async (p: string) => (await readdir(p).catch(() => [])).length > 0;
  // An interrupted reindex may have left the old database under its replaced name only.
  const source = (await holdsFiles(path)) ? path : (await holdsFiles(replaced)) ? replaced : null;
  if (!source) {
    log('Reindex: no database yet, nothing to rebuild');
    return 0;
  }
  const old = await openForReading(source, dataDir);
  await rm(fresh, { recursive: true, force: true });
  const target = new ClassicLevel<Uint8Array, Uint8Array>(fresh, { keyEncoding: 'view', valueEncoding: 'view' });
  await target.open();
  for (const p of CARRIED_BY_REINDEX) await copyPrefix(old, target, p);
  const chain = await Chain.open(target, params);
  let reason = 'no more stored blocks';
  for (let h = 1; ; h++) {
    let raw: Uint8Array | undefined, body: Uint8Array | undefined;
    try {
      [raw, body] = await old.getMany([headerKey(h), bodyKey(h)]);
    } catch (e) {
      reason = `block ${h} is unreadable (${(e as Error).message})`;
      break;
    }
    if (!raw || !body) break; // the header's prevHash (consensus.md §2.1) is its first field
    if (!equalBytes(raw.subarray(0, HASH_SIZE), chain.tipHash)) {
      reason = `block ${h} does not link to block ${h - 1}`;
      break;
    }
    try {
      // Proof of work was checked when the block arrived; the hash links check the headers since.
      await chain.append(raw, body, { now: 0xffffffff, skipPow: true });
    } catch (e) {
      reason = `block ${h} is invalid (${(e as Error).message})`;
      break;
    }
    if (h % PROGRESS_EVERY === 0) log(`Reindex: ${h} blocks`);
  }
  await chain.idle();
  await old.close();
  await target.close();
  // Swapped by renames: at every moment a crash leaves the old database or the new one in place
  // (openDatabase refuses the moment between, naming it).
  if (source === path) {
    await rm(replaced, { recursive: true, force: true });
    await rename(path, replaced);
  } else {
    await rm(path, { recursive: true, force: true });
  }
  await rename(fresh, path);
  await rm(replaced, { recursive: true, force: true });
  log(`Reindex: rebuilt ${chain.length} blocks from the stored blocks; stopped: ${reason}`);
  return chain.length;
}
