// The verdict of a rule that throws NodeError, as a name a table of cases can list: the rules of
// consensus and of the protocol refuse by throwing, and anything else thrown is a bug (rethrown).
import { NodeError, type ErrorName } from '../../ts/core/errors.js';

/** The errorName `f` throws, or 'none' when it returns. */
export function errorOf(f: () => unknown): ErrorName | 'none' {
  try {
    f();
  } catch (e) {
    if (e instanceof NodeError) return e.errorName;
    throw e;
  }
  return 'none';
}
