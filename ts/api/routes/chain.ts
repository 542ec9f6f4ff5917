// Chain state, mining and chain changes: /chain/head, /chain/grid, /chain/block/:height/hash,
// /chain/mine/:account, POST /chain/append, /chain/txcache, /chain/hashrate/:window,
// /chain/signed_snapshot, /debug/fakemine, /debug/rollback (http-api.md "Chain";
// http-api-details.md §5, §9.10, §9.11).
import { fail } from '../../core/errors.js';
import { formatAddress, parseAddress } from '../../core/address.js';
import { fromHex, fromHexExact, toHex } from '../../core/hex.js';
import { PIN_STEP } from '../../core/pin.js';
import { gridHeights } from '../../consensus/checkpoint.js';
import { expectedTarget, targetAt } from '../../consensus/header_check.js';
import { NEW_BLOCK_STRUCTURE, targetKindAt } from '../../consensus/params.js';
import { targetDifficulty, worksumDouble, worksumHex } from '../../consensus/target.js';
import { buildTemplate } from '../../chain/template.js';
import { hashrateAt } from '../../chain/hashrate.js';
import { listTxIds } from '../../state/txids.js';
import type { NodeServices } from '../services.js';
import { route } from '../route.js';
import { u32Param } from '../params.js';
import { arr, bool, hexStr, int, named, nul, num, obj, strMatching, u64 } from '../schema.js';
import { CoinAmount, coinAmount } from '../views/amount.js';

/** The account the reference's `/debug/fakemine` pays: the all-zero address (http-api-details.md §9.10). */
export const FAKEMINE_BURN_ADDRESS = new Uint8Array(20);
const HEAD_HASHRATE_WINDOW = 100;

const Hash = hexStr(64);

function addressParam(text: string): Uint8Array {
  return parseAddress(text) ?? fail('EBADADDRESS', `'${text}' is not a 48-hex address with a valid checksum`);
}

/** The template for `miner` with the best-paying pending transfers, built between chain changes. */
function template(node: NodeServices, miner: Uint8Array) {
  return node.chain.locked(() => buildTemplate(node.chain, node.db, miner, node.now(), node.mempool.pool.all()));
}

async function fakemine(node: NodeServices, address: Uint8Array): Promise<null> {
  const t = await template(node, address);
  const block = await node.chain.append(t.header, t.body, { now: node.now(), skipPow: true });
  node.log.info(`Faked new block #${block.height} to ${formatAddress(address)}`);
  return null;
}

/** Parses the `POST /chain/append` payload (http-api-details.md §5.7). */
function appendPayload(body: unknown): { height: number; header: Uint8Array; body: Uint8Array; worker: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail('EINV_ARGS', 'expected a JSON object {height, header, body, worker?}');
  const b = body as Record<string, unknown>;
  if (typeof b.height !== 'number' || !Number.isInteger(b.height) || b.height < 0 || b.height > 0xffffffff) fail('EINV_ARGS', 'height must be an unsigned 32-bit integer');
  if (typeof b.header !== 'string' || typeof b.body !== 'string') fail('EINV_ARGS', 'header and body must be hex strings');
  if (b.worker !== undefined && typeof b.worker !== 'string') fail('EINV_ARGS', 'worker must be a string');
  if (b.height === 0) fail('EZEROHEIGHT');
  const header = fromHexExact(b.header as string, 80) ?? fail('EINV_HEX', 'header must be 160 hex chars');
  const bodyBytes = fromHex(b.body as string) ?? fail('EINV_HEX', 'body must be hex');
  return { height: b.height as number, header, body: bodyBytes, worker: (b.worker as string | undefined) ?? '' };
}

export const chainRoutes = [
  route({
    method: 'GET', path: '/chain/head',
    response: named('ChainHeadSynced', obj({
      chainHead: obj({
        difficulty: num, hash: Hash, hashrate: u64, height: int, is_janushash: bool, pinHash: Hash, pinHeight: int,
        worksum: num, worksumHex: strMatching('^0x[0-9a-f]{64}$'),
      }),
      synced: bool,
    })),
    handler: ({ node }) => {
      const c = node.chain;
      const next = c.length + 1;
      const target = targetAt(c.params, next, expectedTarget(c.params, c));
      const pinHeight = Math.floor(c.length / PIN_STEP) * PIN_STEP;
      return {
        chainHead: {
          difficulty: targetDifficulty(target), hash: toHex(c.tipHash), hashrate: hashrateAt(c, c.length, HEAD_HASHRATE_WINDOW),
          height: c.length, is_janushash: targetKindAt(c.params, next) === 'V2', pinHash: toHex(c.hashAt(pinHeight)), pinHeight,
          worksum: worksumDouble(c.worksum), worksumHex: worksumHex(c.worksum),
        },
        synced: node.synced(),
      };
    },
  }),
  route({
    method: 'GET', path: '/chain/grid', response: named('Grid', obj({ headers: arr(hexStr(160)) })),
    handler: ({ node }) => ({ headers: gridHeights(node.chain.length).map((h) => toHex(node.chain.rawHeaderAt(h))) }),
  }),
  route({
    method: 'GET', path: '/chain/block/:height/hash', response: Hash,
    handler: ({ params, node }) => {
      const h = u32Param(params.height, 'height');
      if (h > node.chain.length) fail('ENOTFOUND', `no block at height ${h}: the chain has ${node.chain.length}`);
      return toHex(node.chain.hashAt(h));
    },
  }),
  route({
    method: 'GET', path: '/chain/mine/:account',
    response: named('MiningTask', obj({
      blockReward: CoinAmount, body: hexStr(), difficulty: num, header: hexStr(160), height: int,
      merklePrefix: hexStr(), synced: bool, testnet: bool,
    })),
    handler: async ({ params, node }) => {
      const miner = addressParam(params.account);
      const c = node.chain;
      // Miners expect the V2 body layout; the reference offers no templates below it on mainnet.
      if (c.params.name === 'mainnet' && c.length + 1 < NEW_BLOCK_STRUCTURE) fail('ENOTSYNCED', `mainnet templates start at height ${NEW_BLOCK_STRUCTURE}`);
      const t = await template(node, miner);
      return {
        blockReward: coinAmount(t.blockReward), body: toHex(t.body), difficulty: t.difficulty, header: toHex(t.header),
        height: t.height, merklePrefix: toHex(t.merklePrefix), synced: node.synced(), testnet: node.config.network !== 'mainnet',
      };
    },
  }),
  route({
    method: 'POST', path: '/chain/append', response: nul,
    handler: async ({ body, node }) => {
      const p = appendPayload(body);
      const worker = p.worker ? ` (worker ${p.worker})` : '';
      try {
        if (p.height !== node.chain.length + 1) fail('EMINEDDEPRECATED', `height ${p.height}, but the next block is ${node.chain.length + 1}`);
        await node.chain.append(p.header, p.body, { now: node.now() });
      } catch (e) {
        node.log.warn(`Rejected new block #${p.height}${worker}: ${(e as Error).message}`);
        throw e;
      }
      node.log.info(`Accepted new block #${p.height}${worker}`);
      return null;
    },
  }),
  route({
    method: 'GET', path: '/chain/txcache',
    response: named('TxCache', arr(obj({ accountId: u64, nonceId: int, pinHeight: int }))),
    handler: async ({ node }) => (await listTxIds(node.db)).map((id) => ({ accountId: id.accountId, nonceId: id.nonceId, pinHeight: id.pinHeight })),
  }),
  route({
    method: 'GET', path: '/chain/hashrate/:window', response: named('HashrateEstimate', obj({ estimate: u64, nBlocks: int })),
    handler: ({ params, node }) => {
      const n = u32Param(params.window, 'window');
      return { estimate: hashrateAt(node.chain, node.chain.length, n), nBlocks: n };
    },
  }),
  route({
    method: 'GET', path: '/chain/signed_snapshot',
    response: named('SignedSnapshot', obj({ priority: obj({ height: int, importance: int }), hash: Hash, signature: hexStr(130) })),
    // The best snapshot received from peers (consensus.md §5.6); none yet ⇒ 56.
    handler: ({ node }) => {
      const s = node.chain.snapshot ?? fail('ENOTFOUND', 'no signed snapshot received');
      return { priority: { height: s.height, importance: s.importance }, hash: toHex(s.hash), signature: toHex(s.signature) };
    },
  }),
  route({
    method: 'GET', path: '/debug/fakemine', response: null,
    handler: ({ node }) => fakemine(node, FAKEMINE_BURN_ADDRESS),
  }),
  route({
    method: 'GET', path: '/debug/fakemine/:address', response: null,
    handler: ({ params, node }) => fakemine(node, addressParam(params.address)),
  }),
  route({
    method: 'GET', path: '/debug/rollback', response: null,
    handler: async ({ node }) => {
      const b = await node.chain.rollback();
      node.log.info(`Rolled back block #${b.height}`);
      return null;
    },
  }),
];
