// Browser entry: the same kernel the Node.js node runs, for light clients and explorers.
export { initKernel } from '../kernel/instance.js';
export { sha256, sha256d } from '../kernel/hash.js';
export { janushashNumber, powCheck } from '../kernel/pow.js';
export { fromHex, toHex } from '../core/hex.js';
