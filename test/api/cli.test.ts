// The command line and the process lifecycle of the node.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, binEnv, removeDir, startNode } from '../helpers/node.js';

const run = (...args: string[]) => spawnSync(BIN, args, { encoding: 'utf8', timeout: 20_000, env: binEnv() });

describe('command line', () => {
  it('prints help and version', () => {
    const h = run('--help');
    expect(h.status).toBe(0);
    expect(h.stdout).toContain('--rpc=IP:PORT');
    expect(h.stdout).toContain('--datadir=DIR');
    const v = run('-V');
    expect(v.status).toBe(0);
    expect(v.stdout).toContain('v0.10.3');
  });

  it('refuses unknown and malformed options with a message and a non-zero exit', () => {
    for (const args of [
      ['--bogus'],
      ['--rpc=nonsense'],
      ['--rpc=127.0.0.1:70000'],
      ['--rpc=300.0.0.1:3000'],
      ['--minfee=abc'],
      ['--minfee=-1'],
      ['--minfee=0.000000001'],
      ['--testnet', '--regtest'],
      ['stray'],
      ['--testnet=1'],
      ['--rpc'],
      ['--datadir='],
    ]) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.length, args.join(' ')).toBeGreaterThan(0);
    }
  });

  it('fails clearly when the RPC port is taken', async () => {
    const a = await startNode(['--regtest']);
    const dir = await mkdtemp(join(tmpdir(), 'wartnode-test-'));
    try {
      const port = new URL(a.url).port;
      const r = run('--regtest', `--rpc=127.0.0.1:${port}`, `--datadir=${dir}`);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`Cannot listen on 127.0.0.1:${port}`);
    } finally {
      await a.stop();
      await removeDir(a.dataDir);
      await removeDir(dir);
    }
  });

  it('logs its endpoint and shuts down cleanly on SIGINT and SIGTERM', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const n = await startNode(['--regtest']);
      expect(n.output()).toMatch(/RPC endpoint is 127\.0\.0\.1:\d+\./);
      // The bin's own line gave its Node.js the young-generation size (scripts/build.mjs).
      expect(readFileSync(`/proc/${n.proc.pid}/cmdline`, 'utf8').split('\0')).toContain('--max-semi-space-size=2');
      expect(readFileSync(`/proc/${n.proc.pid}/environ`, 'utf8').split('\0')).toContain('MALLOC_ARENA_MAX=2');
      expect(await n.stop(signal)).toBe(0);
      expect(n.output()).toContain('Shutdown complete');
      // The data directory opens again: the database was closed properly.
      const again = await startNode(['--regtest'], n.dataDir);
      expect(await again.stop()).toBe(0);
      await removeDir(n.dataDir);
    }
  });
});
