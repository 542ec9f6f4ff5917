// The CPU miner as a user runs it (dist/miner.mjs): help, command-line errors, a node that cannot be
// reached, and mining against a real regtest node (issue 9 §3).
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { removeDir, startNode, type TestNode } from '../helpers/node.js';
import { TestWallet } from '../helpers/wallet.js';
import { initKernel } from '../../ts/kernel/instance.js';

const MINER = join(import.meta.dirname, '../../dist/miner.mjs');
let ADDRESS = '';

function miner(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MINER, ...args], { timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

let node: TestNode;
beforeAll(async () => {
  await initKernel();
  ADDRESS = TestWallet.fromSeed(9301).addressText;
  node = await startNode(['--regtest']);
});
afterAll(async () => {
  await node.stop();
  await removeDir(node.dataDir);
});

test('--help prints the usage and exits 0', async () => {
  for (const flag of ['--help', '-h']) {
    const r = await miner(flag);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run mine -- \(--rpc URL \| --stratum HOST:PORT\) --address ADDRESS/);
    expect(r.stdout).toContain('--blocks N');
  }
});

test('a bad command line names the problem and exits 2', async () => {
  const cases: [string[], RegExp][] = [
    [['--address', ADDRESS], /--rpc or --stratum is required/],
    [['--stratum', 'nonsense', '--address', ADDRESS], /--stratum must be HOST:PORT/],
    [['--stratum', '127.0.0.1:1', '--rpc', 'http://127.0.0.1:1', '--address', ADDRESS], /--rpc or --stratum, not both/],
    [['--rpc', 'http://127.0.0.1:1'], /--address is required/],
    [['--rpc', '127.0.0.1:3200', '--address', ADDRESS], /--rpc must be an http:\/\/ URL/],
    [['--rpc', 'http://127.0.0.1:1', '--address', 'xyz'], /'xyz' is not a 48-hex address/],
    [['--rpc', 'http://127.0.0.1:1', '--address', ADDRESS, '--blocks', '0'], /--blocks must be a positive integer/],
    [['--bogus'], /unknown option '--bogus'/],
    [['--rpc', 'http://127.0.0.1:1', 'stray'], /unexpected argument 'stray'/],
  ];
  for (const [args, message] of cases) {
    const r = await miner(...args);
    expect(r.code, args.join(' ')).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('--help');
  }
});

test('an unreachable node: the URL, the cause and a hint; exit 1', async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const r = await miner('--rpc', url, '--address', ADDRESS, '--blocks', '1');
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`cannot reach the node at ${url}: ECONNREFUSED`);
  expect(r.stderr).toContain('Is the node running');
  expect(r.stderr).toContain('--rpc');
});

test('mines blocks on a regtest node', async () => {
  const r = await miner('--rpc', node.url + '/', '--address', ADDRESS, '--blocks', '2');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('mined 2 blocks');
  expect((await node.data('/chain/head')).chainHead.height).toBe(2);
});

test('a node error is shown with its code; exit 1', async () => {
  // A URL that reaches the node but not at its root: the node's answer is an error.
  const r = await miner('--rpc', `${node.url}/nothing`, '--address', ADDRESS, '--blocks', '1');
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/\/chain\/mine: Not found: no route GET '\/nothing\/chain\/mine\/[0-9a-f]{48}' \(code 56\)/);
});
