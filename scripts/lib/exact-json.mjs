// JSON with exact numbers, for the differential runners against the reference nodes
// (scripts/defi-diff.mjs, scripts/mainnet-diff.mjs) and the tests that replay their recordings:
// a number is kept as its text (class Num), so u64 values and the printed form of doubles compare
// exactly; leafDiffs lists the leaves where two parsed answers differ.

/** A JSON number, kept as the text it was written with. */
export class Num {
  constructor(t) {
    this.t = t;
  }
}

/** Parses JSON text; numbers become Num (never rounded through a double). Throws SyntaxError. */
export function parseJson(text) {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const fail = () => {
    throw new SyntaxError(`bad JSON at ${i}: ${text.slice(Math.max(0, i - 20), i + 20)}`);
  };
  const str = () => {
    const m = /^"(?:[^"\\]|\\.)*"/s.exec(text.slice(i, i + 1_000_000));
    if (!m) fail();
    i += m[0].length;
    return JSON.parse(m[0]);
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      const isObj = c === '{';
      const out = isObj ? {} : [];
      ws();
      if (text[i] === (isObj ? '}' : ']')) {
        i++;
        return out;
      }
      for (;;) {
        ws();
        if (isObj) {
          if (text[i] !== '"') fail();
          const k = str();
          ws();
          if (text[i++] !== ':') fail();
          out[k] = value();
        } else out.push(value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === (isObj ? '}' : ']')) {
          i++;
          return out;
        }
        fail();
      }
    }
    if (c === '"') return str();
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
    if (m) {
      i += m[0].length;
      return new Num(m[0]);
    }
    for (const [w, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ])
      if (text.startsWith(w, i)) {
        i += w.length;
        return v;
      }
    return fail();
  };
  const v = value();
  ws();
  if (i !== text.length) fail();
  return v;
}

/** Compact JSON; Num as its text, bigint as digits; keys in their order. */
export function writeJson(v) {
  if (v instanceof Num) return v.t;
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return `[${v.map(writeJson).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}:${writeJson(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** Compact JSON with object keys sorted. */
export const sortedJson = (v) =>
  v && typeof v === 'object' && !(v instanceof Num) && !Array.isArray(v)
    ? `{${Object.keys(v)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${sortedJson(v[k])}`)
        .join(',')}}`
    : Array.isArray(v)
      ? `[${v.map(sortedJson).join(',')}]`
      : writeJson(v);

export const big = (v) => (v instanceof Num ? BigInt(v.t) : typeof v === 'bigint' ? v : BigInt(v ?? 0));
export const numOf = (v) => (v instanceof Num ? Number(v.t) : Number(v));
export const isObject = (v) => v !== null && typeof v === 'object' && !(v instanceof Num) && !Array.isArray(v);

/** Two numbers' texts are the same number: integers (no `.`/exponent) by exact value, others as the same double. */
export function sameNumberValue(a, b) {
  const isInt = (t) => /^-?\d+$/.test(t);
  if (isInt(a.t) && isInt(b.t)) return BigInt(a.t) === BigInt(b.t);
  return Number(a.t) === Number(b.t);
}

/**
 * Appends to `out` every leaf where `a` (ours) and `b` (the reference's) differ: `{path, ours, ref}`
 * with JSON paths `$.a.b[2]` and sorted-key JSON texts (`(absent)` for a missing member); arrays of
 * different lengths are one difference at `….length` (with both arrays as `oursV`, `refV`).
 * `sameNumber(x, y)` decides for two Num leaves (default: the same text).
 */
export function leafDiffs(a, b, path, out, sameNumber = (x, y) => x.t === y.t) {
  if (isObject(a) && isObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (!(k in a)) out.push({ path: `${path}.${k}`, ours: '(absent)', ref: sortedJson(b[k]) });
      else if (!(k in b)) out.push({ path: `${path}.${k}`, ours: sortedJson(a[k]), ref: '(absent)' });
      else leafDiffs(a[k], b[k], `${path}.${k}`, out, sameNumber);
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      out.push({ path: `${path}.length`, ours: String(a.length), ref: String(b.length), oursV: a, refV: b });
      return out;
    }
    a.forEach((x, i) => leafDiffs(x, b[i], `${path}[${i}]`, out, sameNumber));
    return out;
  }
  if (a instanceof Num && b instanceof Num && sameNumber(a, b)) return out;
  const sa = sortedJson(a),
    sb = sortedJson(b);
  if (sa !== sb) out.push({ path, ours: sa, ref: sb });
  return out;
}
