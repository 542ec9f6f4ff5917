// The layering of docs/architecture.md, checked (as Bitcoin Core's lint-circular-dependencies):
// every import of every file under ts/ is read with the TypeScript parser, type-only imports
// included (they bind the files as much as value imports do for a reader); the test fails on any
// import cycle between files, and on any import of a layer the importing layer does not declare
// below, unless allowed_imports.json lists it with the reason. Stale entries fail too, so the
// list only shrinks.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const ROOT = resolve('ts');

interface Layer {
  name: string;
  /** Files (a name) or directories (a name ending in '/') under ts/; '../' reaches beside ts/. */
  paths: string[];
  /** The layers it may import: all declared before it (dependencies point one way). */
  uses: string[];
}

// Bottom to top. kernel, core, consensus and dex are pure: no clock, I/O or log.
const LAYERS: Layer[] = [
  { name: 'kernel', paths: ['kernel/', '../wasm/'], uses: [] },
  { name: 'core', paths: ['core/'], uses: ['kernel'] },
  { name: 'consensus', paths: ['consensus/'], uses: ['core', 'kernel'] },
  { name: 'dex', paths: ['dex/'], uses: ['core', 'kernel'] },
  // Command lines: the option-table parser and --help of the three programs.
  { name: 'cli', paths: ['cli/'], uses: [] },
  { name: 'log', paths: ['log.ts'], uses: [] },
  { name: 'version', paths: ['version.ts'], uses: [] },
  { name: 'store', paths: ['store/'], uses: ['core', 'kernel'] },
  { name: 'state', paths: ['state/'], uses: ['store', 'dex', 'consensus', 'core', 'kernel'] },
  { name: 'chain', paths: ['chain/'], uses: ['state', 'store', 'consensus', 'core', 'kernel', 'log'] },
  // Block assembly: tries a block on the ledger's database. Under the mempool, which vets exchange
  // transactions with a trial block.
  { name: 'mining', paths: ['mining/'], uses: ['chain', 'state', 'store', 'dex', 'consensus', 'core', 'kernel'] },
  { name: 'mempool', paths: ['mempool/'], uses: ['mining', 'chain', 'state', 'consensus', 'core', 'kernel', 'log'] },
  // p2p keeps its own records (peers, bans, offenses, transmission) in the store.
  { name: 'p2p', paths: ['p2p/'], uses: ['mempool', 'chain', 'state', 'store', 'consensus', 'core', 'kernel', 'log', 'version'] },
  { name: 'stratum', paths: ['stratum/'], uses: ['mempool', 'mining', 'chain', 'consensus', 'core', 'kernel', 'log'] },
  // The network names are consensus's; a seed table given for tests has p2p's type.
  { name: 'config', paths: ['config.ts'], uses: ['p2p', 'consensus', 'cli', 'core', 'kernel', 'version'] },
  // Reads the ledger and the chain through read views, never the store.
  {
    name: 'api',
    paths: ['api/'],
    uses: ['config', 'stratum', 'p2p', 'mempool', 'mining', 'chain', 'state', 'dex', 'consensus', 'core', 'kernel', 'log', 'version'],
  },
  // HTTP clients of a node: the codecs and the kernel, never the node's own layers.
  { name: 'wallet', paths: ['wallet/'], uses: ['cli', 'core', 'kernel', 'version'] },
  { name: 'miner', paths: ['miner/'], uses: ['stratum', 'cli', 'consensus', 'core', 'kernel', 'version'] },
  // The page at `/` and the browser node: the wire protocol and the consensus code, run in a browser.
  { name: 'web', paths: ['web/', 'browser/'], uses: ['api', 'p2p', 'consensus', 'core', 'kernel'] },
  {
    name: 'main',
    paths: ['main.ts'],
    uses: ['api', 'stratum', 'p2p', 'mempool', 'chain', 'store', 'consensus', 'core', 'kernel', 'config', 'cli', 'log', 'version'],
  },
];

interface Allowed {
  from: string;
  to: string;
  why: string;
}
const ALLOWED: Allowed[] = JSON.parse(readFileSync('test/architecture/allowed_imports.json', 'utf8'));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The relative module specifiers `file` imports: static, re-exported, dynamic and `import('…')` types. */
function importsOf(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      out.push(n.moduleSpecifier.text);
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) {
      out.push(n.arguments[0].text);
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      out.push(n.argument.literal.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out.filter((s) => s.startsWith('.'));
}

/** file (relative to ts/) → the files it imports (relative to ts/). */
function importGraph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const file of sourceFiles(ROOT)) {
    g.set(
      relative(ROOT, file),
      importsOf(file).map((s) => relative(ROOT, resolve(dirname(file), s)).replace(/\.js$/, '.ts')),
    );
  }
  return g;
}

function layerOf(file: string): Layer | undefined {
  return LAYERS.find((l) => l.paths.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p)));
}

/** The import cycles: every strongly connected component of more than one file, or a file importing itself. */
function cycles(g: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    stack: string[] = [],
    on = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || g.get(v)!.includes(v)) found.push(c.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) connect(v);
  return found;
}

const graph = importGraph();

test('the layers are declared bottom to top: each uses only layers declared before it', () => {
  const seen = new Set<string>();
  for (const l of LAYERS) {
    expect(
      l.uses.filter((u) => !seen.has(u)),
      `${l.name} uses`,
    ).toEqual([]);
    seen.add(l.name);
  }
});

test('every file under ts/ belongs to one layer', () => {
  expect([...graph.keys()].filter((f) => !layerOf(f))).toEqual([]);
});

test('no import cycles between files', () => {
  expect(cycles(graph)).toEqual([]);
});

test('imports point down the layers, or allowed_imports.json says why not', () => {
  const upward: string[] = [];
  for (const [from, targets] of graph) {
    const a = layerOf(from)!;
    for (const to of targets) {
      const b = layerOf(to);
      if (!b) {
        upward.push(`${from} → ${to} (outside every layer)`);
        continue;
      }
      if (a === b || a.uses.includes(b.name)) continue;
      if (!ALLOWED.some((e) => e.from === from && e.to === to)) upward.push(`${from} → ${to} (${a.name} does not use ${b.name})`);
    }
  }
  expect(upward).toEqual([]);
});

test('every entry of allowed_imports.json gives a reason and is still needed', () => {
  for (const e of ALLOWED) expect(e.why.trim().length, `${e.from} → ${e.to}`).toBeGreaterThan(20);
  const stale = ALLOWED.filter((e) => {
    const a = layerOf(e.from),
      b = layerOf(e.to);
    return !graph.get(e.from)?.includes(e.to) || !a || !b || a === b || a.uses.includes(b.name);
  });
  expect(stale.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
});
