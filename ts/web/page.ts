// The page at `/` (bundled by esbuild to dist/web/app.js). Four panels: the node's status, a light
// node that verifies the header chain in this page with the node's own consensus code and WASM
// kernel (light_node.ts), an explorer over the HTTP API, and the index of every route with its
// JSON Schema. No framework: a few DOM helpers and a generic renderer for API answers.
import { initKernel } from '../kernel/instance.js';
import { networkParams, type NetworkName } from '../consensus/params.js';
import { LightNode, type LightStatus } from './light_node.js';
import { HttpFollower } from './http_follower.js';
import type { PageConfig } from '../api/web_page.js';

const config = JSON.parse(document.getElementById('config')!.textContent!) as PageConfig;

type Child = Node | string | number | null | undefined;
function el(tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
  return e;
}

/** GET an API route (of the node at `base`, default this page's); the `data` of `{code: 0, data}`, or throws with the node's error code and text. */
async function api(path: string, base = ''): Promise<any> {
  const r = await fetch(base + path);
  const j = await r.json();
  if (typeof j === 'object' && j !== null && 'code' in j) {
    if (j.code !== 0) throw new Error(`${j.error} (code ${j.code})`);
    return j.data;
  }
  return j;
}

/** Any JSON answer as nested tables: objects as key/value rows, arrays of objects as a table. */
function render(v: unknown): Node {
  if (v === null || v === undefined) return el('span', { class: 'null' }, 'null');
  if (typeof v !== 'object') return el('span', { class: typeof v }, String(v));
  if (Array.isArray(v)) {
    if (v.length === 0) return el('span', { class: 'null' }, '(none)');
    if (v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x))) {
      const cols = [...new Set(v.flatMap((x) => Object.keys(x)))];
      return el('table', {}, el('tr', {}, ...cols.map((c) => el('th', {}, c))),
        ...v.map((x) => el('tr', {}, ...cols.map((c) => el('td', {}, render((x as Record<string, unknown>)[c]))))));
    }
    return el('ol', {}, ...v.map((x) => el('li', {}, render(x))));
  }
  return el('table', { class: 'kv' }, ...Object.entries(v).map(([k, x]) => el('tr', {}, el('th', {}, k), el('td', {}, render(x)))));
}

function panel(id: string, title: string, ...children: Child[]): HTMLElement {
  return el('section', { id }, el('h2', {}, title), ...children);
}

// --- status -------------------------------------------------------------------------------------

const statusBody = el('div', {}, 'loading…');
async function refreshStatus(): Promise<void> {
  try {
    const [head, info, peers, mempool] = await Promise.all([
      api('/chain/head'), api('/tools/info'), api('/peers/connected').catch(() => []), api('/transaction/mempool'),
    ]);
    const tip = head.chainHead ?? head; // the 0.8 generation's head is flat
    statusBody.replaceChildren(render({
      network: config.network, api: config.api, height: tip.height, hash: tip.hash, synced: head.synced,
      peers: peers.length, mempool: (mempool.data ?? mempool).length, version: info.version?.name ?? info.version, uptime: info.uptime?.formatted,
    }));
  } catch (e) {
    statusBody.replaceChildren(el('p', { class: 'error' }, `status: ${(e as Error).message}`));
  }
}

// --- light node ---------------------------------------------------------------------------------

const lightBody = el('div', {});
const lightSource = el('span', { id: 'light-source' });
function showLight(s: LightStatus): void {
  lightBody.replaceChildren(
    el('p', {}, 'Verified height: ', el('strong', { id: 'verified-height' }, s.verified), ' of ', el('span', { id: 'peer-length' }, s.peerLength),
      ' announced · ', el('span', { id: 'headers-per-second' }, s.headersPerSecond), ' headers/s'),
    el('p', { id: 'light-state', class: s.error ? 'error' : 'ok' },
      s.error ? `refused: ${s.error}` : s.connected ? (s.verified === s.peerLength ? 'in sync, following new blocks' : 'downloading and verifying…') : 'connecting…'),
    render({
      start: s.anchor ? `the checkpoint at height ${s.anchor} (consensus.md §5.5): the headers before it hash-link to it` : 'genesis',
      tip: s.verifiedHash, [s.anchor ? 'work since the checkpoint' : 'worksum']: `0x${s.worksum}`,
      reorgs: s.reorgs.length ? s.reorgs.map((h) => `cut back to ${h}`).join(', ') : 'none',
    }),
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

// --- explorer -----------------------------------------------------------------------------------

const explorerOut = el('div', { id: 'explorer-result' });
const explorerInput = el('input', { id: 'explorer-input', placeholder: 'block height or hash, transaction hash, address, or asset' }) as HTMLInputElement;

/** What the input is, by its form: a height, a 64-hex hash (block, else transaction), a 48-hex address, else an asset. */
async function explore(q: string): Promise<void> {
  q = q.trim();
  if (!q) return;
  explorerOut.replaceChildren('loading…');
  const show = (title: string, parts: [string, unknown][]) =>
    explorerOut.replaceChildren(el('h3', {}, title), ...parts.flatMap(([h, v]) => [el('h4', {}, h), render(v)]));
  try {
    if (/^\d+$/.test(q)) return show(`Block ${q}`, [['block', await api(`/chain/block/${q}`)]]);
    if (/^[0-9a-fA-F]{64}$/.test(q)) {
      const block = await api(`/chain/block/${q}`).catch(() => null);
      if (block) return show('Block', [['block', block]]);
      return show('Transaction', [['transaction', await api(`/transaction/lookup/${q}`)]]);
    }
    if (/^[0-9a-fA-F]{48}$/.test(q)) {
      const [balance, history] = await Promise.all([api(`/account/${q}/coin_balance`), api(`/account/${q}/history/0`).catch((e) => `${e.message}`)]);
      return show(`Address ${q}`, [['coin balance', balance], ['history', history]]);
    }
    const [market, candles] = await Promise.all([api(`/dex/market/${encodeURIComponent(q)}`), api(`/chart/candles/${encodeURIComponent(q)}/3600`).catch(() => [])]);
    show(`Market ${q}`, [['order book and pool', market], ['candles (1 h): begin, height, open, high, low, close, base volume, quote volume', candles]]);
  } catch (e) {
    explorerOut.replaceChildren(el('p', { class: 'error' }, (e as Error).message));
  }
}

// --- routes -------------------------------------------------------------------------------------

let schemas: Promise<Record<string, unknown>> | null = null;
function routeIndex(): HTMLElement {
  const out = el('pre', { id: 'schema' });
  const rows = config.routes.map((r) => {
    const link = r.schema ? el('a', { href: '#schema' }, r.schema) : el('span', { class: 'null' }, r.method === 'POST' ? '{code}' : '');
    link.addEventListener('click', async () => {
      schemas ??= api('/debug/json_schemas');
      const name = r.schema!.replace(/^\[(.*)\]$/, '$1');
      out.textContent = `${r.schema}\n${JSON.stringify((await schemas)[name], null, 2)}`;
    });
    return el('tr', {}, el('td', {}, r.method), el('td', {}, r.link ? el('a', { href: r.path }, r.path) : r.path), el('td', {}, link));
  });
  return el('div', {}, el('p', {}, 'Every answer is JSON; ', el('a', { href: '/debug/json_schemas' }, '/debug/json_schemas'), ' has every schema.'),
    el('table', {}, el('tr', {}, el('th', {}, 'method'), el('th', {}, 'route'), el('th', {}, 'response schema')), ...rows), out);
}

// --- page ---------------------------------------------------------------------------------------

const form = el('form', {}, explorerInput, el('button', { type: 'submit' }, 'Look up'));
form.addEventListener('submit', (ev) => { ev.preventDefault(); void explore(explorerInput.value); });

document.getElementById('app')!.replaceChildren(
  el('header', {}, el('h1', {}, 'wartnode'), el('span', { class: 'network' }, config.network)),
  panel('status', 'Node', statusBody),
  panel('light', 'Light node in this page', el('p', { class: 'note' },
    'This page downloads every header from the node ', lightSource, ' and checks link, version, target, proof of work and timestamps with the node\u2019s own consensus code compiled to WebAssembly.'), lightBody),
  panel('explorer', 'Explorer', form, explorerOut),
  panel('routes', 'Routes', routeIndex()),
);
void refreshStatus();
setInterval(() => void refreshStatus(), 5_000);
void startLightNode().catch((e) => lightBody.replaceChildren(el('p', { id: 'light-state', class: 'error' }, `light node: ${(e as Error).message}`)));
