// Path and query parameter parsing (http-api-details.md §1.5). Each parser either returns the
// value or throws a NodeError with the code the reference uses for that parameter kind.
import { parseUint } from '../core/amount.js';
import { fail } from '../core/errors.js';

export function uintParam(text: string, bits: number, what: string): bigint {
  return parseUint(text, bits) ?? fail('EINV_ARGS', `${what} must be an unsigned ${bits}-bit integer, got '${text}'`);
}

export function u32Param(text: string, what: string): number {
  return Number(uintParam(text, 32, what));
}

export function u64Param(text: string, what: string): bigint {
  return uintParam(text, 64, what);
}
