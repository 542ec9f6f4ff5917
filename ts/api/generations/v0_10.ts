// The 0.10 generation: what the DeFi reference node (0.10.3) sends (clients.md §1, §2.1, §3;
// recorded in test/vectors/reference-0.10, README §5). Error numbers and texts are the contract's.
import { hexStr, int, num, record, type JsonSchema } from '../schema.js';
import { encode16bit } from '../routes/tools.js';
import { Timepoint, timepoint } from '../views/time.js';
import { renameKey, renameSchemaKey, type Generation, type Reshape } from './generation.js';

type Obj = Record<string, any>;

/** Patches properties of an object schema. */
export const withProps = (s: JsonSchema, props: Record<string, JsonSchema>): JsonSchema =>
  ({ ...s, properties: { ...(s.properties as object), ...props } });

const rename = (from: string, to: string): Reshape => ({
  value: (v) => renameKey(v, from, to),
  schema: (s) => renameSchemaKey(s, from, to),
});

/** Binary structure tags: sections and the items inside them have their own names (README §5.2). */
const SECTION_TAGS: Record<string, string> = { coinTransfer: 'wartTransfers', cancelation: 'cancelations', assetCreation: 'assetCreations' };
const ITEM_TAGS: Record<string, string> = { coinTransfer: 'wartTransfer', coin: 'wart' };
const retag = (n: Obj, tags: Record<string, string>): Obj =>
  ({ ...n, tag: tags[n.tag] ?? ITEM_TAGS[n.tag] ?? n.tag, children: n.children.map((c: Obj) => retag(c, ITEM_TAGS)) });

/** The fee code as 8 hex digits (README §5.3). */
const COMPACT_FEE: Reshape = {
  value: (v) => ({ ...v, bytes: v.bytes.padStart(8, '0') }),
  schema: (s) => withProps(s, { bytes: hexStr(8).schema }),
};

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
    // [timestamp, height, base, quote] (README §5.7).
    Trades: {
      value: (rows: unknown[][]) => rows.map(([h, t, ...rest]) => [t, h, ...rest]),
      schema: (s) => {
        const [h, t, ...rest] = (s.items as Obj).prefixItems as JsonSchema[];
        return { ...s, items: { ...(s.items as Obj), prefixItems: [t, h, ...rest] } };
      },
    },
    BlockBinary: { value: (v) => ({ ...v, structure: v.structure.map((n: Obj) => retag(n, SECTION_TAGS)) }), schema: (s) => s },
  },
  routes: {
    'GET /account/:account/coin_balance': { paths: ['/account/:account/wart_balance'] },
    'GET /debug/fakemine': { voidInData: true },
    'GET /debug/fakemine/:address': { voidInData: true },
    'GET /debug/rollback': { voidInData: true },
  },
  errorCodes: {},
  errorText: (t) => t,
  voidReply: { code: 0, error: 'No error' },
};
