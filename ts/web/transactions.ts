// Transactions and exchange actions as people read them: one line for tables (block, address
// history, mempool) and label–value rows for a transaction's own page. Shapes are the contract's
// (docs/api.md Types): a block body's entries, TransactionLookup and MempoolEntry transactions.
import { HISTORY_KINDS, type HistoryKind } from '../core/history_kinds.js';
import { COIN, amountStr, priceStr, ratioPrice } from './format.js';
import { addressLink, amount, assetLabel, blockLink, el, marketLink, txLink, type Child } from './dom.js';

export const TYPE_LABEL: Record<string, string> = {
  reward: 'Mining reward',
  coinTransfer: 'Coin transfer',
  tokenTransfer: 'Token transfer',
  limitSwap: 'Limit order',
  match: 'Trades (match)',
  liquidityDeposit: 'Liquidity deposit',
  liquidityWithdrawal: 'Liquidity withdrawal',
  assetCreation: 'Asset creation',
  cancelation: 'Cancelation',
};

interface Amount {
  str: string;
  u64?: number | bigint;
  E8?: number | bigint;
  decimals?: number;
}
interface AssetRef {
  hash: string;
  id: number | bigint;
  name: string;
  decimals: number;
}

const coin = (a: Amount): HTMLElement => amount(amountStr(a), COIN);
const units = (a: Amount, asset: AssetRef): HTMLElement => amount(amountStr(a), asset.name);
const shares = (a: Amount): HTMLElement => amount(amountStr(a), 'shares');
const big = (v: number | bigint | undefined): bigint => BigInt(v ?? 0);

/** One entry of a block body (or history): its type and transaction, newest id last. */
export interface Entry {
  type: HistoryKind;
  historyId: bigint;
  tx: any;
}

/** A block body's entries in the order of their history ids. */
export function entriesOf(body: Record<string, any>): Entry[] {
  const out: Entry[] = [];
  for (const type of HISTORY_KINDS) {
    const v = body[type];
    for (const e of v === null || v === undefined ? [] : Array.isArray(v) ? v : [v]) {
      out.push({ type, historyId: big(e.historyId), tx: e.transaction });
    }
  }
  return out.sort((a, b) => (a.historyId < b.historyId ? -1 : a.historyId > b.historyId ? 1 : 0));
}

/** The price of a limit order in coins per whole unit, exact. */
export const limitPrice = (d: { limit: { hex: string }; baseAsset: AssetRef }): HTMLElement =>
  amount(priceStr(d.limit, d.baseAsset.decimals), `${COIN} per ${d.baseAsset.name}`);

/** The price of a swap or a pool: coin over asset, from the integer amounts. */
export const pairPrice = (pair: { base: Amount; quote: Amount }, asset: AssetRef): HTMLElement =>
  amount(ratioPrice(big(pair.quote.E8), big(pair.base.u64), asset.decimals), `${COIN} per ${asset.name}`);

/**
 * One line saying what a transaction does; with `me` (the address whose history this is) transfers
 * read as sent or received.
 */
export function summary(type: string, tx: any, me?: string): Child[] {
  const d = tx.data ?? {};
  const from: string | undefined = tx.signedCommon?.originAddress;
  switch (type) {
    case 'reward':
      return me === d.toAddress ? ['mined ', coin(d.amount)] : [coin(d.amount), ' to ', addressLink(d.toAddress)];
    case 'coinTransfer':
    case 'tokenTransfer': {
      const what =
        type === 'coinTransfer'
          ? coin(d.amount)
          : d.isLiquidity
            ? [shares(d.amount), ' of the ', marketLink(d.asset), ' pool']
            : [units(d.amount, d.asset), ' (', marketLink(d.asset), ')'];
      if (me && me === d.toAddress && me !== from) return ['received ', what, ' from ', addressLink(from!)];
      if (me && me === from) return ['sent ', what, ' to ', addressLink(d.toAddress)];
      return [what, ' to ', addressLink(d.toAddress)];
    }
    case 'limitSwap': {
      // `remaining` is the order's state now: what is still open, 0 once filled or canceled.
      const left = !tx.processed
        ? []
        : big(tx.processed.remaining.u64) === 0n
          ? [' · ', el('span', { class: 'note' }, 'closed (filled or canceled)')]
          : [' · ', d.buy ? coin(tx.processed.remaining) : units(tx.processed.remaining, d.baseAsset), ' still open'];
      return d.buy
        ? ['buy ', marketLink(d.baseAsset), ' with ', coin(d.amount), ' at most ', limitPrice(d), left]
        : ['sell ', units(d.amount, d.baseAsset), ' (', marketLink(d.baseAsset), ') at least ', limitPrice(d), left];
    }
    case 'match':
      return [
        marketLink(d.baseAsset),
        `: ${d.buySwaps.length} buy${d.buySwaps.length === 1 ? '' : 's'}, ${d.sellSwaps.length} sell${d.sellSwaps.length === 1 ? '' : 's'}; pool price `,
        pairPrice(d.poolBefore, d.baseAsset),
        ' → ',
        pairPrice(d.poolAfter, d.baseAsset),
      ];
    case 'liquidityDeposit':
      return [
        'deposit ',
        units(d.deposited.base, d.baseAsset),
        ' and ',
        coin(d.deposited.quote),
        ' into the ',
        marketLink(d.baseAsset),
        ' pool',
        tx.processed ? [' · received ', shares(tx.processed.sharesReceived)] : [],
      ];
    case 'liquidityWithdrawal':
      return [
        'redeem ',
        shares(d.sharesRedeemed),
        ' of the ',
        marketLink(d.baseAsset),
        ' pool',
        tx.processed ? [' · received ', units(tx.processed.received.base, d.baseAsset), ' and ', coin(tx.processed.received.quote)] : [],
      ];
    case 'assetCreation': {
      const asset = { id: tx.processed?.assetId ?? '?', name: d.name, hash: tx.hash };
      return ['create ', tx.processed ? marketLink(asset) : d.name, ', supply ', amount(amountStr(d.supply), d.name)];
    }
    case 'cancelation': {
      const t = d.cancelTxid;
      if (tx.processed === undefined || tx.processed === null) return [`cancel the order of pin height ${t.pinHeight}, nonce ${t.nonceId}`];
      return tx.processed.canceledTxHash
        ? ['cancel order ', txLink(tx.processed.canceledTxHash)]
        : [`cancel the order of pin height ${t.pinHeight}, nonce ${t.nonceId}: nothing was open to cancel`];
    }
    default:
      return [type];
  }
}

/** The sender of a signed transaction (rewards and matches have none). */
export const senderOf = (tx: any): string | undefined => tx.signedCommon?.originAddress;

/** Label–value rows of a transaction's page: the common fields, then its type's. */
export function details(type: string, tx: any): [string, Child][] {
  const d = tx.data ?? {};
  const c = tx.signedCommon;
  const rows: [string, Child][] = [];
  if (c) rows.push(['From', addressLink(c.originAddress, true)], ['Fee', coin(c.fee)], ['Pin height', blockLink(c.pinHeight)], ['Nonce id', String(c.nonceId)]);
  switch (type) {
    case 'reward':
      rows.push(['To', addressLink(d.toAddress, true)], ['Amount', coin(d.amount)]);
      break;
    case 'coinTransfer':
      rows.push(['To', addressLink(d.toAddress, true)], ['Amount', coin(d.amount)]);
      break;
    case 'tokenTransfer':
      rows.push(
        ['To', addressLink(d.toAddress, true)],
        ['Token', d.isLiquidity ? ['pool shares of ', marketLink(d.asset)] : marketLink(d.asset)],
        ['Amount', d.isLiquidity ? shares(d.amount) : units(d.amount, d.asset)],
      );
      break;
    case 'limitSwap':
      rows.push(
        ['Market', marketLink(d.baseAsset)],
        ['Side', d.buy ? 'buy (pays coin for the asset)' : 'sell (pays the asset for coin)'],
        [d.buy ? 'Spends at most' : 'Sells', d.buy ? coin(d.amount) : units(d.amount, d.baseAsset)],
        [d.buy ? 'Highest price' : 'Lowest price', limitPrice(d)],
      );
      if (tx.processed) {
        rows.push([
          'Now',
          big(tx.processed.remaining.u64) === 0n
            ? 'closed: filled or canceled'
            : [d.buy ? coin(tx.processed.remaining) : units(tx.processed.remaining, d.baseAsset), ' still open (', marketLink(d.baseAsset, 'in the book'), ')'],
        ]);
      }
      break;
    case 'match':
      rows.push(
        ['Market', marketLink(d.baseAsset)],
        ['Pool before', [units(d.poolBefore.base, d.baseAsset), ' + ', coin(d.poolBefore.quote), ' (', pairPrice(d.poolBefore, d.baseAsset), ')']],
        ['Pool after', [units(d.poolAfter.base, d.baseAsset), ' + ', coin(d.poolAfter.quote), ' (', pairPrice(d.poolAfter, d.baseAsset), ')']],
      );
      break;
    case 'liquidityDeposit':
      rows.push(['Pool', marketLink(d.baseAsset)], ['Deposited', [units(d.deposited.base, d.baseAsset), ' + ', coin(d.deposited.quote)]]);
      if (tx.processed) rows.push(['Shares received', shares(tx.processed.sharesReceived)]);
      break;
    case 'liquidityWithdrawal':
      rows.push(['Pool', marketLink(d.baseAsset)], ['Shares redeemed', shares(d.sharesRedeemed)]);
      if (tx.processed) rows.push(['Received', [units(tx.processed.received.base, d.baseAsset), ' + ', coin(tx.processed.received.quote)]]);
      break;
    case 'assetCreation':
      rows.push(['Name', d.name], ['Supply', amount(amountStr(d.supply), d.name)], ['Decimals', String(d.supply.decimals)]);
      if (tx.processed)
        rows.push([
          'Asset',
          [marketLink({ id: tx.processed.assetId, name: d.name, hash: tx.hash }, [assetLabel({ id: tx.processed.assetId, name: d.name }), ': its market'])],
        ]);
      break;
    case 'cancelation': {
      const t = d.cancelTxid;
      rows.push(['Cancels', `the order of account ${t.accountId} with pin height ${t.pinHeight} and nonce ${t.nonceId}`]);
      if (tx.processed)
        rows.push(['Canceled order', tx.processed.canceledTxHash ? txLink(tx.processed.canceledTxHash, true) : 'none: nothing was open to cancel']);
      break;
    }
  }
  return rows;
}

/**
 * A match's swaps as table rows: side, asset, coin, price, and the order (a swap carries its
 * order's history id: `orders` maps the ids of the block's orders to their hashes; an order from
 * an earlier block shows its id).
 */
export function swapRows(d: any, orders: Map<bigint, string>): Child[][] {
  const row = (side: string) => (s: any) => {
    const order = orders.get(big(s.historyId));
    return [
      side,
      units(s.swapped.base, d.baseAsset),
      coin(s.swapped.quote),
      pairPrice(s.swapped, d.baseAsset),
      order ? txLink(order) : el('span', { class: 'note', title: 'the history id of an order placed in an earlier block' }, `order #${s.historyId}`),
    ];
  };
  return [...d.buySwaps.map(row('buy')), ...d.sellSwaps.map(row('sell'))];
}

export const typeCell = (type: string): HTMLElement => el('span', { class: `type type-${type}` }, TYPE_LABEL[type] ?? type);
