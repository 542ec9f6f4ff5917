// What the streams send in each API generation (clients.md §6): the HTTP generation's tables,
// except that 0.10 writes blocks in events in its WebSocket form (BlockWS: the 0.8 header with
// `timestamp`, `utc` and `difficulty`; plural body sections; entries `{transaction: {hash, data,
// signingData?}, historyId}`), while 0.8 writes them as its `/chain/block` does.
import { CONTRACT, GENERATIONS } from '../generations/index.js';
import { adaptSchema, adaptValue, type ApiName, type Generation, type Reshape, type ReshapeContext } from '../generations/generation.js';
import { H8, header8, headerAt } from '../generations/v0_8.js';
import { V0_10 } from '../generations/v0_10.js';
import { schemaOf, type JsonSchema } from '../schema.js';

type Obj = Record<string, any>;

/** Contract body sections and their BlockWS names (D json.cpp:109-135). */
const WS_SECTIONS: [string, string][] = [
  ['reward', 'rewards'],
  ['coinTransfer', 'wartTransfers'],
  ['tokenTransfer', 'tokenTransfers'],
  ['limitSwap', 'newOrders'],
  ['match', 'matches'],
  ['liquidityDeposit', 'liquidityDeposits'],
  ['liquidityWithdrawal', 'liquidityWithdrawals'],
  ['assetCreation', 'assetCreations'],
  ['cancelation', 'cancelations'],
];
const named10 = (contractKey: string) => V0_10.keys[contractKey] ?? contractKey;

const entryWs = (e: Obj): Obj => ({
  transaction: { hash: e.transaction.hash, data: e.transaction.data, ...(e.transaction.signedCommon ? { signingData: e.transaction.signedCommon } : {}) },
  historyId: e.historyId,
});

const object = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

function entryWsSchema(entryRef: string): JsonSchema {
  const entry = schemaOf(entryRef) as Obj;
  const tx = adaptSchema(V0_10, schemaOf(entry.properties.transaction.$ref)) as Obj;
  const signed = 'signedCommon' in tx.properties;
  const transaction = object({ hash: tx.properties.hash, data: tx.properties.data, ...(signed ? { signingData: tx.properties.signedCommon } : {}) });
  return object({ transaction, historyId: entry.properties.historyId });
}

/** A 0.10 block (already adapted inside) in its WebSocket form. */
const BLOCK_WS: Reshape = {
  value: (b: Obj, ctx: ReshapeContext) => {
    const h = b.header;
    const body: Obj = {};
    for (const [c, ws] of WS_SECTIONS) {
      const x = b.body[named10(c)];
      body[ws] = (c === 'reward' ? (x ? [x] : []) : x).map(entryWs);
    }
    return {
      header: headerAt(header8(h, h.time.timestamp, h.time.UTC, h.pow.verusV2_2), b.height, ctx),
      body,
      timestamp: h.time.timestamp,
      utc: h.time.UTC,
      confirmations: b.confirmations,
      height: b.height,
    };
  },
  schema: (s: Obj) => {
    const sections = s.properties.body.properties as Obj;
    const body: Record<string, JsonSchema> = {};
    for (const [c, ws] of WS_SECTIONS) {
      const p = sections[named10(c)];
      const ref = c === 'reward' ? (p.$ref ?? p.anyOf[0].$ref) : p.items.$ref;
      body[ws] = { type: 'array', items: entryWsSchema(ref) };
    }
    const { int, str } = { int: { type: 'integer' }, str: { type: 'string' } };
    return object({ header: H8.schema, body: object(body), timestamp: int, utc: str, confirmations: int, height: int });
  },
};

export const STREAM_GENERATIONS: Record<ApiName, Generation> = {
  contract: CONTRACT,
  '0.10': { ...V0_10, types: { ...V0_10.types, Block: BLOCK_WS, PartialBlock: BLOCK_WS } },
  '0.8': GENERATIONS['0.8'],
};

/** A stream message of declared schema `schema` as generation `g` sends it. */
export function adaptMessage(g: Generation, schema: JsonSchema, message: unknown, ctx: ReshapeContext): unknown {
  return g === CONTRACT ? message : adaptValue(g, schema, message, ctx);
}
