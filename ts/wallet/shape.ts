// What the wallet reads of a node's answer, checked before it is read: a node of an unknown
// generation, or one that answers something else, meets one clear line ("the node's answer to GET
// /chain/head is not what the wallet reads of …: $.chainHead.pinHash is missing", node_api.ts),
// never a TypeError. Only the members the wallet reads are declared; others may be there or not.

/** A check of one value at `at` (a JSON path): a problem, or null. */
export type Check = (v: unknown, at: string) => string | null;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const is =
  (ok: (v: unknown) => boolean, what: string): Check =>
  (v, at) =>
    ok(v) ? null : `${at} is ${v === undefined ? 'missing' : `not ${what}`}`;

export const str = is((v) => typeof v === 'string', 'a string');
export const bool = is((v) => typeof v === 'boolean', 'true or false');
/** A JSON integer ≥ 0 (a bigint when above 2^53: core/json.ts). */
export const uint = is((v) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n), 'a non-negative integer');
export const hex64 = is((v) => typeof v === 'string' && /^[0-9a-fA-F]{64}$/.test(v), '64 hex chars');
export const any: Check = (v, at) => (v === undefined ? `${at} is missing` : null);

export function arrayOf(item: Check): Check {
  return (v, at) => {
    if (!Array.isArray(v)) return `${at} is ${v === undefined ? 'missing' : 'not an array'}`;
    for (let i = 0; i < v.length; i++) {
      const p = item(v[i], `${at}[${i}]`);
      if (p) return p;
    }
    return null;
  };
}

/** An object with at least these members. */
export function object(members: Record<string, Check>): Check {
  return (v, at) => {
    if (!isObject(v)) return `${at} is ${v === undefined ? 'missing' : 'not an object'}`;
    for (const [k, check] of Object.entries(members)) {
      const p = check(v[k], `${at}.${k}`);
      if (p) return p;
    }
    return null;
  };
}

/** An object whose every member passes `member` (a block body by transaction type). */
export function recordOf(member: Check): Check {
  return (v, at) => {
    if (!isObject(v)) return `${at} is ${v === undefined ? 'missing' : 'not an object'}`;
    for (const [k, x] of Object.entries(v)) {
      const p = member(x, `${at}.${k}`);
      if (p) return p;
    }
    return null;
  };
}

export const nullable =
  (c: Check): Check =>
  (v, at) =>
    v === null ? null : c(v, at);

export const optional =
  (c: Check): Check =>
  (v, at) =>
    v === undefined ? null : c(v, at);

/** The check's problem with `v`, or null. */
export const problemOf = (c: Check, v: unknown): string | null => c(v, '$');
