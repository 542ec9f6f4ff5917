// The transactions of a busy network (scripts/network.mjs): coin transfers among many funded
// accounts (steady, and in bursts of thousands), and exchange traffic of every kind from accounts
// that each keep at most one transaction pending.
//
// The exchange traffic keeps out of the states in which the reference 0.10.3 aborts
// (docs/reference-differences.md, "Consensus"; scripts/defi-diff.mjs's generate() explains each):
// - one pending transaction per exchange account, so no block holds two of one account on one asset
//   and the reference's mempool never drops an account's entries of an asset out of order;
// - limit orders only on the first asset with a pool holding both sides, each either small enough
//   to fill completely against the pool at once (limit twice beyond the pool's price) or far from
//   it (a quarter or four times the price) so that it rests unfilled: no order is ever partly filled;
// - buys only from accounts that hold the asset, so no fill credits an account without a row of it;
// - deposits that mint shares with a margin, withdrawals that pay out both sides with a margin and
//   never drain a pool, asset supplies below 2^63.
import { big } from './exact-json.mjs';
import { isqrt, priceBytes } from './transactions.mjs';

/** A random share in [lo, hi] (fractions) of the bigint x. */
export const part = (rnd, x, lo, hi) => (x * BigInt(Math.floor((lo + rnd() * (hi - lo)) * 1e6))) / 1000000n;

/** The free amount (total − locked − pending) of a balance answer's {total, locked, mempool} in `unit` (E8 or u64). */
export const freeOf = (b, unit) => (b ? big(b.total[unit]) - big(b.locked[unit]) - big(b.mempool[unit]) : 0n);

/**
 * One exchange account's next transaction, from its fresh view, or null.
 * `view`: {coin, asset: Map(hash → free units), shares: Map(hash → free), resting: [{hash, pinHeight, nonceId}]}
 * `ctx`: {fee, assets: [{hash}] (mined, oldest first), markets: Map(hash → {base, quote, shares}),
 *         busyPools: Set(hash) (a first deposit or withdrawal pending), creating (pending creations),
 *         peers: [raw addresses of the other exchange accounts], nameSeq, maxAssets}
 */
export function exchangeAction(R, view, ctx) {
  const { rnd, chance, pick, rint } = R;
  const fee = ctx.fee;
  if (view.coin < 3n * fee) return null;
  const coin = view.coin - fee;
  const held = (m) => [...m].filter(([, v]) => v > 0n).map(([h]) => h);
  const poolOk = (h) => {
    const m = ctx.markets.get(h);
    return m && m.base > 0n && m.quote > 0n && m.shares > 0n;
  };
  const hashBytes = (h) => Buffer.from(h, 'hex');
  const orderAsset = ctx.assets.find((a) => poolOk(a.hash))?.hash;
  const gens = {
    assetCreation: () => {
      if (ctx.assets.length + ctx.creating >= ctx.maxAssets) return null;
      const decimals = pick([0, 2, 4, 6, 8]);
      const supply = BigInt(rint(1000, 5_000_000)) * 10n ** BigInt(decimals);
      const name = `N${(ctx.nameSeq++).toString(36).toUpperCase()}`.slice(0, 5);
      return { kind: 'assetCreate', name, payload: { type: 'assetCreation', supply, precision: decimals, name } };
    },
    assetTransfer: () => tokenTransfer(false),
    sharesTransfer: () => tokenTransfer(true),
    depositFirst: () => {
      const c = held(view.asset).filter((h) => !ctx.markets.get(h)?.base && !ctx.busyPools.has(h));
      if (!c.length || coin < 1_000_000n) return null;
      const h = pick(c);
      const base = part(rnd, view.asset.get(h), 0.05, 0.5);
      const quote = part(rnd, coin, 0.05, 0.3);
      if (isqrt(base * quote) < 10_000n) return null;
      return { kind: 'depositFirst', asset: h, pool: h, payload: { type: 'liquidityDeposit', assetHash: hashBytes(h), base, quote } };
    },
    depositMore: () => {
      const c = held(view.asset).filter((h) => poolOk(h) && !ctx.busyPools.has(h));
      if (!c.length) return null;
      const h = pick(c);
      const m = ctx.markets.get(h);
      const base = part(rnd, view.asset.get(h), 0.02, 0.3);
      const quote = (base * m.quote) / m.base;
      if (quote > coin || quote === 0n) return null;
      const minted = (m.shares * isqrt((m.base + base) * (m.quote + quote))) / isqrt(m.base * m.quote) - m.shares;
      if (minted < m.shares / 100n + 1n) return null;
      return { kind: 'depositMore', asset: h, payload: { type: 'liquidityDeposit', assetHash: hashBytes(h), base, quote } };
    },
    withdraw: () => {
      const c = held(view.shares).filter((h) => poolOk(h) && !ctx.busyPools.has(h));
      if (!c.length) return null;
      const h = pick(c);
      const m = ctx.markets.get(h);
      let shares = part(rnd, view.shares.get(h), 0.05, 0.7) || 1n;
      if (shares > m.shares / 2n) shares = m.shares / 2n;
      if ((shares * m.base) / m.shares < 100n || (shares * m.quote) / m.shares < 100n) return null;
      return { kind: 'withdraw', asset: h, pool: h, payload: { type: 'liquidityWithdrawal', assetHash: hashBytes(h), shares } };
    },
    fillBuy: () => order(true, true),
    fillSell: () => order(false, true),
    restBuy: () => order(true, false),
    restSell: () => order(false, false),
    cancel: () => {
      if (!view.resting.length) return null;
      const o = pick(view.resting);
      return { kind: 'cancel', cancels: o.hash, payload: { type: 'cancelation', cancelHeight: o.pinHeight, cancelNonceId: o.nonceId } };
    },
  };
  function tokenTransfer(isLiquidity) {
    const m = isLiquidity ? view.shares : view.asset;
    const c = held(m);
    if (!c.length || !ctx.peers.length) return null;
    // Mostly the order asset: the more accounts hold it, the more of them trade it.
    const h = !isLiquidity && orderAsset && c.includes(orderAsset) && chance(0.6) ? orderAsset : pick(c);
    const amount = chance(0.1) ? m.get(h) : part(rnd, m.get(h), 0.01, 0.4) || 1n;
    return {
      kind: isLiquidity ? 'sharesTransfer' : 'assetTransfer',
      asset: h,
      payload: { type: 'tokenTransfer', assetHash: hashBytes(h), isLiquidity, toAddress: pick(ctx.peers), amount },
    };
  }
  function order(isBuy, fill) {
    if (!orderAsset) return null;
    const h = orderAsset;
    const m = ctx.markets.get(h);
    const units = view.asset.get(h) ?? 0n;
    if (units === 0n) return null; // a buy credits the asset: only accounts holding a row of it buy
    if (!fill && view.resting.length >= 4) return null;
    const price = Number(m.quote) / Number(m.base); // coin E8 per unit
    const limitPrice = fill ? (isBuy ? price * 2 : price / 2) : isBuy ? price / 4 : price * 4;
    let amount;
    if (isBuy) {
      // coin spent; a fill order moves the pool by well under 1 % (no partial fill even with its block's others)
      amount = fill ? m.quote / 2000n : part(rnd, coin, 0.01, 0.08);
      if (amount > coin) amount = coin;
      if (Number(amount) / price < 100) return null;
    } else {
      amount = fill ? m.base / 2000n : part(rnd, units, 0.01, 0.2);
      if (amount > units) amount = units;
      if (Number(amount) * price < 10_000) return null;
    }
    if (amount <= 0n) return null;
    return {
      kind: `${fill ? 'fill' : 'rest'}${isBuy ? 'Buy' : 'Sell'}`,
      asset: h,
      payload: { type: 'limitSwap', assetHash: hashBytes(h), isBuy, amount, limit: priceBytes(limitPrice) },
    };
  }
  const weights = {
    assetCreation: ctx.assets.length + ctx.creating < 2 ? 6 : 0.3,
    assetTransfer: 2,
    sharesTransfer: 1,
    depositFirst: 4,
    depositMore: 1.5,
    withdraw: 1,
    fillBuy: 4,
    fillSell: 4,
    restBuy: 2.5,
    restSell: 2.5,
    cancel: 3,
  };
  for (let tries = 0; tries < 10; tries++) {
    const t = gens[R.weighted(weights)]();
    if (t) return t;
  }
  return null;
}
