// The one place that instantiates the WASM kernel and touches its linear memory (toolchain.md §4).
// Typed wrappers per concept live beside this file and go through `kernel()` and the helpers here.
import { WASM_BASE64 } from '../../wasm/kernel_bytes.js';

export interface KernelExports {
  memory: WebAssembly.Memory;
  wasm_alloc(len: number): number;
  wasm_free(ptr: number, len: number): void;
  [name: string]: unknown;
}

let ex: KernelExports | undefined;
let compiled: WebAssembly.Module | undefined;

function decodeBase64(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Instantiates the kernel once; await before any other kernel call. */
export async function initKernel(bytes?: Uint8Array<ArrayBuffer>): Promise<void> {
  if (ex) return;
  const module = await WebAssembly.compile(bytes ?? decodeBase64(WASM_BASE64));
  ex = (await WebAssembly.instantiate(module, {})).exports as unknown as KernelExports;
  compiled = module;
}

/** The compiled module, for instances in worker threads (a Module can be posted to a worker). */
export function kernelModule(): WebAssembly.Module {
  if (!compiled) throw new Error('kernel not initialised: await initKernel() first');
  return compiled;
}

/** The raw exports, typed by the caller: `kernel<{ sha256_raw(...): void }>()`. */
export function kernel<T>(): KernelExports & T {
  if (!ex) throw new Error('kernel not initialised: await initKernel() first');
  return ex as KernelExports & T;
}

/**
 * Copies `inputs` into fresh kernel buffers, calls `fn(pointers…, outPtr)` and copies `outLen`
 * bytes back. Views are made after every allocation, since growth detaches `memory.buffer`.
 * Returns the output and the numeric result of `fn` (a status code for fallible exports).
 */
export function callWithBuffers(inputs: Uint8Array[], outLen: number, fn: (ptrs: number[], out: number) => number | void): { out: Uint8Array; status: number } {
  const x = kernel<unknown>();
  const ptrs = inputs.map((b) => x.wasm_alloc(b.length));
  const out = x.wasm_alloc(outLen);
  try {
    inputs.forEach((b, i) => new Uint8Array(x.memory.buffer, ptrs[i], b.length).set(b));
    const status = fn(ptrs, out);
    return { out: new Uint8Array(x.memory.buffer, out, outLen).slice(), status: typeof status === 'number' ? status : 0 };
  } finally {
    inputs.forEach((b, i) => x.wasm_free(ptrs[i], b.length));
    x.wasm_free(out, outLen);
  }
}

/** u64 parameters cross the boundary as signed i64 BigInts; results come back signed. */
export const toI64 = (v: bigint): bigint => BigInt.asIntN(64, v);
export const fromI64 = (v: bigint): bigint => BigInt.asUintN(64, v);
