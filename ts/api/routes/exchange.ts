// Assets and the exchange: /asset/complete, /asset/lookup/:asset, /dex/market/:asset,
// /account/:account/open_orders and /account/:account/open_orders/:asset (http-api.md "Assets and
// exchange"; http-api-details.md §6; exchange.md §2.5, §5.3, §8.8).
import { buildBook } from '../../dex/book.js';
import { previewMatch } from '../../dex/matching.js';
import { nextBlock } from '../../mining/next_block.js';
import { assetByHash, assetById, searchAssets, type Asset } from '../../state/assets.js';
import { dbReader } from '../../state/ledger.js';
import { toHex } from '../../core/hex.js';
import { route } from '../route.js';
import { accountParam, assetParam, resolveAccount, resolveAsset, type AccountParam } from '../params.js';
import { accountOrdersByAsset, accountSides, assetMarket, sides, type ListedOrder } from '../order_book.js';
import type { ReadView } from '../../chain/read_view.js';
import type { ReadServices } from '../services.js';
import { arr, named, obj, str } from '../schema.js';
import { AssetRecord, assetRecord } from '../views/asset.js';
import { Market, MarketOrders, marketOrdersView, marketView } from '../views/market.js';

/** `/asset/complete` lists at most this many assets (exchange.md §2.5). */
const ASSET_SEARCH_LIMIT = 100;

/** The account's open orders by asset id; an address without an account has none. */
async function ordersOf(node: ReadServices, view: ReadView, account: AccountParam): Promise<Map<bigint, ListedOrder[]>> {
  const a = await resolveAccount(view, account);
  if (a.accountId === null) return new Map();
  const s = dbReader(view.db);
  const assets = new Map<string, Asset | null>();
  return accountOrdersByAsset(view, node.mempool.pool.ofAccount(a.accountId), a.accountId, async (hash) => {
    const k = toHex(hash);
    if (!assets.has(k)) assets.set(k, await assetByHash(s, hash));
    return assets.get(k)!;
  });
}

export const exchangeRoutes = [
  route({
    method: 'GET',
    path: '/asset/complete',
    dependsOn: 'chain',
    doc: 'Assets whose name starts with `namePrefix` and whose hash starts with `hashPrefix` (query parameters, both optional).',
    response: named('AssetCompletion', obj({ namePrefix: str, hashPrefix: str, match: arr(AssetRecord) })),
    handler: async ({ query, view }) => {
      const namePrefix = query.namePrefix ?? '',
        hashPrefix = query.hashPrefix ?? '';
      const match = (await searchAssets(view.db, namePrefix, hashPrefix, ASSET_SEARCH_LIMIT)).map(assetRecord);
      return { namePrefix, hashPrefix, match };
    },
  }),
  route({
    method: 'GET',
    path: '/asset/lookup/:asset',
    dependsOn: 'chain',
    doc: "An asset's record: id, hash, name, decimals, creation height, owner, supply.",
    response: AssetRecord,
    handler: async ({ params, view }) => assetRecord(await resolveAsset(view, assetParam(params.asset))),
  }),
  route({
    method: 'GET',
    path: '/dex/market/:asset',
    dependsOn: 'chain+mempool',
    doc: "The market of an asset against the coin: the pool, the order book (mempool orders included) and `match`, what the next block's matching of the asset would do if it were the block this node would mine now: its template (the best-paying pending transactions the ledger accepts) applied to the ledger by the code that applies every block, so with the block's own order loading and cancelations, and no match at all unless the block carries a new order of the asset. Another miner's block, or transactions arriving first, can match otherwise. With `--api=0.10`, the reference's preview instead: the whole book (mempool orders included) cleared against the pool.",
    response: Market,
    handler: async ({ params, node, view, api }) => {
      const asset = await resolveAsset(view, assetParam(params.asset));
      const pending = node.mempool.pool.all();
      const { orders, pool } = await assetMarket(view, pending, asset);
      // `--api=0.10` sends what the reference computes (exchange.md §8.8): a clearing of the whole
      // book, mempool orders included, which no block runs.
      if (api === '0.10') return marketView(asset, sides(orders), pool, previewMatch(pool, buildBook(orders)));
      // One trial block per chain state and mempool, whatever market is asked for.
      const next = await view.memo(`next block ${node.mempool.version}`, () => nextBlock(view, view.db, pending, node.now()));
      return marketView(asset, sides(orders), pool, await next.match(asset.id));
    },
  }),
  route({
    method: 'GET',
    path: '/account/:account/open_orders',
    dependsOn: 'chain+mempool',
    doc: "An account's open orders, per asset (by asset id); each side lists the orders in blocks by transaction id (pinHeight, then nonceId), then the pending ones likewise.",
    response: arr(MarketOrders),
    handler: async ({ params, node, view }) => {
      const byAsset = await ordersOf(node, view, accountParam(params.account));
      const s = dbReader(view.db);
      const out = [];
      for (const assetId of [...byAsset.keys()].sort((a, b) => (a < b ? -1 : 1))) {
        const asset = await assetById(s, assetId);
        if (asset) out.push(marketOrdersView(asset, accountSides(byAsset.get(assetId)!)));
      }
      return out;
    },
  }),
  route({
    method: 'GET',
    path: '/account/:account/open_orders/:asset',
    dependsOn: 'chain+mempool',
    doc: "An account's open orders in one asset; each side lists the orders in blocks in the order they entered the book, then the pending ones by transaction id.",
    response: MarketOrders,
    handler: async ({ params, node, view }) => {
      const account = accountParam(params.account);
      const asset = await resolveAsset(view, assetParam(params.asset));
      const byAsset = await ordersOf(node, view, account);
      return marketOrdersView(asset, accountSides(byAsset.get(asset.id) ?? [], true));
    },
  }),
];
