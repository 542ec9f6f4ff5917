// The explorer's views over the HTTP API (docs/api.md, the contract generation): the front page's
// recent blocks, transactions, mempool and markets; a block, a transaction, an address (every
// balance, open orders, pending transactions, history page by page) and a market (pool, order
// book, candles at every interval, trades, holders); and the search, which finds heights, block
// and transaction hashes, addresses and assets by name, hash or id.
import {
  ApiError,
  addressLink,
  amount,
  api,
  assetLabel,
  blockHashLink,
  blockLink,
  el,
  errorBox,
  facts,
  frag,
  href,
  lookup,
  mapLimit,
  marketLink,
  note,
  section,
  table,
  txLink,
  type Child,
} from './dom.js';
import { COIN, age, amountStr, comparePriceHex, decimalStr, priceStr, ratioPrice, smallestUnits, utc } from './format.js';
import { TYPE_LABEL, details, entriesOf, senderOf, summary, swapRows, typeCell, type Entry } from './transactions.js';

/**
 * What a route shows: a title and its content, or another route to open instead. Sections that
 * load on their own (part()) are filled in place; `loaded` settles when all of them have.
 */
export type View = { title: string; body: Node; loaded?: Promise<void> } | { redirect: string };

/** The largest history id: the first page of an address's history (docs/api.md "History paging"). */
export const HISTORY_START = '18446744073709551615';
/** Candle intervals the API serves (`GET /chart/candles/:asset/:interval`). */
export const CANDLE_INTERVALS = ['5m', '1h', '1d'] as const;
const RECENT_BLOCKS = 10;
const RECENT_TRANSACTIONS = 12;
const MEMPOOL_SHOWN = 15;
/** Markets on the front page whose pool and book are read (each one request). */
const MARKETS_WITH_POOL = 50;

const isHash = (s: string) => /^[0-9a-fA-F]{64}$/.test(s);
const isAddress = (s: string) => /^[0-9a-fA-F]{48}$/.test(s);
const isUint = (s: string) => /^\d{1,20}$/.test(s);
const big = (v: unknown): bigint => BigInt(v as number | bigint);
/** A time in a table: UTC, on one line. */
const time = (seconds: number): HTMLElement => el('span', { class: 'time' }, utc(seconds));

/** A section that fills itself when `load` answers, or shows its error in its place: the rest of the view stays. */
interface Part {
  el: HTMLElement;
  loaded: Promise<void>;
}
function part(title: Child, load: () => Promise<Child[]>): Part {
  const heading = el('h2', {}, title);
  const s = el('section', { 'data-state': 'loading' }, heading, note('loading…'));
  const loaded = load().then(
    (children) => {
      s.replaceChildren(heading, frag(...children));
      s.dataset.state = 'ready';
    },
    (e: Error) => {
      s.replaceChildren(heading, errorBox(e.message));
      s.dataset.state = 'error';
    },
  );
  return { el: s, loaded };
}
const allLoaded = (parts: Part[]): Promise<void> => Promise.all(parts.map((p) => p.loaded)).then(() => undefined);

// --- assets -------------------------------------------------------------------------------------

export interface AssetRecord {
  id: number | bigint;
  hash: string;
  name: string;
  decimals: number;
  height: number;
  ownerAccountId: number | bigint;
  totalSupply: { str: string };
}

/** `/asset/complete` answers at most this many (docs/api.md). */
const COMPLETE_LIMIT = 100;

/** Every asset, ascending id: `/asset/complete`, split by hash prefix where one answer is full. */
export async function allAssets(prefix = ''): Promise<AssetRecord[]> {
  const d = await api(`/asset/complete?hashPrefix=${prefix}`);
  if (d.match.length < COMPLETE_LIMIT || prefix.length >= 64) return d.match;
  const parts = await mapLimit([...'0123456789abcdef'], 4, (c) => allAssets(prefix + c));
  return parts.flat().sort((a, b) => (big(a.id) < big(b.id) ? -1 : 1));
}

// --- front page ---------------------------------------------------------------------------------

export function frontSections(): { sections: HTMLElement[]; loaded: Promise<void> } {
  const parts = [recentBlocks(), latestTransactions(), pendingTransactions(), markets()];
  return { sections: parts.map((p) => p.el), loaded: allLoaded(parts) };
}

function recentBlocks(): Part {
  return part('Recent blocks', async () => {
    const tip = Number((await api('/chain/head')).chainHead.height);
    const heights = Array.from({ length: Math.min(RECENT_BLOCKS, tip) }, (_, i) => tip - i);
    const blocks = await mapLimit(heights, 4, (h) => api(`/chain/block/${h}`));
    return [
      table(
        ['Height', 'Time (UTC)', 'Age', 'Transactions', 'Mined by', 'Hash'],
        blocks.map((b) => {
          const reward = b.body.reward?.transaction;
          return [
            blockLink(b.height),
            time(b.header.time.timestamp),
            age(b.header.time.timestamp),
            String(entriesOf(b.body).length - (reward ? 1 : 0)),
            reward ? addressLink(reward.data.toAddress) : '–',
            blockHashLink(b.header.hash),
          ];
        }),
        { id: 'recent-blocks' },
      ),
    ];
  });
}

function latestTransactions(): Part {
  return part('Latest transactions', async () => {
    const d = await api('/transaction/latest');
    const rows: Child[][] = [];
    for (const b of [...d.perBlock].reverse()) {
      for (const e of entriesOf(b.body).reverse()) {
        if (e.type === 'reward' || rows.length >= RECENT_TRANSACTIONS) continue;
        rows.push([blockLink(b.height), typeCell(e.type), txLink(e.tx.hash), el('span', { class: 'what' }, summary(e.type, e.tx))]);
      }
    }
    return rows.length
      ? [table(['Block', 'Type', 'Transaction', 'What'], rows, { id: 'latest-transactions' })]
      : [note('No transactions in the recent blocks, only mining rewards.')];
  });
}

function pendingTransactions(): Part {
  return part('Pending transactions (mempool)', async () => {
    const pending: any[] = await api('/transaction/mempool');
    if (!pending.length) return [note('The mempool is empty.')];
    return [
      table(
        ['Type', 'Transaction', 'From', 'What', 'Fee'],
        pending
          .slice(0, MEMPOOL_SHOWN)
          .map((p) => [
            typeCell(p.type),
            txLink(p.transaction.hash),
            addressLink(senderOf(p.transaction)!),
            el('span', { class: 'what' }, summary(p.type, p.transaction)),
            amount(amountStr(p.transaction.signedCommon.fee), COIN),
          ]),
        { id: 'mempool' },
      ),
      pending.length > MEMPOOL_SHOWN ? note(`and ${pending.length - MEMPOOL_SHOWN} more.`) : null,
    ];
  });
}

function markets(): Part {
  return part('Markets', async () => {
    const assets = await allAssets();
    if (!assets.length) return [note('No asset has been created yet.')];
    const withPool = await mapLimit(assets.slice(0, MARKETS_WITH_POOL), 4, (a) => api(`/dex/market/${a.hash}`).catch((e: Error) => e));
    return [
      table(
        ['Market', 'Asset hash', 'Pool price', 'Pool', 'Buy orders', 'Sell orders', 'Supply'],
        assets.map((a, i) => {
          const m = withPool[i];
          const pool = m && !(m instanceof Error) ? poolCells(m, a) : [m instanceof Error ? el('span', { class: 'error' }, m.message) : '–', '', '', ''];
          return [
            marketLink(a),
            el('a', { href: href.market(a.hash), class: 'hash short', title: a.hash }, `${a.hash.slice(0, 8)}…`),
            ...pool,
            amount(amountStr(a.totalSupply), a.name),
          ];
        }),
        { id: 'markets' },
      ),
      assets.length > MARKETS_WITH_POOL ? note(`Pools and books are shown for the first ${MARKETS_WITH_POOL} of ${assets.length} assets.`) : null,
    ];
  });
}

function poolCells(m: any, a: { name: string; decimals: number }): Child[] {
  const p = m.liquidityPool;
  const empty = big(p.asset.u64) === 0n || big(p.coin.E8) === 0n;
  return [
    empty ? 'no liquidity' : amount(ratioPrice(big(p.coin.E8), big(p.asset.u64), a.decimals), COIN),
    empty ? '–' : [amount(amountStr(p.asset), a.name), ' + ', amount(amountStr(p.coin), COIN)],
    String(m.coinToAssetSwaps.length),
    String(m.assetToCoinSwaps.length),
  ];
}

// --- block --------------------------------------------------------------------------------------

export async function blockView(id: string): Promise<View> {
  if (!isUint(id) && !isHash(id)) throw new ApiError(0, `“${id}” is not a block height or a 64-hex block hash`);
  const b = await api(`/chain/block/${id}`);
  const height = Number(b.height),
    h = b.header,
    t = h.time.timestamp;
  const entries = entriesOf(b.body);
  const reward = b.body.reward?.transaction;
  // Height 1 is the first block the chain serves; the hash before it is the genesis hash.
  const nav = el(
    'p',
    { class: 'nav' },
    height > 1 ? blockLink(height - 1, '← previous block') : el('span', { class: 'note' }, 'the first block'),
    ' ',
    b.confirmations > 1 ? blockLink(height + 1, 'next block →') : el('span', { class: 'note' }, 'the newest block'),
  );
  const matches = entries.filter((e) => e.type === 'match');
  return {
    title: `Block ${height}`,
    body: el(
      'div',
      {},
      el('h1', {}, `Block ${height}`),
      nav,
      section(
        'Summary',
        facts([
          ['Height', String(height)],
          ['Hash', el('span', { class: 'hash' }, h.hash)],
          ['Time', `${h.time.UTC} (${age(t)})`],
          ['Confirmations', String(b.confirmations)],
          ['Previous block', height > 1 ? blockHashLink(h.prevHash, true) : [el('span', { class: 'hash' }, h.prevHash), ' (the genesis hash)']],
          ['Mined by', reward ? [addressLink(reward.data.toAddress, true)] : '–'],
          ['Reward', reward ? amount(amountStr(reward.data.amount), COIN) : '–'],
          ['Transactions', String(entries.filter((e) => e.type !== 'reward' && e.type !== 'match').length)],
          ['Merkle root', el('span', { class: 'hash' }, h.merkleroot)],
          ['Target', h.target],
          ['Nonce', h.nonce],
          ['Version', h.version],
          [
            'Proof of work',
            h.pow.verusV2_2 !== undefined ? `janushash (Verus ${h.pow.hashVerus.slice(0, 16)}…, SHA-256t ${h.pow.hashSha256t.slice(0, 16)}…)` : undefined,
          ],
          ['As JSON', el('a', { href: `/chain/block/${height}` }, `/chain/block/${height}`)],
        ]),
      ),
      section(`Transactions and actions (${entries.length})`, entryTable(entries, 'block-entries')),
      matches.map((m) => section(['Trades in ', marketLink(m.tx.data.baseAsset)], ...matchParts(m.tx, ordersOf(entries)))),
    ),
  };
}

function entryTable(entries: Entry[], id: string): HTMLElement {
  return table(
    ['Type', 'Transaction', 'From', 'What', 'Fee'],
    entries.map((e) => [
      typeCell(e.type),
      txLink(e.tx.hash),
      senderOf(e.tx) ? addressLink(senderOf(e.tx)!) : '–',
      el('span', { class: 'what' }, summary(e.type, e.tx)),
      e.tx.signedCommon ? amount(amountStr(e.tx.signedCommon.fee), COIN) : '–',
    ]),
    { id },
  );
}

/** The history ids of a block's limit orders, to their hashes. */
const ordersOf = (entries: Entry[]): Map<bigint, string> => new Map(entries.filter((e) => e.type === 'limitSwap').map((e) => [e.historyId, e.tx.hash]));

function matchParts(tx: any, orders: Map<bigint, string>): Child[] {
  const d = tx.data;
  return [
    facts(details('match', tx).filter(([k]) => k !== 'Market')),
    table(['Side', d.baseAsset.name, COIN, 'Price', 'Order'], swapRows(d, orders), { class: 'swaps' }),
  ];
}

// --- transaction --------------------------------------------------------------------------------

export async function txView(hash: string): Promise<View> {
  if (!isHash(hash)) throw new ApiError(0, `“${hash}” is not a 64-hex transaction hash`);
  const t = await api(`/transaction/lookup/${hash}`);
  const label = TYPE_LABEL[t.type] ?? t.type;
  // A match's swaps name their orders by history id: the orders of its block are linked.
  const orders = t.type === 'match' && t.mined ? ordersOf(entriesOf((await api(`/chain/block/${t.mined.block.height}`)).body)) : new Map<bigint, string>();
  const status: Child = t.mined
    ? [
        'in block ',
        blockLink(t.mined.block.height),
        ` · ${utc(t.mined.block.timestamp)} (${age(t.mined.block.timestamp)}) · ${t.confirmations} confirmation${t.confirmations === 1 ? '' : 's'}`,
      ]
    : el('strong', {}, 'pending in the mempool (not in a block yet)');
  return {
    title: `${label} ${hash.slice(0, 8)}…`,
    body: el(
      'div',
      {},
      el('h1', {}, label),
      section(
        'Transaction',
        facts([
          ['Hash', el('span', { class: 'hash' }, t.transaction.hash)],
          ['Status', status],
          ...details(t.type, t.transaction),
          ['As JSON', el('a', { href: `/transaction/lookup/${hash}` }, 'transaction lookup')],
        ]),
      ),
      t.type === 'match' ? section('Swaps', ...matchParts(t.transaction, orders).slice(1)) : null,
    ),
  };
}

// --- address ------------------------------------------------------------------------------------

export async function addressView(account: string, beforeId?: string): Promise<View> {
  if (!isAddress(account) && !isUint(account)) throw new ApiError(0, `“${account}” is not an address (48 hex characters) or an account id`);
  const before = beforeId ?? HISTORY_START;
  const coin = await api(`/account/${account}/coin_balance`);
  if (!isAddress(account) && coin.account === null) throw new ApiError(56, `There is no account with id ${account}.`);
  const address: string = coin.account?.address ?? account;
  const me = isAddress(address) ? address.toLowerCase() : address;
  const hasAccount = coin.account !== null;
  const parts = [
    part('Balances', () => balanceParts(me, coin, hasAccount)),
    part('Open orders', () => openOrderParts(me, hasAccount)),
    part('Pending transactions', () => pendingParts(me, hasAccount)),
    part(beforeId ? `History: entries before id ${beforeId}` : 'History', () => historyParts(me, before, beforeId !== undefined, hasAccount)),
  ];
  return {
    title: `Address ${me.slice(0, 8)}…`,
    body: el(
      'div',
      {},
      el('h1', {}, 'Address'),
      facts([
        ['Address', el('span', { class: 'hash', id: 'address' }, me)],
        ['Account id', hasAccount ? String(coin.account.accountId) : 'none yet: this address has never received anything'],
      ]),
      parts.map((p) => p.el),
    ),
    loaded: allLoaded(parts),
  };
}

async function balanceParts(me: string, coin: any, hasAccount: boolean): Promise<Child[]> {
  const rows: Child[][] = [
    [`${COIN} (coin)`, amount(amountStr(coin.coin.total), COIN), amount(amountStr(coin.coin.locked), COIN), amount(amountStr(coin.coin.mempool), COIN)],
  ];
  let checked = 0;
  if (hasAccount) {
    // No route lists an account's tokens: every asset's and every pool's balance is read.
    const assets = await allAssets();
    const specs = assets.flatMap((a) => [
      { a, spec: `asset:${a.hash}`, shares: false },
      { a, spec: `liquidity:${a.hash}`, shares: true },
    ]);
    checked = assets.length;
    const got = await mapLimit(specs, 4, (s) => api(`/account/${me}/balance/${s.spec}`));
    specs.forEach((s, i) => {
      const b = got[i].balance;
      if (big(b.total.u64) === 0n && big(b.mempool.u64) === 0n) return;
      const unit = s.shares ? 'shares' : s.a.name;
      rows.push([
        s.shares ? ['pool shares of ', marketLink(s.a)] : marketLink(s.a),
        amount(amountStr(b.total), unit),
        amount(amountStr(b.locked), unit),
        amount(amountStr(b.mempool), unit),
      ]);
    });
  }
  return [
    table(['Token', 'Total', 'In open orders', 'Reserved (mempool)'], rows, { id: 'balances' }),
    hasAccount
      ? note(
          `Reserved: spent by this address\u2019s pending transactions. Coin, and every token and pool share it holds of all ${checked} asset${checked === 1 ? '' : 's'}.`,
        )
      : null,
  ];
}

async function openOrderParts(me: string, hasAccount: boolean): Promise<Child[]> {
  if (!hasAccount) return [note('None.')];
  const markets: any[] = await api(`/account/${me}/open_orders`);
  const rows = markets.flatMap(orderRows);
  return rows.length ? [table(['Market', 'Side', 'Price', 'Amount', 'Filled', 'Order'], rows, { id: 'open-orders' })] : [note('No open orders.')];
}

/** An account's orders in one market (MarketOrders) as rows; amounts and fills in what the order spends. */
function orderRows(m: any): Child[][] {
  const a = m.baseAsset;
  const row =
    (buy: boolean) =>
    (o: any): Child[] => [
      marketLink(a),
      buy ? 'buy' : 'sell',
      amount(priceStr(o.limit, a.decimals), COIN),
      amount(amountStr(o.amount), buy ? COIN : a.name),
      amount(amountStr(o.filled), buy ? COIN : a.name),
      [txLink(o.txHash), o.inMempool ? el('span', { class: 'badge' }, 'pending') : null],
    ];
  return [...m.coinToAssetSwaps.map(row(true)), ...m.assetToCoinSwaps.map(row(false))];
}

async function pendingParts(me: string, hasAccount: boolean): Promise<Child[]> {
  const [sent, all] = await Promise.all([hasAccount ? api(`/account/${me}/mempool`) : [], api('/transaction/mempool')]);
  const incoming = (all as any[]).filter((p) => p.transaction.data?.toAddress === me && senderOf(p.transaction) !== me);
  const rows = [...sent, ...incoming].map((p: any) => [
    typeCell(p.type),
    txLink(p.transaction.hash),
    el('span', { class: 'what' }, summary(p.type, p.transaction, me)),
    amount(amountStr(p.transaction.signedCommon.fee), COIN),
  ]);
  return rows.length ? [table(['Type', 'Transaction', 'What', 'Fee'], rows, { id: 'pending' })] : [note('None.')];
}

async function historyParts(me: string, before: string, paged: boolean, hasAccount: boolean): Promise<Child[]> {
  if (!hasAccount) return [note('No history yet.')];
  const page = await api(`/account/${me}/history/${before}`);
  const rows: Child[][] = [];
  for (const b of page.perBlock) {
    for (const e of entriesOf(b.body).reverse()) {
      rows.push([
        blockLink(b.height),
        time(b.header.time.timestamp),
        typeCell(e.type),
        txLink(e.tx.hash),
        el('span', { class: 'what' }, summary(e.type, e.tx, me)),
        e.tx.signedCommon && senderOf(e.tx) === me ? amount(amountStr(e.tx.signedCommon.fee), COIN) : '–',
      ]);
    }
  }
  // The next page is named only when it has entries (it is read ahead).
  const fromId = String(page.fromId);
  const more = rows.length > 0 && fromId !== '0' && (await api(`/account/${me}/history/${fromId}`)).perBlock.length > 0;
  const pager = el(
    'p',
    { class: 'pager' },
    paged ? el('a', { href: href.address(me), id: 'history-newest' }, '⇤ newest entries') : null,
    ' ',
    more
      ? el('a', { href: `${href.address(me)}/history/${fromId}`, id: 'history-older' }, 'older entries →')
      : el('span', { class: 'note', id: 'history-end' }, 'the oldest entry is shown'),
  );
  if (!rows.length) return [note(paged ? 'No entries before this one.' : 'No history yet.'), pager];
  return [
    note(`${rows.length} entries in ${page.perBlock.length} block${page.perBlock.length === 1 ? '' : 's'}, newest first.`),
    table(['Block', 'Time (UTC)', 'Type', 'Transaction', 'What', 'Fee paid'], rows, { id: 'history' }),
    pager,
  ];
}

// --- market -------------------------------------------------------------------------------------

export async function marketView(asset: string, interval: string = '1h'): Promise<View> {
  // A name (names are not unique) goes to the search, which lists the assets that carry it.
  if (!isHash(asset) && !isUint(asset)) return { redirect: href.search(asset) };
  const [a, m] = await Promise.all([api(`/asset/lookup/${asset}`), api(`/dex/market/${asset}`)]);
  const ref = { id: a.id, name: a.name, hash: a.hash, decimals: a.decimals };
  const owner = await api(`/account/${a.ownerAccountId}/coin_balance`).then(
    (c) => c.account?.address as string | undefined,
    () => undefined,
  );
  const parts = [
    part(
      [
        'Candles ',
        el(
          'span',
          { class: 'tabs' },
          CANDLE_INTERVALS.map((i) => el('a', { href: `${href.market(a.hash)}/${i}`, class: i === interval ? 'tab current' : 'tab' }, i)),
        ),
      ],
      () => candleParts(a, interval),
    ),
    part('Recent trades', () => tradeParts(a)),
    part('Largest holders', () => holderParts(a)),
  ];
  const label = assetLabel(a);
  return {
    title: `${label} market`,
    body: el(
      'div',
      {},
      el('h1', {}, `${label} / ${COIN}`),
      section(
        'Asset',
        facts([
          ['Name', a.name],
          ['Asset id', String(a.id)],
          ['Hash', [el('span', { class: 'hash' }, a.hash), ' ', el('a', { href: href.tx(a.hash) }, '(its creation)')]],
          ['Decimals', String(a.decimals)],
          ['Supply', amount(amountStr(a.totalSupply), a.name)],
          ['Created in block', blockLink(a.height)],
          ['Created by', owner ? addressLink(owner, true) : `account ${a.ownerAccountId}`],
        ]),
      ),
      section('Liquidity pool', poolFacts(m, ref)),
      section('Order book', orderBook(m, ref)),
      parts.map((p) => p.el),
    ),
    loaded: allLoaded(parts),
  };
}

function poolFacts(m: any, a: { name: string; decimals: number }): HTMLElement {
  const p = m.liquidityPool;
  if (big(p.asset.u64) === 0n && big(p.coin.E8) === 0n) return note('No liquidity has been deposited yet.');
  const x = m.match;
  return facts([
    ['Price', amount(ratioPrice(big(p.coin.E8), big(p.asset.u64), a.decimals), `${COIN} per ${a.name}`)],
    [a.name, amount(amountStr(p.asset), a.name)],
    [COIN, amount(amountStr(p.coin), COIN)],
    ['Shares', amount(amountStr(p.shares), 'shares')],
    [
      'Next block, if this node mines it now',
      big(x.filled.base.u64) === 0n && big(x.filled.quote.E8) === 0n && big(x.toPool.amount.u64 ?? x.toPool.amount.E8) === 0n
        ? 'no order matches'
        : [
            'orders fill ',
            amount(amountStr(x.filled.base), a.name),
            ' against ',
            amount(amountStr(x.filled.quote), COIN),
            '; the pool takes ',
            amount(amountStr(x.toPool.amount), x.toPool.isQuote ? COIN : a.name),
          ],
    ],
  ]);
}

function orderBook(m: any, a: { name: string; decimals: number; hash: string; id: unknown }): HTMLElement {
  const side = (orders: any[], buy: boolean) => {
    const sorted = [...orders].sort((x, y) => comparePriceHex(x.limit.hex, y.limit.hex) * (buy ? -1 : 1));
    if (!sorted.length) return note(buy ? 'No buy orders.' : 'No sell orders.');
    return table(
      ['Price', buy ? `Pays (${COIN})` : `Sells (${a.name})`, 'Filled', 'Order'],
      sorted.map((o) => [
        amount(priceStr(o.limit, a.decimals), COIN),
        amountStr(o.amount),
        amountStr(o.filled),
        [txLink(o.txHash), o.inMempool ? el('span', { class: 'badge' }, 'pending') : null],
      ]),
      { id: buy ? 'bids' : 'asks' },
    );
  };
  return el(
    'div',
    { class: 'book' },
    el('div', {}, el('h3', {}, 'Buy orders (highest price first)'), side(m.coinToAssetSwaps, true)),
    el('div', {}, el('h3', {}, 'Sell orders (lowest price first)'), side(m.assetToCoinSwaps, false)),
  );
}

/** `[begin, height, open, high, low, close, base volume, quote volume]`: prices and volumes are decimal texts. */
type CandleRow = [number, number, string, string, string, string, string, string];

async function candleParts(a: AssetRecord, interval: string): Promise<Child[]> {
  const rows: CandleRow[] = await api(`/chart/candles/${a.hash}/${interval}`);
  if (!rows.length) return [note(`No trades yet, so no ${interval} candles.`)];
  const table_ = table(
    ['Begins (UTC)', 'First block', 'Open', 'High', 'Low', 'Close', `Volume (${a.name})`, `Volume (${COIN})`],
    [...rows]
      .reverse()
      .map(([begin, height, open, high, low, close, base, quote]) => [
        time(begin),
        blockLink(height),
        decimalStr(open),
        decimalStr(high),
        decimalStr(low),
        decimalStr(close),
        base,
        quote,
      ]),
    { id: 'candles', 'data-interval': interval },
  );
  return [candleChart(rows), table_, note(`Prices in ${COIN} per ${a.name}, newest first.`)];
}

/** Candles as an SVG chart: a wick from low to high, a body from open to close (green up, red down). */
function candleChart(rows: CandleRow[]): Element {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = (tag: string, attrs: Record<string, string | number>) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  };
  // At least 40 slots, so that a few candles are not drawn as wide blocks; the newest on the right.
  const W = 10,
    H = 100,
    slots = Math.max(rows.length, 40),
    offset = slots - rows.length;
  // Doubles are plenty to draw with.
  const prices = rows.map(([, , ...r]) => r.slice(0, 4).map(Number));
  const lo = Math.min(...prices.map((p) => p[2])),
    hi = Math.max(...prices.map((p) => p[1]));
  const y = (p: number) => (hi === lo ? H / 2 : 4 + (H - 8) * (1 - (p - lo) / (hi - lo)));
  const chart = svg('svg', { viewBox: `0 0 ${slots * W} ${H}`, preserveAspectRatio: 'none', class: 'chart', role: 'img', 'aria-label': 'price candles' });
  prices.forEach(([open, high, low, close], i) => {
    const x = (offset + i) * W + W / 2,
      up = close >= open;
    chart.append(svg('line', { x1: x, x2: x, y1: y(high), y2: y(low), class: up ? 'up' : 'down', 'vector-effect': 'non-scaling-stroke' }));
    const top = y(Math.max(open, close)),
      height = Math.max(y(Math.min(open, close)) - top, 1);
    chart.append(svg('rect', { x: (offset + i) * W + 2, width: W - 4, y: top, height, class: up ? 'up' : 'down' }));
  });
  return chart;
}

async function tradeParts(a: AssetRecord): Promise<Child[]> {
  const rows: [number, number, string, string][] = await api(`/chart/trades/${a.hash}?n=20`);
  if (!rows.length) return [note('No trades yet.')];
  return [
    table(
      ['Block', 'Time (UTC)', a.name, COIN, `Average price (${COIN})`],
      [...rows]
        .reverse()
        .map(([height, timestamp, base, quote]) => [
          blockLink(height),
          time(timestamp),
          base,
          quote,
          ratioPrice(smallestUnits(quote, 8), smallestUnits(base, a.decimals), a.decimals),
        ]),
      { id: 'trades' },
    ),
    note('Per block: the asset and coin that changed hands in the block\u2019s matching.'),
  ];
}

async function holderParts(a: AssetRecord): Promise<Child[]> {
  const r = await api(`/account/richlist/asset:${a.hash}`);
  const top = r.richlist.slice(0, 10);
  return top.length
    ? [
        table(
          ['Address', 'Balance'],
          top.map((h: any) => [addressLink(h.address), amount(amountStr(h.balance), a.name)]),
          { id: 'holders' },
        ),
      ]
    : [note('Nobody holds this asset.')];
}

// --- search -------------------------------------------------------------------------------------

interface Match {
  kind: string;
  href: string;
  label: Child;
  detail: Child;
  order: bigint;
}

/** What `q` finds: blocks, transactions, addresses and assets; the first failed request throws. */
export async function findAll(q: string): Promise<{ matches: Match[]; tried: string[] }> {
  const matches: Match[] = [],
    tried: string[] = [];
  const assetMatch = (a: any, how: string): Match => ({
    kind: 'asset',
    href: href.market(a.hash),
    label: [`Asset ${assetLabel(a)}`],
    order: big(a.id),
    detail: `${how} · hash ${a.hash.slice(0, 12)}… · ${a.decimals} decimals · supply ${amountStr(a.totalSupply)} · created in block ${a.height}`,
  });
  const jobs: Promise<void>[] = [];
  if (isUint(q)) {
    tried.push(`no block at height ${q}`, `no asset with id ${q}`);
    jobs.push(
      lookup(`/chain/block/${q}/header`).then((b) => {
        if (b)
          matches.push({
            kind: 'block',
            href: href.block(q),
            label: `Block ${q}`,
            order: 0n,
            detail: `${b.header.hash.slice(0, 16)}… · ${utc(b.header.time)}`,
          });
      }),
    );
    jobs.push(
      lookup(`/asset/lookup/${q}`).then((a) => {
        if (a) matches.push(assetMatch(a, `id ${a.id}`));
      }),
    );
  }
  if (isHash(q)) {
    const h = q.toLowerCase();
    tried.push('no block, transaction or asset with this hash');
    let asset: any = null,
      tx: any = null;
    jobs.push(
      lookup(`/chain/block/${h}/header`).then((b) => {
        if (b) matches.push({ kind: 'block', href: href.block(h), label: `Block ${b.height}`, order: 0n, detail: utc(b.header.time) });
      }),
    );
    jobs.push(
      Promise.all([lookup(`/asset/lookup/${h}`), lookup(`/transaction/lookup/${h}`)]).then(([a, t]) => {
        asset = a;
        tx = t;
      }),
    );
    await Promise.all(jobs.splice(0));
    // An asset's hash is its creation's transaction hash: one match, the asset (whose page links its creation).
    if (asset) matches.push(assetMatch(asset, 'asset hash'));
    else if (tx)
      matches.push({
        kind: 'transaction',
        href: href.tx(h),
        order: 0n,
        label: `${TYPE_LABEL[tx.type] ?? tx.type}`,
        detail: tx.mined ? `in block ${tx.mined.block.height}` : 'pending',
      });
  }
  if (isAddress(q)) {
    const a = q.toLowerCase();
    const c = await api(`/account/${a}/coin_balance`); // an address with a bad checksum fails here, with the node's reason
    matches.push({
      kind: 'address',
      href: href.address(a),
      label: 'Address',
      order: 0n,
      detail: c.account ? `account ${c.account.accountId} · ${amountStr(c.coin.total)} ${COIN}` : 'no account yet (never received anything)',
    });
  }
  if (/^[A-Za-z0-9]{1,5}$/.test(q)) {
    tried.push(`no asset named ${q}`);
    jobs.push(
      api(`/asset/complete?namePrefix=${encodeURIComponent(q)}`).then((d) => {
        const exact = d.match.filter((a: any) => a.name.toLowerCase() === q.toLowerCase());
        for (const a of exact.length ? exact : d.match) matches.push(assetMatch(a, exact.length ? `named ${a.name}` : `name starts with ${q}`));
      }),
    );
  }
  if (/^[0-9a-fA-F]{4,63}$/.test(q) && !isAddress(q)) {
    tried.push(`no asset hash starting with ${q}`);
    jobs.push(
      api(`/asset/complete?hashPrefix=${q.toLowerCase()}`).then((d) => {
        for (const a of d.match) matches.push(assetMatch(a, `hash starts with ${q.toLowerCase()}`));
      }),
    );
  }
  await Promise.all(jobs);
  // One thing found twice (an asset by name and by hash prefix) is one match; blocks, transactions
  // and addresses first, then assets by id (requests answer in any order).
  const seen = new Set<string>();
  const rank = (m: Match) => ['block', 'transaction', 'address', 'asset'].indexOf(m.kind);
  const unique = matches
    .filter((m) => !seen.has(m.href) && seen.add(m.href))
    .sort((a, b) => rank(a) - rank(b) || (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  return { matches: unique, tried };
}

export async function searchView(raw: string): Promise<View> {
  const q = raw.trim();
  if (!q) return { redirect: '#/' };
  const understood = isUint(q) || isHash(q) || isAddress(q) || /^[A-Za-z0-9]{1,5}$/.test(q) || /^[0-9a-fA-F]{4,63}$/.test(q);
  if (!understood) {
    throw new ApiError(
      0,
      `“${q}” is not something the explorer can look up: enter a block height, a block or transaction hash (64 hex), an address (48 hex), or an asset name (1–5 letters or digits), id or hash.`,
    );
  }
  const { matches, tried } = await findAll(q);
  if (matches.length === 1) return { redirect: matches[0].href };
  if (!matches.length) throw new ApiError(56, `Nothing found for “${q}”: ${tried.join(', ')}.`);
  return {
    title: `Search: ${q}`,
    body: el(
      'div',
      {},
      el('h1', {}, `${matches.length} matches for “${q}”`),
      section(
        'Matches',
        el(
          'ul',
          { class: 'matches', id: 'matches' },
          matches.map((m) =>
            el('li', {}, el('span', { class: 'kind' }, m.kind), ' ', el('a', { href: m.href }, m.label), ' ', el('span', { class: 'note' }, m.detail)),
          ),
        ),
      ),
    ),
  };
}
