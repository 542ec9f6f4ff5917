// Why the store cannot be used, as one line for the user: which problem, and what to do about it.
// Start-up prints the message and exits with 1 (no stack trace); the API names damage it meets.

export type StoreProblem = 'in-use' | 'permission' | 'disk-full' | 'damaged' | 'unusable';

export class StoreFailure extends Error {
  constructor(
    readonly problem: StoreProblem,
    message: string,
  ) {
    super(message);
  }
}

/** Damage found in the database at `path`, and the two ways out. */
export function damaged(path: string, what: string): StoreFailure {
  return new StoreFailure(
    'damaged',
    `database ${path} is damaged: ${what}. Restart with --reindex to rebuild the state from the stored blocks, or delete ${path} and resync`,
  );
}

/** Whether `e` is LevelDB reporting a damaged file (a failed checksum, a bad block, a bad log record). */
export function isCorruption(e: unknown): boolean {
  const err = e as { code?: string; message?: string; cause?: unknown } | null;
  if (!err || typeof err !== 'object') return false;
  return err.code === 'LEVEL_CORRUPTION' || /^Corruption:/.test(err.message ?? '') || (err.cause !== undefined && isCorruption(err.cause));
}

/** The innermost message of `e` (classic-level wraps LevelDB's status in `cause`). */
function detail(e: unknown): string {
  let err = e as { message?: string; cause?: unknown } | undefined;
  while (err && typeof err === 'object' && err.cause) err = err.cause as typeof err;
  return String(err?.message ?? e);
}

/** Why a write failed, for the log and the error answer: a full disk said so, else LevelDB's own words. */
export function writeFailureText(e: unknown): string {
  const text = detail(e);
  return /No space left on device|ENOSPC/.test(text) ? `disk full (${text})` : text;
}

/** Turns an error met while creating or opening the data directory's database into a StoreFailure. */
export function classifyOpenError(e: unknown, dataDir: string, dbPath: string): StoreFailure {
  if (e instanceof StoreFailure) return e;
  const codes: string[] = [];
  for (let err = e as { code?: string; cause?: unknown } | undefined; err && typeof err === 'object'; err = err.cause as typeof err) {
    if (err.code) codes.push(err.code);
  }
  const text = detail(e);
  if (codes.includes('LEVEL_LOCKED') || /already held by process|lock .*: (Resource temporarily unavailable|already held)/i.test(text)) {
    return new StoreFailure('in-use', `data directory ${dataDir} is in use by another node: stop that node, or give this one another --datadir`);
  }
  if (codes.includes('EACCES') || codes.includes('EPERM') || codes.includes('EROFS') || /Permission denied|Read-only file system|EACCES|EPERM/.test(text)) {
    return new StoreFailure(
      'permission',
      `no permission to use data directory ${dataDir} (${text}): give the user running the node read and write access to it, or choose another --datadir`,
    );
  }
  if (codes.includes('ENOSPC') || /No space left on device|ENOSPC/.test(text)) {
    return new StoreFailure('disk-full', `disk full: cannot write to data directory ${dataDir}: free some space and start again`);
  }
  if (isCorruption(e)) return damaged(dbPath, text.replace(/\.$/, ''));
  return new StoreFailure('unusable', `cannot open database ${dbPath}: ${text}`);
}
