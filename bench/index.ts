// `make bench`: every benchmark, one after the other, each printing its figures.
// `BENCH_ONLY=mempool,sync make bench` (or `node dist/bench.mjs mempool sync`) runs only the named sections.
import { benchChain } from './chain.js';
import { benchKernel } from './kernel.js';
import { benchMempool } from './mempool.js';
import { benchP2pFlood } from './p2p_flood.js';
import { benchDex } from './dex.js';
import { benchSync } from './sync.js';
import { benchWeb } from './web.js';
import { benchStreams } from './streams.js';
import { benchScale } from './scale.js';
import { benchStore } from './store.js';
import { benchHeadLatency } from './head_latency.js';

/** Every section, in the order `make bench` runs them. */
const SECTIONS: Record<string, () => Promise<void>> = {
  kernel: benchKernel,
  chain: benchChain,
  mempool: benchMempool,
  dex: benchDex,
  sync: benchSync,
  p2pflood: benchP2pFlood,
  web: benchWeb,
  streams: benchStreams,
  scale: benchScale,
  store: benchStore,
  headlatency: benchHeadLatency,
};

const asked = [...process.argv.slice(2), ...(process.env.BENCH_ONLY ?? '').split(',')].map((s) => s.trim()).filter(Boolean);
const unknown = asked.filter((name) => !(name in SECTIONS));
if (unknown.length > 0) {
  console.error(`unknown benchmark section ${unknown.join(', ')}; sections: ${Object.keys(SECTIONS).join(', ')}`);
  process.exit(2);
}
for (const [name, run] of Object.entries(SECTIONS)) {
  if (asked.length === 0 || asked.includes(name)) await run();
}
