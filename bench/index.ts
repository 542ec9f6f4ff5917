// `make bench`: every benchmark, one after the other, each printing its figures.
import { benchChain } from './chain.js';
import { benchKernel } from './kernel.js';

await benchKernel();
await benchChain();
