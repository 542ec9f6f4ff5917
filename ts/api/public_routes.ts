// Which routes the public RPC listener serves (clients.md §1, §2.1 "P"/"V", §2.2): the reference
// does not register its PRIV routes on `--publicrpc`. Data, one line per route; a route in neither
// list is private (a route added without deciding stays off the public listener), and a test fails
// until it is classified.
import type { Route } from './route.js';

/** Routes served on the public listener. */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  'POST /transaction/add',
  'GET /transaction/mempool',
  'GET /transaction/lookup/:txid',
  'GET /transaction/latest',
  'GET /transaction/minfee',
  'GET /chain/head',
  'GET /chain/block/:height/hash',
  'GET /chain/block/:id/header',
  'GET /chain/block/:id/binary',
  'GET /chain/block/:id',
  'GET /chain/mine/:account',
  'GET /chain/mine/:account/log',
  'GET /chain/txcache',
  'GET /chain/hashrate/:window',
  'GET /asset/complete',
  'GET /asset/lookup/:asset',
  'GET /dex/market/:asset',
  'GET /account/:account/open_orders',
  'GET /account/:account/open_orders/:asset',
  'GET /account/:account/mempool',
  'GET /account/:account/balance/:tokenspec',
  'GET /account/:account/balance',
  'GET /account/:account/coin_balance',
  'GET /account/:account/wart_balance',
  'GET /account/:account/history/:beforeId',
  'GET /account/richlist/:tokenspec',
  'GET /account/richlist',
  'GET /peers/ip_count',
  'GET /peers/banned',
  'GET /peers/offenses/:page',
  'GET /peers/connected/connection',
  'GET /peers/connection_schedule',
  'GET /chart/candles/:asset/:interval',
  'GET /chart/trades/:asset',
  'GET /tools/encode16bit/from_e8/:feeE8',
  'GET /tools/encode16bit/from_string/:string',
  'GET /tools/parse_price/:price/:decimals',
  'GET /tools/info',
  'GET /tools/version',
  'GET /tools/wallet/from_privkey/:privkey',
  'GET /tools/janushash_number/:headerhex',
  'GET /tools/sample_verified_peers/:number',
  'GET /debug/json_schemas',
]);

/** Routes the reference marks private: served on the RPC endpoint only. */
export const PRIVATE_ROUTES: ReadonlySet<string> = new Set([
  'GET /settings/mempool/minfee/:feeE8',
  'GET /chain/grid',
  'GET /chain/signed_snapshot',
  'POST /chain/append',
  'GET /chain/hashrate/chart/:from/:to/:window',
  'GET /peers/unban',
  'GET /peers/disconnect/:id',
  'GET /peers/connected',
  'GET /peers/throttled',
  'GET /peers/transmission_hours',
  'GET /peers/transmission_minutes',
  'GET /peers/endpoints',
  'GET /peers/connect_timers',
  'GET /chart/hashrate/block/:from/:to/:window',
  'GET /chart/hashrate/time/:from/:to/:interval',
  'GET /tools/wallet/new',
  'GET /debug/header_download',
  'GET /loadtest/header_request/:conn_id',
  'GET /loadtest/block_request/:conn_id',
  'GET /loadtest/disable/:conn_id',
  'GET /debug/fakemine',
  'GET /debug/fakemine/:address',
  'GET /debug/rollback',
  // Ours: what an operator scrapes (Prometheus), never public.
  'GET /metrics',
]);

export const routeKey = (r: Pick<Route, 'method' | 'path'>): string => `${r.method} ${r.path}`;

export function isPublicRoute(r: Pick<Route, 'method' | 'path'>): boolean {
  return PUBLIC_ROUTES.has(routeKey(r));
}
