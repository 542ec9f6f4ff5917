// DOM helpers of the page (no framework), the API client and the page's links: every block,
// transaction, address and asset the page shows links to its own page (`#/block/…`, `#/tx/…`,
// `#/address/…`, `#/market/…`).
import { readJson } from '../core/json.js';
import { short } from './format.js';

export type Child = Node | string | number | bigint | null | undefined | false | Child[];

/** An element with attributes (`class`, `href`, `id`, `title`, `data-…`) and children (arrays are flattened; null, undefined and false are skipped). */
export function el(tag: string, attrs: Record<string, string | undefined> = {}, ...children: Child[]): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, v);
  append(e, children);
  return e;
}

function append(e: HTMLElement | DocumentFragment, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(e, c);
    else e.append(c instanceof Node ? c : String(c));
  }
}

export function frag(...children: Child[]): DocumentFragment {
  const f = document.createDocumentFragment();
  append(f, children);
  return f;
}

/** A failed API request: the node's error code (0 when the request itself failed) and text. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * GET an API route (of the node at `base`, default this page's); the `data` of `{code: 0, data}`,
 * or throws ApiError with the node's code and text. uint64 values beyond 2^53 arrive as bigint.
 */
export async function api(path: string, base = ''): Promise<any> {
  let r: Response;
  try {
    r = await fetch(base + path);
  } catch (e) {
    throw new ApiError(0, `the node did not answer ${path}: ${(e as Error).message}`);
  }
  const text = await r.text();
  let j: any;
  try {
    j = readJson(text);
  } catch {
    throw new ApiError(0, `${path} answered HTTP ${r.status} with something that is not JSON`);
  }
  if (typeof j === 'object' && j !== null && 'code' in j) {
    if (j.code !== 0) throw new ApiError(Number(j.code), `${j.error} (code ${j.code})`);
    return j.data;
  }
  return j;
}

/** Error codes that mean "no such thing": not found, asset hash or id not found, token id not found. */
const NOT_FOUND = new Set([56, 131, 185, 186]);

/** Like api(), but null where the node answers that the thing does not exist. */
export async function lookup(path: string): Promise<any> {
  try {
    return await api(path);
  } catch (e) {
    if (e instanceof ApiError && NOT_FOUND.has(e.code)) return null;
    throw e;
  }
}

/** Runs `fn` over `items` with at most `limit` requests at once; results in order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

// --- links --------------------------------------------------------------------------------------

export const href = {
  block: (id: string | number | bigint) => `#/block/${id}`,
  tx: (hash: string) => `#/tx/${hash}`,
  address: (a: string | number | bigint) => `#/address/${a}`,
  market: (asset: string | number | bigint) => `#/market/${asset}`,
  search: (q: string) => `#/search/${encodeURIComponent(q)}`,
};

/** A hash shown whole (wraps on narrow screens) or shortened with the whole in its title. */
function hashText(hash: string, whole: boolean): HTMLElement {
  return el('span', { class: whole ? 'hash' : 'hash short', title: whole ? undefined : hash }, whole ? hash : short(hash));
}

export const blockLink = (height: number | bigint | string, text?: Child): HTMLElement =>
  el('a', { href: href.block(String(height)), class: 'block-link' }, text ?? String(height));
export const blockHashLink = (hash: string, whole = false): HTMLElement => el('a', { href: href.block(hash), class: 'block-link' }, hashText(hash, whole));
export const txLink = (hash: string, whole = false): HTMLElement => el('a', { href: href.tx(hash), class: 'tx-link' }, hashText(hash, whole));
export const addressLink = (address: string, whole = false): HTMLElement =>
  el('a', { href: href.address(address), class: 'address-link' }, hashText(address, whole));
/** An asset's market, named "DEMO #3" (names are not unique; the id is). */
export const marketLink = (asset: { id: number | bigint | string; name: string; hash?: string }, text?: Child): HTMLElement =>
  el('a', { href: href.market(asset.hash ?? String(asset.id)), class: 'market-link', title: asset.hash }, text ?? assetLabel(asset));
export const assetLabel = (asset: { id: number | bigint | string; name: string }): string => `${asset.name} #${asset.id}`;

// --- layout -------------------------------------------------------------------------------------

/** A titled section of a view. */
export function section(title: Child, ...children: Child[]): HTMLElement {
  return el('section', {}, el('h2', {}, title), ...children);
}

/** Label–value rows (a definition list; stacks on a phone). */
export function facts(rows: [string, Child][]): HTMLElement {
  return el(
    'dl',
    { class: 'facts' },
    rows.filter(([, v]) => v !== undefined && v !== null && v !== false).map(([k, v]) => el('div', {}, el('dt', {}, k), el('dd', {}, v))),
  );
}

/**
 * A table with a header row; on a phone each row becomes a card of label–value lines (the cells
 * carry their column's name in `data-label`).
 */
export function table(head: string[], rows: Child[][], attrs: Record<string, string> = {}): HTMLElement {
  return el(
    'div',
    { class: 'scroll' },
    el(
      'table',
      { ...attrs, class: `cards ${attrs.class ?? ''}`.trim() },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          head.map((h) => el('th', {}, h)),
        ),
      ),
      el(
        'tbody',
        {},
        rows.map((r) =>
          el(
            'tr',
            {},
            r.map((c, i) => el('td', { 'data-label': head[i] }, c)),
          ),
        ),
      ),
    ),
  );
}

export const note = (...children: Child[]): HTMLElement => el('p', { class: 'note' }, ...children);
export const errorBox = (message: string): HTMLElement => el('p', { class: 'error', role: 'alert' }, message);
export const amount = (text: string, unit: string): HTMLElement => el('span', { class: 'amount' }, text, ' ', el('span', { class: 'unit' }, unit));
