// Order entries, per-market order lists and the Market (http-api.md "Order entry", "Market";
// exchange.md §5.3, §8.8). Buys list coin amounts (8 decimals, proposal P4), sells asset amounts;
// at most 100 orders per side, best first.
import { COIN_DECIMALS } from '../../core/amount.js';
import { toHex } from '../../core/hex.js';
import type { MarketMatch } from '../../dex/matching.js';
import type { PoolState } from '../../kernel/pool.js';
import { priceView } from '../../kernel/price.js';
import type { Asset } from '../../state/assets.js';
import { LIQUIDITY_DECIMALS } from '../../state/tokens.js';
import type { ListedOrder, Sides } from '../order_book.js';
import { arr, bool, hexStr, named, obj, oneOf, type Infer } from '../schema.js';
import { BaseQuote, CoinAmount, TokenAmount, baseQuote, coinAmount, tokenAmount } from './amount.js';
import { AssetRef, assetRef } from './asset.js';
import { Price } from './price.js';

/** Orders listed per side (exchange.md §8.8). */
export const ORDERS_PER_SIDE = 100;

export const OrderEntry = named(
  'OrderEntry',
  obj({
    amount: TokenAmount,
    filled: TokenAmount,
    inMempool: bool,
    limit: Price,
    txHash: hexStr(64),
  }),
);

const marketOrderFields = { baseAsset: AssetRef, coinToAssetSwaps: arr(OrderEntry), assetToCoinSwaps: arr(OrderEntry) };

export const MarketOrders = named('MarketOrders', obj(marketOrderFields));

export const Market = named(
  'Market',
  obj({
    ...marketOrderFields,
    liquidityPool: obj({ asset: TokenAmount, coin: CoinAmount, shares: TokenAmount }),
    match: obj({ filled: BaseQuote, toPool: obj({ amount: oneOf(TokenAmount, CoinAmount), isQuote: bool }) }),
  }),
);

function orderEntry(o: ListedOrder, a: Asset): Infer<typeof OrderEntry> {
  const decimals = o.isBuy ? COIN_DECIMALS : a.decimals;
  return {
    amount: tokenAmount(o.amount, decimals),
    filled: tokenAmount(o.filled, decimals),
    inMempool: o.inMempool,
    limit: priceView(o.limit, a.decimals),
    txHash: toHex(o.txHash),
  };
}

/** `{baseAsset, coinToAssetSwaps, assetToCoinSwaps}` of sides already in priority order. */
export function marketOrdersView(a: Asset, s: Sides): Infer<typeof MarketOrders> {
  return {
    baseAsset: assetRef(a),
    coinToAssetSwaps: s.buys.slice(0, ORDERS_PER_SIDE).map((o) => orderEntry(o, a)),
    assetToCoinSwaps: s.sells.slice(0, ORDERS_PER_SIDE).map((o) => orderEntry(o, a)),
  };
}

export function marketView(a: Asset, s: Sides, pool: PoolState, m: MarketMatch): Infer<typeof Market> {
  return {
    ...marketOrdersView(a, s),
    liquidityPool: { asset: tokenAmount(pool.base, a.decimals), coin: coinAmount(pool.quote), shares: tokenAmount(pool.shares, LIQUIDITY_DECIMALS) },
    match: {
      filled: baseQuote(m.filled.base, m.filled.quote, a.decimals),
      // http-api.md: a coin amount when the quote side goes to the pool, else an asset amount.
      toPool: { amount: m.toPool.isQuote ? coinAmount(m.toPool.amount) : tokenAmount(m.toPool.amount, a.decimals), isQuote: m.toPool.isQuote },
    },
  };
}
