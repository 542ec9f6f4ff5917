// Retargeting (consensus.md §5.2): every 720 blocks below height 1,296,000, every 8,640 from there
// on; each step scales the target by actual/expected time, at most a factor 2.
import { BLOCK_TIME, TARGET_V1_GENESIS, TARGET_V1_HARDEST, TARGET_V2_MAX, targetKindAt, type NetworkParams } from './params.js';
import { decodeTarget, encodeTarget, mantissaMax, type Target } from './target.js';

export const RETARGET_SHORT = 720;
export const RETARGET_LONG = 8_640;
export const RETARGET_SWITCH = 1_296_000;

/** rf(h): the latest retarget height ≤ h (720-grid below the switch, 0 mapped to 1; 8,640-grid from it). */
export function retargetFloor(h: number): number {
  if (h < RETARGET_SWITCH) return Math.max(1, RETARGET_SHORT * Math.floor(h / RETARGET_SHORT));
  return RETARGET_LONG * Math.floor(h / RETARGET_LONG);
}

export function isRetargetHeight(h: number): boolean {
  return h >= 1 && retargetFloor(h) === h;
}

const INT31_LIMIT = 2 ** 31;

/** scale(target, easier, harder) of §5.2, before the bounds of step 5. */
function scale(t: Target, easier: number, harder: number): { zeros: number; mantissa: number } {
  if (easier >= INT31_LIMIT) easier = INT31_LIMIT - 1;
  if (harder >= INT31_LIMIT) harder = INT31_LIMIT - 1;
  let zeros = t.zeros;
  if (harder >= 2 * easier) return { zeros: zeros + 1, mantissa: t.mantissa };
  if (easier >= 2 * harder) return { zeros: zeros - 1, mantissa: t.mantissa };
  if (harder > easier) {
    easier *= 2;
    zeros += 1;
  }
  // b·easier needs up to 56 bits: exact in bigint
  let mantissa = Number((BigInt(t.mantissa) * BigInt(easier)) / BigInt(harder));
  if (mantissa > mantissaMax(t.kind)) {
    mantissa = Math.floor(mantissa / 2);
    zeros -= 1;
  }
  return { zeros, mantissa };
}

/** Step 5: clamp to the network's easiest and the hardest target of the kind. */
function bound(p: NetworkParams, kind: Target['kind'], retargetHeight: number, zeros: number, mantissa: number): number {
  if (kind === 'V1') {
    if (zeros < 32) return TARGET_V1_GENESIS;
    if (zeros >= 255) return TARGET_V1_HARDEST;
    return encodeTarget('V1', zeros, mantissa);
  }
  const min = p.minTargetV2(retargetHeight);
  if (zeros < decodeTarget(min, 'V2').zeros) return min;
  if (zeros >= 768) return TARGET_V2_MAX;
  return encodeTarget('V2', zeros, mantissa);
}

/**
 * The target block h+1 must carry, after block h with target `targetOfH` (raw u32).
 * `timestampAt(k)` gives the timestamp of block k for 1 ≤ k ≤ h. For h = 0 it is the genesis target.
 */
export function nextTarget(p: NetworkParams, h: number, targetOfH: number, timestampAt: (height: number) => number): number {
  if (h === 0) return p.genesisTarget;
  if (!isRetargetHeight(h) || h === 1) return targetOfH;
  if (!p.testnetRules) for (const [height, target] of p.eras.targetResets) if (h === height) return target;
  const last = retargetFloor(h - 1);
  const actual = timestampAt(h) - timestampAt(last);
  const expected = BLOCK_TIME * (h - last);
  const kind = targetKindAt(p, h);
  const t = decodeTarget(targetOfH, kind);
  const { zeros, mantissa } = scale(t, actual, expected);
  return bound(p, kind, h, zeros, mantissa);
}
