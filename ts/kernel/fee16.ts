// The 16-bit compact fee codec (consensus.md §7.4) from the kernel: decode, and encode rounding
// down (reference /tools/encode16bit), up (minimum-fee settings) or to the closest value (contract).
import { fromI64, kernel, toI64 } from './instance.js';

interface Fee16Exports {
  fee16_decode(code: number): bigint;
  fee16_encode(value: bigint, mode: number): number;
  fee16_is_exact(value: bigint): number;
}

export type Fee16Rounding = 'down' | 'up' | 'closest';

const MODES: Record<Fee16Rounding, number> = { down: 0, up: 1, closest: 2 };
const U64_MAX = (1n << 64n) - 1n;

/** The largest fee any code decodes to: 2047·2^53 E8 (code 0xffff). */
export const FEE16_MAX_E8 = 2047n << 53n;

function u64Arg(value: bigint, what: string): bigint {
  if (typeof value !== 'bigint' || value < 0n || value > U64_MAX) throw new RangeError(`${what} must be a u64 bigint, got ${String(value)}`);
  return toI64(value);
}

/** Decoded fee (E8) of a 16-bit code; every code is valid and 0x0000 decodes to 1. */
export function fee16Decode(code: number): bigint {
  if (!Number.isInteger(code) || code < 0 || code > 0xffff) throw new RangeError(`fee code must be an integer 0..65535, got ${code}`);
  return fromI64(kernel<Fee16Exports>().fee16_decode(code));
}

/**
 * The 16-bit code of a fee (E8). 'down': largest representable ≤ value; 'up': smallest ≥ value,
 * 0xffff above the largest fee; 'closest': the nearer of the two, the larger on a tie.
 * 0 encodes to 0x0000 (which decodes to 1) in every mode.
 */
export function fee16Encode(value: bigint, rounding: Fee16Rounding): number {
  if (!Object.hasOwn(MODES, rounding)) throw new RangeError(`unknown fee rounding '${String(rounding)}'`);
  return kernel<Fee16Exports>().fee16_encode(u64Arg(value, 'fee'), MODES[rounding]);
}

/** True when the fee is exactly on the 16-bit grid, as POST /transaction/add requires (0 is not). */
export function fee16IsExact(value: bigint): boolean {
  return kernel<Fee16Exports>().fee16_is_exact(u64Arg(value, 'fee')) === 1;
}
