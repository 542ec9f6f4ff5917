// Builds regtest data directories with the project's own chain builder (make_chain.ts beside this
// file, bundled with esbuild into the checkout's dist/). Used by scripts/ibd.mjs and
// scripts/apiperf.mjs. Chains are cached per (n, kind) in CHAIN_CACHE when that is set.
// kind: false (empty blocks), true (353 signed transfers a block from height 3), 'mainnet' (shaped
// like mainnet's: make_chain.ts buildMainnetLikeChain), or 'dex' (n full
// blocks, then an exchange of `trades` trade blocks: make_chain.ts buildDexChain; the data directory
// also holds chain-info.json naming its asset and accounts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
const HERE = dirname(fileURLToPath(import.meta.url));
export function bundleChainMaker(ourDir) {
  const b = spawnSync(
    'npx',
    [
      'esbuild',
      join(HERE, 'make_chain.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      '--packages=external',
      `--outfile=${join(ourDir, 'dist', '_make_chain.mjs')}`,
    ],
    { cwd: ourDir, encoding: 'utf8' },
  );
  if (b.status !== 0) throw new Error(b.stderr);
  return (n, full, trades = 1000) => {
    const label = full === 'dex' ? `dex-${trades}` : full === 'mainnet' ? 'mainnet' : full ? 'full' : 'empty';
    const cache = process.env.CHAIN_CACHE && join(process.env.CHAIN_CACHE, `${n}-${label}`);
    if (cache && existsSync(join(cache, '.done'))) {
      const d = mkdtempSync(join(tmpdir(), 'chain-'));
      cpSync(cache, d, { recursive: true });
      return d;
    }
    const t = Date.now();
    const r = spawnSync(
      process.execPath,
      [join(ourDir, 'dist', '_make_chain.mjs'), String(n), typeof full === 'string' ? full : full ? '1' : '0', String(trades)],
      {
        cwd: ourDir,
        encoding: 'utf8',
        timeout: 3 * 3600_000,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    if (r.status !== 0) throw new Error(`make_chain.mjs exited with ${r.status ?? r.signal} (its messages above)`);
    console.log(`chain of ${n} ${label} blocks built in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    const dir = r.stdout.trim().split('\n').pop();
    if (cache) {
      cpSync(dir, cache, { recursive: true });
      writeFileSync(join(cache, '.done'), '');
    }
    return dir;
  };
}
