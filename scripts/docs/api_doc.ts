// Generates docs/api.md from what the node declares: the routes (ts/api/routes/index.ts), their
// response shapes (ts/api/schema.ts), the error table (ts/core/errors.ts) and the transaction
// request parser and signing bytes (ts/api/tx_request.ts, ts/core/transaction.ts). Hand-written
// prose lives in the template (scripts/docs/api.md.in) and in the routes' `doc` fields.
// `make docs` writes the file; test/docs/api_doc.test.ts fails when the committed one is stale.
import { ROUTES } from '../../ts/api/routes/index.js';
import type { Route } from '../../ts/api/route.js';
import { schemaDocument, validate, type JsonSchema } from '../../ts/api/schema.js';
import { parseTxRequest } from '../../ts/api/tx_request.js';
import { CHAIN_DELTA_EVENTS, STREAM_EVENTS } from '../../ts/api/streams/events.js';
import { TOPICS } from '../../ts/api/streams/hub.js';
import { ERRORS, REFUSAL_CASES, type ErrorName, type RefusalCase } from '../../ts/core/errors.js';
import { GENERATIONS } from '../../ts/api/generations/index.js';
import { errorIn } from '../../ts/api/error_answer.js';
import type { Generation, RefusalAnswer, RefusalTable } from '../../ts/api/generations/generation.js';
import { formatAddress } from '../../ts/core/address.js';
import { toHex } from '../../ts/core/hex.js';
import { addressOfPrivateKey, signDigest } from '../../ts/core/keys.js';
import { signingBytes, type TransactionType } from '../../ts/core/transaction.js';
import { writeJson } from '../../ts/api/json.js';
import { coinAmount, compactFee, tokenAmount } from '../../ts/api/views/amount.js';
import { fee16Decode, fee16Encode } from '../../ts/kernel/fee16.js';
import { sha256 } from '../../ts/kernel/hash.js';
import { initKernel } from '../../ts/kernel/instance.js';
import { parsePrice, priceToBytes } from '../../ts/kernel/price.js';

// ---------------------------------------------------------------------------------------------
// Parameters: what each path parameter name means wherever a route does not say otherwise, and
// the codes its parser reports (ts/api/params.ts, ts/api/token_spec.ts).

interface ParamDoc {
  text: string;
  errors: ErrorName[];
}

const PARAMS: Record<string, ParamDoc> = {
  account: { text: 'an address (48 hex chars) or a numeric account id', errors: ['EBADADDRESS', 'EINV_ARGS', 'ENOTFOUND'] },
  address: { text: 'an address (48 hex chars: 20 bytes and a 4-byte checksum)', errors: ['EBADADDRESS'] },
  asset: { text: 'an asset hash (64 hex chars) or a numeric asset id', errors: ['EINV_HEX', 'EINV_ARGS', 'EASSETHASHNOTFOUND', 'EASSETIDNOTFOUND'] },
  tokenspec: {
    text: 'a token spec: `asset:<64 hex>`, `liquidity:<64 hex>` or a numeric token id (see [Token specs](#token-specs))',
    errors: ['EINV_TOKEN', 'ETOKIDNOTFOUND', 'EASSETHASHNOTFOUND'],
  },
  beforeId: { text: 'a history id: entries with smaller ids are answered (see [History paging](#history-paging))', errors: ['EINV_ARGS'] },
  decimals: { text: 'decimal places of the asset, 0 to 18', errors: ['EINV_ARGS'] },
  feeE8: { text: 'a fee in 10⁻⁸ coin units (unsigned 64-bit integer)', errors: ['EINV_ARGS'] },
  from: { text: 'first height of the range', errors: ['EINV_ARGS'] },
  to: { text: 'last height of the range (inclusive)', errors: ['EINV_ARGS'] },
  headerhex: { text: 'an 80-byte block header as 160 hex chars', errors: [] },
  height: { text: 'a block height', errors: ['EINV_ARGS'] },
  id: { text: 'a block height, or a block hash (64 hex chars) of the current chain', errors: ['EINV_ARGS', 'EINV_HEX', 'ENOTFOUND'] },
  interval: { text: 'the sampling interval', errors: ['EINV_ARGS'] },
  number: { text: 'how many to answer at most', errors: ['EINV_ARGS'] },
  page: { text: 'page number, counting from 1', errors: ['EINV_ARGS'] },
  price: { text: 'a decimal price in coin per asset unit, e.g. `0.25`', errors: [] },
  privkey: { text: 'a secp256k1 private key as 64 hex chars', errors: [] },
  string: { text: 'a decimal coin amount, e.g. `0.01`', errors: [] },
  txid: { text: 'a transaction hash (64 hex chars)', errors: [] },
  window: { text: 'number of blocks each estimate averages over', errors: ['EINV_ARGS'] },
  conn_id: { text: 'a connection id (see `/peers/connected`)', errors: ['EINV_ARGS', 'ENOTFOUND'] },
};

const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z_0-9]+)/g)].map((m) => m[1]);

/** Error names quoted in the handler's own code, e.g. `fail('EBADPRICE', …)`; helpers' codes come from PARAMS and `errors`. */
function handlerErrors(r: Route<any>): ErrorName[] {
  // An error made but not thrown (a reason handed to a peer's close) is no answer of the route.
  const source = r.handler.toString().replace(/(?<!throw\s+)new [\w$.]*NodeError\w*\(\s*['"`]E[A-Z0-9_]+/g, '');
  const names = [...source.matchAll(/['"`](E[A-Z0-9_]+)['"`]/g)].map((m) => m[1]);
  return names.filter((n): n is ErrorName => Object.hasOwn(ERRORS, n));
}

function routeErrors(r: Route<any>): ErrorName[] {
  const names = new Set<ErrorName>([
    ...pathParams(r.path).flatMap((p) => (r.params?.[p] ? [] : (PARAMS[p]?.errors ?? []))),
    ...handlerErrors(r),
    ...(r.errors ?? []),
  ]);
  if (r.method === 'POST') {
    names.add('EINV_BODY');
    names.add('EINVJSON');
  }
  return [...names].sort((a, b) => ERRORS[a][0] - ERRORS[b][0]);
}

// ---------------------------------------------------------------------------------------------
// Shapes: a compact type notation and a synthesized example, both from the JSON Schema.

const TYPES = schemaDocument();
/** The id GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

function hexPattern(pattern: string): { prefix: string; chars: number | null } | null {
  if (pattern === '^([0-9a-f]{2})*$') return { prefix: '', chars: null };
  const m = /^\^(0x)?\[0-9a-f\]\{(\d+)\}\$$/.exec(pattern);
  return m ? { prefix: m[1] ?? '', chars: Number(m[2]) } : null;
}

function typeText(s: JsonSchema, indent = ''): string {
  if (typeof s.$ref === 'string') return s.$ref;
  if (Array.isArray(s.anyOf)) return (s.anyOf as JsonSchema[]).map((v) => typeText(v, indent)).join(' | ');
  if (Array.isArray(s.oneOf)) return (s.oneOf as JsonSchema[]).map((v) => typeText(v, indent)).join(' | ');
  switch (s.type) {
    case 'string': {
      if (typeof s.pattern !== 'string') return 'string';
      const h = hexPattern(s.pattern);
      if (!h) return `string /${s.pattern}/`;
      return h.chars === null ? 'hex' : `${h.prefix ? '"0x" + ' : ''}hex(${h.chars})`;
    }
    case 'integer':
      return s.minimum === 0 ? 'uint64' : 'integer';
    case 'array':
      if (Array.isArray(s.prefixItems)) return `[${(s.prefixItems as JsonSchema[]).map((v) => typeText(v, indent)).join(', ')}]`;
      return s.items === false ? '[]' : `[${typeText(s.items as JsonSchema, indent)}]`;
    case 'object': {
      const props = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>);
      if (props.length === 0) return typeof s.additionalProperties === 'object' ? `{<key>: ${typeText(s.additionalProperties as JsonSchema, indent)}}` : '{}';
      const inner = indent + '  ';
      return `{\n${props.map(([k, v]) => `${inner}${k}: ${typeText(v, inner)}`).join(',\n')}\n${indent}}`;
    }
    default:
      return String(s.type);
  }
}

/** Named types a schema refers to, directly. */
function refsOf(s: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(s)) s.forEach((v) => refsOf(v, out));
  else if (typeof s === 'object' && s !== null) {
    for (const [k, v] of Object.entries(s)) {
      if (k === '$ref' && typeof v === 'string') out.add(v);
      else refsOf(v, out);
    }
  }
  return out;
}

// The example keys of this document: fixed, so the file is reproducible. Addresses need the
// kernel, so they are made once apiDoc() has started it.
const EXAMPLE_KEY = new Uint8Array(32).fill(0x11);
const ASSET_HASH = '8d3c7a0e5b1f2a4c6e8d0b2f4a6c8e0d2b4f6a8c0e2d4b6f8a0c2e4d6b8f0a2c';
let EXAMPLE_ADDRESS = '';
let RECIPIENT_ADDRESS = '';
const EXAMPLE_STRINGS = ['2024-05-01 12:00:00 UTC', '0.25'];

function exampleString(s: JsonSchema): string {
  if (typeof s.pattern !== 'string') return 'text';
  const h = hexPattern(s.pattern);
  if (h?.chars === 48) return EXAMPLE_ADDRESS;
  if (h) return h.prefix + '0123456789abcdef'.repeat(Math.ceil((h.chars ?? 8) / 16)).slice(0, h.chars ?? 8);
  const re = new RegExp(s.pattern);
  const found = EXAMPLE_STRINGS.find((e) => re.test(e));
  if (found === undefined) throw new Error(`scripts/docs/api_doc.ts: add an example string matching /${s.pattern}/ to EXAMPLE_STRINGS`);
  return found;
}

/** Examples of the small value types that most answers contain (checked against their schemas). */
const TYPE_EXAMPLES = (): Record<string, unknown> => {
  const fee = fee16Encode(1000448n, 'closest');
  return {
    CoinAmount: coinAmount(150000000n),
    TokenAmount: tokenAmount(2500n, 2),
    CompactFee: compactFee(fee16Decode(fee), fee),
    Token: { id: 3, spec: `asset:${ASSET_HASH}`, name: 'DEMO', decimals: 2 },
  };
};

function example(s: JsonSchema, depth = 0): unknown {
  if (typeof s.$ref === 'string') {
    const known = TYPE_EXAMPLES()[s.$ref];
    if (known !== undefined) return known;
    return example(TYPES[s.$ref], depth + 1);
  }
  const variants = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (variants) return example(variants.find((v) => v.type !== 'null') ?? variants[0], depth);
  switch (s.type) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'string':
      return exampleString(s);
    case 'integer':
      return 1;
    case 'number':
      return 1.5;
    case 'array':
      if (Array.isArray(s.prefixItems)) return (s.prefixItems as JsonSchema[]).map((v) => example(v, depth + 1));
      // One item shows the shape; a recursive type ends in an empty list.
      return s.items === false || depth > 6 ? [] : [example(s.items as JsonSchema, depth + 1)];
    case 'object': {
      const props = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>);
      if (props.length === 0 && typeof s.additionalProperties === 'object') return { key: example(s.additionalProperties as JsonSchema, depth + 1) };
      return Object.fromEntries(props.map(([k, v]) => [k, example(v, depth + 1)]));
    }
    default:
      throw new Error(`scripts/docs/api_doc.ts: no example for schema ${JSON.stringify(s)}`);
  }
}

function checkedExample(s: JsonSchema, what: string): unknown {
  const e = example(s);
  const problems = validate(s, e);
  if (problems.length) throw new Error(`example of ${what} does not match its schema: ${problems.join('; ')}`);
  return e;
}

const fence = (lang: string, text: string) => '```' + lang + '\n' + text + '\n```';
/** JSON on one line, with a space after `:` and `,` as people write it. */
function flatJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(flatJson).join(', ')}]`;
  if (typeof v === 'object' && v !== null)
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${flatJson(x)}`)
      .join(', ')}}`;
  return writeJson(v);
}

/** JSON with every object or list that fits in 100 columns on one line. */
function json(v: unknown, indent = ''): string {
  const flat = flatJson(v);
  if (flat.length + indent.length <= 100 || typeof v !== 'object' || v === null) return flat;
  const inner = indent + '  ';
  if (Array.isArray(v)) return `[\n${v.map((x) => inner + json(x, inner)).join(',\n')}\n${indent}]`;
  return `{\n${Object.entries(v)
    .map(([k, x]) => `${inner}${JSON.stringify(k)}: ${json(x, inner)}`)
    .join(',\n')}\n${indent}}`;
}

// ---------------------------------------------------------------------------------------------
// Sections.

function routeSection(r: Route<any>): string {
  const out = [`### \`${r.method} ${r.path}\``, ''];
  for (const [name, e] of Object.entries(TYPE_EXAMPLES())) {
    if (validate(TYPES[name] ?? {}, e).length) throw new Error(`TYPE_EXAMPLES.${name} does not match its schema`);
  }
  if (r.doc) out.push(r.doc, '');
  const params = [...pathParams(r.path), ...Object.keys(r.params ?? {}).filter((p) => !r.path.includes(`:${p}`))];
  if (params.length) {
    out.push('| parameter | meaning |', '| --- | --- |');
    for (const p of params) {
      const text = r.params?.[p] ?? PARAMS[p]?.text;
      if (!text) throw new Error(`scripts/docs/api_doc.ts: describe parameter :${p} of ${r.path} (route \`params\` or PARAMS)`);
      out.push(`| \`${r.path.includes(`:${p}`) ? ':' : '?'}${p}\` | ${text} |`);
    }
    out.push('');
  }
  if (r.method === 'POST' && r.path === '/transaction/add') out.push('Body: see [Transactions](#transactions).', '');
  if (r.raw && r.text) {
    out.push(`Answer: a text of media type \`${r.text}\`, not JSON.`, '');
  } else if (r.raw) {
    out.push('Answer: the document itself, without the envelope.', '');
  } else if (r.response === null) {
    out.push('Answer: `{"code":0}`.', '');
  } else {
    const refs = [...refsOf(r.response.schema)];
    out.push(`Answer \`data\`: ${typeof r.response.schema.$ref === 'string' ? '' : 'shape below'}${refs.map((n) => `[${n}](#${anchor(n)})`).join(', ')}`, '');
    if (typeof r.response.schema.$ref !== 'string') out.push(fence('', typeText(r.response.schema)), '');
    out.push('Example:', '', fence('json', json({ code: 0, data: checkedExample(r.response.schema, `${r.method} ${r.path}`) })), '');
  }
  const errors = routeErrors(r);
  if (errors.length) out.push(`Errors: ${errors.map((e) => `${ERRORS[e][0]} (${ERRORS[e][1]})`).join(', ')}.`, '');
  return out.join('\n');
}

function streamsSection(): string {
  const link = (name: string) => `[\`${name}\`](#${anchor(name)})`;
  return [
    `Topics of \`/stream\`: ${TOPICS.map((t) => `\`${t}\``).join(', ')}. Messages: ${Object.keys(STREAM_EVENTS)
      .map((k) => link(`StreamEvent.${k}`))
      .join(', ')}.`,
    '',
    `Messages of \`/ws/chain_delta\`: ${Object.keys(CHAIN_DELTA_EVENTS)
      .map((k) => link(`ChainDelta.${k}`))
      .join(', ')}.`,
  ].join('\n');
}

function routesSection(): string {
  const index = ['| method | path |', '| --- | --- |', ...ROUTES.map((r) => `| ${r.method} | [\`${r.path}\`](#${anchor(`${r.method} ${r.path}`)}) |`)];
  return [index.join('\n'), '', ...ROUTES.map(routeSection)].join('\n');
}

function typesSection(): string {
  return Object.entries(TYPES)
    .map(([name, s]) => [`### ${name}`, '', fence('', typeText(s)), ''].join('\n'))
    .join('\n');
}

function errorsSection(): string {
  const rows = Object.entries(ERRORS)
    .filter(([, [code]]) => code !== 0)
    .map(([name, [code, text]]) => `| ${code} | \`${name}\` | ${text} |`);
  return ['| code | name | text |', '| --- | --- | --- |', ...rows].join('\n');
}

// Refusals of the reference generations: their error tables and the refusals each answers as
// another error, a success or a bare text (ts/api/generations/v0_10.ts, v0_8.ts).

function refusalRows(g: Generation, where: string, table: RefusalTable | undefined): string[] {
  const answer = (a: RefusalAnswer): string => {
    if (typeof a === 'string') {
      const e = errorIn(g, a);
      return `${e.code} ${e.error}`;
    }
    if ('data' in a) return `success: \`${writeJson({ code: 0, data: a.data })}\``;
    return a.text === '' ? 'an empty body' : `the text \`${a.text}\``;
  };
  return Object.entries(table ?? {}).map(([k, a]) => {
    const ours = Object.hasOwn(REFUSAL_CASES, k) ? REFUSAL_CASES[k as RefusalCase] : `${ERRORS[k as ErrorName][0]} (\`${k}\`)`;
    return `| ${where} | ${ours} | ${answer(a!)} |`;
  });
}

function generationSection(name: '0.10' | '0.8'): string {
  const g = GENERATIONS[name];
  const rows = [...refusalRows(g, 'any', g.refusals), ...Object.entries(g.routes).flatMap(([route, rule]) => refusalRows(g, `\`${route}\``, rule.refusals))];
  const own = Object.entries(g.errors).map(([n, e]) => `| \`${n}\` | ${ERRORS[n as ErrorName][0]} | ${e![0]} | ${e![1]} |`);
  return [
    `### \`--api=${name}\``,
    '',
    own.length > 10
      ? `Its error table: codes and texts of our errors as it numbers and writes them; an error not listed keeps our code and its own text in lower case, without detail.`
      : `Its error table is ours; an error is written with its own text, without detail${own.length ? ', and these differ' : ''}:`,
    '',
    ...(own.length ? ['| error | our code | code | text |', '| --- | --- | --- | --- |', ...own, ''] : []),
    'Refusals answered as another error (or a success, or a bare body):',
    '',
    '| route | our refusal | answer |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

// Transactions: every type's signed bytes, field by field, with a worked example signed by the
// example key. The JSON body is parsed by the node's own parser, and the field table must cover
// the signing bytes exactly, so this section cannot drift from the code.

interface TxField {
  field: string;
  bytes: number;
  member: string;
}

const COMMON_FIELDS: TxField[] = [
  { field: 'pinHash: hash of the block at pinHeight', bytes: 32, member: '(from `pinHeight`)' },
  { field: 'pinHeight, u32', bytes: 4, member: '`pinHeight`' },
  { field: 'nonceId, u32', bytes: 4, member: '`nonceId`' },
  { field: 'reserved, zero', bytes: 3, member: '' },
  { field: 'fee in E8, u64 (the decoded 16-bit fee)', bytes: 8, member: '`feeE8` or `feeStr`' },
];

const TX_EXAMPLES = (): Record<TransactionType, { body: Record<string, unknown>; fields: TxField[] }> => ({
  coinTransfer: {
    body: { toAddr: RECIPIENT_ADDRESS, coinE8: 150000000 },
    fields: [
      { field: 'recipient address (20 bytes, no checksum)', bytes: 20, member: '`toAddr`' },
      { field: 'amount in E8, u64', bytes: 8, member: '`coinE8` or `coinStr`' },
    ],
  },
  tokenTransfer: {
    body: { assetHash: ASSET_HASH, isLiquidity: false, toAddr: RECIPIENT_ADDRESS, amountU64: 2500 },
    fields: [
      { field: 'asset hash', bytes: 32, member: '`assetHash`' },
      { field: 'liquidity token? 1 : 0', bytes: 1, member: '`isLiquidity`' },
      { field: 'recipient address', bytes: 20, member: '`toAddr`' },
      { field: 'amount in token units, u64', bytes: 8, member: '`amountU64`' },
    ],
  },
  limitSwap: {
    body: { assetHash: ASSET_HASH, isBuy: true, amountU64: 100000, limit: toHex(priceToBytes(parsePrice('0.25', 2)!.floor)) },
    fields: [
      { field: 'asset hash', bytes: 32, member: '`assetHash`' },
      { field: 'buy? 1 : 0', bytes: 1, member: '`isBuy`' },
      { field: 'amount, u64: coin E8 to spend when buying, asset units to sell when selling', bytes: 8, member: '`amountU64`' },
      { field: 'limit price: 3-byte price code (here 0.25 for 2 decimals, `/tools/parse_price/0.25/2`)', bytes: 3, member: '`limit`' },
    ],
  },
  liquidityDeposit: {
    body: { assetHash: ASSET_HASH, amountU64: 5000, coinE8: 200000000 },
    fields: [
      { field: 'asset hash', bytes: 32, member: '`assetHash`' },
      { field: 'base: asset units, u64', bytes: 8, member: '`amountU64`' },
      { field: 'quote: coin E8, u64', bytes: 8, member: '`coinE8` or `coinStr`' },
    ],
  },
  liquidityWithdrawal: {
    body: { assetHash: ASSET_HASH, amountE8: 70000 },
    fields: [
      { field: 'asset hash', bytes: 32, member: '`assetHash`' },
      { field: 'pool shares to redeem, u64', bytes: 8, member: '`amountE8`' },
    ],
  },
  cancelation: {
    body: { cancelHeight: 1024, cancelNonceId: 7 },
    fields: [
      { field: 'pinHeight of the order to cancel, u32', bytes: 4, member: '`cancelHeight`' },
      { field: 'its nonceId, u32', bytes: 4, member: '`cancelNonceId`' },
    ],
  },
  assetCreation: {
    body: { supplyU64: 21000000, decimals: 2, name: 'DEMO' },
    fields: [
      { field: 'supply in units, u64', bytes: 8, member: '`supplyU64`' },
      { field: 'decimals, u8', bytes: 1, member: '`decimals` (or `precision`)' },
      { field: 'name, 1–5 ASCII letters or digits, zero-padded', bytes: 5, member: '`name`' },
    ],
  },
});

const EXAMPLE_PIN: { pinHeight: number; pinHash: Uint8Array } = { pinHeight: 1024, pinHash: new Uint8Array(32) };

function transactionSection(type: TransactionType): string {
  const { body, fields } = TX_EXAMPLES()[type];
  const unsigned = { type, pinHeight: EXAMPLE_PIN.pinHeight, nonceId: 7, feeE8: 1000448, ...body };
  // Parse as the node does (a placeholder signature: only its form is checked here).
  const req = parseTxRequest({ ...unsigned, signature65: toHex(signDigest(new Uint8Array(32), EXAMPLE_KEY)) });
  const bytes = signingBytes({ pinHash: EXAMPLE_PIN.pinHash, pinHeight: req.pinHeight, nonceId: req.nonceId, feeE8: req.feeE8 }, req.payload);
  const all = [...COMMON_FIELDS, ...fields];
  const total = all.reduce((n, f) => n + f.bytes, 0);
  if (total !== bytes.length) throw new Error(`scripts/docs/api_doc.ts: the ${type} field table covers ${total} bytes, signing bytes have ${bytes.length}`);
  const hash = sha256(bytes);
  const signed = { ...unsigned, signature65: toHex(signDigest(hash, EXAMPLE_KEY)) };
  let at = 0;
  const rows = all.map((f) => {
    const row = `| ${f.bytes === 1 ? at : `${at}–${at + f.bytes - 1}`} | ${f.field} | ${f.member} | \`${toHex(bytes.subarray(at, at + f.bytes))}\` |`;
    at += f.bytes;
    return row;
  });
  return [
    `### ${type}`,
    '',
    fence('json', json(signed)),
    '',
    `Signed bytes (${bytes.length}):`,
    '',
    '| bytes | field | JSON member | example |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    `txHash = SHA-256 of these bytes = \`${toHex(hash)}\`; \`signature65\` signs it with the key \`${toHex(EXAMPLE_KEY)}\` (address \`${EXAMPLE_ADDRESS}\`).`,
    '',
  ].join('\n');
}

function transactionsSection(): string {
  return (Object.keys(TX_EXAMPLES()) as TransactionType[]).map(transactionSection).join('\n');
}

const SECTIONS: Record<string, () => string> = {
  routes: routesSection,
  streams: streamsSection,
  types: typesSection,
  errors: errorsSection,
  generation_0_10: () => generationSection('0.10'),
  generation_0_8: () => generationSection('0.8'),
  transactions: transactionsSection,
  example_pin: () => `\`${toHex(EXAMPLE_PIN.pinHash)}\``,
};

/** docs/api.md: the template with each `{{name}}` replaced by its generated section. */
export async function apiDoc(template: string): Promise<string> {
  await initKernel();
  EXAMPLE_ADDRESS = formatAddress(addressOfPrivateKey(EXAMPLE_KEY));
  RECIPIENT_ADDRESS = formatAddress(addressOfPrivateKey(new Uint8Array(32).fill(0x22)));
  EXAMPLE_PIN.pinHash = sha256(new TextEncoder().encode('example pin block'));
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const make = SECTIONS[name];
    if (!make) throw new Error(`api.md.in: no section {{${name}}}`);
    return make();
  });
}
