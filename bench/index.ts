// `make bench`: every benchmark, one after the other, each printing its figures.
import { benchChain } from './chain.js';
import { benchKernel } from './kernel.js';
import { benchMempool } from './mempool.js';
import { benchDex } from './dex.js';
import { benchSync } from './sync.js';

await benchKernel();
await benchChain();
await benchMempool();
await benchDex();
await benchSync();
