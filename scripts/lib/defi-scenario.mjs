// The exchange differential's scenario (scripts/defi-diff.mjs): what the generator reads of the chain
// (snapshot) and the transactions it builds from that (generate), with the coverage table of the
// scenario's kinds. Every input is a parameter: the accounts, the assets and the sent transactions
// (the runner's, which it updates as blocks are mined), the seeded randomness and the project's
// asset-name code; the same seed and the same answers give the same transactions.
import { big } from './exact-json.mjs';
import { isqrt, priceBytes, rawOfPrice } from './transactions.mjs';

/** The kinds the scenario must each have had in a block (or seen in a match) before it ends. */
export const COVERAGE_KINDS = [
  'coin',
  'coinNewAccount',
  'assetCreate',
  'assetTransfer',
  'sharesTransfer',
  'buy',
  'sell',
  'crossBook',
  'crossPool',
  'partialFill',
  'ordersInOneBlock',
  'cancelResting',
  'cancelFilled',
  'depositFirst',
  'depositMore',
  'withdraw',
];
const I63 = (1n << 63n) - 1n;

/**
 * The scenario over `accounts` ({sk, raw, address, known}), `assets` ({hash, name, decimals, supply,
 * rows}), `sent` (txHash → the runner's record of a submitted transaction) with the seeded randomness
 * `random` (scripts/lib/nodes.mjs seededRandom), the run's `seed` (a letter of each asset name) and
 * `assetNameBytes` (ts/core/transaction.ts). Returns { coverage (kind → count, the runner adds what
 * blocks show), snapshot, generate }.
 */
export function defiScenario({ accounts, assets, sent, random, seed, assetNameBytes }) {
  const { rnd, rint, pick, chance, rbig } = random;
  const coverage = Object.fromEntries(COVERAGE_KINDS.map((k) => [k, 0]));
  /** A random share in [lo, hi] (fractions) of x. */
  const part = (x, lo, hi) => (x * BigInt(Math.floor((lo + rnd() * (hi - lo)) * 1e6))) / 1000000n;
  let nameCounter = 0;

  /**
   * What the generator knows, read from our node (both nodes agree on it unless a DIFF was printed):
   * `read(path)` is the `data` of our node's answer to GET path, or undefined.
   */
  async function snapshot(read) {
    const st = { coin: [], asset: [], shares: [], orders: [], markets: [], partial: new Set() };
    await Promise.all(
      accounts.map(async (a, i) => {
        const c = await read(`/account/${a.address}/wart_balance`);
        const w = c?.wart ?? c?.coin;
        st.coin[i] = w ? big(w.total.E8) - big(w.locked.E8) - big(w.mempool.E8) : 0n;
        st.asset[i] = [];
        st.shares[i] = [];
        await Promise.all(
          assets.map(async (as, j) => {
            for (const [kind, arr] of [
              ['asset', st.asset[i]],
              ['liquidity', st.shares[i]],
            ]) {
              const b = (await read(`/account/${a.address}/balance/${kind}:${as.hash}`))?.balance;
              arr[j] = b ? big(b.total.u64) - big(b.locked.u64) - big(b.mempool.u64) : 0n;
              if (kind === 'asset' && b && big(b.total.u64) > 0n) as.rows.add(i);
            }
          }),
        );
        const oo = await read(`/account/${a.address}/open_orders`);
        st.orders[i] = [];
        for (const m of Array.isArray(oo) ? oo : []) {
          const j = assets.findIndex((x) => x.hash === m.baseAsset?.hash);
          for (const o of [...(m.wartToAssetSwaps ?? []), ...(m.assetToWartSwaps ?? [])]) {
            if (o.inMempool) continue;
            st.orders[i].push(o.txHash);
            if (big(o.filled.u64) > 0n && big(o.filled.u64) < big(o.amount.u64)) {
              st.partial.add(j);
              coverage.partialFill++;
            }
          }
        }
      }),
    );
    await Promise.all(
      assets.map(async (as, j) => {
        const m = await read(`/dex/market/${as.hash}`);
        const pool = m?.liquidityPool;
        const base = pool ? big(pool.asset.u64) : 0n,
          quote = pool ? big(pool.wart.E8) : 0n,
          shares = pool ? big(pool.shares.u64) : 0n;
        const bids = (m?.wartToAssetSwaps ?? []).map((o) => rawOfPrice(Buffer.from(o.limit.hex, 'hex')));
        const asks = (m?.assetToWartSwaps ?? []).map((o) => rawOfPrice(Buffer.from(o.limit.hex, 'hex')));
        st.markets[j] = { base, quote, shares, bids, asks };
      }),
    );
    return st;
  }

  /**
   * Builds one transaction of a kind feasible now (preferring kinds not yet covered), updating the
   * snapshot for what it spends. Returns { kind, payload, from } or null.
   *
   * The scenario keeps out of the states in which the reference aborts or cannot build a block
   * (docs/reference-differences.md, "Consensus"; our node refuses such blocks with EREFABORT and such
   * transactions at admission, so they would only show what is already known):
   * - orders only on an asset with a pool holding both sides (a bid on an empty or one-sided pool
   *   fills for 0 units), and bids only from accounts that have held the asset (a 0 credit to an
   *   account without a row of the token invalidates the block);
   * - the limit orders of one block on one asset (a partly filled new order of a later token section
   *   aborts the reference);
   * - no new order on an asset while one of its resting orders is partly filled (the reference counts
   *   that order's whole amount at its level and aborts or overfills); such an order is canceled first;
   * - deposits that mint shares and withdrawals that pay out both sides, with a margin (a deposit
   *   minting 0 shares aborts; a 0 payout of a token the account never held invalidates the block);
   * - asset supplies below 2^63 (a balance of 2^63 or more aborts the reference when read back);
   * - one transaction per account and asset in a block: the reference's mempool files an order under
   *   its asset whichever token it locks, and when a block lowers an account's free balance of the
   *   asset it drops that account's pending entries of the asset in fee order and asserts that the
   *   asset's reservation ends with the last one, which a buy (locking coin) after a sell or transfer
   *   breaks: the process aborts (mempool.cpp:307) right after appending the block.
   */
  function generate(st, batch) {
    const fee = st.fee;
    const n = accounts.length;
    const withCoin = (min) => [...Array(n).keys()].filter((i) => st.coin[i] >= min + fee);
    const holders = (arr, j) => [...Array(n).keys()].filter((i) => (arr[i]?.[j] ?? 0n) > 0n);
    const others = (i) => [...Array(n).keys()].filter((k) => k !== i);
    const poolOk = (j) => st.markets[j].base > 0n && st.markets[j].quote > 0n;
    // One transaction per (account, asset) in a block: see the comment above.
    const untouched = (i, j) => !batch.some((b) => b.from === i && b.asset === j);
    const orderAsset = batch.find((b) => b.payload.type === 'limitSwap')?.asset;
    // A partly filled resting order is canceled before anything else trades on its asset.
    const partialCancel = () => {
      for (let i = 0; i < n; i++) {
        if (st.coin[i] < fee) continue;
        for (const h of st.orders[i]) {
          const o = sent.get(h);
          if (!o || !st.partial.has(o.asset) || batch.some((b) => b.cancels === h)) continue;
          st.coin[i] -= fee;
          return { kind: 'cancelResting', from: i, cancels: h, payload: { type: 'cancelation', cancelHeight: o.pinHeight, cancelNonceId: o.nonceId } };
        }
      }
      return null;
    };
    const gens = {
      coin: () => {
        const f = withCoin(200000n);
        if (!f.length) return null;
        const i = pick(f);
        const newAcc = [...Array(n).keys()].find((k) => !accounts[k].known);
        const to = newAcc !== undefined && newAcc !== i && chance(0.5) ? newAcc : pick(others(i));
        const amount = rbig(1n, st.coin[i] - fee) / (chance(0.5) ? 10n : 3n) + 1n;
        st.coin[i] -= amount + fee;
        return { kind: accounts[to].known ? 'coin' : 'coinNewAccount', from: i, to, payload: { type: 'coinTransfer', toAddress: accounts[to].raw, amount } };
      },
      assetCreate: () => {
        if (assets.length + batch.filter((b) => b.kind === 'assetCreate').length >= 4) return null;
        const f = withCoin(0n);
        if (!f.length) return null;
        const i = pick(f);
        const decimals = pick([0, 1, 2, 3, 4, 6, 8, 8, 12, 18]);
        let supply;
        // The reference keeps balances in signed 64-bit columns: a balance of 2^63 or more is written,
        // but reading it back aborts the process. So the largest supply here is 2^63 − 1 (printed exactly).
        if (decimals === 0 && chance(0.3)) supply = I63;
        else if (decimals === 18) supply = BigInt(rint(1, 9)) * 10n ** 18n;
        else supply = BigInt(rint(1000, 5000000)) * 10n ** BigInt(decimals);
        const letter = 'ABCDEFGHJKMNPQRSTUVWXYZ'[rint(0, 22)];
        const name = `${letter}${String.fromCharCode(65 + (seed % 26))}${(nameCounter++).toString(36).toUpperCase()}`.slice(0, 5);
        st.coin[i] -= fee;
        return {
          kind: 'assetCreate',
          from: i,
          name,
          decimals,
          supply,
          payload: { type: 'assetCreation', supply, precision: decimals, name: assetNameBytes(name) },
        };
      },
      assetTransfer: () => tokenTransfer(false),
      sharesTransfer: () => tokenTransfer(true),
      buy: () => order(true),
      sell: () => order(false),
      cancelResting: () => {
        const c = [];
        for (let i = 0; i < n; i++) if (st.coin[i] >= fee) for (const h of st.orders[i]) if (sent.has(h) && !batch.some((b) => b.cancels === h)) c.push([i, h]);
        if (!c.length) return null;
        const [i, h] = pick(c);
        st.coin[i] -= fee;
        const o = sent.get(h);
        return { kind: 'cancelResting', from: i, cancels: h, payload: { type: 'cancelation', cancelHeight: o.pinHeight, cancelNonceId: o.nonceId } };
      },
      cancelFilled: () => {
        const c = [];
        for (const [h, o] of sent) if (o.type === 'limitSwap' && o.mined && !st.orders[o.from].includes(h) && st.coin[o.from] >= fee && !o.canceled) c.push(h);
        if (!c.length) return null;
        const h = pick(c),
          o = sent.get(h);
        st.coin[o.from] -= fee;
        o.canceled = true;
        return { kind: 'cancelFilled', from: o.from, cancels: h, payload: { type: 'cancelation', cancelHeight: o.pinHeight, cancelNonceId: o.nonceId } };
      },
      depositFirst: () => deposit(true),
      depositMore: () => deposit(false),
      withdraw: () => {
        const c = [];
        assets.forEach((as, j) =>
          holders(st.shares, j).forEach((i) => {
            if (st.coin[i] >= fee && poolOk(j) && untouched(i, j) && !batch.some((b) => b.asset === j && b.kind === 'withdraw')) c.push([i, j]);
          }),
        );
        if (!c.length) return null;
        const [i, j] = pick(c);
        const m = st.markets[j];
        let shares = chance(0.15) ? st.shares[i][j] : part(st.shares[i][j], 0.05, 0.7) || 1n;
        // Both payouts well above 0, and never the whole pool.
        if (shares >= m.shares) shares = m.shares / 2n;
        if ((shares * m.base) / m.shares < 100n || (shares * m.quote) / m.shares < 100n) return null;
        st.shares[i][j] -= shares;
        st.coin[i] -= fee;
        return { kind: 'withdraw', from: i, asset: j, payload: { type: 'liquidityWithdrawal', assetHash: Buffer.from(assets[j].hash, 'hex'), shares } };
      },
    };
    function tokenTransfer(isLiquidity) {
      const arr = isLiquidity ? st.shares : st.asset;
      const c = [];
      assets.forEach((as, j) =>
        holders(arr, j).forEach((i) => {
          if (st.coin[i] >= fee && untouched(i, j)) c.push([i, j]);
        }),
      );
      if (!c.length) return null;
      const [i, j] = pick(c);
      const to = pick(others(i).filter((k) => accounts[k].known)); // a new account is made by a coin transfer
      if (to === undefined) return null;
      const amount = chance(0.1) ? arr[i][j] : part(arr[i][j], 0.01, 0.5) || 1n;
      arr[i][j] -= amount;
      st.coin[i] -= fee;
      return {
        kind: isLiquidity ? 'sharesTransfer' : 'assetTransfer',
        from: i,
        to,
        asset: j,
        payload: { type: 'tokenTransfer', assetHash: Buffer.from(assets[j].hash, 'hex'), isLiquidity, toAddress: accounts[to].raw, amount },
      };
    }
    function order(isBuy) {
      const c = [];
      assets.forEach((as, j) => {
        if (!poolOk(j) || st.partial.has(j) || (orderAsset !== undefined && orderAsset !== j)) return;
        for (let i = 0; i < n; i++) {
          if (!untouched(i, j)) continue;
          if (isBuy ? st.coin[i] >= fee + 100000n && as.rows.has(i) : st.asset[i][j] > 0n && st.coin[i] >= fee) c.push([i, j]);
        }
      });
      if (!c.length) return null;
      const [i, j] = pick(c);
      const m = st.markets[j],
        as = assets[j];
      // The reference price: the pool's; half to twice it, or across the best opposite order (the
      // pool is then moved to that order's price first: enough is spent to get there and beyond).
      const poolPrice = Number(m.quote) / Number(m.base);
      const best = isBuy ? Math.min(...m.asks) : Math.max(...m.bids);
      const crossing = Number.isFinite(best) && best > 0 && (isBuy ? best > poolPrice : best < poolPrice) && chance(coverage.crossBook ? 0.3 : 0.7);
      const raw = crossing ? (isBuy ? best * (1 + rnd() * 0.3) : best * (1 - rnd() * 0.3)) : poolPrice * 2 ** (rnd() * 2 - 1);
      const limit = priceBytes(raw);
      // What moves the pool (x·y = k) from its price to the limit: quote·(√(limit/price) − 1) coin for a buy,
      // base·(√(price/limit) − 1) units for a sell; a crossing order brings half as much again.
      const toLimit = (reserve, ratio) => BigInt(Math.floor(Number(reserve) * Math.max(0, Math.sqrt(ratio) - 1) * 1.5));
      let amount;
      if (isBuy) {
        amount = part(st.coin[i] - fee, 0.02, 0.35) || 1n;
        if (crossing) {
          const need = toLimit(m.quote, rawOfPrice(limit) / poolPrice) + 1n;
          amount = need < st.coin[i] - fee ? need : st.coin[i] - fee;
        }
        st.coin[i] -= amount + fee;
      } else {
        amount = chance(0.1) ? st.asset[i][j] : part(st.asset[i][j], 0.01, 0.4) || 1n;
        if (crossing) {
          const need = toLimit(m.base, poolPrice / rawOfPrice(limit)) + 1n;
          amount = need < st.asset[i][j] ? need : st.asset[i][j];
        }
        st.asset[i][j] -= amount;
        st.coin[i] -= fee;
      }
      (isBuy ? m.bids : m.asks).push(rawOfPrice(limit));
      return { kind: isBuy ? 'buy' : 'sell', from: i, asset: j, payload: { type: 'limitSwap', assetHash: Buffer.from(as.hash, 'hex'), isBuy, amount, limit } };
    }
    function deposit(first) {
      const c = [];
      assets.forEach((as, j) => {
        const empty = st.markets[j].base === 0n && st.markets[j].quote === 0n;
        if (empty !== first || batch.some((b) => b.asset === j && (b.kind === 'depositFirst' || b.kind === 'withdraw'))) return;
        holders(st.asset, j).forEach((i) => {
          if (st.coin[i] >= fee + 1000000n && untouched(i, j)) c.push([i, j]);
        });
      });
      if (!c.length) return null;
      const [i, j] = pick(c);
      const m = st.markets[j];
      const base = part(st.asset[i][j], 0.05, 0.5) || 1n;
      let quote;
      if (!first && chance(0.7))
        quote = (base * m.quote) / m.base; // about the pool's ratio
      else quote = part(st.coin[i] - fee, 0.05, 0.4);
      if (quote > st.coin[i] - fee) quote = st.coin[i] - fee;
      // Shares minted, well above 0: sqrt of the product at least 10^4 for a first deposit, at least
      // 1 % of the pool's shares for a later one (other transactions of the block move the pool a little).
      if (
        first
          ? isqrt(base * quote) < 10000n
          : m.shares === 0n || (m.shares * isqrt((m.base + base) * (m.quote + quote))) / isqrt(m.base * m.quote) - m.shares < m.shares / 100n + 1n
      )
        return null;
      st.asset[i][j] -= base;
      st.coin[i] -= quote + fee;
      if (first) {
        m.base = base;
        m.quote = quote;
        m.shares = isqrt(base * quote);
      }
      return {
        kind: first ? 'depositFirst' : 'depositMore',
        from: i,
        asset: j,
        payload: { type: 'liquidityDeposit', assetHash: Buffer.from(assets[j].hash, 'hex'), base, quote },
      };
    }
    /**
     * Until orders have crossed each other in a match: a sell a little below the pool's price and, from
     * another account in the same block, a buy a little above it worth as much; the block's match fills
     * both against each other (and the pool takes the rest).
     */
    function crossPair() {
      const sell = batch.find((b) => b.crossPair);
      if (sell) {
        const j = sell.asset;
        const buyers = [...Array(n).keys()].filter((i) => i !== sell.from && untouched(i, j) && assets[j].rows.has(i) && st.coin[i] >= fee + 100000n);
        if (!buyers.length) return null;
        const i = pick(buyers);
        const amount = sell.value < st.coin[i] - fee ? sell.value : st.coin[i] - fee;
        st.coin[i] -= amount + fee;
        const limit = priceBytes(sell.poolPrice * 1.1);
        return { kind: 'buy', from: i, asset: j, payload: { type: 'limitSwap', assetHash: Buffer.from(assets[j].hash, 'hex'), isBuy: true, amount, limit } };
      }
      if (batch.some((b) => b.payload.type === 'limitSwap')) return null;
      const c = [];
      assets.forEach((as, j) => {
        if (!poolOk(j) || st.partial.has(j)) return;
        for (let i = 0; i < n; i++) if (untouched(i, j) && st.asset[i][j] > 0n && st.coin[i] >= fee) c.push([i, j]);
      });
      if (!c.length) return null;
      const [i, j] = pick(c);
      const m = st.markets[j];
      const amount = part(st.asset[i][j], 0.05, 0.3) || 1n;
      const value = (amount * m.quote) / m.base;
      if (value < 100000n) return null;
      st.asset[i][j] -= amount;
      st.coin[i] -= fee;
      const poolPrice = Number(m.quote) / Number(m.base);
      return {
        kind: 'sell',
        from: i,
        asset: j,
        crossPair: true,
        value,
        poolPrice,
        payload: { type: 'limitSwap', assetHash: Buffer.from(assets[j].hash, 'hex'), isBuy: false, amount, limit: priceBytes(poolPrice * 0.9) },
      };
    }
    if (st.partial.size) {
      const t = partialCancel();
      if (t) return t;
    }
    if (!coverage.crossBook && (batch.some((b) => b.crossPair) || chance(0.5))) {
      const t = crossPair();
      if (t) return t;
    }
    // Uncovered kinds first, then weighted random kinds.
    const weights = {
      coin: 3,
      assetCreate: assets.length < 2 ? 4 : 0.4,
      assetTransfer: 2,
      sharesTransfer: 1.2,
      buy: 5,
      sell: 5,
      cancelResting: 1.5,
      cancelFilled: 0.8,
      depositFirst: 3,
      depositMore: 1.5,
      withdraw: 1.2,
    };
    const uncovered = Object.keys(gens).filter((k) => coverage[k] === 0 && !batch.some((b) => b.kind === k));
    for (const k of uncovered.sort(() => rnd() - 0.5))
      if (chance(0.6)) {
        const r = gens[k]();
        if (r) return r;
      }
    for (let tries = 0; tries < 12; tries++) {
      const t = gens[random.weighted(weights)]();
      if (t) return t;
    }
    return null;
  }

  return { coverage, snapshot, generate };
}
