// The 0.10 generation: what the DeFi reference node (0.10.3) sends (clients.md §1, §2.1, §3;
// recorded in test/vectors/reference-0.10, README §5; held against the running reference by
// scripts/defi-diff.mjs). Error numbers are the contract's; an error's text is the error's own text
// without our detail, as the reference writes it, and a refusal is the error the reference answers
// for that route and case (`refusals`). Where the reference's answers are plainly wrong
// (docs/reference-differences.md, "API") this generation keeps ours.
import { fail } from '../../core/errors.js';
import { hashrateWindowAt } from '../../chain/hashrate.js';
import { CANDLE_INTERVALS, candlesOf, type CandleInterval } from '../../state/candles.js';
import { tradesOf } from '../../state/trades.js';
import { accountParam, assetParam, findAccount, resolveAsset } from '../params.js';
import { arr, hexStr, int, num, record, tuple, type JsonSchema } from '../schema.js';
import { referenceCandleRows, referenceTradeRows } from '../views/chart.js';
import { encode16bit } from '../views/fee16.js';
import { Timepoint, timepoint } from '../views/time.js';
import { castIntegers, renameKey, renameSchemaKey, type Generation, type Reshape, type ReshapeContext, type RouteRule } from './generation.js';

type Obj = Record<string, any>;

/** Patches properties of an object schema. */
export const withProps = (s: JsonSchema, props: Record<string, JsonSchema>): JsonSchema => ({ ...s, properties: { ...(s.properties as object), ...props } });

const rename = (from: string, to: string): Reshape => ({
  value: (v) => renameKey(v, from, to),
  schema: (s) => renameSchemaKey(s, from, to),
});

/** Binary structure tags: sections and the items inside them have their own names (README §5.2). */
const SECTION_TAGS: Record<string, string> = { coinTransfer: 'wartTransfers', cancelation: 'cancelations', assetCreation: 'assetCreations' };
const ITEM_TAGS: Record<string, string> = { coinTransfer: 'wartTransfer', coin: 'wart' };
const retag = (n: Obj, tags: Record<string, string>): Obj => ({
  ...n,
  tag: tags[n.tag] ?? ITEM_TAGS[n.tag] ?? n.tag,
  children: n.children.map((c: Obj) => retag(c, ITEM_TAGS)),
});

/** The fee code as 8 hex digits (README §5.3). */
const COMPACT_FEE: Reshape = {
  value: (v) => ({ ...v, bytes: v.bytes.padStart(8, '0') }),
  schema: (s) => withProps(s, { bytes: hexStr(8).schema }),
};

/**
 * A double as the reference's JSON writer (glaze) prints it: the shortest round-trip digits, fixed
 * notation for 1e-6 ≤ |x| < 1e21 as in JavaScript, otherwise an exponent written `E` with no `+`
 * (`1.9E-7`, `1E21`) where JavaScript writes `1.9e-7`, `1e+21`.
 */
export function glazeNumber(n: number): string {
  const s = JSON.stringify(n);
  const e = s.indexOf('e');
  return e < 0 ? s : `${s.slice(0, e)}E${s.slice(e + 1).replace('+', '')}`;
}

/** Open orders and the account mempool of an address without an account: 122 (an unknown id: 123), not an empty list. */
const ACCOUNT_MUST_EXIST: RouteRule = {
  before: async ({ params, view }) => {
    const p = accountParam(params.account);
    if (!(await findAccount(view, p))) fail('address' in p ? 'EADDRNOTFOUND' : 'EACCIDNOTFOUND');
  },
};

/** The integer members of a transaction as 0.10.3 reads them (src/shared/src/api/http/json_converter.cpp: `get<uint32_t>`, `get<uint64_t>`, `get<size_t>`). */
const TX_INTEGERS = {
  pinHeight: 'u32',
  nonceId: 'u32',
  feeE8: 'u64',
  wartE8: 'u64',
  amountU64: 'u64',
  amountE8: 'u64',
  cancelHeight: 'u32',
  cancelNonceId: 'u32',
  supplyU64: 'u64',
  decimals: 'u64',
} as const;

/** The trades of the chart route's asset on the view its answer was built from. */
async function assetTrades({ params, view }: ReshapeContext) {
  return tradesOf(view.db, (await resolveAsset(view, assetParam(params.asset))).id, (h) => view.hashAt(h));
}

export const V0_10: Generation = {
  name: '0.10',
  keys: { coinTransfer: 'wartTransfer', coinToAssetSwaps: 'wartToAssetSwaps', assetToCoinSwaps: 'assetToWartSwaps', coin: 'wart' },
  values: { type: { coinTransfer: 'wartTransfer' } },
  types: {
    AssetCompletion: rename('match', 'matches'),
    // `time` is a Timepoint and the PoW flag `verusV2_2` in the header route too (README §5.3).
    HeaderUnixTime: {
      value: (v) => ({ ...v, time: timepoint(v.time), pow: renameKey(v.pow, 'verusV2.2', 'verusV2_2') }),
      schema: () => ({ $ref: 'Header' }),
    },
    CompactFee: COMPACT_FEE,
    // Rounded down, not to the closest value (README §5.3).
    Encode16bit: {
      value: (v) => {
        const r = encode16bit(BigInt(v.original.E8), 'down');
        return { original: r.original, rounded: COMPACT_FEE.value(r.rounded, undefined as never) };
      },
      schema: (s) => s,
    },
    NodeInfo: {
      value: (v) => ({ ...v, uptime: { ...v.uptime, since: timepoint(v.uptime.since) } }),
      schema: (s) => withProps(s, { uptime: withProps((s.properties as Obj).uptime, { since: Timepoint.schema }) }),
    },
    JanushashNumber: { value: (v) => v.janushashNumber, schema: () => num.schema },
    IpCount: { value: (v: [string, number][]) => Object.fromEntries(v), schema: () => record(int).schema },
    // Doubles (exchange.md §11), and trades as [timestamp, height, base, quote] (README §5.7); the
    // values come from the route rules below, which have the view to read them from.
    Candles: { value: (v) => v, schema: () => arr(tuple(int, int, num, num, num, num, num, num)).schema },
    Trades: { value: (v) => v, schema: () => arr(tuple(int, int, num, num)).schema },
    BlockBinary: { value: (v) => ({ ...v, structure: v.structure.map((n: Obj) => retag(n, SECTION_TAGS)) }), schema: (s) => s },
    // The head's estimate over the last 100 blocks up to the tip (not 101).
    ChainHead: {
      // (A head above the chain now, after a rollback, keeps the contract's figure.)
      value: (v, ctx) => (v.height > ctx.view.length ? v : { ...v, hashrate: hashrateWindowAt(ctx.view, v.height, 100)?.estimate ?? 0n }),
      schema: (s) => s,
    },
    // `toPool.amount` is a token amount on either side: 8 decimals when the coin goes to the pool.
    Market: {
      value: (v) => {
        const t = v.match.toPool;
        const amount = t.isQuote ? { str: t.amount.str, u64: t.amount.E8, decimals: 8 } : t.amount;
        return { ...v, match: { ...v.match, toPool: { ...t, amount } } };
      },
      schema: (s) => {
        const match = (s.properties as Obj).match;
        const toPool = match.properties.toPool;
        return withProps(s, { match: withProps(match, { toPool: withProps(toPool, { amount: { $ref: 'TokenAmount' } }) }) });
      },
    },
  },
  routes: {
    'GET /account/:account/coin_balance': { paths: ['/account/:account/wart_balance'] },
    'GET /account/:account/open_orders': ACCOUNT_MUST_EXIST,
    'GET /account/:account/open_orders/:asset': ACCOUNT_MUST_EXIST,
    'GET /account/:account/mempool': ACCOUNT_MUST_EXIST,
    // Refusals as recorded in test/vectors/reference-0.10/errors.json (the member casts from the source).
    'POST /transaction/add': {
      // A member read as its C++ integer type: a negative nonceId is 2^32 − 1 (then the signer it recovers
      // has no account: 122), a negative feeE8 2^64 − 1 (inexact: 302), a negative pinHeight a future pin (29).
      request: (body) => castIntegers(body, TX_INTEGERS),
      refusals: {
        EINVJSON: 'ETXTYPE', // no JSON at all, or an empty body: 189
        feeMissing: 'EINEXACTFEE', // neither feeE8 nor feeStr: 302
        signatureForm: 'EPARSESIG', // recovery id 4 or 27, high s: 304 (a zero signature recovers no key: 23)
        EZEROBASEQUOTE: 'EZEROAMOUNT', // a deposit of nothing: 84
        ECANCLHNOPINH: 'EBADCANCELHEIGHT', // a cancelHeight that is no pin height: 312
      },
    },
    // endpoints.json: no JSON 94, height 0 72; the height read as uint32 (src/node/api/http/parse.cpp).
    'POST /chain/append': {
      voidSuccess: true,
      request: (body) => castIntegers(body, { height: 'u32' }),
      refusals: { EINVJSON: 'EINV_ARGS', EZEROHEIGHT: 'EBADHEIGHT' },
    },
    // A well-formed spec naming no token: 308, by hash and by id (endpoints.json).
    'GET /account/:account/balance/:tokenspec': { refusals: { EASSETHASHNOTFOUND: 'ETOKENNOTFOUND', ETOKIDNOTFOUND: 'ETOKENNOTFOUND' } },
    // An account id naming no account has an empty history (endpoints.json `/account/0/history/…`).
    'GET /account/:account/history/:beforeId': {
      refusals: { unknownAccountId: { data: { fromId: 0, perBlock: [] } } },
      // 0.10.3 reads beforeId as a signed 64-bit number: from 2^63 on no entry lies before it
      // (endpoints.json: 2^63 and 2^64 − 1 answer `{fromId: 0, perBlock: []}`), as 0.8.20 does.
      reshape: {
        value: (v, ctx) => (BigInt(ctx.params.beforeId) >= 2n ** 63n ? { ...v, fromId: 0, perBlock: [] } : v),
        schema: (s) => s,
      },
    },
    // A pending cancelation has processed `{canceledTxHash: null}`, not null.
    'GET /transaction/lookup/:txid': {
      reshape: {
        value: (v) => (v.type === 'cancelation' && v.mined === null ? { ...v, transaction: { ...v.transaction, processed: { canceledTxHash: null } } } : v),
        schema: (s) => s,
      },
    },
    // The last `:window` blocks up to the tip, `nBlocks` clamped to the chain; fewer than 2 ⇒ 325.
    'GET /chain/hashrate/:window': {
      reshape: {
        value: (v, ctx) => hashrateWindowAt(ctx.view, ctx.view.length, Number(v.nBlocks)) ?? fail('EHASHRATEINTERVAL'),
        schema: (s) => s,
      },
    },
    'GET /chart/candles/:asset/:interval': {
      reshape: {
        value: async (rows: [number, ...unknown[]][], ctx) => {
          const trades = await assetTrades(ctx);
          const byBegin = new Map(referenceCandleRows(candlesOf(trades, CANDLE_INTERVALS[ctx.params.interval as CandleInterval])).map((r) => [r[0], r]));
          return rows.map(([begin]) => byBegin.get(begin));
        },
        schema: (s) => s,
      },
    },
    'GET /chart/trades/:asset': {
      reshape: {
        value: async (rows: [number, ...unknown[]][], ctx) => {
          const byHeight = new Map(referenceTradeRows(await assetTrades(ctx)).map(([h, t, base, quote]) => [h, [t, h, base, quote]]));
          return rows.map(([height]) => byHeight.get(height));
        },
        schema: (s) => s,
      },
    },
    'GET /debug/fakemine': { voidInData: true },
    'GET /debug/fakemine/:address': { voidInData: true },
    'GET /debug/rollback': { voidInData: true },
  },
  // 0.10.3's error table (src/shared/src/general/errors.hpp at 58031328) is ours but for the name and text of 324.
  errors: { EAPINOTENABLED: [324, 'API method not supported'] },
  errorText: (_message, text) => text,
  refusals: {
    // Path parameters go through its hex reader, which refuses an odd length before anything else:
    // `/chain/mine/0`, `/debug/fakemine/abc` 300 (endpoints.json), `/tools/wallet/from_privkey/abc` (source).
    oddHex: 'EINV_HEX',
    // A spec shorter than 64 chars is read as an integer token id: `/account/richlist/abc` 94 (endpoints.json).
    tokenIdNotNumber: 'EINV_ARGS',
  },
  unknownRoute: 'close',
  numberText: glazeNumber,
  voidReply: { code: 0, error: 'No error' },
};
