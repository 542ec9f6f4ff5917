// What `balance`, `history` and `orders` print, read from the node's account routes (http-api.md
// "Accounts", "Assets and exchange"). An account can hold only the tokens its history names
// (transfers in and out, orders, matches, deposits, withdrawals, creations), so `balance` walks
// the history once to find them, then asks the balance of each. Routes and shapes are those of
// the node's API generation (node_api.ts); amounts whose text the 0.10 reference prints wrongly are
// written here from their integers.
import { COIN_DECIMALS, formatUnits } from '../core/amount.js';
import { priceDecimal, priceFromHex } from '../kernel/price.js';
import type { Entry, History, NodeApi } from './node_api.js';

type Amount = { str: string };

/**
 * "Results have history ids below it": the newest page. 2^63 − 1, not the largest u64: the 0.10
 * reference answers no results for ids ≥ 2^63 (test/vectors/reference-0.10/README.md §5.6).
 */
const NEWEST = '9223372036854775807';
const COIN_SPEC = 'asset:' + '0'.repeat(64);
/** Pool shares (liquidity tokens) have 8 decimals (exchange.md §3). */
const SHARE_DECIMALS = 8;

/** A page of history; an address the chain has never seen has an empty one. */
export function historyPage(api: NodeApi, address: string, before: string = NEWEST): Promise<History> {
  return api.history(address, before);
}

/**
 * The entries of a page, newest first, with their type and block height: by height, then by
 * history id; where a generation gives no ids (0.8), the later in its block first.
 */
function entries(page: History): { type: string; height: number; e: Entry }[] {
  const out: { type: string; height: number; e: Entry; at: number }[] = [];
  for (const b of page.perBlock) {
    for (const [type, v] of Object.entries(b.body)) {
      for (const e of v === null ? [] : Array.isArray(v) ? v : [v]) out.push({ type, height: Number(b.height), e, at: out.length });
    }
  }
  const rank = (x: (typeof out)[number]) => (x.e.historyId === null ? BigInt(x.at) : BigInt(x.e.historyId));
  return out.sort((a, b) => b.height - a.height || (rank(b) > rank(a) ? 1 : rank(b) < rank(a) ? -1 : 0));
}

/** The token specs `address`'s whole history names. */
async function tokensInHistory(api: NodeApi, address: string): Promise<Set<string>> {
  const specs = new Set<string>();
  let before = NEWEST;
  for (;;) {
    const page = await historyPage(api, address, before);
    if (page.perBlock.length === 0) return specs;
    for (const { type, e } of entries(page)) {
      const d = e.transaction.data;
      // Both tokens of the asset: the 0.10 reference prints a mined transfer of pool shares as one
      // of the asset (docs/reference-differences.md, share-transfers).
      if (type === 'tokenTransfer' || type === 'liquidityDeposit' || type === 'liquidityWithdrawal') {
        const hash = (type === 'tokenTransfer' ? d.asset : d.baseAsset).hash;
        specs.add(`asset:${hash}`);
        specs.add(`liquidity:${hash}`);
      } else if (type === 'limitSwap' || type === 'match') specs.add(`asset:${d.baseAsset.hash}`);
      else if (type === 'assetCreation') specs.add(`asset:${e.transaction.hash}`);
    }
    // Pages go strictly back in history ids; a node repeating itself ends the walk.
    if (BigInt(page.fromId) === 0n || BigInt(page.fromId) >= BigInt(before)) return specs;
    before = String(page.fromId);
  }
}

function balanceLine(name: string, b: { total: Amount; locked: Amount; mempool: Amount }, spec?: string): string {
  const extra = [b.locked.str !== '0' ? `locked in orders ${b.locked.str}` : '', b.mempool.str !== '0' ? `pending ${b.mempool.str}` : '']
    .filter(Boolean)
    .join(', ');
  return `${name.padEnd(6)} ${b.total.str.padStart(24)}${spec ? '  ' + spec : ''}${extra ? `  (${extra})` : ''}`;
}

/** The coin's balance, then each token's held (a generation without assets has only the coin). */
export async function balanceLines(api: NodeApi, address: string): Promise<string[]> {
  const lines = [`address ${address}`, balanceLine('WART', await api.coinBalance(address))];
  if (!api.generation.exchange) return lines;
  for (const spec of [...(await tokensInHistory(api, address))].sort()) {
    if (spec === COIN_SPEC) continue;
    const { balance, token } = await api.tokenBalance(address, spec);
    if (BigInt(balance.total.u64) === 0n && BigInt(balance.mempool.u64) === 0n) continue;
    lines.push(balanceLine(spec.startsWith('liquidity:') ? `${token.name}-LP` : token.name, balance, spec));
  }
  return lines;
}

/** A limit price as its exact decimal (the API's `doubleAdjusted` is a binary float). */
function priceText(limit: { hex: string }, decimals: number): string {
  const p = priceFromHex(limit.hex);
  return p ? priceDecimal(p, decimals) : limit.hex;
}

/**
 * An order's amount from its integer: coin (8 decimals) for a buy, the asset for a sell. The 0.10
 * reference prints buy amounts with the asset's decimals in places (reference-differences.md,
 * buy-amounts); the integers are right everywhere.
 */
function orderAmount(v: bigint, o: { buy: boolean; baseAsset: { decimals: number } }): string {
  return formatUnits(v, o.buy ? COIN_DECIMALS : Number(o.baseAsset.decimals));
}

/** One line per history entry: height, history id, type, what happened, transaction hash. */
/**
 * What the history tells of the orders' state besides the entries: the orders a block canceled, and
 * (asked only when an order's `remaining` is not known) what is open of each open order now.
 */
type OrderStates = { canceled: Set<string>; openNow: Map<string, bigint> | null };

function describe(type: string, e: Entry, me: string, states: OrderStates): string {
  const t = e.transaction,
    d = t.data,
    p = t.processed;
  const outgoing = t.signedCommon?.originAddress === me;
  const fee = t.signedCommon && outgoing ? `, fee ${t.signedCommon.fee.str}` : '';
  const lp = (a: { name: string }) => `${a.name}-LP`;
  switch (type) {
    case 'reward':
      return `mining reward ${d.amount.str} WART`;
    case 'coinTransfer':
      return outgoing ? `sent ${d.amount.str} WART to ${d.toAddress}${fee}` : `received ${d.amount.str} WART from ${t.signedCommon!.originAddress}`;
    case 'tokenTransfer': {
      // From the integer: the 0.10 reference prints a transfer of pool shares with the asset's
      // decimals (reference-differences.md, share-transfers), in the mempool too.
      const name = d.isLiquidity ? lp(d.asset) : d.asset.name;
      const amount = formatUnits(BigInt(d.amount.u64), d.isLiquidity ? SHARE_DECIMALS : Number(d.asset.decimals));
      return outgoing ? `sent ${amount} ${name} to ${d.toAddress}${fee}` : `received ${amount} ${name} from ${t.signedCommon!.originAddress}`;
    }
    case 'limitSwap': {
      // `remaining` is what is open now: 0 once the order is filled or canceled. The 0.10 reference
      // sometimes prints uninitialised memory there, marked by an empty `str` (reference-differences.md,
      // uninitialised-remaining): then the account's open orders tell it (not among them: 0).
      const left = !p ? null : p.remaining.str !== '' ? BigInt(p.remaining.u64) : states.openNow ? (states.openNow.get(t.hash) ?? 0n) : null;
      const state =
        left !== null && left > 0n
          ? `, open ${orderAmount(left, d)}`
          : states.canceled.has(t.hash)
            ? ', canceled'
            : left === 0n
              ? ', closed (filled or canceled)'
              : '';
      return `${d.buy ? 'buy' : 'sell'} order: ${orderAmount(BigInt(d.amount.u64), d)} ${d.buy ? 'WART' : d.baseAsset.name} at ${priceText(d.limit, d.baseAsset.decimals)} WART/${d.baseAsset.name}${state}${fee}`;
    }
    case 'match':
      return `trade in ${d.baseAsset.name}: ${d.buySwaps.length} buy and ${d.sellSwaps.length} sell fills`;
    case 'liquidityDeposit':
      return `deposited ${d.deposited.base.str} ${d.baseAsset.name} and ${d.deposited.quote.str} WART${p ? ` for ${formatUnits(BigInt(p.sharesReceived.u64), SHARE_DECIMALS)} ${lp(d.baseAsset)}` : ''}${fee}`;
    case 'liquidityWithdrawal':
      return `withdrew ${d.sharesRedeemed.str} ${lp(d.baseAsset)}${p ? ` for ${p.received.base.str} ${d.baseAsset.name} and ${p.received.quote.str} WART` : ''}${fee}`;
    case 'cancelation':
      return `cancel of (pin ${d.cancelTxid.pinHeight}, nonce ${d.cancelTxid.nonceId})${p ? (p.canceledTxHash ? `: canceled ${p.canceledTxHash}` : ': nothing to cancel') : ''}${fee}`;
    case 'assetCreation':
      return `created asset ${d.name}, supply ${d.supply.str}${p ? `, id ${p.assetId}` : ''}${fee}`;
    default:
      return type;
  }
}

const HEADER = `${'height'.padStart(7)}  ${'id'.padStart(7)}  ${'type'.padEnd(19)}  what  transaction`;
const line = (height: string, id: string, type: string, what: string, hash: string) =>
  `${height.padStart(7)}  ${id.padStart(7)}  ${type.padEnd(19)}  ${what}  ${hash}`;

/**
 * `history`: a header, the mempool's transactions from or to the address (first page only), then
 * a page of mined entries, newest first, and the command for the next page when there is one.
 */
export async function historyText(api: NodeApi, me: string, before?: string): Promise<string[]> {
  const page = await historyPage(api, me, before);
  const pending =
    before !== undefined ? [] : (await api.mempool()).filter((m) => m.transaction.signedCommon?.originAddress === me || m.transaction.data.toAddress === me);
  const mined = entries(page);
  if (mined.length === 0 && pending.length === 0) return [before === undefined ? 'no history' : `no entries before id ${before}`];
  const states: OrderStates = { canceled: new Set(mined.map(({ e }) => e.transaction.processed?.canceledTxHash).filter(Boolean)), openNow: null };
  if (mined.some(({ type, e }) => type === 'limitSwap' && e.transaction.processed?.remaining.str === '')) {
    states.openNow = new Map();
    for (const m of await api.openOrders(me))
      for (const o of [...m.coinToAssetSwaps, ...m.assetToCoinSwaps])
        if (!o.inMempool) states.openNow.set(o.txHash, BigInt(o.amount.u64) - BigInt(o.filled.u64));
  }
  const lines = [HEADER];
  for (const m of pending)
    lines.push(line('pending', '-', m.type, describe(m.type, { historyId: null, transaction: m.transaction }, me, states), m.transaction.hash));
  for (const { type, height, e } of mined)
    lines.push(line(String(height), e.historyId === null ? '-' : String(e.historyId), type, describe(type, e, me, states), e.transaction.hash));
  // Ids are global: a fromId above 1 says nothing about this account's older entries, so ask.
  const fromId = String(page.fromId);
  if (mined.length > 0 && BigInt(fromId) > 1n && (await historyPage(api, me, fromId)).perBlock.length > 0)
    lines.push(`older entries: history --before ${fromId}`);
  return lines;
}

export async function orderLines(api: NodeApi, address: string): Promise<string[]> {
  const lines: string[] = [];
  for (const m of await api.openOrders(address)) {
    const a = m.baseAsset;
    for (const [buy, orders] of [
      [true, m.coinToAssetSwaps],
      [false, m.assetToCoinSwaps],
    ] as const) {
      for (const o of orders) {
        const amount = (v: number | bigint) => orderAmount(BigInt(v), { buy, baseAsset: a });
        lines.push(
          `${(buy ? 'buy' : 'sell').padEnd(4)} ${a.name.padEnd(5)} ${amount(o.amount.u64)} ${buy ? 'WART' : a.name} at ${priceText(o.limit, a.decimals)} WART/${a.name}, ` +
            `filled ${amount(o.filled.u64)}${o.inMempool ? ' (in mempool)' : ''}  ${o.txHash}`,
        );
      }
    }
  }
  return lines.length ? lines : ['no open orders'];
}
