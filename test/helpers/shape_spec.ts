// Expected JSON shapes written compactly, for checking answers against the tables of clients.md:
// 's' string, 'i' integer, 'n' number, 'b' boolean, a trailing '?' allows null; an object spec
// lists exactly the keys expected; `[spec]` is an array whose every element matches spec (and
// `nonEmpty([spec])` one that also has at least one element).
export type Spec = string | Spec[] | { [k: string]: Spec } | { nonEmpty: Spec };

export const nonEmpty = (items: Spec): Spec => ({ nonEmpty: items });

function typeOk(t: string, v: unknown): boolean {
  if (t.endsWith('?') && v === null) return true;
  switch (t.replace('?', '')) {
    case 's':
      return typeof v === 'string';
    case 'i':
      return typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
    case 'n':
      return typeof v === 'number' || typeof v === 'bigint';
    case 'b':
      return typeof v === 'boolean';
    default:
      throw new Error(`unknown type letter ${t}`);
  }
}

/** Where `v` does not match `spec` (exact key sets); empty when it does. */
export function mismatches(spec: Spec, v: unknown, path = '$', out: string[] = []): string[] {
  if (typeof spec === 'string') {
    if (!typeOk(spec, v)) out.push(`${path}: expected ${spec}, got ${JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? String(x) : x))?.slice(0, 80)}`);
    return out;
  }
  if (Array.isArray(spec) || 'nonEmpty' in spec) {
    const item = Array.isArray(spec) ? spec[0] : (spec.nonEmpty as Spec[])[0];
    if (!Array.isArray(v)) {
      out.push(`${path}: expected an array`);
      return out;
    }
    if (!Array.isArray(spec) && v.length === 0) out.push(`${path}: expected at least one element`);
    v.forEach((x, i) => mismatches(item, x, `${path}[${i}]`, out));
    return out;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    out.push(`${path}: expected an object`);
    return out;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(spec)) if (!(k in o)) out.push(`${path}.${k}: missing`);
  for (const k of Object.keys(o)) if (!(k in spec)) out.push(`${path}.${k}: unexpected`);
  for (const [k, s] of Object.entries(spec)) if (k in o) mismatches(s, o[k], `${path}.${k}`, out);
  return out;
}
