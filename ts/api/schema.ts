// Response shapes, declared once. Each declaration yields the JSON Schema served by
// `/debug/json_schemas` (http-api-details.md §9.12: named types, `$ref` by name,
// `additionalProperties: false`, `prefixItems` for tuples) and a validator the tests use
// on every response they receive. TypeScript types of views are inferred from the same
// declarations, so a view cannot drift from its schema without a compile error.

export type JsonSchema = { [k: string]: unknown };

export interface Shape<T> {
  readonly schema: JsonSchema;
  /** Phantom: the TypeScript type of a value of this shape. */
  readonly _type?: T;
}

export type Infer<S> = S extends Shape<infer T> ? T : never;

const shape = <T>(schema: JsonSchema): Shape<T> => ({ schema });

export const str = shape<string>({ type: 'string' });
export const bool = shape<boolean>({ type: 'boolean' });
export const num = shape<number>({ type: 'number' });
/** Any integer up to 2^32; written as a JSON number. */
export const int = shape<number>({ type: 'integer' });
/** uint64: bigint in TypeScript, an exact JSON number on the wire. */
export const u64 = shape<bigint | number>({ type: 'integer', minimum: 0 });
export const nul = shape<null>({ type: 'null' });

export function hexStr(chars?: number): Shape<string> {
  return shape({ type: 'string', pattern: chars === undefined ? '^([0-9a-f]{2})*$' : `^[0-9a-f]{${chars}}$` });
}

export function strMatching(pattern: string): Shape<string> {
  return shape({ type: 'string', pattern });
}

export function arr<T>(item: Shape<T>): Shape<T[]> {
  return shape({ type: 'array', items: item.schema });
}

export function tuple<T extends unknown[]>(...items: { [K in keyof T]: Shape<T[K]> }): Shape<T> {
  return shape({ type: 'array', prefixItems: items.map((i) => i.schema), items: false, minItems: items.length });
}

export function nullable<T>(s: Shape<T>): Shape<T | null> {
  return shape({ anyOf: [s.schema, nul.schema] });
}

export function oneOf<T extends unknown[]>(...variants: { [K in keyof T]: Shape<T[K]> }): Shape<T[number]> {
  return shape({ oneOf: variants.map((v) => v.schema) });
}

export function obj<P extends Record<string, Shape<unknown>>>(props: P): Shape<{ [K in keyof P]: Infer<P[K]> }> {
  const properties: Record<string, JsonSchema> = {};
  for (const [k, v] of Object.entries(props)) properties[k] = v.schema;
  return shape({ type: 'object', properties, required: Object.keys(props), additionalProperties: false });
}

/** A map with arbitrary keys and values of one shape. */
export function record<T>(value: Shape<T>): Shape<Record<string, T>> {
  return shape({ type: 'object', additionalProperties: value.schema });
}

const registry = new Map<string, JsonSchema>();

/** Registers a named type; uses of it are `$ref`s to the name in the schema document. */
export function named<T>(name: string, s: Shape<T>): Shape<T> {
  if (registry.has(name)) throw new Error(`schema ${name} declared twice`);
  registry.set(name, s.schema);
  return shape({ $ref: name });
}

/** Every named type's name, sorted. */
export function namedTypes(): string[] {
  return [...registry.keys()].sort((a, b) => a.localeCompare(b));
}

/** The declared schema of named type `name`. */
export function schemaOf(name: string): JsonSchema {
  const s = registry.get(name);
  if (!s) throw new Error(`no schema named ${name}`);
  return s;
}

/** The `/debug/json_schemas` document: every named type by name. */
export function schemaDocument(): Record<string, JsonSchema> {
  return Object.fromEntries(namedTypes().map((n) => [n, schemaOf(n)]));
}

/** Resolves a `$ref` name to its schema (the declared one, or a generation's form of it). */
export type RefResolver = (name: string) => JsonSchema | undefined;

/** Validates a parsed JSON value; returns a list of problems (empty when valid). */
export function validate(schema: JsonSchema, value: unknown, path = '$', resolve: RefResolver = (n) => registry.get(n)): string[] {
  const s = schema;
  const validate_ = (sub: JsonSchema, v: unknown, p: string) => validate(sub, v, p, resolve);
  if (typeof s.$ref === 'string') {
    const target = resolve(s.$ref);
    return target ? validate_(target, value, path) : [`${path}: unknown $ref ${s.$ref}`];
  }
  if (Array.isArray(s.anyOf)) {
    return (s.anyOf as JsonSchema[]).some((v) => validate_(v, value, path).length === 0) ? [] : [`${path}: matches no anyOf branch`];
  }
  if (Array.isArray(s.oneOf)) {
    const n = (s.oneOf as JsonSchema[]).filter((v) => validate_(v, value, path).length === 0).length;
    return n === 1 ? [] : [`${path}: matches ${n} oneOf branches`];
  }
  switch (s.type) {
    case 'null':
      return value === null ? [] : [`${path}: expected null`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${path}: expected boolean`];
    case 'number':
      return typeof value === 'number' || typeof value === 'bigint' ? [] : [`${path}: expected number`];
    case 'integer': {
      const ok = typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
      if (!ok) return [`${path}: expected integer`];
      return typeof s.minimum === 'number' && value < s.minimum ? [`${path}: below ${s.minimum}`] : [];
    }
    case 'string': {
      if (typeof value !== 'string') return [`${path}: expected string`];
      return typeof s.pattern === 'string' && !new RegExp(s.pattern).test(value) ? [`${path}: ${JSON.stringify(value)} !~ ${s.pattern}`] : [];
    }
    case 'array': {
      if (!Array.isArray(value)) return [`${path}: expected array`];
      if (Array.isArray(s.prefixItems)) {
        const items = s.prefixItems as JsonSchema[];
        if (value.length !== items.length) return [`${path}: expected ${items.length} items`];
        return items.flatMap((it, i) => validate_(it, value[i], `${path}[${i}]`));
      }
      if (s.items === false) return value.length === 0 ? [] : [`${path}: expected no items`];
      return value.flatMap((v, i) => validate_(s.items as JsonSchema, v, `${path}[${i}]`));
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: expected object`];
      const o = value as Record<string, unknown>;
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const problems: string[] = [];
      for (const k of (s.required ?? []) as string[]) if (!(k in o)) problems.push(`${path}: missing ${k}`);
      for (const [k, v] of Object.entries(o)) {
        if (k in props) problems.push(...validate_(props[k], v, `${path}.${k}`));
        else if (s.additionalProperties === false) problems.push(`${path}: unexpected ${k}`);
        else if (typeof s.additionalProperties === 'object') problems.push(...validate_(s.additionalProperties as JsonSchema, v, `${path}.${k}`));
      }
      return problems;
    }
    default:
      return [`${path}: schema without type`];
  }
}
