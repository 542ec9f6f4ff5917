// `--api=0.10` against the recorded answers of the reference node 0.10 (test/vectors/reference-0.10,
// endpoints.json): for every route the recording answered, our answers on a regtest chain with every
// transaction type have the same keys, nesting and value types (merged over all recorded answers of
// the route and all of ours); answers that do not depend on the chain are compared by value.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { parseJsonExact } from '../helpers/json.js';
import { removeDir, routeFor, startNode, type TestNode } from '../helpers/node.js';
import { buildExchangeChain, type ExchangeChain } from '../helpers/exchange_chain.js';

await initKernel();

interface Recorded {
  request: { method: string; path: string };
  body: any;
  raw?: string;
}
const RECORDED = (parseJsonExact(readFileSync(join(import.meta.dirname, '../vectors/reference-0.10/endpoints.json'), 'utf8')) as any[]).filter(
  (e): e is Recorded => e.request !== undefined && e.body !== null && e.body !== undefined && e.body.code === 0,
);

/** The recorded answers by the path pattern of the route that serves them in our 0.10 generation. */
function recordedByRoute(): Map<string, Recorded[]> {
  const out = new Map<string, Recorded[]>();
  for (const e of RECORDED) {
    const r = routeFor('0.10', e.request.method, e.request.path);
    if (!r) throw new Error(`recorded route ${e.request.method} ${e.request.path} is not served by --api=0.10`);
    const k = `${r.method} ${r.path}`;
    out.set(k, [...(out.get(k) ?? []), e]);
  }
  return out;
}

// The shape of JSON values, merged over many values: the types seen and, per key, the member shapes.
interface Shape {
  types: Set<string>;
  props: Map<string, Shape>;
  items: Shape | null;
}
const emptyShape = (): Shape => ({ types: new Set(), props: new Map(), items: null });
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'bigint' ? 'number' : typeof v);

function addTo(s: Shape, v: unknown): Shape {
  s.types.add(typeName(v));
  if (Array.isArray(v)) for (const x of v) s.items = addTo(s.items ?? emptyShape(), x);
  else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) s.props.set(k, addTo(s.props.get(k) ?? emptyShape(), x));
  return s;
}

/** Differences between a recorded shape and ours; null is compatible with anything (absent values). */
function differences(rec: Shape, ours: Shape, path: string, out: string[]): string[] {
  const t = (s: Shape) =>
    [...s.types]
      .filter((x) => x !== 'null')
      .sort()
      .join('|');
  if (t(rec) && t(ours) && t(rec) !== t(ours)) out.push(`${path}: recorded ${t(rec)}, ours ${t(ours)}`);
  if (rec.types.has('object') && ours.types.has('object')) {
    // A map keyed by data (ip → count, host → buckets) has no fixed keys.
    for (const k of rec.props.keys()) if (!ours.props.has(k)) out.push(`${path}.${k}: missing`);
    for (const k of ours.props.keys()) if (!rec.props.has(k)) out.push(`${path}.${k}: not in the recording`);
    for (const [k, s] of rec.props) if (ours.props.has(k)) differences(s, ours.props.get(k)!, `${path}.${k}`, out);
  }
  if (rec.items && ours.items) differences(rec.items, ours.items, `${path}[]`, out);
  return out;
}

let node: TestNode;
let x: ExchangeChain;

beforeAll(async () => {
  node = await startNode(['--regtest', '--api=0.10']);
  x = await buildExchangeChain(node, 71);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

/** Our requests per route (same routes as the recording, on our chain). */
function ourRequests(): string[] {
  const a = x.A.addressText,
    b = x.B.addressText,
    asset = x.asset;
  const txs = [...Object.values(x.mined), ...Object.values(x.pending)];
  const heights = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  return [
    '/transaction/mempool',
    ...txs.map((t) => `/transaction/lookup/${t}`),
    '/transaction/latest',
    '/transaction/minfee',
    `/account/${a}/mempool`,
    `/account/${b}/mempool`,
    '/settings/mempool/minfee/1000448',
    '/chain/head',
    '/chain/grid',
    '/chain/block/0/hash',
    '/chain/block/3/hash',
    ...heights.flatMap((h) => [`/chain/block/${h}`, `/chain/block/${h}/header`, `/chain/block/${h}/binary`]),
    `/chain/mine/${a}`,
    '/chain/txcache',
    '/chain/hashrate/2',
    '/chain/hashrate/5',
    '/asset/complete',
    '/asset/complete?namePrefix=to',
    `/asset/complete?hashPrefix=${asset.slice(0, 6)}`,
    `/asset/lookup/${asset}`,
    `/dex/market/${asset}`,
    `/account/${a}/open_orders`,
    `/account/${b}/open_orders`,
    `/account/${a}/open_orders/${asset}`,
    `/account/${a}/balance/asset:${asset}`,
    `/account/${b}/balance/asset:${asset}`,
    `/account/${a}/balance/liquidity:${asset}`,
    `/account/${a}/balance/0`,
    `/account/${a}/wart_balance`,
    `/account/1/wart_balance`,
    `/account/${a}/history/9223372036854775807`,
    `/account/${b}/history/9223372036854775807`,
    `/account/richlist/asset:${asset}`,
    `/account/richlist/liquidity:${asset}`,
    '/account/richlist/0',
    '/peers/ip_count',
    '/peers/banned',
    '/peers/offenses/1',
    '/peers/connected/connection',
    '/peers/connection_schedule',
    '/peers/unban',
    '/peers/connected',
    '/peers/throttled',
    '/peers/transmission_hours',
    '/peers/transmission_minutes',
    `/chart/candles/${asset}/5m`,
    `/chart/candles/${asset}/1h`,
    `/chart/candles/${asset}/1d`,
    `/chart/trades/${asset}`,
    '/chart/hashrate/block/1/9/2',
    '/chart/hashrate/time/0/4000000000/3600',
    '/tools/encode16bit/from_e8/1000000',
    '/tools/encode16bit/from_string/0.01',
    '/tools/parse_price/0.001/4',
    '/tools/info',
    '/tools/wallet/new',
    `/tools/wallet/from_privkey/${'ef1434450cceffca74548deec2b88e5aa35898d76ac106cc296eab4a93965cfa'}`,
    '/tools/janushash_number/b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537077fffff8e8961b3f21bfc97cdb5ec1ecec9d6b8c5b73dfc36860811cd6751d3d5096d86000000036b02a5a200000000',
    '/tools/sample_verified_peers/5',
    '/debug/header_download',
    // Last: they change the chain.
    `/debug/fakemine/${a}`,
    '/debug/fakemine',
    '/debug/rollback',
  ];
}

/**
 * Differences that come from what the recording covers: it looked up one transaction type only,
 * so the members of the other types' `data`/`processed` are not in its lookups (they are in its
 * blocks, where every type was recorded and is compared).
 */
const EXCUSED: RegExp[] = [/^GET \/transaction\/lookup\/:txid\.data\.transaction\.(data|processed)\.\w+: not in the recording$/];

describe('--api=0.10 answers as the recorded reference 0.10', () => {
  it('has the keys, nesting and value types of the recording on every recorded route', async () => {
    const recorded = recordedByRoute();
    const ours = new Map<string, { shape: Shape; texts: string[] }>();
    for (const path of ourRequests()) {
      const r = await node.get(path);
      expect(r.body?.code, `${path}: ${r.text}`).toBe(0);
      const route = routeFor('0.10', 'GET', path)!;
      const k = `${route.method} ${route.path}`;
      const o = ours.get(k) ?? { shape: emptyShape(), texts: [] };
      addTo(o.shape, r.body);
      o.texts.push(r.text);
      ours.set(k, o);
    }
    const problems: string[] = [];
    for (const [route, recs] of recorded) {
      if (route === 'POST /chain/append' || route === 'GET /debug/json_schemas') continue; // no success recorded / not an envelope
      const o = ours.get(route);
      if (!o) {
        problems.push(`${route}: not requested by this test`);
        continue;
      }
      const rec = emptyShape();
      for (const e of recs) addTo(rec, e.body);
      problems.push(...differences(rec, o.shape, route, []).filter((p) => !EXCUSED.some((re) => re.test(p))));
    }
    expect(problems).toEqual([]);
  });

  it('answers exactly what the reference answered where the answer does not depend on the chain', async () => {
    const exact = [
      '/tools/encode16bit/from_e8/1000000',
      '/tools/encode16bit/from_string/0.01',
      '/tools/parse_price/0.001/4',
      '/tools/wallet/from_privkey/ef1434450cceffca74548deec2b88e5aa35898d76ac106cc296eab4a93965cfa',
      '/tools/janushash_number/b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537077fffff8e8961b3f21bfc97cdb5ec1ecec9d6b8c5b73dfc36860811cd6751d3d5096d86000000036b02a5a200000000',
      '/peers/unban',
    ];
    for (const path of exact) {
      const rec = RECORDED.find((e) => e.request.path === path)!;
      expect((await node.get(path)).body, path).toEqual(rec.body);
    }
    const minfee = RECORDED.find((e) => e.request.path === '/transaction/minfee')!;
    expect((await node.get('/transaction/minfee')).body).toEqual(minfee.body);
    // The native token is WART, spec asset:000…0 (README §5.6).
    const wart = RECORDED.find((e) => /^\/account\/[0-9a-f]{48}\/balance\/0$/.test(e.request.path))!;
    expect((await node.get(`/account/${x.A.addressText}/balance/0`)).body.data.token).toEqual(wart.body.data.token);
  });

  it('answers an empty history page before an id of 2^63 or more, as recorded (beforeId read as a signed 64-bit number)', async () => {
    const a = x.A.addressText;
    expect((await node.data(`/account/${a}/history/9223372036854775807`)).perBlock.length).toBeGreaterThan(0);
    for (const id of ['9223372036854775808', '18446744073709551615']) {
      const recorded = RECORDED.find((e) => e.request.path.endsWith(`/history/${id}`))!;
      expect(recorded.body.data).toEqual({ fromId: 0, perBlock: [] });
      expect((await node.get(`/account/${a}/history/${id}`)).text).toBe(recorded.raw);
    }
  });

  it('writes void successes as the reference does', async () => {
    for (const path of ['/debug/rollback', '/peers/unban']) {
      const rec = RECORDED.find((e) => e.request.path === path)!;
      expect((await node.get(path)).text).toBe(rec.raw);
    }
  });
});

describe('--api=0.10 charts', () => {
  it('sends the reference\u2019s doubles: each swap converted and summed, buy swaps first (exchange.md §11)', async () => {
    const asset = x.asset;
    const trades = (await node.get(`/chart/trades/${asset}`)).body.data as number[][];
    expect(trades).toHaveLength(1); // the chain's one match (a candle of its own)
    const decimals = (await node.get(`/asset/lookup/${asset}`)).body.data.decimals as number;
    const expected: number[][] = [];
    for (const [, height] of trades) {
      const block = (await node.get(`/chain/block/${height}`)).body.data;
      const m = block.body.match.find((e: any) => e.transaction.data.baseAsset.hash === asset).transaction.data;
      let base = 0,
        quote = 0;
      for (const s of [...m.buySwaps, ...m.sellSwaps]) {
        let b = Number(s.swapped.base.u64);
        for (let i = 0; i < decimals; i++) b *= 0.1;
        base += b;
        quote += Number(s.swapped.quote.E8) * 1e-8;
      }
      expected.push([block.header.time.timestamp, height, base, quote]);
    }
    expect(trades).toEqual(expected);
    // Prices: quote / base of the doubles.
    const candles = (await node.get(`/chart/candles/${asset}/5m`)).body.data as number[][];
    expect(candles.map((c) => c.slice(2))).toEqual(expected.map(([, , b, q]) => [q / b, q / b, q / b, q / b, b, q]));
  });
});
