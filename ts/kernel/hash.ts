// Hash wrappers over the WASM kernel: SHA-256 and its iterated forms (consensus.md §0.2) and
// VerusHash v2.1/v2.2 (§4). Inputs of up to SCRATCH bytes go through one kernel buffer that is
// allocated once, so hashing a header or a transaction costs no allocation per call; larger
// inputs use fresh buffers (callWithBuffers).
import { callWithBuffers, kernel, type KernelExports } from './instance.js';

type HashFn = (ptr: number, len: number, out: number) => void;
interface HashExports {
  sha256_raw: HashFn;
  sha256d_raw: HashFn;
  sha256t_raw: HashFn;
  verushash_v21_raw: HashFn;
  verushash_v22_raw: HashFn;
}

const SCRATCH = 1024;
let scratch: { ex: KernelExports; ptr: number; mem: Uint8Array } | undefined;

/** A reused kernel buffer of SCRATCH + 32 bytes (input, then the 32-byte digest) and a view of
 *  all of memory, renewed when memory growth has detached the old buffer. */
function scratchOf(ex: KernelExports): { ptr: number; mem: Uint8Array } {
  if (scratch?.ex !== ex) {
    const ptr = ex.wasm_alloc(SCRATCH + 32);
    scratch = { ex, ptr, mem: new Uint8Array(ex.memory.buffer) };
  }
  if (scratch.mem.buffer !== ex.memory.buffer) scratch.mem = new Uint8Array(ex.memory.buffer);
  return scratch;
}

function run(data: Uint8Array, pick: (x: HashExports) => HashFn): Uint8Array {
  const x = kernel<HashExports>();
  const fn = pick(x);
  if (data.length > SCRATCH) return callWithBuffers([data], 32, ([p], o) => fn(p, data.length, o)).out;
  const { ptr, mem } = scratchOf(x);
  mem.set(data, ptr);
  fn(ptr, data.length, ptr + SCRATCH);
  return scratchOf(x).mem.slice(ptr + SCRATCH, ptr + SCRATCH + 32); // fresh view if memory grew
}

export const sha256 = (data: Uint8Array): Uint8Array => run(data, (x) => x.sha256_raw);
export const sha256d = (data: Uint8Array): Uint8Array => run(data, (x) => x.sha256d_raw);
export const sha256t = (data: Uint8Array): Uint8Array => run(data, (x) => x.sha256t_raw);
export const verushashV21 = (data: Uint8Array): Uint8Array => run(data, (x) => x.verushash_v21_raw);
export const verushashV22 = (data: Uint8Array): Uint8Array => run(data, (x) => x.verushash_v22_raw);
