// JSON text with bigint values written as exact JSON numbers (docs/api.md: uint64 amounts are plain
// digits, never strings, never rounded through a double). Keys keep their declaration order.

/** `numberText` writes finite doubles (an API generation's float form); JSON.stringify's form by default. */
export function writeJson(value: unknown, numberText?: (n: number) => string): string {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? (numberText ? numberText(value) : JSON.stringify(value)) : 'null';
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return '[' + value.map((v) => writeJson(v, numberText)).join(',') + ']';
      let out = '{';
      let first = true;
      for (const [k, v] of Object.entries(value)) {
        out += (first ? '' : ',') + JSON.stringify(k) + ':' + writeJson(v, numberText);
        first = false;
      }
      return out + '}';
    }
    default:
      throw new TypeError(`cannot write ${typeof value} as JSON`);
  }
}

/**
 * Parses JSON text like JSON.parse, except that integers outside ±2^53 become bigint, so uint64
 * request members (amounts, fees) arrive exact. Throws SyntaxError on malformed text.
 */
/**
 * Integers longer than this (far beyond uint64) are read as doubles, as JSON.parse reads them:
 * BigInt of a long digit string costs quadratic time, a double linear (issue 12: a 10^6-digit
 * number must cost no more than a string of that size).
 */
const MAX_EXACT_CHARS = 40;

export function readJson(text: string): unknown {
  let i = 0;
  const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
  const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
  const LITERAL = /true|false|null/y;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const match = (re: RegExp): string | null => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) return null;
    i = re.lastIndex;
    return m[0];
  };
  const expect = (c: string) => {
    ws();
    if (text[i++] !== c) throw new SyntaxError(`expected '${c}' at ${i - 1}`);
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        ws();
        const k = match(STRING);
        if (k === null) throw new SyntaxError(`expected a key at ${i}`);
        expect(':');
        // defineProperty: a "__proto__" key is an ordinary member, as with JSON.parse.
        Object.defineProperty(o, JSON.parse(k), { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        const d = text[i++];
        if (d === '}') return o;
        if (d !== ',') throw new SyntaxError(`expected ',' or '}' at ${i - 1}`);
      }
    }
    if (c === '[') {
      i++;
      const a: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        const d = text[i++];
        if (d === ']') return a;
        if (d !== ',') throw new SyntaxError(`expected ',' or ']' at ${i - 1}`);
      }
    }
    const str = match(STRING);
    if (str !== null) return JSON.parse(str);
    const lit = match(LITERAL);
    if (lit !== null) return lit === 'true' ? true : lit === 'false' ? false : null;
    const num = match(NUMBER);
    if (num === null) throw new SyntaxError(`unexpected character at ${i}`);
    if (num.length <= MAX_EXACT_CHARS && /^-?\d+$/.test(num)) {
      const b = BigInt(num);
      return b >= -(2n ** 53n) && b <= 2n ** 53n ? Number(b) : b;
    }
    return Number(num);
  };
  const v = value();
  ws();
  if (i !== text.length) throw new SyntaxError(`unexpected text at ${i}`);
  return v;
}
