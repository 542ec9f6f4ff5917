// How an answer of our node (`--api=0.8`) is held against the mainnet reference node 0.8.20's
// answer to the same request: by scripts/mainnet-diff.mjs on the live pair, and by
// test/api/reference_mainnet_chain.test.ts on the recording it writes
// (test/vectors/reference-0.8.20-mainnet/). One comparison and one list of known reference defects
// for both.
//
// An answer is `{status, text}` (status 0: the connection closed without an answer). Both texts are
// parsed with exact numbers (exact-json.mjs) and compared leaf by leaf, object keys in any order:
// integers by exact value, doubles as the same double (`1.5e-05` = `0.000015`; nlohmann writes
// doubles with the shortest round-trip digits of its own algorithm); the HTTP status too. Routes whose
// values depend on the moment or the node (templates, peers, version, a new wallet) are compared by
// shape: the same keys and value types. A difference that is a documented print defect of the
// reference (KNOWN, each naming its tagged line of docs/reference-differences.md) is counted as known.
import { Num, big, isObject, leafDiffs, parseJson, sameNumberValue, sortedJson } from './exact-json.mjs';

export const DOC = 'docs/reference-differences.md';

/** Routes compared by shape only: their values depend on the time, the node or chance. */
export const SHAPE_ONLY = [
  /^\/chain\/mine\/[^/]+(\/log)?$/,
  /^\/peers\/connected(\/connection)?$/,
  /^\/peers\/ip_count$/,
  /^\/tools\/version$/,
  /^\/tools\/wallet\/new$/,
];

/** Routes asked of the live pair only (they describe the two nodes' connection), not recorded. */
export const LIVE_ONLY = [/^\/peers\//];

const shapeOnly = (route) => SHAPE_ONLY.some((r) => r.test(route.split('?')[0]));
export const liveOnly = (route) => LIVE_ONLY.some((r) => r.test(route.split('?')[0]));

/**
 * Known print defects of the reference's answers. A matcher sees one differing leaf
 * `{route, path, ours, ref, oursDoc, refDoc, height}` (texts, parsed answers, the chain height) and
 * accepts only a difference in how the reference prints a value, never in the value itself.
 */
export const KNOWN = [
  {
    // Up to height 720 the reference's work sum of a window runs down to block 1 (header_chain.cpp sum_work).
    id: '0.8-early-hashrate',
    tag: '**0.8-early-hashrate**',
    match: (c) =>
      ((/^\/chain\/hashrate\/\d+$/.test(c.route) && c.path === '$.data.lastNBlocksEstimate') ||
        (/^\/chain\/hashrate\/chart\//.test(c.route) && /^\$\.data\.data\[\d+\]$/.test(c.path))) &&
      c.height <= 720 &&
      /^[\d.e+]+$/.test(c.ours) &&
      /^[\d.e+]+$/.test(c.ref) &&
      Number(c.ref) > Number(c.ours),
  },
];

/**
 * Finds each entry's line in the document's text (by its tag): sets `line` to `doc:N`; returns the ids
 * whose tag the text lacks. `known` and `doc`: this table and DOC unless given (defi-diff's table).
 */
export function locateKnown(docText, known = KNOWN, doc = DOC) {
  const lines = docText.split('\n');
  const missing = [];
  for (const k of known) {
    const n = lines.findIndex((l) => l.includes(k.tag));
    if (n < 0) missing.push(k.id);
    else k.line = `${doc}:${n + 1}`;
  }
  return missing;
}

/** The shape of a value: leaves become their type's name, arrays the shape of their first element. */
export function shapeOf(v) {
  if (v instanceof Num) return 'number';
  if (Array.isArray(v)) return v.length ? [shapeOf(v[0])] : [];
  if (isObject(v)) return Object.fromEntries(Object.keys(v).map((k) => [k, shapeOf(v[k])]));
  return v === null ? 'null' : typeof v;
}

/** Text of an answer for a report. */
export const answerText = (a) => (a.status === 0 ? `(no answer: ${a.text})` : `HTTP ${a.status} ${a.text}`);

const parsed = (a) => {
  try {
    return parseJson(a.text);
  } catch {
    return undefined;
  }
};

/**
 * `/transaction/mempool` lists by fee, highest first; among equal fees in arrival order, which
 * differs between two nodes (each gets the other's transactions later). Equal-fee runs are compared
 * as sets (ordered by hash); the fee order itself is checked on each side.
 */
function feeOrdered(doc, side, diffs) {
  const list = doc?.data?.data;
  if (!Array.isArray(list)) return doc;
  const fee = (e) => big(e.feeE8);
  for (let i = 1; i < list.length; i++)
    if (fee(list[i]) > fee(list[i - 1])) {
      diffs.push({
        path: `$.data.data[${i}] (fee order)`,
        ours: side === 'ours' ? 'a higher fee after a lower one' : 'by fee',
        ref: side === 'ref' ? 'a higher fee after a lower one' : 'by fee',
      });
      break;
    }
  const sorted = [...list].sort((a, b) => (fee(b) > fee(a) ? 1 : fee(b) < fee(a) ? -1 : String(a.txHash).localeCompare(String(b.txHash))));
  return { ...doc, data: { ...doc.data, data: sorted } };
}

/**
 * `/account/richlist` lists by balance, largest first; the order of equal balances is left open
 * (http-api-details.md §7.4; docs/reference-differences.md, "Left open"): compared as sets.
 */
function balanceOrdered(doc, side, diffs) {
  const list = doc?.data;
  if (!Array.isArray(list)) return doc;
  const bal = (e) => big(e.balanceE8);
  for (let i = 1; i < list.length; i++)
    if (bal(list[i]) > bal(list[i - 1])) {
      diffs.push({
        path: `$.data[${i}] (balance order)`,
        ours: side === 'ours' ? 'a larger balance after a smaller one' : 'by balance',
        ref: side === 'ref' ? 'a larger balance after a smaller one' : 'by balance',
      });
      break;
    }
  const sorted = [...list].sort((a, b) => (bal(b) > bal(a) ? 1 : bal(b) < bal(a) ? -1 : String(a.address).localeCompare(String(b.address))));
  return { ...doc, data: sorted };
}

/**
 * Compares our answer with the reference's to the request `route` (`GET /path` or `POST /path`).
 * Returns `{diffs: [{path, ours, ref}], known: [{id, line, path}]}`.
 */
export function compareAnswers(route, ours, ref, { height = 0 } = {}) {
  const diffs = [],
    known = [];
  const path = route.replace(/^(GET|POST) /, '');
  let o = parsed(ours),
    r = parsed(ref);
  const leaves = [];
  if (ours.status === 0 && ref.status === 0) {
    // Neither answered: both closed the connection (a path no route serves).
  } else if (ours.status !== ref.status || (o === undefined) !== (r === undefined)) {
    leaves.push({ path: '$ (status, answer)', ours: answerText(ours), ref: answerText(ref) });
  } else if (o === undefined) {
    if (ours.text !== ref.text) leaves.push({ path: '$ (text)', ours: ours.text, ref: ref.text });
  } else if (shapeOnly(path) && !(isObject(r) && r.code instanceof Num && r.code.t !== '0')) {
    leafDiffs(shapeOf(o), shapeOf(r), '$', leaves);
  } else {
    if (path === '/transaction/mempool') {
      o = feeOrdered(o, 'ours', leaves);
      r = feeOrdered(r, 'ref', leaves);
    }
    if (path === '/account/richlist') {
      o = balanceOrdered(o, 'ours', leaves);
      r = balanceOrdered(r, 'ref', leaves);
    }
    leafDiffs(o, r, '$', leaves, sameNumberValue);
  }
  for (const d of leaves) {
    const k = KNOWN.find((e) => e.match({ route: path, ...d, oursDoc: o, refDoc: r, height }));
    if (k) known.push({ id: k.id, line: k.line, path: d.path });
    else diffs.push({ path: d.path, ours: d.ours, ref: d.ref });
  }
  return { diffs, known };
}

export { sortedJson };
