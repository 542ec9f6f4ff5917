// The generations (`--api=contract|0.10|0.8`) and the routes each one serves: its own (renamed,
// reshaped) routes, plus any route of another generation whose path collides with none of its own,
// served as that generation writes it (clients.md §4: a client calls what its generation has).
import type { Route } from '../route.js';
import type { JsonSchema } from '../schema.js';
import { namedTypes, validate } from '../schema.js';
import { adaptSchema, adaptedType, type ApiName, type Generation, type RouteRule } from './generation.js';
import { V0_10 } from './v0_10.js';
import { V0_8 } from './v0_8.js';

export const CONTRACT: Generation = {
  name: 'contract',
  keys: {},
  values: {},
  types: {},
  routes: {},
  errors: {},
  errorText: (t) => t,
  refusals: {},
  unknownRoute: 'answer',
  voidReply: { code: 0 },
};

export const GENERATIONS: Record<ApiName, Generation> = { contract: CONTRACT, '0.10': V0_10, '0.8': V0_8 };

export interface ServedRoute {
  method: 'GET' | 'POST';
  path: string;
  route: Route<any>;
  rule: RouteRule;
  /** The generation that writes this route's answers (the chosen one, or the route's own). */
  writer: Generation;
}

const pattern = (method: string, path: string) => `${method} ${path.replace(/:[A-Za-z_0-9]+/g, ':')}`;

function ownRoutes(g: Generation, routes: Route<any>[]): ServedRoute[] {
  const out: ServedRoute[] = [];
  for (const route of routes) {
    const rule = g.routes[`${route.method} ${route.path}`] ?? {};
    if (rule.absent) continue;
    for (const path of rule.paths ?? [route.path]) out.push({ method: route.method, path, route, rule, writer: g });
  }
  return out;
}

/** Every route generation `api` serves, its own first. */
export function servedRoutes(api: ApiName, routes: Route<any>[]): ServedRoute[] {
  const own = ownRoutes(GENERATIONS[api], routes);
  const taken = new Set(own.map((r) => pattern(r.method, r.path)));
  const out = [...own];
  for (const other of Object.values(GENERATIONS)) {
    if (other.name === api) continue;
    for (const r of ownRoutes(other, routes)) {
      const p = pattern(r.method, r.path);
      if (!taken.has(p)) {
        taken.add(p);
        out.push(r);
      }
    }
  }
  return out;
}

/**
 * The `/debug/json_schemas` document of `--api`: named types as generation `g` writes them and,
 * outside the contract, the answers its route rules reshape or send bare, by `METHOD path`.
 */
export function generationDocument(g: Generation, routes: Route<any>[] = []): Record<string, JsonSchema> {
  const doc = Object.fromEntries(namedTypes().map((n) => [n, adaptedType(g, n)]));
  for (const r of g === CONTRACT ? [] : servedRoutes(g.name, routes)) {
    const s = sentSchema(r);
    if (r.writer === g && s && (r.rule.reshape || r.rule.envelope)) doc[`${r.method} ${r.path}`] = s;
  }
  return doc;
}

/** Schema of `data` of a served route as sent; null for void routes. */
export function sentSchema(r: ServedRoute): JsonSchema | null {
  if (r.route.response === null || r.rule.voidSuccess) return null;
  const a = adaptSchema(r.writer, r.route.response.schema);
  const s = r.rule.reshape ? r.rule.reshape.schema(a) : a;
  // A refusal a generation answers as a success with `data: null`.
  const nullData = Object.values(r.rule.refusals ?? {}).some((a) => typeof a === 'object' && 'data' in a && a.data === null);
  return nullData ? { anyOf: [s, { type: 'null' }] } : s;
}

/** Validates a sent `data` value of a served route against what its generation declares. */
export function validateSent(r: ServedRoute, value: unknown): string[] {
  const s = sentSchema(r);
  if (s === null) return [];
  const doc = documents.get(r.writer) ?? generationDocument(r.writer);
  documents.set(r.writer, doc);
  return validate(s, value, '$', (n) => doc[n]);
}
const documents = new Map<Generation, Record<string, JsonSchema>>();

export function isApiName(text: string): text is ApiName {
  return Object.hasOwn(GENERATIONS, text);
}
