// `make bench`: every benchmark, one after the other, each printing its figures.
import { benchKernel } from './kernel.js';

await benchKernel();
