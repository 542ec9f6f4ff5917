// Compact targets (consensus.md §2.4–§2.6): TargetV1 = 8-bit zero count + 24-bit mantissa,
// TargetV2 = 10-bit zero count + 22-bit mantissa; the kind follows from the height (params).
import type { TargetKind } from './params.js';

export interface Target {
  kind: TargetKind;
  raw: number; // the u32 as stored in the header
  zeros: number; // z
  mantissa: number; // b
}

const LAYOUT: Record<TargetKind, { mantissaBits: number; bmax: number }> = {
  V1: { mantissaBits: 24, bmax: 0xffffff },
  V2: { mantissaBits: 22, bmax: 0x3fffff },
};

export function decodeTarget(raw: number, kind: TargetKind): Target {
  const bits = LAYOUT[kind].mantissaBits;
  return { kind, raw: raw >>> 0, zeros: raw >>> bits, mantissa: raw & LAYOUT[kind].bmax };
}

export function encodeTarget(kind: TargetKind, zeros: number, mantissa: number): number {
  const bits = LAYOUT[kind].mantissaBits;
  return (zeros * 2 ** bits + mantissa) >>> 0;
}

export function mantissaMax(kind: TargetKind): number {
  return LAYOUT[kind].bmax;
}

/** difficulty = 2^(z + mantissaBits) / b as a double (§2.4, §2.5). */
export function targetDifficulty(t: Target): number {
  return 2 ** (t.zeros + LAYOUT[t.kind].mantissaBits) / t.mantissa;
}

/**
 * Work of a block (§2.6): inv = floor(2^(mantissaBits + 31) / b), work = floor(inv · 2^(z − 31)),
 * exact. A zero mantissa (never a valid target) has no work.
 */
export function targetWork(t: Target): bigint {
  if (t.mantissa === 0) return 0n;
  const inv = (1n << BigInt(LAYOUT[t.kind].mantissaBits + 31)) / BigInt(t.mantissa);
  const shift = t.zeros - 31;
  return shift >= 0 ? inv << BigInt(shift) : inv >> BigInt(-shift);
}

// ---------------------------------------------------------------------------------------------
// Worksum (§2.6): an unsigned 256-bit sum of the works.

const U256 = (1n << 256n) - 1n;

export function addWork(worksum: bigint, work: bigint): bigint {
  return (worksum + work) & U256;
}

/** "0x" and 64 lowercase hex digits, most significant first. */
export function worksumHex(worksum: bigint): string {
  return '0x' + (worksum & U256).toString(16).padStart(64, '0');
}

/** The JSON `worksum` number: R sums the eight 32-bit limbs, least significant first, in doubles. */
export function worksumDouble(worksum: bigint): number {
  let sum = Number(worksum & 0xffffffffn);
  let factor = 1;
  for (let i = 1; i < 8; i++) {
    factor *= 4294967296;
    sum += factor * Number((worksum >> BigInt(32 * i)) & 0xffffffffn);
  }
  return sum;
}
