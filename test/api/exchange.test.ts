// The asset, exchange, token-balance and market-chart routes against a started regtest node
// serving the chain of exchange_scenario.ts (every response is checked against its declared
// schema by the test client): /asset/complete, /asset/lookup/:asset, /dex/market/:asset,
// /account/:account/open_orders[/:asset], /account/:account/balance/:tokenspec,
// /account/richlist/:tokenspec, /chart/candles/:asset/:interval, /chart/trades/:asset; token-era
// entries in blocks, lookups and history; then pending token-era transactions added over
// POST /transaction/add, seen in the mempool, the market and the balances, and mined.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAddress } from '../../ts/core/address.js';
import { concatBytes, toHex } from '../../ts/core/hex.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { sha256 } from '../../ts/kernel/hash.js';
import { priceFromBytes, priceView } from '../../ts/kernel/price.js';
import type { PoolState } from '../../ts/kernel/pool.js';
import { decodeMatch, type MatchRecord } from '../../ts/state/history.js';
import { balanceOf, dbReader, type Balance } from '../../ts/state/ledger.js';
import { accountOrders, type OpenOrder } from '../../ts/state/orders.js';
import { poolOf } from '../../ts/state/pools.js';
import { COIN_TOKEN_ID, assetTokenId, liquidityTokenId } from '../../ts/state/tokens.js';
import { historyKey, u64Value } from '../../ts/store/keys.js';
import { decodeHistoryEntry } from '../../ts/state/history.js';
import type { TransactionPayload } from '../../ts/core/transaction.js';
import { formatUnits } from '../../ts/core/amount.js';
import { ratioDecimal } from '../../ts/core/ratio.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { requestJson, signRequest, type TestWallet } from '../helpers/wallet.js';
import { FEE_CODE, FEE_E8, exchangeScenario, limitOf, type ExchangeScenario } from '../state/exchange_scenario.js';
import { expectError } from './expect_error.js';
import { writeJson } from '../../ts/api/json.js';
import { parseJsonExact } from '../helpers/json.js';

let sc: ExchangeScenario;
let node: TestNode;
/** Ledger facts read in process before the node took the data directory over. */
const facts = {
  balances: new Map<string, Balance>(),
  pool: null as unknown as PoolState,
  orders: new Map<bigint, OpenOrder[]>(),
  match: null as unknown as MatchRecord,
  matchHash: '',
  matchId: 0n,
  timestamp8: 0,
};
const bal = (w: TestWallet, token: bigint) => facts.balances.get(`${toHex(w.address)}:${token}`)!;

beforeAll(async () => {
  sc = await exchangeScenario();
  const s = dbReader(sc.db);
  for (const w of [sc.A, sc.B, sc.M]) {
    const id = sc.ids[w === sc.A ? 'A' : w === sc.B ? 'B' : 'M'];
    for (const t of [COIN_TOKEN_ID, assetTokenId(sc.tok.id), liquidityTokenId(sc.tok.id), assetTokenId(sc.zed.id)]) {
      facts.balances.set(`${toHex(w.address)}:${t}`, await balanceOf(s, id, t));
    }
    facts.orders.set(id, await accountOrders(sc.db, id));
  }
  facts.pool = await poolOf(s, sc.tok.id);
  const matchHash = sha256(concatBytes(sc.chain.hashAt(8), u64Value(sc.tok.id)));
  facts.matchHash = toHex(matchHash);
  const first8 = (await sc.chain.block(8))!.firstHistoryId;
  facts.matchId = first8 + 5n;
  const entry = decodeHistoryEntry((await sc.db.get(historyKey(facts.matchId)))!);
  expect(toHex(entry.hash)).toBe(facts.matchHash);
  facts.match = decodeMatch(entry.payload);
  facts.timestamp8 = sc.chain.timestampAt(8);
  await sc.close();
  node = await startNode(['--regtest'], sc.dir);
});
afterAll(async () => {
  await node?.stop();
  await removeDir(sc.dir);
});

const data = (path: string) => node.data(path);
/** An expected value as the node's JSON reader returns it (integers up to 2^53 are numbers). */
const j = (v: unknown): any => parseJsonExact(writeJson(v));
const coin = (e8: bigint) => j({ str: e8 === 0n ? '0' : (Number(e8) / 1e8).toFixed(8), E8: e8 });
const units = (v: bigint, decimals: number) => {
  if (v === 0n) return '0';
  if (decimals === 0) return `${v}.`;
  const s = v.toString().padStart(decimals + 1, '0');
  return `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
};
const tok = (u64: bigint, decimals: number) => j({ str: units(u64, decimals), u64, decimals });
const assetSpec = () => `asset:${toHex(sc.tok.hash)}`;
const lqSpec = () => `liquidity:${toHex(sc.tok.hash)}`;
const COIN_SPEC = `asset:${'0'.repeat(64)}`;
const addr = (w: TestWallet) => formatAddress(w.address);
const orderEntry = (o: OpenOrder) => ({
  amount: tok(o.amount, o.isBuy ? 8 : 2),
  filled: tok(o.filled, o.isBuy ? 8 : 2),
  inMempool: false,
  limit: priceView(priceFromBytes(o.limit)!, 2),
  txHash: toHex(o.txHash),
});

let nonce = 1000;
async function post(w: TestWallet, payload: TransactionPayload): Promise<string> {
  const req = signRequest(w.sk, payload, { pinHeight: 0, pinHash: REGTEST.genesisHash, nonceId: ++nonce, feeCode: FEE_CODE });
  const r = await node.post('/transaction/add', requestJson(req));
  expect(r.body.code, r.text).toBe(0);
  return r.body.data.txHash;
}

describe('GET /asset/complete and /asset/lookup/:asset', () => {
  const record = () =>
    j({
      id: sc.tok.id,
      hash: toHex(sc.tok.hash),
      name: 'TOK',
      decimals: 2,
      height: 6,
      groupId: 2n * sc.tok.id + 1n,
      ownerAccountId: sc.ids.A,
      parentId: null,
      totalSupply: tok(1_000_000n, 2),
    });

  it('lists every asset in ascending id without prefixes, echoing them', async () => {
    const r = await data('/asset/complete');
    expect(r.namePrefix).toBe('');
    expect(r.hashPrefix).toBe('');
    expect(r.match.map((a: { name: string }) => a.name)).toEqual(['TOK', 'TOKEN', 'ZED']);
    expect(r.match[0]).toEqual(record());
    expect(Object.keys(r.match[0])).toEqual(['id', 'hash', 'name', 'decimals', 'height', 'groupId', 'ownerAccountId', 'parentId', 'totalSupply']);
    expect(r.match[2]).toMatchObject({ name: 'ZED', decimals: 0, ownerAccountId: Number(sc.ids.B), totalSupply: { str: '500', u64: 500, decimals: 0 } });
  });

  it('matches names case-insensitively as SQL LIKE prefixes, hashes by any hex prefix', async () => {
    const names = async (q: string) => (await data(`/asset/complete?${q}`)).match.map((a: { name: string }) => a.name);
    expect(await names('namePrefix=tok')).toEqual(['TOK', 'TOKEN']);
    expect(await names('namePrefix=TOKE')).toEqual(['TOKEN']);
    expect(await names('namePrefix=T_K')).toEqual(['TOK', 'TOKEN']);
    expect(await names('namePrefix=%25N')).toEqual(['TOKEN']);
    expect(await names('namePrefix=q')).toEqual([]);
    const prefix = toHex(sc.zed.hash).slice(0, 5).toUpperCase();
    expect(await names(`hashPrefix=${prefix}`)).toContain('ZED');
    expect(await names(`hashPrefix=${toHex(sc.zed.hash)}`)).toEqual(['ZED']);
    expect(await names(`namePrefix=TOK&hashPrefix=${toHex(sc.zed.hash)}`)).toEqual([]);
    expect(await names('hashPrefix=xyz')).toEqual([]);
    expect(await data('/asset/complete?namePrefix=to&hashPrefix=AB')).toMatchObject({ namePrefix: 'to', hashPrefix: 'AB' });
  });

  it('looks an asset up by id or hash (either case)', async () => {
    expect(await data(`/asset/lookup/${sc.tok.id}`)).toEqual(record());
    expect(await data(`/asset/lookup/${toHex(sc.tok.hash)}`)).toEqual(record());
    expect(await data(`/asset/lookup/${toHex(sc.tok.hash).toUpperCase()}`)).toEqual(record());
    expect(await data(`/asset/lookup/000${sc.zed.id}`)).toMatchObject({ name: 'ZED' });
  });

  it('refuses unknown and malformed assets', async () => {
    await expectError(node, '/asset/lookup/99', 186);
    await expectError(node, `/asset/lookup/${sc.ids.A}`, 186); // an account id is no asset id
    await expectError(node, `/asset/lookup/${'ab'.repeat(32)}`, 185);
    for (const bad of ['abc', '-4', '18446744073709551616', 'ab'.repeat(31)]) await expectError(node, `/asset/lookup/${bad}`, 94);
    await expectError(node, `/asset/lookup/${'g'.repeat(64)}`, 300);
  });
});

describe('GET /dex/market/:asset and /account/:account/open_orders', () => {
  it("shows the open orders best first, the pool and the next block's match: none, with no order pending", async () => {
    const m = await data(`/dex/market/${sc.tok.id}`);
    const buy = facts.orders.get(sc.ids.A)!.filter((o) => o.isBuy);
    const ask = facts.orders.get(sc.ids.B)!.filter((o) => !o.isBuy);
    expect(buy.length).toBe(1); // the partly filled buy (the bid was canceled)
    expect(ask.length).toBe(1); // the ask (the sell was filled completely)
    expect(m).toEqual(
      j({
        baseAsset: { hash: toHex(sc.tok.hash), id: sc.tok.id, name: 'TOK', decimals: 2 },
        coinToAssetSwaps: buy.map(orderEntry),
        assetToCoinSwaps: ask.map(orderEntry),
        liquidityPool: { asset: tok(facts.pool.base, 2), coin: coin(facts.pool.quote), shares: tok(facts.pool.shares, 8) },
        match: { filled: { base: tok(0n, 2), quote: coin(0n) }, toPool: { amount: tok(0n, 2), isQuote: false } },
      }),
    );
    expect(m.coinToAssetSwaps[0].filled.u64).toBeGreaterThan(0n);
    expect(Object.keys(m)).toEqual(['baseAsset', 'coinToAssetSwaps', 'assetToCoinSwaps', 'liquidityPool', 'match']);
    expect(await data(`/dex/market/${toHex(sc.tok.hash)}`)).toEqual(m);
  });

  it('shows an empty market for an asset without orders or pool', async () => {
    expect(await data(`/dex/market/${sc.zed.id}`)).toEqual(
      j({
        baseAsset: { hash: toHex(sc.zed.hash), id: sc.zed.id, name: 'ZED', decimals: 0 },
        coinToAssetSwaps: [],
        assetToCoinSwaps: [],
        liquidityPool: { asset: tok(0n, 0), coin: coin(0n), shares: tok(0n, 8) },
        match: { filled: { base: tok(0n, 0), quote: coin(0n) }, toPool: { amount: tok(0n, 0), isQuote: false } },
      }),
    );
  });

  it("lists an account's open orders per market", async () => {
    const ref = j({ hash: toHex(sc.tok.hash), id: sc.tok.id, name: 'TOK', decimals: 2 });
    const a = facts.orders.get(sc.ids.A)!,
      b = facts.orders.get(sc.ids.B)!;
    expect(await data(`/account/${addr(sc.A)}/open_orders`)).toEqual([{ baseAsset: ref, coinToAssetSwaps: a.map(orderEntry), assetToCoinSwaps: [] }]);
    expect(await data(`/account/${sc.ids.B}/open_orders`)).toEqual([{ baseAsset: ref, coinToAssetSwaps: [], assetToCoinSwaps: b.map(orderEntry) }]);
    expect(await data(`/account/${addr(sc.M)}/open_orders`)).toEqual([]);
    expect(await data(`/account/${formatAddress(new Uint8Array(20).fill(7))}/open_orders`)).toEqual([]);
    expect(await data(`/account/${addr(sc.B)}/open_orders/${toHex(sc.tok.hash)}`)).toEqual({
      baseAsset: ref,
      coinToAssetSwaps: [],
      assetToCoinSwaps: b.map(orderEntry),
    });
    expect(await data(`/account/${addr(sc.B)}/open_orders/${sc.zed.id}`)).toMatchObject({ coinToAssetSwaps: [], assetToCoinSwaps: [] });
  });

  it('refuses unknown and malformed assets and accounts', async () => {
    await expectError(node, '/dex/market/99', 186);
    await expectError(node, `/dex/market/${'cd'.repeat(32)}`, 185);
    await expectError(node, '/dex/market/x', 94);
    await expectError(node, `/account/${addr(sc.A)}/open_orders/99`, 186);
    await expectError(node, `/account/${addr(sc.A)}/open_orders/${'cd'.repeat(32)}`, 185);
    await expectError(node, `/account/${addr(sc.A).slice(0, 40)}ffffffff/open_orders`, 71);
    await expectError(node, '/account/777/open_orders', 56);
    await expectError(node, '/account/x/open_orders/1', 94);
  });
});

describe('GET /account/:account/balance/:tokenspec', () => {
  const token = (id: bigint, spec: string, name: string, decimals: number) => j({ id, spec, name, decimals });

  it('reports an asset balance with the token and an empty lookup trace', async () => {
    const r = await data(`/account/${addr(sc.B)}/balance/${assetSpec()}`);
    const b = bal(sc.B, assetTokenId(sc.tok.id));
    expect(b.locked).toBe(5_000n); // the open ask
    expect(r).toEqual({
      account: j({ accountId: sc.ids.B, address: addr(sc.B) }),
      balance: { locked: tok(b.locked, 2), mempool: tok(0n, 2), total: tok(b.total, 2) },
      lookupTrace: { fails: [], snapshotHeight: null },
      token: token(assetTokenId(sc.tok.id), assetSpec(), 'TOK', 2),
    });
  });

  it('reports liquidity tokens with 8 decimals and the coin by its zero-hash spec', async () => {
    const lq = await data(`/account/${addr(sc.B)}/balance/${lqSpec()}`);
    expect(lq.balance.total).toEqual(tok(500_000n, 8));
    expect(lq.token).toEqual(token(liquidityTokenId(sc.tok.id), lqSpec(), 'TOK', 8));
    const c = await data(`/account/${addr(sc.A)}/balance/${COIN_SPEC}`);
    const a = bal(sc.A, COIN_TOKEN_ID);
    expect(a.locked).toBeGreaterThan(0n); // the open buy
    expect(c.balance).toEqual({ locked: tok(a.locked, 8), mempool: tok(0n, 8), total: tok(a.total, 8) });
    expect(c.token).toEqual(token(0n, COIN_SPEC, 'WART', 8));
    const cb = await data(`/account/${addr(sc.A)}/coin_balance`);
    expect(BigInt(cb.coin.total.E8)).toBe(a.total);
  });

  it('accepts numeric token ids (exchange.md §1.1) and account ids', async () => {
    const byId = async (t: bigint) => data(`/account/${sc.ids.B}/balance/${t}`);
    expect(await byId(assetTokenId(sc.tok.id))).toEqual(await data(`/account/${addr(sc.B)}/balance/${assetSpec()}`));
    expect(await byId(liquidityTokenId(sc.tok.id))).toEqual(await data(`/account/${addr(sc.B)}/balance/${lqSpec()}`));
    expect((await byId(0n)).token).toEqual(token(0n, COIN_SPEC, 'WART', 8));
    const zed = await data(`/account/${addr(sc.A)}/balance/${assetTokenId(sc.zed.id)}`);
    expect(zed.balance.total).toEqual({ str: '7', u64: 7, decimals: 0 });
  });

  it('reports zeros and account: null for an address without an account, as the reference (details §7.1–7.2)', async () => {
    const nobody = formatAddress(new Uint8Array(20).fill(9));
    const zeros = { locked: tok(0n, 2), mempool: tok(0n, 2), total: tok(0n, 2) };
    // An address that never received anything, and an account id nobody has.
    for (const who of [nobody, '999999']) {
      expect(await data(`/account/${who}/balance/${assetSpec()}`)).toEqual({
        account: null,
        balance: zeros,
        lookupTrace: null,
        token: (await data(`/account/${addr(sc.A)}/balance/${assetSpec()}`)).token,
      });
      const c = await data(`/account/${who}/coin_balance`);
      expect(c).toEqual({ account: null, coin: { locked: { str: '0', E8: 0 }, mempool: { str: '0', E8: 0 }, total: { str: '0', E8: 0 } } });
    }
    // An account that exists has both.
    const b = await data(`/account/${addr(sc.B)}/balance/${assetSpec()}`);
    expect(b.account).toEqual({ accountId: Number(sc.ids.B), address: addr(sc.B) });
    expect(b.lookupTrace).toEqual({ fails: [], snapshotHeight: null });
  });

  it('refuses malformed specs (307), unknown assets (185) and token ids (131)', async () => {
    const h = toHex(sc.tok.hash);
    for (const bad of [
      'abc',
      '-1',
      '18446744073709551616',
      `foo:${h}`,
      `Asset:${h}`,
      `asset:${h.slice(1)}`,
      `asset:${h}0`,
      `asset:${'x'.repeat(64)}`,
      `liquidity:${h.slice(0, 62)}`,
    ]) {
      await expectError(node, `/account/${addr(sc.A)}/balance/${bad}`, 307);
    }
    await expectError(node, `/account/${addr(sc.A)}/balance/asset:${'ef'.repeat(32)}`, 185);
    await expectError(node, `/account/${addr(sc.A)}/balance/liquidity:${'ef'.repeat(32)}`, 185);
    await expectError(node, `/account/${addr(sc.A)}/balance/99`, 131);
    await expectError(node, `/account/zz/balance/${assetSpec()}`, 94);
    await expectError(node, `/account/${'zz'.repeat(24)}/balance/${assetSpec()}`, 71);
  });
});

describe('GET /account/richlist/:tokenspec', () => {
  it('lists holders by total, descending, with the token', async () => {
    const r = await data(`/account/richlist/${assetSpec()}`);
    const t = assetTokenId(sc.tok.id);
    const expected = [sc.A, sc.B]
      .map((w) => ({ address: addr(w), balance: tok(bal(w, t).total, 2) }))
      .sort((x, y) => (BigInt(x.balance.u64) > BigInt(y.balance.u64) ? -1 : 1));
    expect(r).toEqual(j({ richlist: expected, token: { id: t, spec: assetSpec(), name: 'TOK', decimals: 2 } }));
    const lq = await data(`/account/richlist/${lqSpec()}`);
    expect(lq.richlist).toEqual([
      { address: addr(sc.A), balance: tok(bal(sc.A, liquidityTokenId(sc.tok.id)).total, 8) },
      { address: addr(sc.B), balance: tok(500_000n, 8) },
    ]);
    expect(await data(`/account/richlist/${liquidityTokenId(sc.tok.id)}`)).toEqual(lq);
  });

  it('lists coin holders for the coin spec and token id 0', async () => {
    const r = await data(`/account/richlist/${COIN_SPEC}`);
    expect(r.token).toEqual({ id: 0, spec: COIN_SPEC, name: 'WART', decimals: 8 });
    const totals = r.richlist.map((e: { balance: { u64: bigint } }) => BigInt(e.balance.u64));
    expect(totals).toEqual([...totals].sort((x, y) => (x > y ? -1 : x < y ? 1 : 0)));
    expect(new Set(r.richlist.map((e: { address: string }) => e.address))).toEqual(new Set([addr(sc.A), addr(sc.B), addr(sc.M)]));
    for (const e of r.richlist) expect(e.balance.u64).toBe((await data(`/account/${e.address}/coin_balance`)).coin.total.E8);
    expect(await data('/account/richlist/0')).toEqual(r);
  });

  it('refuses unknown tokens (131) and malformed specs (307)', async () => {
    await expectError(node, `/account/richlist/asset:${'ef'.repeat(32)}`, 131);
    await expectError(node, '/account/richlist/99', 131);
    await expectError(node, '/account/richlist/x', 307);
    await expectError(node, `/account/richlist/token:${toHex(sc.tok.hash)}`, 307);
  });
});

describe('GET /chart/trades/:asset and /chart/candles/:asset/:interval', () => {
  /** exchange.md §11.1: the swaps of both sides summed, as exact decimal texts (TOK has 2 decimals). */
  const totals = () => {
    const swaps = [...facts.match.buySwaps, ...facts.match.sellSwaps];
    const base = swaps.reduce((t, s) => t + BigInt(s.base), 0n),
      quote = swaps.reduce((t, s) => t + BigInt(s.quote), 0n);
    return { base, quote, baseText: formatUnits(base, 2), quoteText: formatUnits(quote, 8) };
  };

  it('has one trade per matched block: [height, timestamp, base, quote], exact', async () => {
    const { baseText, quoteText } = totals();
    expect(await data(`/chart/trades/${sc.tok.id}`)).toEqual([[8, facts.timestamp8, baseText, quoteText]]);
    expect(await data(`/chart/trades/${toHex(sc.tok.hash)}?from=8&to=8`)).toEqual([[8, facts.timestamp8, baseText, quoteText]]);
    expect(await data(`/chart/trades/${sc.tok.id}?from=9`)).toEqual([]);
    expect(await data(`/chart/trades/${sc.tok.id}?to=7`)).toEqual([]);
    expect(await data(`/chart/trades/${sc.tok.id}?to=8&n=1`)).toHaveLength(1);
    expect(await data(`/chart/trades/${sc.tok.id}?n=0`)).toEqual([]);
    expect(await data(`/chart/trades/${sc.zed.id}`)).toEqual([]);
  });

  it('builds candles of 5m, 1h and 1d from the trades, prices divided out of the integers', async () => {
    const { base, quote, baseText, quoteText } = totals();
    // coin per whole unit: quote E8 · 10^2 / (base · 10^8), to 18 significant digits
    const p = ratioDecimal(quote * 100n, base * 100_000_000n, 18)!.text;
    expect(p).toMatch(/^0\.\d{18,}$/);
    for (const [name, s] of [
      ['5m', 300],
      ['1h', 3600],
      ['1d', 86400],
    ] as const) {
      const begin = Math.floor(facts.timestamp8 / s) * s;
      expect(await data(`/chart/candles/${sc.tok.id}/${name}`)).toEqual([[begin, 8, p, p, p, p, baseText, quoteText]]);
      expect(await data(`/chart/candles/${sc.tok.id}/${name}?from=${begin}&to=${begin}`)).toHaveLength(1);
      expect(await data(`/chart/candles/${sc.tok.id}/${name}?from=${begin + 1}`)).toEqual([]);
    }
    expect(await data(`/chart/candles/${sc.zed.id}/1h`)).toEqual([]);
  });

  it('refuses bad intervals, argument combinations, ranges and assets in the reference order', async () => {
    const t = `/chart/trades/${sc.tok.id}`,
      c = `/chart/candles/${sc.tok.id}`;
    for (const i of ['5M', '1H', '15m', '1w', '300', 'x']) await expectError(node, `${c}/${i}`, 320);
    await expectError(node, `${c}/2h?n=201`, 320);
    for (const base of [t, `${c}/5m`]) {
      await expectError(node, `${base}?n=201`, 322);
      await expectError(node, `${base}?from=1&to=2&n=201`, 322);
      await expectError(node, `${base}?from=1&to=2&n=5`, 321);
      await expectError(node, `${base}?from=9&to=2&n=5`, 321);
      await expectError(node, `${base}?from=9&to=8`, 323);
      for (const q of ['n=x', 'from=-1', 'to=1.5', 'n=18446744073709551616']) await expectError(node, `${base}?${q}`, 94);
    }
    await expectError(node, `${t}?from=0&to=201`, 322);
    expect(await data(`${t}?from=0&to=200`)).toHaveLength(1);
    await expectError(node, `${c}/5m?from=0&to=${201 * 300}`, 322);
    expect(await data(`${c}/5m?from=0&to=${201 * 300 - 1}`)).toEqual([]);
    await expectError(node, `${c}/1d?from=0&to=${201 * 86400}`, 322);
    await expectError(node, '/chart/trades/99', 186);
    await expectError(node, '/chart/candles/99/1h', 186);
    await expectError(node, `/chart/trades/${'ef'.repeat(32)}`, 185);
    await expectError(node, `/chart/candles/${'ef'.repeat(32)}/5m`, 185);
    await expectError(node, '/chart/trades/99?n=201', 322); // the query is checked before the asset
    await expectError(node, '/chart/trades/x', 94);
  });
});

describe('token-era entries in blocks, lookups and history', () => {
  it('shows every body key of a block with the exchange entries', async () => {
    const b8 = await data('/chain/block/8');
    expect(b8.body.limitSwap.map((e: { transaction: { hash: string } }) => e.transaction.hash)).toEqual(
      [sc.tx.sell, sc.tx.buy, sc.tx.bid, sc.tx.ask].map((t) => toHex(t.hash)),
    );
    expect(b8.body.match).toHaveLength(1);
    expect(b8.body.match[0].historyId).toBe(Number(facts.matchId));
    expect(b8.body.match[0].transaction.hash).toBe(facts.matchHash);
    const b9 = await data(`/chain/block/${toHex(sc.chain.hashAt(9))}`);
    expect(b9.body.cancelation[0].transaction.processed).toEqual({ canceledTxHash: toHex(sc.tx.bid.hash) });
    expect(b9.body.liquidityWithdrawal[0].transaction.data.sharesRedeemed).toEqual(tok(1_000_000n, 8));
    expect(b9.body.tokenTransfer[0].transaction.data.isLiquidity).toBe(true);
    const b6 = await data('/chain/block/6');
    expect(b6.body.assetCreation.map((e: { transaction: { processed: { assetId: bigint } } }) => e.transaction.processed.assetId)).toEqual(
      j([sc.tok.id, sc.token.id, sc.zed.id]),
    );
  });

  it('looks up a match by its derived hash and a limitSwap with its remaining', async () => {
    const m = await data(`/transaction/lookup/${facts.matchHash}`);
    expect(m).toMatchObject({
      confirmations: 2,
      type: 'match',
      mined: { historyId: Number(facts.matchId), block: { height: 8, hash: toHex(sc.chain.hashAt(8)), timestamp: facts.timestamp8 } },
    });
    expect(m.transaction.data.sellSwaps[0].swapped.base).toEqual(tok(10_000n, 2));
    const ask = await data(`/transaction/lookup/${toHex(sc.tx.ask.hash)}`);
    expect(ask).toMatchObject({ type: 'limitSwap', transaction: { processed: { remaining: tok(5_000n, 2) } } });
    const c = await data(`/transaction/lookup/${toHex(sc.tx.cancelNothing.hash)}`);
    expect(c).toMatchObject({ type: 'cancelation', transaction: { processed: { canceledTxHash: null } } });
  });

  it('lists the entries in /transaction/latest and in the account history of both sides', async () => {
    const latest = await data('/transaction/latest');
    expect(latest.perBlock.map((b: { height: number }) => b.height)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(latest.perBlock[7].body.match).toHaveLength(1);
    const hist = await data(`/account/${addr(sc.B)}/history/18446744073709551615`);
    const b8 = hist.perBlock.find((b: { height: number }) => b.height === 8);
    expect(b8.body.match[0].transaction.hash).toBe(facts.matchHash);
    expect(b8.body.reward).toBeNull();
    expect(b8.body.limitSwap).toHaveLength(2);
  });
});

describe('pending token-era transactions (POST /transaction/add), then mined', () => {
  let sellHash = '',
    buyHash = '';

  it('lists them in the mempool with their views; a lookup shows processed null', async () => {
    sellHash = await post(sc.B, { type: 'limitSwap', assetHash: sc.tok.hash, isBuy: false, amount: 2_000n, limit: limitOf('0.005', 2, 'ceil') });
    buyHash = await post(sc.A, { type: 'limitSwap', assetHash: sc.tok.hash, isBuy: true, amount: 10_000_000n, limit: limitOf('0.006', 2, 'floor') });
    const pool = await data('/transaction/mempool');
    expect(pool.map((e: { type: string; transaction: { hash: string } }) => [e.type, e.transaction.hash]).sort()).toEqual(
      [
        ['limitSwap', buyHash],
        ['limitSwap', sellHash],
      ].sort(),
    );
    const mine = await data(`/account/${addr(sc.B)}/mempool`);
    expect(mine).toHaveLength(1);
    expect(mine[0].transaction.data).toMatchObject({ amount: tok(2_000n, 2), buy: false });
    const l = await data(`/transaction/lookup/${sellHash}`);
    expect(l).toMatchObject({ confirmations: 0, mined: null, type: 'limitSwap', transaction: { processed: null, hash: sellHash } });
  });

  it('shows them in the market and open orders (inMempool, nothing filled, after on-chain orders at equal limits)', async () => {
    const m = await data(`/dex/market/${sc.tok.id}`);
    expect(m.assetToCoinSwaps.map((o: { txHash: string; inMempool: boolean }) => [o.txHash, o.inMempool])).toEqual([
      [sellHash, true],
      [toHex(sc.tx.ask.hash), false],
    ]);
    expect(m.coinToAssetSwaps.map((o: { txHash: string; inMempool: boolean }) => [o.txHash, o.inMempool])).toEqual([
      [toHex(sc.tx.buy.hash), false],
      [buyHash, true],
    ]);
    expect(m.assetToCoinSwaps[0]).toMatchObject({ amount: tok(2_000n, 2), filled: tok(0n, 2) });
    expect(m.match.filled.base.u64).toBeGreaterThan(0n); // the pending sell crosses the buys
    const a = await data(`/account/${addr(sc.A)}/open_orders/${sc.tok.id}`);
    expect(a.coinToAssetSwaps.map((o: { inMempool: boolean }) => o.inMempool)).toEqual([false, true]);
  });

  it("counts their reservations in the balances' mempool field", async () => {
    const b = await data(`/account/${addr(sc.B)}/balance/${assetSpec()}`);
    expect(b.balance.mempool).toEqual(tok(2_000n, 2));
    const a = await data(`/account/${addr(sc.A)}/balance/0`);
    expect(a.balance.mempool).toEqual(tok(10_000_000n + FEE_E8, 8));
  });

  it('after mining: processed filled in, a second trade, no mempool orders left', async () => {
    expect((await node.get(`/debug/fakemine/${addr(sc.M)}`)).body).toEqual({ code: 0 });
    const l = await data(`/transaction/lookup/${sellHash}`);
    expect(l).toMatchObject({ confirmations: 1, type: 'limitSwap', mined: { block: { height: 10 } } });
    expect(l.transaction.processed.remaining.decimals).toBe(2);
    expect(await data('/transaction/mempool')).toEqual([]);
    const m = await data(`/dex/market/${sc.tok.id}`);
    expect([...m.assetToCoinSwaps, ...m.coinToAssetSwaps].every((o: { inMempool: boolean }) => !o.inMempool)).toBe(true);
    const trades = await data(`/chart/trades/${sc.tok.id}`);
    expect(trades.map((t: number[]) => t[0])).toEqual([8, 10]);
    expect((await data(`/account/${addr(sc.B)}/balance/${assetSpec()}`)).balance.mempool).toEqual(tok(0n, 2));
  });
});
