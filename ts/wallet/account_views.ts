// What `balance`, `history` and `orders` print, read from the node's account routes (http-api.md
// "Accounts", "Assets and exchange"). An account can hold only the tokens its history names
// (transfers in and out, orders, matches, deposits, withdrawals, creations), so `balance` walks
// the history once to find them, then asks the balance of each.
import { ERRORS } from '../core/errors.js';
import { NodeRefusal, type NodeClient } from './node_client.js';
import { tokenBalance } from './assets.js';

type Amount = { str: string };
type Entry = { historyId: number | bigint; transaction: { hash: string; data: any; processed?: any; signedCommon?: { originAddress: string; fee: Amount } } };
type HistoryBlock = { height: number; body: Record<string, Entry | Entry[] | null> };
type History = { fromId: number | bigint; perBlock: HistoryBlock[] };

/** "Results have history ids below it": the largest u64 gives the newest page. */
const NEWEST = '18446744073709551615';
const COIN_SPEC = 'asset:' + '0'.repeat(64);

/** A page of history; an address the chain has never seen (ENOTFOUND) has an empty one. */
export async function historyPage(node: NodeClient, address: string, before: string = NEWEST): Promise<History> {
  try {
    return await node.get<History>(`/account/${address}/history/${before}`);
  } catch (e) {
    if (e instanceof NodeRefusal && e.code === ERRORS.ENOTFOUND[0]) return { fromId: 0, perBlock: [] };
    throw e;
  }
}

/** The entries of a page, newest first, with their type and block height. */
function entries(page: History): { type: string; height: number; e: Entry }[] {
  const out: { type: string; height: number; e: Entry }[] = [];
  for (const b of page.perBlock) {
    for (const [type, v] of Object.entries(b.body)) {
      for (const e of v === null ? [] : Array.isArray(v) ? v : [v]) out.push({ type, height: b.height, e });
    }
  }
  return out.sort((a, b) => (BigInt(b.e.historyId) > BigInt(a.e.historyId) ? 1 : -1));
}

/** The token specs `address`'s whole history names. */
async function tokensInHistory(node: NodeClient, address: string): Promise<Set<string>> {
  const specs = new Set<string>();
  let before = NEWEST;
  for (;;) {
    const page = await historyPage(node, address, before);
    if (page.perBlock.length === 0) return specs;
    for (const { type, e } of entries(page)) {
      const d = e.transaction.data;
      if (type === 'tokenTransfer') specs.add(d.tokenSpec);
      else if (type === 'liquidityDeposit' || type === 'liquidityWithdrawal') {
        specs.add(`asset:${d.baseAsset.hash}`);
        specs.add(`liquidity:${d.baseAsset.hash}`);
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
    .filter(Boolean).join(', ');
  return `${name.padEnd(6)} ${b.total.str.padStart(24)}${spec ? '  ' + spec : ''}${extra ? `  (${extra})` : ''}`;
}

export async function balanceLines(node: NodeClient, address: string): Promise<string[]> {
  const coin = await node.get<{ coin: { total: Amount; locked: Amount; mempool: Amount } }>(`/account/${address}/coin_balance`);
  const lines = [`address ${address}`, balanceLine('WART', coin.coin)];
  for (const spec of [...await tokensInHistory(node, address)].sort()) {
    if (spec === COIN_SPEC) continue;
    const { balance, token } = await tokenBalance(node, address, spec);
    if (BigInt(balance.total.u64) === 0n && BigInt(balance.mempool.u64) === 0n) continue;
    lines.push(balanceLine(spec.startsWith('liquidity:') ? `${token.name}-LP` : token.name, balance, spec));
  }
  return lines;
}

/** One line per history entry: height, history id, type, what happened, transaction hash. */
function describe(type: string, e: Entry, me: string): string {
  const t = e.transaction, d = t.data, p = t.processed;
  const outgoing = t.signedCommon !== undefined && t.signedCommon.originAddress === me;
  const fee = t.signedCommon && outgoing ? `, fee ${t.signedCommon.fee.str}` : '';
  const lp = (a: { name: string }) => `${a.name}-LP`;
  switch (type) {
    case 'reward': return `mining reward ${d.amount.str} WART`;
    case 'coinTransfer': return outgoing ? `sent ${d.amount.str} WART to ${d.toAddress}${fee}` : `received ${d.amount.str} WART from ${t.signedCommon!.originAddress}`;
    case 'tokenTransfer': {
      const name = d.isLiquidity ? lp(d.asset) : d.asset.name;
      return outgoing ? `sent ${d.amount.str} ${name} to ${d.toAddress}${fee}` : `received ${d.amount.str} ${name} from ${t.signedCommon!.originAddress}`;
    }
    case 'limitSwap':
      return `${d.buy ? 'buy' : 'sell'} order: ${d.amount.str} ${d.buy ? 'WART' : d.baseAsset.name} at ${d.limit.doubleAdjusted} WART/${d.baseAsset.name}` +
        `${p ? `, ${p.remaining.str} unfilled` : ''}${fee}`;
    case 'match': return `trade in ${d.baseAsset.name}: ${d.buySwaps.length} buy and ${d.sellSwaps.length} sell fills`;
    case 'liquidityDeposit':
      return `deposited ${d.deposited.base.str} ${d.baseAsset.name} and ${d.deposited.quote.str} WART${p ? ` for ${p.sharesReceived.str} ${lp(d.baseAsset)}` : ''}${fee}`;
    case 'liquidityWithdrawal':
      return `withdrew ${d.sharesRedeemed.str} ${lp(d.baseAsset)}${p ? ` for ${p.received.base.str} ${d.baseAsset.name} and ${p.received.quote.str} WART` : ''}${fee}`;
    case 'cancelation':
      return `cancel of (pin ${d.cancelTxid.pinHeight}, nonce ${d.cancelTxid.nonceId})${p ? (p.canceledTxHash ? `: canceled ${p.canceledTxHash}` : ': nothing to cancel') : ''}${fee}`;
    case 'assetCreation': return `created asset ${d.name}, supply ${d.supply.str}${p ? `, id ${p.assetId}` : ''}${fee}`;
    default: return type;
  }
}

export function historyLines(page: History, me: string): string[] {
  return entries(page).map(({ type, height, e }) => `${String(height).padStart(7)}  ${String(e.historyId).padStart(7)}  ${type.padEnd(19)}  ${describe(type, e, me)}  ${e.transaction.hash}`);
}

type Order = { amount: Amount; filled: Amount; inMempool: boolean; limit: { doubleAdjusted: number; hex: string }; txHash: string };
type MarketOrders = { baseAsset: { name: string; hash: string }; coinToAssetSwaps: Order[]; assetToCoinSwaps: Order[] };

export async function orderLines(node: NodeClient, address: string): Promise<string[]> {
  const markets = await node.get<MarketOrders[]>(`/account/${address}/open_orders`);
  const lines: string[] = [];
  for (const m of markets) {
    const sides: [string, string, Order[]][] = [['buy', 'WART', m.coinToAssetSwaps], ['sell', m.baseAsset.name, m.assetToCoinSwaps]];
    for (const [side, unit, orders] of sides) {
      for (const o of orders) {
        lines.push(`${side.padEnd(4)} ${m.baseAsset.name.padEnd(5)} ${o.amount.str} ${unit} at ${o.limit.doubleAdjusted} WART/${m.baseAsset.name}, ` +
          `filled ${o.filled.str}${o.inMempool ? ' (in mempool)' : ''}  ${o.txHash}`);
      }
    }
  }
  return lines.length ? lines : ['no open orders'];
}
