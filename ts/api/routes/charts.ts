// Charts (http-api.md "Charts"): market candles and trades, /chart/candles/:asset/:interval and
// /chart/trades/:asset (http-api-details.md §9.1; exchange.md §11), and the hashrate charts
// /chart/hashrate/block/:from/:to/:window and /chart/hashrate/time/:from/:to/:interval
// (http-api-details.md §9.2, §9.3), both from the §5.9 estimate.
import type { ChainReadState } from '../../chain/read_view.js';
import { hashrateAt, hashrateDoubleAt } from '../../chain/hashrate.js';
import { BLOCK_TIME } from '../../consensus/params.js';
import { fail } from '../../core/errors.js';
import { CANDLE_INTERVALS, candlesOf, type CandleInterval } from '../../state/candles.js';
import { tradesOf } from '../../state/trades.js';
import { chartQuery, selectEntries } from '../chart_query.js';
import { route } from '../route.js';
import { assetParam, resolveAsset, u32Param } from '../params.js';
import { arr, int, named, num, obj, u64 } from '../schema.js';
import { Candles, Trades, candleRows, tradeRows } from '../views/chart.js';

/** The time chart estimates over one hour of blocks at every sample point (details §9.3). */
const TIME_CHART_WINDOW = 3600 / BLOCK_TIME;
/** Shorter intervals are raised to this (details §9.3). */
const MIN_TIME_CHART_INTERVAL = 600;

function nonzeroHeight(text: string, what: string): number {
  const h = u32Param(text, what);
  if (h === 0) fail('EBADHEIGHT', `${what} must be a height of at least 1`);
  return h;
}

/** The first height whose timestamp is ≥ t, by bisection over (nearly) increasing timestamps; 1 ≤ result ≤ length. */
function firstHeightAtOrAfter(chain: ChainReadState, t: number): number {
  let lo = 1,
    hi = chain.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (chain.timestampAt(mid) >= t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Sample points t = end, end − interval, … down to `begin` (and above 0), where `end` is `to`
 * lowered to the tip's time and floored to the interval and `begin` is `from` raised to block 1's
 * time; returned ascending.
 */
function timeSamples(chain: ChainReadState, from: number, to: number, interval: number): { hashrate: bigint; height: number; timestamp: number }[] {
  if (chain.length <= 1) return [];
  const begin = Math.max(from, chain.timestampAt(1));
  const end = Math.floor(Math.min(to, chain.timestampAt(chain.length)) / interval) * interval;
  const out = [];
  for (let t = end; t > 0 && t >= begin; t -= interval) {
    const height = firstHeightAtOrAfter(chain, t);
    out.push({ hashrate: hashrateAt(chain, height, TIME_CHART_WINDOW), height, timestamp: t });
  }
  return out.reverse();
}

export const chartRoutes = [
  route({
    method: 'GET',
    path: '/chart/candles/:asset/:interval',
    dependsOn: 'chain',
    doc: "Price candles of an asset's trades: `[begin, height, open, high, low, close, base volume, quote volume]`; prices (coin per whole asset unit, each trade's quote total over its base total, to 18 significant digits) and volumes (exact, in asset and coin units) are decimal texts. Query `from`, `to` (timestamps, inclusive) and `n` (default 100, at most 200): at most two of them.",
    params: { interval: 'candle length: `5m`, `1h` or `1d`' },
    // [begin timestamp, height of the first trade, open, high, low, close, base volume, quote volume]
    response: Candles,
    handler: async ({ params, query, view }) => {
      const p = assetParam(params.asset);
      if (!Object.hasOwn(CANDLE_INTERVALS, params.interval)) fail('EINVINTERVAL', `interval must be one of ${Object.keys(CANDLE_INTERVALS).join(', ')}`);
      const seconds = CANDLE_INTERVALS[params.interval as CandleInterval];
      const q = chartQuery(query, (from, to) => (to - from) / BigInt(seconds));
      const asset = await resolveAsset(view, p);
      const candles = candlesOf(await tradesOf(view.db, asset.id, (h) => view.hashAt(h)), seconds);
      return candleRows(
        selectEntries(candles, (c) => c.begin, q),
        asset.decimals,
      );
    },
  }),
  route({
    method: 'GET',
    path: '/chart/trades/:asset',
    dependsOn: 'chain',
    doc: "An asset's trades per block: `[height, timestamp, base total, quote total]`, the totals exact decimal texts in asset and coin units (the swaps of both sides summed). Query `from`, `to` (heights, inclusive) and `n` (default 100, at most 200): at most two of them.",
    // [height, timestamp, base total, quote total] per block (http-api.md; the reference swaps the first two).
    response: Trades,
    handler: async ({ params, query, view }) => {
      const p = assetParam(params.asset);
      const q = chartQuery(query, (from, to) => to - from);
      const asset = await resolveAsset(view, p);
      return tradeRows(
        selectEntries(await tradesOf(view.db, asset.id, (h) => view.hashAt(h)), (t) => t.height, q),
        asset.decimals,
      );
    },
  }),
  route({
    method: 'GET',
    path: '/chart/hashrate/block/:from/:to/:window',
    dependsOn: 'chain',
    doc: 'One hashrate estimate per height from `:from` to `:to`, each over `:window` blocks.',
    response: named('HashrateBlockChart', obj({ range: obj({ begin: int, end: int }), data: arr(num) })),
    handler: ({ params, view }) => {
      const from = nonzeroHeight(params.from, 'from');
      const to = nonzeroHeight(params.to, 'to');
      const window = u32Param(params.window, 'window');
      // One estimate per height of [max(from, 2), min(to, tip)]; empty when that is inverted.
      const begin = Math.max(from, 2),
        end = Math.min(to, view.length);
      const data: number[] = [];
      for (let h = begin; h <= end; h++) data.push(hashrateDoubleAt(view, h, window));
      return { range: { begin, end }, data };
    },
  }),
  route({
    method: 'GET',
    path: '/chart/hashrate/time/:from/:to/:interval',
    dependsOn: 'chain',
    doc: 'Hashrate samples between two timestamps, one every `:interval` seconds.',
    params: { from: 'first Unix timestamp', to: 'last Unix timestamp', interval: 'seconds between samples' },
    response: named(
      'HashrateTimeChart',
      obj({
        range: obj({ begin: int, end: int }),
        interval: int,
        data: arr(obj({ hashrate: u64, height: int, timestamp: int })),
      }),
    ),
    handler: ({ params, view }) => {
      const from = u32Param(params.from, 'from');
      const to = u32Param(params.to, 'to');
      const interval = Math.max(u32Param(params.interval, 'interval'), MIN_TIME_CHART_INTERVAL);
      // The range echoes the request (details §9.3).
      return { range: { begin: from, end: to }, interval, data: timeSamples(view, from, to, interval) };
    },
  }),
];
