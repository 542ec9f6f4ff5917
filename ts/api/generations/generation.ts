// An API generation (clients.md §1–§3): the names, shapes, error numbers and envelopes one family
// of real clients expects. A generation is data applied at the edge to the output of the one set
// of views: key and value renames wherever they occur, reshapes of named types and of routes, route
// aliases, its error table and how it answers each refusal, and the envelope forms. Values and
// schemas go through the same tables (adaptValue / adaptSchema), so `/debug/json_schemas` and the
// tests' response validation describe what the generation actually sends.
import type { ErrorName, RefusalCase } from '../../core/errors.js';
import type { ApiName } from '../../config.js';
import type { ReadView } from '../../chain/read_view.js';
import type { JsonSchema } from '../schema.js';
import { schemaOf, validate } from '../schema.js';

export type { ApiName };

/**
 * What a reshape may consult besides the value: the request's parameters and the read view the
 * value was built from (the server's, or a stream publication's), never the live chain.
 */
export interface ReshapeContext {
  params: Record<string, string>;
  view: ReadView;
}

/** A shape transform: the value (already adapted inside) and its schema change together. */
export interface Reshape {
  value(v: any, ctx: ReshapeContext): any;
  schema(s: JsonSchema): JsonSchema;
}

/**
 * How a generation answers one of our refusals instead: as another error (by name), as a success
 * with this `data`, or with this bare text as the whole body.
 */
export type RefusalAnswer = ErrorName | { data: unknown } | { text: string };

/**
 * Refusals a generation answers otherwise, by refusal case (core/errors.ts RefusalCase) or by error
 * name; a case is looked up before its error's name.
 */
export type RefusalTable = Partial<Record<RefusalCase | ErrorName, RefusalAnswer>>;

export interface RouteRule {
  /** Paths this generation serves the route at, instead of the contract path. */
  paths?: string[];
  /** Parameters fixed for every path of this rule (0.8 `/account/richlist` = richlist of token 0). */
  fixedParams?: Record<string, string>;
  reshape?: Reshape;
  /**
   * 'bare': `data` is sent without the envelope (0.8 `/peers/banned` …); 'text': `data` is a
   * string sent as is (0.8 `/tools/janushash_number`, a `%.20e` number).
   */
  envelope?: 'bare' | 'text';
  /** Void success sent as `{code: 0, data: <void form>}` (0.10 `/debug/fakemine`, `/debug/rollback`). */
  voidInData?: boolean;
  /** Not served in this generation. */
  absent?: boolean;
  /** How this generation answers the route's refusals, where it differs from the generation's `refusals`. */
  refusals?: RefusalTable;
  /**
   * The request body as this generation reads it, before the route's parser (the reference reads
   * a JSON integer member with a cast to its C++ type); it may refuse the request by throwing a NodeError.
   */
  request?(body: unknown): unknown;
  /** The route's success (`data: null` in the contract) is this generation's void reply (`POST /chain/append`). */
  voidSuccess?: boolean;
  /** A check this generation makes before the route runs (on the request's body as `request` left it); it refuses by throwing a NodeError. */
  before?(ctx: ReshapeContext & { body?: unknown }): void | Promise<void>;
}

export interface Generation {
  name: ApiName;
  /** Object keys renamed wherever they occur in a reply. */
  keys: Record<string, string>;
  /** String values renamed under these keys (`type: coinTransfer` → `wartTransfer`). */
  values: Record<string, Record<string, string>>;
  /** Named types reshaped after their members are adapted. */
  types: Record<string, Reshape>;
  /** By contract `METHOD path`. */
  routes: Record<string, RouteRule>;
  /** This generation's code and text of an error, where they are not the contract's code and `errorText` (clients.md §1.1). */
  errors: Partial<Record<ErrorName, readonly [code: number, text: string]>>;
  /** How the text of an error not in `errors` is written, from the message (`Text: detail`) and the error's own text. */
  errorText(message: string, text: string): string;
  /** How this generation answers refusals of any route (a route's own `refusals` come first). */
  refusals: RefusalTable;
  /**
   * A request no route serves: 'answer' answers 404 with the not-found error; 'close' closes the
   * connection without an answer, as the references' HTTP library (uWebSockets) does, which also
   * matches a path exactly (letter case, a trailing slash) and serves no HEAD.
   */
  unknownRoute: 'answer' | 'close';
  /** How a JSON number (a double; bigints are digits) is written; JSON.stringify's form when absent. */
  numberText?(n: number): string;
  /** The body of a void success (clients.md §1). */
  voidReply: Record<string, unknown>;
}

/** The value `v` of contract schema `s` as generation `g` sends it. */
export function adaptValue(g: Generation, s: JsonSchema, v: any, ctx: ReshapeContext): any {
  if (typeof s.$ref === 'string') {
    const inner = adaptValue(g, schemaOf(s.$ref), v, ctx);
    const t = g.types[s.$ref];
    return t ? t.value(inner, ctx) : inner;
  }
  const variants = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (variants) {
    const branch = variants.find((b) => validate(b, v).length === 0);
    return branch ? adaptValue(g, branch, v, ctx) : v;
  }
  if (Array.isArray(v)) {
    if (Array.isArray(s.prefixItems)) return v.map((x, i) => adaptValue(g, (s.prefixItems as JsonSchema[])[i], x, ctx));
    return typeof s.items === 'object' ? v.map((x) => adaptValue(g, s.items as JsonSchema, x, ctx)) : v;
  }
  if (typeof v === 'object' && v !== null && typeof v !== 'bigint') {
    const props = (s.properties ?? {}) as Record<string, JsonSchema>;
    const extra = typeof s.additionalProperties === 'object' ? (s.additionalProperties as JsonSchema) : null;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const ps = props[k] ?? extra;
      let y = ps ? adaptValue(g, ps, x, ctx) : x;
      if (typeof y === 'string' && g.values[k]?.[y] !== undefined) y = g.values[k][y];
      out[extra && !props[k] ? k : (g.keys[k] ?? k)] = y;
    }
    return out;
  }
  return v;
}

/** Contract schema `s` as generation `g` sends it; `$ref`s stay by name (see adaptedType). */
export function adaptSchema(g: Generation, s: JsonSchema): JsonSchema {
  if (typeof s.$ref === 'string') return s;
  const out: JsonSchema = { ...s };
  for (const k of ['anyOf', 'oneOf', 'prefixItems'] as const) {
    if (Array.isArray(s[k])) out[k] = (s[k] as JsonSchema[]).map((b) => adaptSchema(g, b));
  }
  if (typeof s.items === 'object') out.items = adaptSchema(g, s.items as JsonSchema);
  if (typeof s.additionalProperties === 'object') out.additionalProperties = adaptSchema(g, s.additionalProperties as JsonSchema);
  if (s.properties) {
    const props: Record<string, JsonSchema> = {};
    for (const [k, p] of Object.entries(s.properties as Record<string, JsonSchema>)) props[g.keys[k] ?? k] = adaptSchema(g, p);
    out.properties = props;
    out.required = (s.required as string[]).map((k) => g.keys[k] ?? k);
  }
  return out;
}

/** Named type `name` as generation `g` sends it. */
export function adaptedType(g: Generation, name: string): JsonSchema {
  const s = adaptSchema(g, schemaOf(name));
  return g.types[name]?.schema(s) ?? s;
}

/** Renames one key of an object value, keeping the others. */
export function renameKey(o: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k === from ? to : k] = v;
  return out;
}

/** The same for an object schema. */
export function renameSchemaKey(s: JsonSchema, from: string, to: string): JsonSchema {
  return {
    ...s,
    properties: renameKey(s.properties as Record<string, unknown>, from, to),
    required: (s.required as string[]).map((k) => (k === from ? to : k)),
  };
}

/** A C++ integer type a reference reads a JSON member into. */
export type CppInt = 'u32' | 'i32' | 'u64';

/**
 * A request body as the reference's JSON library (nlohmann) reads these integer members: a JSON
 * number is cast to the member's C++ type, so a negative or too large integer wraps around and a
 * fraction is cut off (`get<uint32_t>()` of -1 is 4294967295). An integer beyond 64 bits, which it
 * reads as a double whose cast is undefined, is taken as the largest value (never 0). Other values
 * are left as they are, for the route's parser to refuse.
 */
export function castIntegers(body: unknown, members: Record<string, CppInt>): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...body };
  for (const [k, type] of Object.entries(members)) {
    const v = out[k];
    let n: bigint;
    if (typeof v === 'bigint') n = v;
    else if (typeof v === 'number' && Number.isFinite(v)) n = BigInt(Math.trunc(v));
    else continue;
    if (n < -(1n << 63n) || n >= 1n << 64n) n = (1n << 64n) - 1n;
    out[k] = type === 'i32' ? BigInt.asIntN(32, n) : BigInt.asUintN(type === 'u32' ? 32 : 64, n);
  }
  return out;
}
