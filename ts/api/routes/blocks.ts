// Blocks and mined transactions: /chain/block/:id, /chain/block/:id/header,
// /chain/block/:id/binary, /transaction/latest (http-api.md "Chain", "Transactions and mempool";
// http-api-details.md §1.5, §4.4, §5.4, §5.5).
import { bodyLayoutAt } from '../../consensus/params.js';
import type { ParseAnnotation } from '../../core/annotation.js';
import { bodyStructure } from '../../core/body.js';
import { fail, quoted } from '../../core/errors.js';
import { equalBytes, fromHex, toHex } from '../../core/hex.js';
import { blockTransactions, latestTransactions } from '../../state/history_query.js';
import { dbReader } from '../../state/ledger.js';
import { route, type ReadRequest } from '../route.js';
import { u32Param } from '../params.js';
import type { ReadView } from '../../chain/read_view.js';
import type { ReadServices } from '../services.js';
import { BlockCache } from '../block_cache.js';
import { tipAnswerKey } from '../answer_cache.js';
import { arr, hexStr, int, named, obj, str, type Shape } from '../schema.js';
import { ActionsByBlock, Block, blockView, blocksOf } from '../views/block.js';
import { HeaderUnixTime, headerViewUnixTime } from '../views/header.js';

const HASH_CHARS = 64;

/**
 * The height of block `:id` on the current chain (details §1.5): exactly 64 chars is a block hash
 * (bad hex ⇒ 300), anything else a height (bad integer ⇒ 94); unknown, 0, above the tip or not on
 * this chain ⇒ 56.
 */
async function blockHeightOf(chain: ReadView, id: string): Promise<number> {
  if (id.length === HASH_CHARS) {
    const hash = fromHex(id) ?? fail('EINV_HEX', `${quoted(id)} is not a 64-hex block hash`);
    const h = await chain.heightOfHash(hash);
    if (h === null || h > chain.length || !equalBytes(chain.hashAt(h), hash)) fail('ENOTFOUND', `no block ${toHex(hash)} on this chain`);
    return h!;
  }
  const h = u32Param(id, 'block height');
  if (h === 0 || h > chain.length) fail('ENOTFOUND', `no block at height ${h}: the chain has ${chain.length}`);
  return h;
}

async function storedBlock(view: ReadView, id: string) {
  const h = await blockHeightOf(view, id);
  return (await view.block(h)) ?? fail('ENOTFOUND', `block ${h} is missing from the store`);
}

/**
 * The key of an immutable block answer (answer_cache.ts): the block's hash, by height or hash on
 * the current chain, and its confirmations now. Null when the id names no block (the handler then
 * answers the error).
 */
const blockAnswerKey =
  (what: string) =>
  async ({ params, view }: ReadRequest) => {
    try {
      const h = await blockHeightOf(view, params.id);
      return { key: `${what} ${toHex(view.hashAt(h))}`, confirmations: view.length - h + 1 };
    } catch {
      return null;
    }
  };

const caches = new WeakMap<ReadServices, BlockCache>();
const cacheOf = (node: ReadServices): BlockCache => {
  let c = caches.get(node);
  if (!c) caches.set(node, (c = new BlockCache()));
  return c;
};

// Node = {tag, beginOffset, endOffset, children: [Node]}, a recursive named type.
const BINARY_ANNOTATION = 'BlockBinaryAnnotation';
const AnnotationRef: Shape<ParseAnnotation> = { schema: { $ref: BINARY_ANNOTATION } };
const BinaryAnnotation = named(BINARY_ANNOTATION, obj({ tag: str, beginOffset: int, endOffset: int, children: arr(AnnotationRef) }));

export const blockRoutes = [
  route({
    method: 'GET',
    path: '/chain/block/:id/header',
    doc: 'The header of a block of the current chain, by height or hash.',
    response: named('HeaderResult', obj({ header: HeaderUnixTime, height: int })),
    answerKey: blockAnswerKey('header'),
    handler: async ({ params, view }) => {
      const h = await blockHeightOf(view, params.id);
      return { header: headerViewUnixTime(view, h), height: h };
    },
  }),
  route({
    method: 'GET',
    path: '/chain/block/:id/binary',
    doc: "A block's raw bytes (header and body) and the tree of what each byte range is.",
    response: named('BlockBinary', obj({ bytes: hexStr(), structure: arr(BinaryAnnotation) })),
    answerKey: blockAnswerKey('binary'),
    handler: async ({ params, view }) => {
      const b = await storedBlock(view, params.id);
      // Offsets are into the body only, not the header (details §5.5, §14.23).
      const layout = bodyLayoutAt(view.params, b.height, b.header.version);
      return { bytes: toHex(b.body), structure: bodyStructure(b.body, layout) };
    },
  }),
  route({
    method: 'GET',
    path: '/chain/block/:id',
    dependsOn: 'chain',
    doc: 'A block with its header and every transaction and exchange action it contains, as JSON.',
    response: Block,
    answerKey: blockAnswerKey('block'),
    handler: async (req) => {
      const { params, node, view } = req;
      const h = await blockHeightOf(view, params.id);
      const txs = await cacheOf(node).transactions(
        view.hashAt(h),
        async () => {
          const b = (await view.block(h)) ?? fail('ENOTFOUND', `block ${h} is missing from the store`);
          return blockTransactions(view.db, h, b.firstHistoryId);
        },
        dbReader(view.db),
      );
      // A limitSwap's remaining is read at query time: such a block is kept per chain state only.
      if (txs.some((t) => t.kind === 'limitSwap')) req.uncacheable = true;
      return blockView(view, h, txs);
    },
  }),
  route({
    method: 'GET',
    path: '/transaction/latest',
    doc: 'The most recent transactions on chain, grouped by block.',
    response: ActionsByBlock,
    answerKey: ({ view }) => tipAnswerKey('latest', view),
    handler: async ({ view }) => {
      const { fromId, transactions } = await latestTransactions(view.db);
      return { fromId, perBlock: blocksOf(view, transactions, 'ascending') };
    },
  }),
];
