// Bundles the node (dist/node.mjs, the package's bin), the browser kernel bundle
// (dist/browser.js) and the benchmarks (dist/bench.mjs) with esbuild.
import { build } from 'esbuild';
import { execSync } from 'node:child_process';

let commit = 'unknown';
try { commit = execSync('git rev-parse --short=7 HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim(); } catch {}
const define = { __COMMIT__: JSON.stringify(commit) };

await Promise.all([
  build({
    entryPoints: ['ts/main.ts'], outfile: 'dist/node.mjs', bundle: true, platform: 'node', format: 'esm',
    target: 'node20', packages: 'external', define, sourcemap: true, banner: { js: '#!/usr/bin/env node' },
  }),
  build({
    entryPoints: ['ts/miner/main.ts'], outfile: 'dist/miner.mjs', bundle: true, platform: 'node', format: 'esm',
    target: 'node20', packages: 'external', define,
  }),
  build({
    entryPoints: ['bench/index.ts'], outfile: 'dist/bench.mjs', bundle: true, platform: 'node', format: 'esm',
    target: 'node20', packages: 'external', define,
  }),
  build({
    entryPoints: ['ts/browser/index.ts'], outfile: 'dist/browser.js', bundle: true, platform: 'browser',
    format: 'esm', target: 'es2022', define,
  }),
]);
