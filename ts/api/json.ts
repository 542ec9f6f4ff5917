// JSON text with bigint values written as exact JSON numbers (DESIGN.md: uint64 amounts are plain
// digits, never strings, never rounded through a double). Keys keep their declaration order.

export function writeJson(value: unknown): string {
  switch (typeof value) {
    case 'bigint': return value.toString();
    case 'number': return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'string': return JSON.stringify(value);
    case 'boolean': return value ? 'true' : 'false';
    case 'undefined': return 'null';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return '[' + value.map(writeJson).join(',') + ']';
      let out = '{';
      let first = true;
      for (const [k, v] of Object.entries(value)) {
        out += (first ? '' : ',') + JSON.stringify(k) + ':' + writeJson(v);
        first = false;
      }
      return out + '}';
    }
    default:
      throw new TypeError(`cannot write ${typeof value} as JSON`);
  }
}
