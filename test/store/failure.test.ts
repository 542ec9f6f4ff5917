// Start-up failures are told apart from LevelDB's and the file system's errors, each as one line
// saying what to do (issue 12, issue 9 §3). Errors shaped as classic-level and node:fs give them.
import { describe, expect, it } from 'vitest';
import { classifyOpenError, isCorruption, StoreFailure } from '../../ts/store/failure.js';

const level = (code: string, causeCode: string | undefined, message: string) =>
  Object.assign(new Error('Database failed to open'), { code, cause: Object.assign(new Error(message), causeCode ? { code: causeCode } : {}) });
const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('classifyOpenError', () => {
  it('names each cause and what to do', () => {
    const cases: [unknown, StoreFailure['problem'], RegExp][] = [
      [
        level('LEVEL_DATABASE_NOT_OPEN', 'LEVEL_LOCKED', 'IO error: lock /d/db/LOCK: already held by process'),
        'in-use',
        /^data directory \/d is in use by another node: stop that node, or give this one another --datadir$/,
      ],
      [
        level('LEVEL_DATABASE_NOT_OPEN', undefined, 'IO error: /d/db/LOCK: Permission denied'),
        'permission',
        /^no permission to use data directory \/d .*read and write access/,
      ],
      [fsError('EACCES', "EACCES: permission denied, mkdir '/d'"), 'permission', /^no permission to use data directory \/d/],
      [
        level('LEVEL_DATABASE_NOT_OPEN', undefined, 'IO error: /d/db/000005.log: No space left on device'),
        'disk-full',
        /^disk full: cannot write to data directory \/d: free some space/,
      ],
      [fsError('ENOSPC', "ENOSPC: no space left on device, mkdir '/d'"), 'disk-full', /^disk full/],
      [
        level('LEVEL_DATABASE_NOT_OPEN', 'LEVEL_CORRUPTION', 'Corruption: bad block in MANIFEST'),
        'damaged',
        /^database \/d\/db is damaged: Corruption: bad block in MANIFEST\. Restart with --reindex .* or delete \/d\/db and resync$/,
      ],
      [new Error('something else'), 'unusable', /^cannot open database \/d\/db: something else$/],
    ];
    for (const [e, problem, text] of cases) {
      const f = classifyOpenError(e, '/d', '/d/db');
      expect(f.problem, f.message).toBe(problem);
      expect(f.message).toMatch(text);
      expect(f.message).not.toContain('\n');
    }
  });

  it('recognises corruption however classic-level wraps it', () => {
    expect(isCorruption(Object.assign(new Error('x'), { code: 'LEVEL_CORRUPTION' }))).toBe(true);
    expect(isCorruption(new Error('Corruption: corrupted compressed block contents'))).toBe(true);
    expect(isCorruption(level('LEVEL_ITERATOR_NOT_OPEN', undefined, 'Corruption: bad entry in block'))).toBe(true);
    expect(isCorruption(new Error('IO error'))).toBe(false);
    expect(isCorruption(null)).toBe(false);
  });
});
