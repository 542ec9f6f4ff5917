// Proof of work through the WASM kernel (consensus.md §3). The kernel is pure: callers map
// network and height to a PowVersion (consensus layer) and pass it in.
import { kernel, type KernelExports } from './instance.js';

export const HEADER_BYTES = 80;

/** Kernel PoW version numbers: Original (SHA256d, TargetV1) and Janus1..Janus8 (TargetV2). */
export const PowVersion = {
  Original: 0,
  Janus1: 1,
  Janus2: 2,
  Janus3: 3,
  Janus4: 4,
  Janus5: 5,
  Janus6: 6,
  Janus7: 7,
  Janus8: 8,
} as const;
export type PowVersion = (typeof PowVersion)[keyof typeof PowVersion];

interface PowExports {
  janushash_number(header: number): number;
  pow_check(header: number, powVersion: number): number;
  pow_info(header: number, v22: number, out: number): number;
}

export interface PowInfo {
  hashVerus: Uint8Array; // VerusHash v2.2 if requested, else v2.1
  hashSha256t: Uint8Array; // SHA256t(header)
  floatVerus: number; // F(hashVerus) as a double (§3.8)
  floatSha256t: number; // F(hashSha256t) as a double
}

// One reused kernel buffer (the header, then the pow_info output, 80 bytes each) and a view of
// all of memory, renewed when memory growth has detached the old buffer.
let scratch: { ex: KernelExports; ptr: number; mem: Uint8Array } | undefined;

function scratchOf(x: KernelExports): { ptr: number; mem: Uint8Array } {
  if (scratch?.ex !== x) {
    const ptr = x.wasm_alloc(2 * HEADER_BYTES);
    scratch = { ex: x, ptr, mem: new Uint8Array(x.memory.buffer) };
  }
  if (scratch.mem.buffer !== x.memory.buffer) scratch.mem = new Uint8Array(x.memory.buffer);
  return scratch;
}

function loadHeader(header: Uint8Array): { x: KernelExports & PowExports; p: number } {
  if (header.length !== HEADER_BYTES) throw new RangeError(`header must be ${HEADER_BYTES} bytes, got ${header.length}`);
  const x = kernel<PowExports>();
  const { ptr, mem } = scratchOf(x);
  mem.set(header, ptr);
  return { x, p: ptr };
}

/** The `/tools/janushash_number` value of an 80-byte header (§3.8). */
export function janushashNumber(header: Uint8Array): number {
  const { x, p } = loadHeader(header);
  return x.janushash_number(p);
}

/** True iff the header satisfies proof-of-work version `powVersion` with its own target. */
export function powCheck(header: Uint8Array, powVersion: PowVersion): boolean {
  if (!Number.isInteger(powVersion)) throw new RangeError(`unknown PoW version ${powVersion}`);
  const { x, p } = loadHeader(header);
  const r = x.pow_check(p, powVersion >>> 0);
  if (r < 0) throw new RangeError(`unknown PoW version ${powVersion}`);
  return r === 1;
}

/** The values of the API's header `pow` object (§3.8); `v22` iff the PoW version is Janus8. */
export function powInfo(header: Uint8Array, v22: boolean): PowInfo {
  const { x, p } = loadHeader(header);
  const out = p + HEADER_BYTES;
  if (x.pow_info(p, v22 ? 1 : 0, out) !== 0) throw new Error('pow_info failed');
  const bytes = scratchOf(x).mem.slice(out, out + HEADER_BYTES); // fresh view if memory grew
  const dv = new DataView(bytes.buffer);
  return {
    hashVerus: bytes.slice(0, 32),
    hashSha256t: bytes.slice(32, 64),
    floatVerus: dv.getFloat64(64, true),
    floatSha256t: dv.getFloat64(72, true),
  };
}
