// Bundles the node (dist/node.mjs, the package's bin), the wallet (dist/wallet.mjs, its second bin), the browser kernel bundle
// (dist/browser.js) and the benchmarks (dist/bench.mjs) with esbuild.
import { build } from 'esbuild';
import { execSync } from 'node:child_process';
import { chmodSync, copyFileSync } from 'node:fs';

let commit = 'unknown';
try {
  commit = execSync('git rev-parse --short=7 HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
} catch {}
const define = { __COMMIT__: JSON.stringify(commit) };
// The programs carry their JavaScript dependencies (koa, ws, noble): resolving and compiling a few
// hundred CommonJS files from node_modules took a third of the node's start (~0.12 of 0.45 s). Only
// classic-level, a native addon, is loaded from node_modules; `require` is given to the CommonJS
// code bundled into these ES modules.
const prelude = "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);";
const program = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['classic-level'],
  define,
  banner: { js: `#!/usr/bin/env node\n${prelude}` },
};
// The node's young generation is held to 2 MiB semi-spaces (Node's default grows them to 16 MiB):
// in an hour of bursts (scripts/network.mjs) the defaults let each node's RSS swing and climb with
// V8's committed heap (136 MB against 69 MB on the same workload), and `make bench`'s chain, sync and
// mempool sections show no cost. V8 takes the flag only at start, so the bin's own line carries it:
// every launcher (make run, the scripts, the benchmarks) runs the bin itself. MALLOC_ARENA_MAX=2:
// glibc gives each thread that allocates (the kernel's workers, started and stopped with the load;
// LevelDB's) an arena of its own, and memory freed in one is rarely given back; two arenas is what
// long-running services with threads set (its effect on an hour's RSS: scripts/network.mjs).
const nodeProgram = { ...program, banner: { js: `#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=2\n${prelude}` } };

await Promise.all([
  build({ ...nodeProgram, entryPoints: ['ts/main.ts'], outfile: 'dist/node.mjs', sourcemap: true }),
  build({ ...program, entryPoints: ['ts/miner/main.ts'], outfile: 'dist/miner.mjs' }),
  build({ ...program, entryPoints: ['ts/wallet/main.ts'], outfile: 'dist/wallet.mjs' }),
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
for (const bin of ['dist/node.mjs', 'dist/miner.mjs', 'dist/wallet.mjs']) chmodSync(bin, 0o755);
