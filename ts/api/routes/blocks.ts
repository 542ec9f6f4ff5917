// Blocks and mined transactions: /chain/block/:id, /chain/block/:id/header,
// /chain/block/:id/binary, /transaction/latest (http-api.md "Chain", "Transactions and mempool";
// http-api-details.md §1.5, §4.4, §5.4, §5.5).
import { bodyLayoutAt } from '../../consensus/params.js';
import type { ParseAnnotation } from '../../core/annotation.js';
import { bodyStructure } from '../../core/body.js';
import { fail } from '../../core/errors.js';
import { equalBytes, fromHex, toHex } from '../../core/hex.js';
import { blockTransactions, latestTransactions } from '../../state/history_query.js';
import { route } from '../route.js';
import { u32Param } from '../params.js';
import type { NodeServices } from '../services.js';
import { arr, hexStr, int, named, obj, str, type Shape } from '../schema.js';
import { ActionsByBlock, Block, blockView, blocksOf } from '../views/block.js';
import { HeaderUnixTime, headerViewUnixTime } from '../views/header.js';

const HASH_CHARS = 64;

/**
 * The height of block `:id` on the current chain (details §1.5): exactly 64 chars is a block hash
 * (bad hex ⇒ 300), anything else a height (bad integer ⇒ 94); unknown, 0, above the tip or not on
 * this chain ⇒ 56.
 */
async function blockHeightOf(node: NodeServices, id: string): Promise<number> {
  const chain = node.chain;
  if (id.length === HASH_CHARS) {
    const hash = fromHex(id) ?? fail('EINV_HEX', `'${id}' is not a 64-hex block hash`);
    const h = await chain.heightOfHash(hash);
    if (h === null || h > chain.length || !equalBytes(chain.hashAt(h), hash)) fail('ENOTFOUND', `no block ${toHex(hash)} on this chain`);
    return h!;
  }
  const h = u32Param(id, 'block height');
  if (h === 0 || h > chain.length) fail('ENOTFOUND', `no block at height ${h}: the chain has ${chain.length}`);
  return h;
}

async function storedBlock(node: NodeServices, id: string) {
  const h = await blockHeightOf(node, id);
  return (await node.chain.block(h)) ?? fail('ENOTFOUND', `block ${h} was rolled back`);
}

// Node = {tag, beginOffset, endOffset, children: [Node]}, a recursive named type.
const BINARY_ANNOTATION = 'BlockBinaryAnnotation';
const AnnotationRef: Shape<ParseAnnotation> = { schema: { $ref: BINARY_ANNOTATION } };
const BinaryAnnotation = named(BINARY_ANNOTATION, obj({ tag: str, beginOffset: int, endOffset: int, children: arr(AnnotationRef) }));

export const blockRoutes = [
  route({
    method: 'GET', path: '/chain/block/:id/header',
    response: named('HeaderResult', obj({ header: HeaderUnixTime, height: int })),
    handler: async ({ params, node }) => {
      const h = await blockHeightOf(node, params.id);
      return { header: headerViewUnixTime(node.chain, h), height: h };
    },
  }),
  route({
    method: 'GET', path: '/chain/block/:id/binary',
    response: named('BlockBinary', obj({ bytes: hexStr(), structure: arr(BinaryAnnotation) })),
    handler: async ({ params, node }) => {
      const b = await storedBlock(node, params.id);
      // Offsets are into the body only, not the header (details §5.5, §14.23).
      const layout = bodyLayoutAt(node.chain.params, b.height, b.header.version);
      return { bytes: toHex(b.body), structure: bodyStructure(b.body, layout) };
    },
  }),
  route({
    method: 'GET', path: '/chain/block/:id', response: Block,
    handler: async ({ params, node }) => {
      const b = await storedBlock(node, params.id);
      const txs = await blockTransactions(node.db, b.height, b.firstHistoryId);
      return blockView(node.chain, b.height, txs);
    },
  }),
  route({
    method: 'GET', path: '/transaction/latest', response: ActionsByBlock,
    handler: async ({ node }) => {
      const { fromId, transactions } = await latestTransactions(node.db);
      return { fromId, perBlock: blocksOf(node.chain, transactions, 'ascending') };
    },
  }),
];
