// The page at `/` (bundled by esbuild to dist/web/app.js): an explorer over the node's HTTP API
// (explorer.ts) with a page of its own for every block, transaction, address, market and search
// (`#/block/…`, `#/tx/…`, `#/address/…`, `#/market/…`, `#/search/…`), and on its front page the
// node's status, a light node that verifies the header chain in this page with the node's own
// consensus code and WASM kernel (light_node.ts), and the index of every route with its JSON
// Schema. No framework: a few DOM helpers (dom.ts).
import { initKernel } from '../kernel/instance.js';
import { networkParams, type NetworkName } from '../consensus/params.js';
import { LightNode, type LightStatus } from './light_node.js';
import { HttpFollower } from './http_follower.js';
import type { PageConfig } from '../api/web_page.js';
import { ApiError, api, blockLink, blockHashLink, el, errorBox, facts, frag, href, note, type Child } from './dom.js';
import { addressView, blockView, frontSections, marketView, searchView, txView, type View } from './explorer.js';

const config = JSON.parse(document.getElementById('config')!.textContent!) as PageConfig;

function panel(id: string, title: string, ...children: Child[]): HTMLElement {
  return el('section', { id }, el('h2', {}, title), ...children);
}

// --- status -------------------------------------------------------------------------------------

const statusBody = el('div', {}, 'loading…');
const tipLink = el('span', { id: 'tip' });
async function refreshStatus(): Promise<void> {
  try {
    const [head, info, peers, mempool] = await Promise.all([
      api('/chain/head'),
      api('/tools/info'),
      api('/peers/connected').catch(() => []),
      api('/transaction/mempool'),
    ]);
    const tip = head.chainHead ?? head; // the 0.8 generation's head is flat
    statusBody.replaceChildren(
      facts([
        ['Network', config.network],
        ['API generation', config.api],
        ['Height', blockLink(tip.height)],
        ['Tip', blockHashLink(tip.hash)],
        ['Sync', head.synced ? 'synced' : 'catching up with its peers'],
        ['Peers', String(peers.length)],
        ['Mempool', `${(mempool.data ?? mempool).length} pending`],
        ['Version', String(info.version?.name ?? info.version)],
        ['Uptime', info.uptime?.formatted],
      ]),
    );
    tipLink.replaceChildren(blockLink(tip.height, `height ${tip.height}`));
  } catch (e) {
    statusBody.replaceChildren(errorBox(`status: ${(e as Error).message}`));
  }
}

// --- light node ---------------------------------------------------------------------------------

const lightBody = el('div', {});
const lightSource = el('span', { id: 'light-source' });
function showLight(s: LightStatus): void {
  lightBody.replaceChildren(
    el(
      'p',
      {},
      'Verified height: ',
      el('strong', { id: 'verified-height' }, s.verified),
      ' of ',
      el('span', { id: 'peer-length' }, s.peerLength),
      ' announced · ',
      el('span', { id: 'headers-per-second' }, s.headersPerSecond),
      ' headers/s',
    ),
    el(
      'p',
      { id: 'light-state', class: s.error ? 'error' : 'ok' },
      s.error
        ? `refused: ${s.error}`
        : s.connected
          ? s.verified === s.peerLength
            ? 'in sync, following new blocks'
            : 'downloading and verifying…'
          : 'connecting…',
    ),
    facts([
      ['Start', s.anchor ? `the checkpoint at height ${s.anchor} (consensus.md §5.5): the headers before it hash-link to it` : 'genesis'],
      ['Tip', s.verifiedHash ? blockHashLink(s.verifiedHash) : '–'],
      [s.anchor ? 'Work since the checkpoint' : 'Worksum', `0x${s.worksum}`],
      ['Reorgs', s.reorgs.length ? s.reorgs.map((h) => `cut back to ${h}`).join(', ') : 'none'],
    ]),
  );
}

/**
 * Over the node's WebSocket P2P port when it has one (or `?peer=ws://…`); else, or with
 * `?source=http`, over its HTTP interface (`?http=` another base URL).
 */
async function startLightNode(): Promise<void> {
  const q = new URLSearchParams(location.search);
  const peer = q.get('peer') ?? (config.ws ? `${config.ws.tls ? 'wss' : 'ws'}://${location.hostname}:${config.ws.port}/` : null);
  await initKernel();
  const network = config.network as NetworkName;
  const params = networkParams(network);
  let node: LightNode | HttpFollower;
  if (peer && q.get('source') !== 'http' && !q.has('http')) {
    lightSource.textContent = `over the node\u2019s WebSocket P2P port (${peer})`;
    node = new LightNode({ network, params, socket: new WebSocket(peer, 'binary') as never, onStatus: showLight });
  } else {
    const base = q.get('http') ?? '';
    lightSource.textContent = `over the node\u2019s HTTP interface${base ? ` (${base})` : ''}${config.ws ? '' : ', the node having no --ws-port'}`;
    node = new HttpFollower({ params, get: (path) => api(path, base), onStatus: showLight });
  }
  showLight(node.status());
  (window as unknown as { lightNode: LightNode | HttpFollower }).lightNode = node;
}

// --- routes -------------------------------------------------------------------------------------

let schemas: Promise<Record<string, unknown>> | null = null;
function routeIndex(): HTMLElement {
  const out = el('pre', { id: 'schema' });
  const rows = config.routes.map((r) => {
    const link = r.schema
      ? el('a', { href: '/debug/json_schemas', class: 'schema-link' }, r.schema)
      : el('span', { class: 'null' }, r.method === 'POST' ? '{code}' : '');
    link.addEventListener('click', async (ev) => {
      ev.preventDefault();
      schemas ??= api('/debug/json_schemas');
      const name = r.schema!.replace(/^\[(.*)\]$/, '$1');
      out.textContent = `${r.schema}\n${JSON.stringify((await schemas)[name], null, 2)}`;
    });
    return el('tr', {}, el('td', {}, r.method), el('td', {}, r.link ? el('a', { href: r.path }, r.path) : r.path), el('td', {}, link));
  });
  return el(
    'details',
    {},
    el('summary', {}, `${config.routes.length} routes; every answer is JSON`),
    el('p', {}, el('a', { href: '/debug/json_schemas' }, '/debug/json_schemas'), ' has every schema; docs/api.md documents the interface.'),
    el('div', { class: 'scroll' }, el('table', {}, el('tr', {}, el('th', {}, 'method'), el('th', {}, 'route'), el('th', {}, 'response schema')), ...rows)),
    out,
  );
}

// --- the page -----------------------------------------------------------------------------------

const statusPanel = panel('status', 'Node', statusBody);
const lightPanel = panel(
  'light',
  'Light node in this page',
  el(
    'p',
    { class: 'note' },
    'This page downloads every header from the node ',
    lightSource,
    ' and checks link, version, target, proof of work and timestamps with the node\u2019s own consensus code compiled to WebAssembly.',
  ),
  lightBody,
);
const routesPanel = panel('routes', 'API routes', routeIndex());

const searchInput = el('input', {
  id: 'search-input',
  type: 'search',
  name: 'q',
  autocomplete: 'off',
  spellcheck: 'false',
  'aria-label': 'search',
  placeholder: 'height, hash, address or asset',
  title: 'a block height, a block or transaction hash, an address, or an asset name, id or hash',
}) as HTMLInputElement;
const searchForm = el('form', { id: 'search', role: 'search' }, searchInput, el('button', { type: 'submit' }, 'Search'));
searchForm.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const q = searchInput.value.trim();
  if (!q) return;
  const target = href.search(q);
  if (location.hash === target) void show();
  else location.hash = target;
});

/** The routed part of the page; `data-route` is the route it shows, `data-state` loading, filling (shown, sections loading), ready or error. */
const view = el('div', { id: 'view', 'data-state': 'loading' });

async function front(): Promise<View> {
  // The explorer reads the contract generation's shapes; another generation's node shows its status, the light node and its routes.
  const contract = config.api === 'contract';
  const { sections, loaded } = contract ? frontSections() : { sections: [], loaded: undefined };
  return {
    title: `wartnode · ${config.network}`,
    body: el(
      'div',
      {},
      contract
        ? null
        : note(
            `This node serves the API generation ${config.api}; the explorer (recent blocks, markets, the search\u2019s pages) reads the contract generation, --api=contract.`,
          ),
      statusPanel,
      ...sections,
      lightPanel,
      routesPanel,
    ),
    loaded,
  };
}

const ROUTES: [RegExp, (m: string[]) => Promise<View>][] = [
  [/^\/?$/, () => front()],
  [/^\/block\/([^/]+)$/, (m) => blockView(m[1])],
  [/^\/tx\/([^/]+)$/, (m) => txView(m[1])],
  [/^\/address\/([^/]+)(?:\/history\/(\d+))?$/, (m) => addressView(m[1], m[2])],
  [/^\/market\/([^/]+)(?:\/([^/]+))?$/, (m) => marketView(m[1], m[2])],
  [/^\/search\/(.*)$/, (m) => searchView(m[1])],
];

let shown = 0;
/** The route being opened is a search's single match. */
let searched = false;
/** Shows the route in the address bar's fragment (`#/…`; none: the front page). */
async function show(): Promise<void> {
  const mine = ++shown;
  const hash = location.hash;
  let path: string;
  try {
    path = decodeURIComponent(hash.replace(/^#/, ''));
  } catch {
    path = hash.replace(/^#/, '');
  }
  view.dataset.state = 'loading';
  view.dataset.route = hash;
  view.setAttribute('aria-busy', 'true');
  const search = /^\/search\/(.*)$/.exec(path);
  // The box keeps the query on its result's page, and empties on pages reached otherwise.
  if (search) searchInput.value = search[1];
  else if (!searched) searchInput.value = '';
  searched = false;
  let result: View;
  try {
    const route = ROUTES.find(([re]) => re.test(path));
    if (!route) throw new ApiError(0, `There is no page “${path}” here: pages are #/block/…, #/tx/…, #/address/…, #/market/… and #/search/….`);
    result = await route[1](route[0].exec(path)!);
  } catch (e) {
    if (mine !== shown) return;
    view.replaceChildren(
      frag(
        el('h1', {}, e instanceof ApiError && (e.code === 56 || e.code === 185 || e.code === 186) ? 'Not found' : 'Error'),
        errorBox((e as Error).message),
        search
          ? note(
              'The search takes a block height, a block or transaction hash (64 hex characters), an address (48 hex characters), or an asset\u2019s name, id or hash.',
            )
          : null,
        el('p', {}, el('a', { href: '#/' }, 'front page')),
      ),
    );
    document.title = `error · wartnode`;
    view.dataset.state = 'error';
    view.removeAttribute('aria-busy');
    return;
  }
  if (mine !== shown) return;
  if ('redirect' in result) {
    searched = search !== null;
    location.replace(result.redirect);
    if (location.hash === hash) void show();
    return;
  }
  view.replaceChildren(result.body);
  document.title = `${result.title} · wartnode`;
  if (!search) window.scrollTo(0, 0);
  if (result.loaded) {
    view.dataset.state = 'filling'; // shown, its sections still loading
    await result.loaded;
    if (mine !== shown) return;
  }
  view.dataset.state = 'ready';
  view.removeAttribute('aria-busy');
}

document
  .getElementById('app')!
  .replaceChildren(
    el('header', {}, el('a', { href: '#/', class: 'brand' }, el('h1', {}, 'wartnode')), el('span', { class: 'network' }, config.network), tipLink, searchForm),
    view,
  );
window.addEventListener('hashchange', () => void show());
void show();
void refreshStatus();
setInterval(() => void refreshStatus(), 5_000);
void startLightNode().catch((e) => lightBody.replaceChildren(el('p', { id: 'light-state', class: 'error' }, `light node: ${(e as Error).message}`)));
