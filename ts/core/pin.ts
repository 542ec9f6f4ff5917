// Pins (consensus.md §7.1): every signed entry names a pinned block by a relative pin k inside its
// 8-byte PinNonce; the pinned height must be a multiple of 32 and lie in a window below the block.
import { Reader, Writer } from './bytes.js';

export const PIN_STEP = 32;
export const MAX_RELATIVE_PIN = 255;
export const PIN_NONCE_SIZE = 8;

export interface PinNonce {
  nonceId: number; // u32
  relativePin: number; // k, u8
  reserved: Uint8Array; // 3 bytes: any value is accepted and they are part of the signed bytes
}

export function readPinNonce(r: Reader): PinNonce {
  return { nonceId: r.u32(), relativePin: r.u8(), reserved: r.bytes(3) };
}

export function writePinNonce(w: Writer, p: PinNonce): void {
  w.u32(p.nonceId).u8(p.relativePin).bytes(p.reserved, 3);
}

export function isPinHeight(h: number): boolean {
  return Number.isInteger(h) && h >= 0 && h % PIN_STEP === 0;
}

/** pinFloor(h) = 32·floor((h − 1)/32) for a block at height h ≥ 1. */
export function pinFloor(h: number): number {
  return PIN_STEP * Math.floor((h - 1) / PIN_STEP);
}

/** The pinned height of an entry with relative pin k in block h (0 when 32k > pinFloor(h)). */
export function pinHeightOf(h: number, k: number): number {
  const f = pinFloor(h);
  return PIN_STEP * k > f ? 0 : f - PIN_STEP * k;
}

/**
 * The relative pin a producer writes into block h for `pinHeight`, or null when the height is no
 * pin height, above pinFloor(h), or more than 255 steps below it.
 */
export function relativePinFor(h: number, pinHeight: number): number | null {
  const f = pinFloor(h);
  if (!isPinHeight(pinHeight) || pinHeight > f) return null;
  const k = (f - pinHeight) / PIN_STEP;
  return k <= MAX_RELATIVE_PIN ? k : null;
}

/** The pinned heights block h can carry: multiples of 32 in [lowest, highest]. */
export function consensusPinWindow(h: number): { lowest: number; highest: number } {
  const highest = pinFloor(h);
  return { lowest: Math.max(0, highest - PIN_STEP * MAX_RELATIVE_PIN), highest };
}

/** pinBegin(x) = 32·(floor(x/32) − 255) when floor(x/32) ≥ 255, else 0 (mempool window, tx-id cache §7.6). */
export function pinBegin(x: number): number {
  const q = Math.floor(x / PIN_STEP);
  return q >= MAX_RELATIVE_PIN ? PIN_STEP * (q - MAX_RELATIVE_PIN) : 0;
}

/**
 * Mempool admission window for a chain of `length` blocks (§7.1): pin heights in
 * [pinBegin(length + 1), length]. The newest usable pin is pinFloor(length + 1).
 */
export function mempoolPinWindow(length: number): { lowest: number; highest: number } {
  return { lowest: pinBegin(length + 1), highest: pinFloor(length + 1) };
}

export function isMempoolPinHeight(length: number, pinHeight: number): boolean {
  const w = mempoolPinWindow(length);
  return isPinHeight(pinHeight) && pinHeight >= w.lowest && pinHeight <= w.highest;
}
