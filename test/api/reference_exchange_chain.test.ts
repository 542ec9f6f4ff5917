// The chain of the recorded exchange session with the 0.10.3 reference (test/vectors/
// reference-0.10.3-exchange, recorded by scripts/record-exchange.mjs; its README) appended to a fresh
// node of ours (`--api=0.10`) block by block, as the reference and our node built it; after each
// block our answers to every request the reference answered then (head, block, balances of every
// account and token, open orders, history, market, asset and transaction lookups) must equal the
// reference's, keys sorted. Fields of the reference's JSON that are its own defects (the tagged entries of
// docs/reference-differences.md) are listed in REFERENCE_DEFECTS with the reason and not compared;
// balances and validity always are.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { parseJsonExact } from '../helpers/json.js';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';

await initKernel();

const DIR = join(import.meta.dirname, '../vectors/reference-0.10.3-exchange');
interface Block {
  height: number;
  hash: string;
  minedBy: 'ref' | 'ours';
  step: string;
  header: string;
  body: string;
}
interface Tx {
  txHash: string;
  type: string;
  fields: { isLiquidity?: boolean };
}
const CHAIN = JSON.parse(readFileSync(join(DIR, 'chain.json'), 'utf8')) as { blocks: Block[]; transactions: Tx[] };
const ANSWERS = new Map<number, Record<string, any>>(
  readdirSync(join(DIR, 'answers'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      const a = parseJsonExact(readFileSync(join(DIR, 'answers', f), 'utf8')) as { height: number; answers: Record<string, any> };
      return [a.height, a.answers];
    }),
);

/** Hashes of the recorded pool-share (liquidity token) transfers. */
const SHARE_TRANSFERS = new Set(CHAIN.transactions.filter((t) => t.type === 'tokenTransfer' && t.fields.isLiquidity).map((t) => t.txHash));
const TX_ROUTES = /^\/(chain\/block|transaction\/lookup|account\/[0-9a-f]+\/history)\//;

/**
 * Members not compared, found by walking the reference's answer and ours side by side: at every object
 * of the reference's answer for which `when` holds, the `drop` members (dotted paths, `*` any key or
 * index) are removed from it and from ours at the same place.
 */
interface Exclusion {
  routes: RegExp;
  when: (ref: any) => boolean;
  drop: string[];
}

/**
 * The reference's JSON defects: what it prints there is wrong (ours keeps the right value) or undefined.
 * Each is a tagged entry of docs/reference-differences.md ("API: where our answers differ"); `tag` names it.
 */
const REFERENCE_DEFECTS: (Exclusion & { tag: string; why: string })[] = [
  {
    tag: 'uninitialised-remaining',
    routes: TX_ROUTES,
    when: (r) => r?.data?.limit !== undefined && r?.processed?.remaining?.str === '',
    drop: ['processed.remaining'],
    why: 'a closed order (filled or canceled): `remaining` comes from uninitialised memory, ' + '{"u64":<garbage>,"decimals":<garbage>,"str":""}',
  },
  {
    tag: 'buy-amounts',
    routes: TX_ROUTES,
    when: (r) => r?.data?.limit !== undefined && r?.data?.buy === true,
    drop: ['processed.remaining.decimals', 'processed.remaining.str'],
    why:
      'an open buy order\'s remaining coins are printed with the asset\'s decimals ("4999999.99", decimals 2, ' + 'for 4.99999999 coins); the u64 is compared',
  },
  {
    tag: 'buy-amounts',
    routes: /^\/(account\/[0-9a-f]+\/open_orders|dex\/market\/)/,
    when: (r) => Array.isArray(r?.wartToAssetSwaps),
    drop: ['wartToAssetSwaps.*.amount.decimals', 'wartToAssetSwaps.*.amount.str', 'wartToAssetSwaps.*.filled.decimals', 'wartToAssetSwaps.*.filled.str'],
    why: "buy orders' coin amounts (amount, filled) are printed with the asset's decimals; the u64 values are compared",
  },
  {
    tag: 'share-amounts',
    routes: TX_ROUTES,
    when: (r) => r?.processed?.sharesReceived !== undefined,
    drop: ['processed.sharesReceived.decimals', 'processed.sharesReceived.str'],
    why:
      "a deposit's pool shares are printed with the asset's decimals, not the liquidity token's 8 (its own " +
      '/balance/liquidity: answers say 8); the u64 is compared',
  },
  {
    tag: 'share-transfers',
    routes: TX_ROUTES,
    when: (r) => SHARE_TRANSFERS.has(r?.hash) && r?.data?.tokenSpec !== undefined,
    drop: ['data.isLiquidity', 'data.tokenSpec', 'data.amount.decimals', 'data.amount.str'],
    why:
      "a pool-share transfer is shown as an asset transfer (isLiquidity false, tokenSpec asset:…, the asset's " +
      "decimals) though liquidity tokens moved (the recipient's /balance/liquidity: answers); the u64 is compared",
  },
  {
    tag: 'early-hashrate',
    routes: /^\/chain\/head$/,
    when: (r) => r?.data?.chainHead !== undefined && r.data.chainHead.height <= 720,
    drop: ['data.chainHead.hashrate'],
    why:
      "up to height 720 the reference's work sum runs down to block 1, outside the window (here: h blocks over " +
      'the seconds from block 1 to h, where ours counts h − 1)',
  },
];

/**
 * Members that differ because of an open finding on our node (/tmp/diff-findings.md names each): left out
 * of the per-block comparison and compared on their own by one `it.fails` per finding, which therefore
 * passes while our node differs there, and fails once the finding is fixed: then the entry goes.
 * (None open.)
 */
const OPEN_FINDINGS: (Exclusion & { finding: string })[] = [];

type Path = (string | number)[];
/** Removes the members at `pattern` (with `*` wildcards) from `v`, in place; returns them with their paths. */
function drop(v: any, pattern: string[], at: Path = [], out: [string, unknown][] = []): [string, unknown][] {
  if (v === null || typeof v !== 'object' || pattern.length === 0) return out;
  const [head, ...rest] = pattern;
  const keys = head === '*' ? Object.keys(v) : Object.hasOwn(v, head) ? [head] : [];
  for (const k of keys) {
    if (rest.length === 0) {
      out.push([[...at, k].join('.'), v[k]]);
      delete v[k];
    } else drop(v[k], rest, [...at, k], out);
  }
  return out;
}
/** Applies `rules` to the reference's answer and ours side by side; returns the removed members of each, by path. */
function exclude(
  ours: any,
  ref: any,
  route: string,
  rules: Exclusion[],
  at: Path = [],
  out = { ours: new Map<string, unknown>(), ref: new Map<string, unknown>() },
) {
  if (ref === null || typeof ref !== 'object') return out;
  for (const rule of rules) {
    if (!rule.routes.test(route) || !rule.when(ref)) continue;
    for (const d of rule.drop) {
      for (const [p, v] of drop(ref, d.split('.'), at)) out.ref.set(p, v);
      if (ours !== null && typeof ours === 'object') for (const [p, v] of drop(ours, d.split('.'), at)) out.ours.set(p, v);
    }
  }
  for (const k of Object.keys(ref)) exclude(ours?.[k], ref[k], route, rules, [...at, k], out);
  return out;
}
const sortKeys = (v: any): any =>
  Array.isArray(v)
    ? v.map(sortKeys)
    : v !== null && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortKeys(v[k])]),
        )
      : v;
const big = (_k: string, x: unknown) => (typeof x === 'bigint' ? x.toString() : x);
/** The member paths where two JSON values differ (first 20); integers compare by value whatever their JS type. */
function differences(a: any, b: any, at: Path = [], out: string[] = []): string[] {
  if (out.length >= 20) return out;
  const kind = (x: any) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x === 'bigint' ? 'number' : typeof x);
  if (kind(a) === 'object' && kind(b) === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[k], b[k], [...at, k], out);
  } else if (kind(a) === 'array' && kind(b) === 'array') {
    for (let i = 0; i < Math.max(a.length, b.length); i++) differences(a[i], b[i], [...at, i], out);
  } else if (!(kind(a) === kind(b) && (a === b || (kind(a) === 'number' && String(a) === String(b))))) {
    out.push(`${at.join('.') || '(root)'}: ours ${JSON.stringify(a, big)}, reference ${JSON.stringify(b, big)}`);
  }
  return out;
}

let node: TestNode;
beforeAll(async () => {
  node = await startNode(['--regtest', '--api=0.10']);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

describe('the recorded exchange chain (reference 0.10.3) appended to our node, --api=0.10', () => {
  it('holds answers for every block of the chain', () => {
    expect([...ANSWERS.keys()].sort((a, b) => a - b)).toEqual(CHAIN.blocks.map((b) => b.height));
  });

  const openDiffs = new Map(OPEN_FINDINGS.map((f) => [f, [] as string[]]));
  for (const b of CHAIN.blocks) {
    it(`block ${b.height} (${b.step}, mined by ${b.minedBy === 'ref' ? 'the reference' : 'ours'}): our answers equal the reference's`, async () => {
      const r = await node.post('/chain/append', { height: b.height, header: b.header, body: b.body });
      expect(r.body.code, `append: ${r.text}`).toBe(0);
      const diffs: string[] = [];
      for (const [path, recorded] of Object.entries(ANSWERS.get(b.height)!)) {
        const ours = structuredClone((await node.get(path)).body),
          ref = structuredClone(recorded);
        exclude(ours, ref, path, REFERENCE_DEFECTS);
        for (const f of OPEN_FINDINGS) {
          const open = exclude(ours, ref, path, [f]);
          for (const [p, v] of open.ref) {
            openDiffs
              .get(f)!
              .push(...differences(sortKeys(open.ours.get(p)), sortKeys(v)).map((d) => `block ${b.height} ${path} ${p}${d.replace(/^\(root\)/, '')}`));
          }
        }
        for (const d of differences(sortKeys(ours), sortKeys(ref))) diffs.push(`${path} ${d}`);
      }
      expect(diffs, diffs.join('\n')).toEqual([]);
    });
  }

  // One per open finding: fails while our node differs there (so `it.fails` passes); once the finding is
  // fixed it passes, which `it.fails` reports as a failure: then the entry goes.
  for (const f of OPEN_FINDINGS) {
    it.fails(`open finding: ${f.finding}`, () => {
      const found = openDiffs.get(f)!;
      expect(found, found.join('\n')).toEqual([]);
    });
  }
});
