// Bundles the node (dist/node.mjs, the package's bin), the wallet (dist/wallet.mjs, its second bin), the browser kernel bundle
// (dist/browser.js) and the benchmarks (dist/bench.mjs) with esbuild.
import { build } from 'esbuild';
import { execSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';

let commit = 'unknown';
try {
  commit = execSync('git rev-parse --short=7 HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
} catch {}
const define = { __COMMIT__: JSON.stringify(commit) };

await Promise.all([
  build({
    entryPoints: ['ts/main.ts'],
    outfile: 'dist/node.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    define,
    sourcemap: true,
    banner: { js: '#!/usr/bin/env node' },
  }),
  build({
    entryPoints: ['ts/miner/main.ts'],
    outfile: 'dist/miner.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    define,
  }),
  build({
    entryPoints: ['ts/wallet/main.ts'],
    outfile: 'dist/wallet.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    define,
    banner: { js: '#!/usr/bin/env node' },
  }),
  build({
    entryPoints: ['bench/index.ts'],
    outfile: 'dist/bench.mjs',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    define,
  }),
  build({
    entryPoints: ['ts/browser/index.ts'],
    outfile: 'dist/browser.js',
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    define,
  }),
  // The page at `/` (ts/api/web_page.ts serves dist/web/).
  build({
    entryPoints: ['ts/web/page.ts'],
    outfile: 'dist/web/app.js',
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    define,
    minify: true,
  }),
]);
copyFileSync('ts/web/app.css', 'dist/web/app.css');
