// The README's "Send your first transaction" must work as written (issue 9: a newcomer sends a
// coin transfer and places an order by following the README alone). Its shell blocks run in bash,
// in order, against a real regtest node; only the node's address and the wallet folder are
// replaced by this test's own. A comment after a `balance` or `orders` command is the output the
// README promises: it must appear (whitespace-insensitive; `<...>` stands for any word).
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';

const SECTION = '## Send your first transaction';
const README_RPC = 'http://127.0.0.1:3200';
const README_DIR = '~/.wartnode/regtest';

/** The section's shell blocks, each a list of lines. */
function shellBlocks(readme: string): string[][] {
  const start = readme.indexOf(SECTION);
  expect(start, `README has a "${SECTION}" section`).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + SECTION.length);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].split('\n').filter((l) => l.trim() !== ''));
}

/** The output a README line promises, as a regex, or null when the line promises none. */
function promised(line: string): RegExp | null {
  const m = /^(.*?\b(?:balance|orders))\s+#\s*(.+)$/.exec(line);
  if (!m) return null;
  const pattern = m[2]
    .trim()
    .split(/\s+/)
    .map((word) =>
      word
        .split(/<[^>]+>/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
        .join('\\S+'),
    )
    .join('\\s+');
  return new RegExp(pattern);
}

const nodes: TestNode[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const n of nodes) {
    await n.stop();
    await removeDir(n.dataDir);
  }
  for (const d of dirs) await removeDir(d);
});

test('the README walk-through: mine, send a coin transfer, place an order', async () => {
  const blocks = shellBlocks(await readFile('README.md', 'utf8'));
  // The first block starts the node; this test starts its own on a free port.
  expect(blocks[0].join('\n')).toMatch(/\.\/dist\/node\.mjs --regtest/);
  const node = await startNode(['--regtest']);
  nodes.push(node);
  const home = await mkdtemp(join(tmpdir(), 'wartnode-readme-'));
  dirs.push(home);

  const lines = blocks
    .slice(1)
    .flat()
    .map((l) => l.replaceAll(README_RPC, node.url).replaceAll(README_DIR, home));
  // One bash run; a marker before each line splits the output per line.
  const script = ['set -e', ...lines.map((l, i) => `echo "@@line ${i}"\n${l}`)].join('\n');
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 240_000, cwd: process.cwd() });
  expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);

  const outputs = new Map<number, string>();
  for (const part of r.stdout.split(/^@@line /m).slice(1)) {
    const nl = part.indexOf('\n');
    outputs.set(Number(part.slice(0, nl)), part.slice(nl + 1));
  }
  let checked = 0;
  lines.forEach((line, i) => {
    const want = promised(line);
    if (!want) return;
    expect(outputs.get(i), `README line "${line}"`).toMatch(want);
    checked++;
  });
  expect(checked, 'the README promises some outputs').toBeGreaterThanOrEqual(4);
  // Every transaction the walk-through sent was mined.
  expect(await node.data('/transaction/mempool')).toEqual([]);
}, 300_000);
