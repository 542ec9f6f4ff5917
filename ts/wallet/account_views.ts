// What `balance`, `history` and `orders` print, read from the node's account routes (http-api.md
// "Accounts", "Assets and exchange"). An account can hold only the tokens its history names
// (transfers in and out, orders, matches, deposits, withdrawals, creations), so `balance` walks
// the history once to find them, then asks the balance of each.
import { ERRORS } from '../core/errors.js';
import { priceDecimal, priceFromHex } from '../kernel/price.js';
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
    .filter(Boolean)
    .join(', ');
  return `${name.padEnd(6)} ${b.total.str.padStart(24)}${spec ? '  ' + spec : ''}${extra ? `  (${extra})` : ''}`;
}

export async function balanceLines(node: NodeClient, address: string): Promise<string[]> {
  const coin = await node.get<{ coin: { total: Amount; locked: Amount; mempool: Amount } }>(`/account/${address}/coin_balance`);
  const lines = [`address ${address}`, balanceLine('WART', coin.coin)];
  for (const spec of [...(await tokensInHistory(node, address))].sort()) {
    if (spec === COIN_SPEC) continue;
    const { balance, token } = await tokenBalance(node, address, spec);
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

/** One line per history entry: height, history id, type, what happened, transaction hash. */
function describe(type: string, e: Entry, me: string, canceled: Set<string>): string {
  const t = e.transaction,
    d = t.data,
    p = t.processed;
  const outgoing = t.signedCommon !== undefined && t.signedCommon.originAddress === me;
  const fee = t.signedCommon && outgoing ? `, fee ${t.signedCommon.fee.str}` : '';
  const lp = (a: { name: string }) => `${a.name}-LP`;
  switch (type) {
    case 'reward':
      return `mining reward ${d.amount.str} WART`;
    case 'coinTransfer':
      return outgoing ? `sent ${d.amount.str} WART to ${d.toAddress}${fee}` : `received ${d.amount.str} WART from ${t.signedCommon!.originAddress}`;
    case 'tokenTransfer': {
      const name = d.isLiquidity ? lp(d.asset) : d.asset.name;
      return outgoing ? `sent ${d.amount.str} ${name} to ${d.toAddress}${fee}` : `received ${d.amount.str} ${name} from ${t.signedCommon!.originAddress}`;
    }
    case 'limitSwap': {
      // `remaining` is what is open now: 0 once the order is filled or canceled.
      const state = !p ? '' : p.remaining.str !== '0' ? `, open ${p.remaining.str}` : canceled.has(t.hash) ? ', canceled' : ', closed (filled or canceled)';
      return `${d.buy ? 'buy' : 'sell'} order: ${d.amount.str} ${d.buy ? 'WART' : d.baseAsset.name} at ${priceText(d.limit, d.baseAsset.decimals)} WART/${d.baseAsset.name}${state}${fee}`;
    }
    case 'match':
      return `trade in ${d.baseAsset.name}: ${d.buySwaps.length} buy and ${d.sellSwaps.length} sell fills`;
    case 'liquidityDeposit':
      return `deposited ${d.deposited.base.str} ${d.baseAsset.name} and ${d.deposited.quote.str} WART${p ? ` for ${p.sharesReceived.str} ${lp(d.baseAsset)}` : ''}${fee}`;
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

type MempoolEntry = { type: string; transaction: Entry['transaction'] & { data: { toAddress?: string } } };

/**
 * `history`: a header, the mempool's transactions from or to the address (first page only), then
 * a page of mined entries, newest first, and the command for the next page when there is one.
 */
export async function historyText(node: NodeClient, me: string, before?: string): Promise<string[]> {
  const page = await historyPage(node, me, before);
  const pending =
    before !== undefined
      ? []
      : (await node.get<MempoolEntry[]>('/transaction/mempool')).filter(
          (m) => m.transaction.signedCommon?.originAddress === me || m.transaction.data.toAddress === me,
        );
  const mined = entries(page);
  if (mined.length === 0 && pending.length === 0) return [before === undefined ? 'no history' : `no entries before id ${before}`];
  const canceled = new Set(mined.map(({ e }) => e.transaction.processed?.canceledTxHash).filter(Boolean));
  const lines = [HEADER];
  for (const m of pending)
    lines.push(line('pending', '-', m.type, describe(m.type, { historyId: 0, transaction: m.transaction }, me, canceled), m.transaction.hash));
  for (const { type, height, e } of mined) lines.push(line(String(height), String(e.historyId), type, describe(type, e, me, canceled), e.transaction.hash));
  // Ids are global: a fromId above 1 says nothing about this account's older entries, so ask.
  const fromId = String(page.fromId);
  if (mined.length > 0 && BigInt(fromId) > 1n && (await historyPage(node, me, fromId)).perBlock.length > 0)
    lines.push(`older entries: history --before ${fromId}`);
  return lines;
}

type Order = { amount: Amount; filled: Amount; inMempool: boolean; limit: { doubleAdjusted: number; hex: string }; txHash: string };
type MarketOrders = { baseAsset: { name: string; hash: string; decimals: number }; coinToAssetSwaps: Order[]; assetToCoinSwaps: Order[] };

export async function orderLines(node: NodeClient, address: string): Promise<string[]> {
  const markets = await node.get<MarketOrders[]>(`/account/${address}/open_orders`);
  const lines: string[] = [];
  for (const m of markets) {
    const sides: [string, string, Order[]][] = [
      ['buy', 'WART', m.coinToAssetSwaps],
      ['sell', m.baseAsset.name, m.assetToCoinSwaps],
    ];
    for (const [side, unit, orders] of sides) {
      for (const o of orders) {
        lines.push(
          `${side.padEnd(4)} ${m.baseAsset.name.padEnd(5)} ${o.amount.str} ${unit} at ${priceText(o.limit, m.baseAsset.decimals)} WART/${m.baseAsset.name}, ` +
            `filled ${o.filled.str}${o.inMempool ? ' (in mempool)' : ''}  ${o.txHash}`,
        );
      }
    }
  }
  return lines.length ? lines : ['no open orders'];
}
