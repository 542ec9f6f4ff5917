// The page at `/` (issue: "a node in the browser"): status, the route index, a light node that
// verifies the chain in the page over the node's WebSocket P2P port, and an explorer. The script is
// the esbuild bundle of ts/web/page.ts (dist/web/app.js, beside the node bundle); what the page must
// know of the node (network, WebSocket port, the route list) is written into the HTML.
import { readFile } from 'node:fs/promises';
import type Koa from 'koa';
import { sentSchema, servedRoutes } from './generations/index.js';
import type { ApiName } from './generations/generation.js';
import type { Route } from './route.js';

export interface PageConfig {
  network: string;
  /** The API generation the node serves (`--api`); the page reads either shape. */
  api: ApiName;
  /** The WebSocket P2P port and scheme, or null without `--ws-port`. */
  ws: { port: number; tls: boolean } | null;
  /** `schema`: the named response type, `[Name]` for an array of one; `link`: safe to open as is. */
  routes: { method: string; path: string; schema: string | null; link: boolean }[];
}

/** GET routes that change the node (debug mining and rollback, unbanning, load tests, settings): never one click away. */
const CHANGES_STATE = /^\/(debug\/(fakemine|rollback)|peers\/unban|loadtest|settings)\b/;

/** What the page shows of the routes `api` serves. */
export function pageConfig(network: string, api: ApiName, ws: PageConfig['ws'], routes: Route<any>[]): PageConfig {
  return {
    network,
    api,
    ws,
    routes: servedRoutes(api, routes).map((r) => {
      const s = sentSchema(r) as { $ref?: unknown; type?: unknown; items?: { $ref?: unknown } } | null;
      const schema = typeof s?.$ref === 'string' ? s.$ref : s?.type === 'array' && typeof s.items?.$ref === 'string' ? `[${s.items.$ref}]` : null;
      return { method: r.method, path: r.path, schema, link: r.method === 'GET' && !r.path.includes(':') && !CHANGES_STATE.test(r.path) };
    }),
  };
}

const escapeScript = (json: string): string => json.replace(/</g, '\\u003c');

function html(config: PageConfig): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>wartnode · ${config.network}</title><link rel="stylesheet" href="/web/app.css"></head>
<body><main id="app">Loading…</main>
<script id="config" type="application/json">${escapeScript(JSON.stringify(config))}</script>
<script type="module" src="/web/app.js"></script></body></html>
`;
}

const ASSETS: Record<string, string> = { '/web/app.js': 'text/javascript; charset=utf-8', '/web/app.css': 'text/css; charset=utf-8' };

/** Serves `/` and its two assets from `dir` (read once, on first use); everything else goes on. */
export function webPage(dir: URL, config: () => PageConfig): Koa.Middleware {
  const cache = new Map<string, Buffer>();
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/') {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = html(config());
      return;
    }
    const type = ASSETS[ctx.path];
    if (!type) return next();
    let bytes = cache.get(ctx.path);
    if (!bytes) {
      try {
        bytes = await readFile(new URL(`.${ctx.path.slice('/web'.length)}`, dir));
      } catch {
        return next(); // not built: the JSON 404 of unknown routes
      }
      cache.set(ctx.path, bytes);
    }
    ctx.type = type;
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = bytes;
  };
}
