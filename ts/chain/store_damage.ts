// Whether a failure met while reading or changing the chain is a damaged store: LevelDB's own
// corruption errors and the chain's error 2001 (a record the chain needs is gone). The layers above
// never see the store; the HTTP edge asks here to answer 2001 and ask for `--reindex`.
import { NodeError } from '../core/errors.js';
import { isCorruption } from '../store/failure.js';

export function isStoreDamage(e: unknown): boolean {
  return (e instanceof NodeError && e.errorName === 'EDBDAMAGED') || isCorruption(e);
}
