// Bundled by scripts/sidebyside/chain.mjs: writes a regtest data directory with real proof of work
// using the project's own chain builder (bench/sync.ts buildChain).
// Usage (bundled): node make_chain.mjs N FULL(0|1)  -> prints the data directory
import { buildChain } from '../../bench/sync.js';
import { initKernel } from '../../ts/kernel/instance.js';
await initKernel();
const n = Number(process.argv[2]), full = process.argv[3] === '1';
console.log(await buildChain(n, full));
