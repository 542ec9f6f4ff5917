// The explorer at `/` in headless Chromium, walked as a person would against a real regtest node
// holding real data (test/web/explorer_chain.ts: assets, a pool, trades in three blocks, open
// orders, transfers, a cancelation, a withdrawal, a pending transfer, 120 history entries of one
// address): the search finds each kind of thing (height, block hash, transaction hash, address,
// asset by name, id and hash; two assets named DEMO are listed), a market shows its pool, book,
// candles at every interval and trades with exact numbers, an address's balances, open orders,
// pending transfers and its whole history page by page; links lead from a block to a transaction
// to an address; what does not exist is said so. Every page has its own address (`#/…`) and fits a
// 390 px wide phone. Screenshots at 1280 and 390 px go to dist/screenshots/ (not committed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { initKernel } from '../../ts/kernel/instance.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { buildExplorerChain, type ExplorerChain } from './explorer_chain.js';
import { openTab, type Tab } from './browser.js';

await initKernel();

const SHOTS = join(import.meta.dirname, '../../dist/screenshots');
const PHONE = 390;
const HISTORY_START = '18446744073709551615';
const short = (h: string) => `${h.slice(0, 8)}…${h.slice(-8)}`;

let node: TestNode, chain: ExplorerChain, tab: Tab;
const shots: string[] = [];

beforeAll(async () => {
  node = await startNode(['--regtest']);
  chain = await buildExplorerChain(node, 4200);
  tab = await openTab(`${node.url}/`);
}, 180_000);

afterAll(async () => {
  await tab?.close();
  await node?.stop();
  if (node) await removeDir(node.dataDir);
});

/** Waits until the view shows the route in the address bar, all its sections loaded (or it failed); returns "hash state". */
const settled = () =>
  tab.waitFor<string>(
    'the page to show its route',
    `(() => {
  const v = document.getElementById('view');
  return v && (v.dataset.state === 'ready' || v.dataset.state === 'error') && v.dataset.route === location.hash ? location.hash + ' ' + v.dataset.state : '';
})()`,
  );
/** Types `q` into the search box and submits it, as a person does. */
async function search(q: string): Promise<string> {
  await tab.evaluate(`(() => { const i = document.getElementById('search-input'); i.value = ${JSON.stringify(q)}; i.form.requestSubmit(); })()`);
  return settled();
}
async function open(hash: string): Promise<string> {
  await tab.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  return settled();
}
/** Clicks the first link matching `selector` in the view. */
async function click(selector: string): Promise<string> {
  const found = await tab.evaluate<boolean>(
    `(() => { const a = document.querySelector('#view ' + ${JSON.stringify(selector)}); if (!a) return false; a.click(); return true; })()`,
  );
  if (!found) throw new Error(`no ${selector} in the view: ${await text()}`);
  return settled();
}
const text = (selector = '#view') => tab.evaluate<string>(`document.querySelector(${JSON.stringify(selector)})?.innerText ?? ''`);
const h1 = () => text('#view h1');
const hrefs = (selector: string) => tab.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((a) => a.getAttribute('href'))`);
async function shot(name: string): Promise<void> {
  const path = join(SHOTS, `${name}.png`);
  await tab.screenshot(path);
  shots.push(path);
}

/** Digits of binary-float noise: 0.39999999999999997, 14.600000000000001. */
const FLOAT_NOISE = /\d\.\d*(?:9{7,}|0{7,}[1-9])\d*/;

describe('the explorer', () => {
  it('walks the front page, the search of every kind, a market, an address and its history, links and errors', async () => {
    const head = (await node.data('/chain/head')).chainHead;
    const demoRecord = await node.data(`/asset/lookup/${chain.demo}`);
    const demoId = String(demoRecord.id);

    // The front page: status, recent blocks, latest and pending transactions, markets.
    expect(await settled()).toBe(' ready');
    await tab.waitFor('the status panel', `document.getElementById('status')?.innerText.includes('API generation')`);
    const blocks = await text('#recent-blocks');
    expect(blocks).toContain(String(head.height));
    expect(blocks).toContain(short(head.hash));
    expect(await text('#latest-transactions')).toContain(short(chain.tx.withdrawal));
    expect(await text('#mempool')).toContain(short(chain.pending.coinTransfer));
    const markets = await text('#markets');
    expect(markets).toMatch(/DEMO #\d+[\s\S]*DEMO #\d+[\s\S]*GOLD #\d+/);
    expect(await hrefs('#markets a.market-link')).toEqual([`#/market/${chain.demo}`, `#/market/${chain.demo2}`, `#/market/${chain.gold}`]);
    await shot('front-1280');

    // Search: a height opens its block (50: no asset has that id).
    expect((await node.get('/asset/lookup/50')).body.code).toBe(186);
    expect(await search('50')).toBe('#/block/50 ready');
    expect(await h1()).toBe('Block 50');
    // A block hash opens that block.
    const b116 = await node.data('/chain/block/116');
    expect(await search(b116.header.hash)).toBe(`#/block/${b116.header.hash} ready`);
    expect(await h1()).toBe('Block 116');
    // A transaction hash opens the transaction, laid out for people: amounts in coin, links.
    expect(await search(chain.tx.coinTransfer)).toBe(`#/tx/${chain.tx.coinTransfer} ready`);
    expect(await h1()).toBe('Coin transfer');
    const coinTx = await text();
    expect(coinTx).toContain('12.34567890 WART');
    expect(coinTx).toContain(chain.B.addressText);
    expect(coinTx).toMatch(/in block \d+/);
    // An address opens its page.
    expect(await search(chain.B.addressText)).toBe(`#/address/${chain.B.addressText} ready`);
    expect(await text('#address')).toBe(chain.B.addressText);
    // An asset name of one asset opens its market; a name two assets carry lists both.
    expect(await search('GOLD')).toBe(`#/market/${chain.gold} ready`);
    expect(await h1()).toMatch(/^GOLD #\d+ \/ WART$/);
    expect(await search('DEMO')).toBe('#/search/DEMO ready');
    expect(await text('#matches')).toMatch(/Asset DEMO #\d+[\s\S]*Asset DEMO #\d+/);
    expect(await hrefs('#matches a')).toEqual([`#/market/${chain.demo}`, `#/market/${chain.demo2}`]);
    await shot('search-1280');
    expect(await click(`a[href="#/market/${chain.demo2}"]`)).toBe(`#/market/${chain.demo2} ready`);
    expect(await h1()).toMatch(/^DEMO #\d+ \/ WART$/);
    // An asset hash (also its creation's transaction hash) opens the market, which links the creation.
    expect(await search(chain.gold)).toBe(`#/market/${chain.gold} ready`);
    expect(await hrefs(`#view a[href="#/tx/${chain.gold}"]`)).toHaveLength(1);
    // An asset id: the block of that height is found too, so both are listed; the asset opens its market.
    expect(await search(demoId)).toBe(`#/search/${demoId} ready`);
    expect(await hrefs('#matches a')).toEqual([`#/block/${demoId}`, `#/market/${chain.demo}`]);

    // The market: asset, pool, order book with exact prices, candles at every interval, trades, holders.
    expect(await click(`a[href="#/market/${chain.demo}"]`)).toBe(`#/market/${chain.demo} ready`);
    expect(await h1()).toBe(`DEMO #${demoId} / WART`);
    const market = await node.data(`/dex/market/${chain.demo}`);
    const page = await text();
    expect(page).toContain(`${market.liquidityPool.asset.str} DEMO`);
    expect(page).toContain(`${market.liquidityPool.coin.str} WART`);
    expect(page).not.toMatch(FLOAT_NOISE);
    const bids = await text('#bids'),
      asks = await text('#asks');
    expect(bids).toContain('0.1 WART');
    expect(bids).toContain(short(chain.tx.openBuy));
    expect(asks).toMatch(/0\.45 WART[\s\S]*2\.499968 WART/); // lowest first; 2.5 is not on the price grid
    expect(asks).toContain(short(chain.tx.openSell));
    // Recent trades: three blocks, their totals exactly the block's swaps.
    const trades = await tab.evaluate<string[][]>(`[...document.querySelectorAll('#trades tbody tr')].map((r) => [...r.cells].map((c) => c.innerText))`);
    expect(trades).toHaveLength(3);
    for (const [height, , base, quote] of trades) {
      const b = await node.data(`/chain/block/${height}`);
      const swaps = b.body.match.flatMap((m: any) => [...m.transaction.data.buySwaps, ...m.transaction.data.sellSwaps]);
      const sum = (k: 'base' | 'quote', f: 'u64' | 'E8') => swaps.reduce((s: bigint, x: any) => s + BigInt(x.swapped[k][f]), 0n);
      expect(BigInt(base.replace('.', ''))).toBe(sum('base', 'u64'));
      expect(BigInt(quote.replace('.', ''))).toBe(sum('quote', 'E8'));
    }
    expect(await text('#holders')).toContain(short(chain.A.addressText));
    await shot('market-1280');
    for (const interval of ['5m', '1h', '1d']) {
      expect(await click(`a.tab[href$="/${interval}"]`)).toBe(`#/market/${chain.demo}/${interval} ready`);
      expect(await tab.evaluate<string>(`document.getElementById('candles').dataset.interval`)).toBe(interval);
      const candles = await tab.evaluate<string[][]>(`[...document.querySelectorAll('#candles tbody tr')].map((r) => [...r.cells].map((c) => c.innerText))`);
      expect(candles.length).toBeGreaterThan(0);
      // The volumes of all candles add up to the trades' (34.00 DEMO: 10.00 + 6.16 + 17.84).
      const volume = candles.reduce((s, c) => s + BigInt(c[6].replace('.', '')), 0n);
      expect(volume).toBe(trades.reduce((s, t) => s + BigInt(t[2].replace('.', '')), 0n));
      expect(await tab.evaluate<number>(`document.querySelectorAll('svg.chart rect').length`)).toBe(candles.length);
      expect(await text()).not.toMatch(FLOAT_NOISE);
    }
    // An interval the API does not serve: its refusal is shown in the candles' place.
    expect(await open(`#/market/${chain.demo}/2h`)).toBe(`#/market/${chain.demo}/2h ready`);
    expect(await text('#view section .error')).toMatch(/Invalid candle interval/);

    // The limit order that sold into the pool: exact price, no float noise.
    expect(await open(`#/tx/${chain.tx.sellIntoPool}`)).toBe(`#/tx/${chain.tx.sellIntoPool} ready`);
    expect(await text()).toContain('0.4 WART per DEMO');
    await shot('tx-1280');
    // A pending transaction says so.
    expect(await open(`#/tx/${chain.pending.coinTransfer}`)).toBe(`#/tx/${chain.pending.coinTransfer} ready`);
    expect(await text()).toMatch(/pending in the mempool[\s\S]*0\.50000000 WART/);
    // The first block links no block before it (the chain serves heights from 1).
    expect(await open('#/block/1')).toBe('#/block/1 ready');
    expect(await text('#view .nav')).toMatch(/the first block/);
    expect(await hrefs('#view a[href="#/block/0"]')).toEqual([]);

    // An address: every balance, open orders, the pending transfer to it, its history page by page.
    const A = chain.A.addressText;
    expect(await open(`#/address/${A}`)).toBe(`#/address/${A} ready`);
    const coin = await node.data(`/account/${A}/coin_balance`);
    const balances = await text('#balances');
    expect(balances).toContain(`${coin.coin.total.str} WART`);
    for (const spec of [`asset:${chain.demo}`, `liquidity:${chain.demo}`, `asset:${chain.gold}`]) {
      expect(balances).toContain((await node.data(`/account/${A}/balance/${spec}`)).balance.total.str.replace(/\.$/, ''));
    }
    expect(balances).toMatch(/pool shares of\s+DEMO #/);
    expect(await text('#open-orders')).toContain(short(chain.tx.openBuy));
    const pending = await text('#pending');
    expect(pending).toContain(short(chain.pending.coinTransfer));
    expect(pending).toMatch(/received 0\.50000000 WART from/);
    await shot('address-1280');
    // Walk the history with the page's links and compare with the API's paging.
    const expected: string[] = [];
    for (let before = HISTORY_START; ; ) {
      const d = await node.data(`/account/${A}/history/${before}`);
      if (!d.perBlock.length) break;
      for (const b of d.perBlock) for (const k of Object.keys(b.body)) for (const e of [b.body[k]].flat()) if (e) expected.push(e.transaction.hash);
      before = String(d.fromId);
    }
    expect(expected.length).toBeGreaterThan(100);
    const seen: string[] = [];
    let pages = 0;
    for (;;) {
      pages++;
      seen.push(
        ...(await tab.evaluate<string[]>(
          `[...document.querySelectorAll('#history tbody tr')].map((r) => r.querySelector('a.tx-link').getAttribute('href').slice(5))`,
        )),
      );
      if (await tab.evaluate<boolean>(`!!document.getElementById('history-end')`)) break;
      expect(await click('#history-older')).toMatch(new RegExp(`^#/address/${A}/history/\\d+ ready$`));
    }
    expect(pages).toBe(2);
    expect(seen.sort()).toEqual(expected.sort());
    expect(await click('#history-newest')).toBe(`#/address/${A} ready`);

    // From a block to a transaction in it, to the address it paid.
    const mined = (await node.data(`/transaction/lookup/${chain.tx.coinTransfer}`)).mined.block.height;
    expect(await open(`#/block/${mined}`)).toBe(`#/block/${mined} ready`);
    await shot('block-1280');
    expect(await click(`#block-entries a[href="#/tx/${chain.tx.coinTransfer}"]`)).toBe(`#/tx/${chain.tx.coinTransfer} ready`);
    expect(await click(`a[href="#/address/${chain.B.addressText}"]`)).toBe(`#/address/${chain.B.addressText} ready`);
    expect(await text('#history')).toContain(short(chain.tx.coinTransfer));

    // What does not exist is said so.
    expect(await search('NOPE')).toBe('#/search/NOPE error');
    expect(await text('#view .error')).toBe('Nothing found for “NOPE”: no asset named NOPE.');
    await shot('error-1280');
    expect(await search('99999')).toBe('#/search/99999 error');
    expect(await text('#view .error')).toContain('no block at height 99999');
    expect(await search('0'.repeat(64))).toBe(`#/search/${'0'.repeat(64)} error`);
    expect(await text('#view .error')).toContain('no block, transaction or asset with this hash');
    const badChecksum = A.slice(0, 47) + (A[47] === '0' ? '1' : '0');
    expect(await search(badChecksum)).toBe(`#/search/${badChecksum} error`);
    expect(await text('#view .error')).toMatch(/Invalid address/);
    expect(await search('hello world')).toBe('#/search/hello%20world error');
    expect(await text('#view .error')).toMatch(/not something the explorer can look up/);
    expect(await open('#/block/99999')).toBe('#/block/99999 error');
    expect(await text('#view .error')).toMatch(/no block at height 99999/);
  }, 300_000);

  it('opens every page from its own address and fits a phone 390 px wide', async () => {
    await tab.viewport(PHONE, 844, true);
    const A = chain.A.addressText;
    const pages: [string, string][] = [
      ['front', '#/'],
      ['search', '#/search/DEMO'],
      ['market', `#/market/${chain.demo}`],
      ['address', `#/address/${A}`],
      ['block', `#/block/${(await node.data(`/transaction/lookup/${chain.tx.coinTransfer}`)).mined.block.height}`],
      ['tx', `#/tx/${chain.tx.sellIntoPool}`],
      ['error', '#/search/NOPE'],
    ];
    for (const [name, hash] of pages) {
      // A fresh load of the address itself, as a bookmark or a shared link opens it.
      await tab.evaluate(`window.unloaded = false; location.replace(${JSON.stringify(`${node.url}/${hash}`)}); location.reload()`).catch(() => {});
      const shown = await tab.waitFor<string>(
        `${hash} to load`,
        `(() => {
        const v = document.getElementById('view');
        return window.unloaded === undefined && v && (v.dataset.state === 'ready' || v.dataset.state === 'error') && v.dataset.route === ${JSON.stringify(hash)} ? v.dataset.state : '';
      })()`,
      );
      expect(shown).toBe(name === 'error' ? 'error' : 'ready');
      // Nothing wider than the screen: no sideways scrolling of the page.
      expect(await tab.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE);
      await shot(`${name}-${PHONE}`);
    }
    console.log(`screenshots:\n${shots.join('\n')}`);
  }, 300_000);
});
