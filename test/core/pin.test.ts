// Pins (consensus.md §7.1).
import { describe, expect, it } from 'vitest';
import { Reader, Writer } from '../../ts/core/bytes.js';
import { toHex } from '../../ts/core/hex.js';
import {
  consensusPinWindow,
  isMempoolPinHeight,
  isPinHeight,
  mempoolPinWindow,
  pinBegin,
  pinFloor,
  pinHeightOf,
  readPinNonce,
  relativePinFor,
  writePinNonce,
} from '../../ts/core/pin.js';

describe('PinNonce', () => {
  it('is nonceId u32 ‖ k u8 ‖ 3 reserved bytes', () => {
    const w = new Writer();
    writePinNonce(w, { nonceId: 0x01020304, relativePin: 7, reserved: Uint8Array.of(0xaa, 0xbb, 0xcc) });
    const b = w.finish();
    expect(toHex(b)).toBe('0102030407aabbcc');
    expect(readPinNonce(new Reader(b))).toEqual({ nonceId: 0x01020304, relativePin: 7, reserved: Uint8Array.of(0xaa, 0xbb, 0xcc) });
  });
});

describe('pin heights', () => {
  it('pinFloor(h) = 32·floor((h−1)/32)', () => {
    expect([1, 32, 33, 64, 65, 100].map(pinFloor)).toEqual([0, 0, 32, 32, 64, 96]);
  });
  it('maps relative pins to heights and back, clamping at 0', () => {
    expect(pinHeightOf(100, 0)).toBe(96);
    expect(pinHeightOf(100, 3)).toBe(0);
    expect(pinHeightOf(100, 4)).toBe(0); // 32k > pinFloor
    expect(pinHeightOf(1_000_000, 255)).toBe(999_968 - 8_160);
    expect(relativePinFor(100, 96)).toBe(0);
    expect(relativePinFor(100, 0)).toBe(3);
    expect(relativePinFor(100, 128)).toBeNull(); // above pinFloor
    expect(relativePinFor(100, 40)).toBeNull(); // no pin height
    expect(relativePinFor(1_000_000, 999_968 - 8_160)).toBe(255);
    expect(relativePinFor(1_000_000, 999_968 - 8_192)).toBeNull(); // k = 256
    for (let k = 0; k < 256; k += 17) expect(relativePinFor(1_000_000, pinHeightOf(1_000_000, k))).toBe(k);
  });
  it('multiples of 32 are pin heights', () => {
    expect([0, 32, 64].every(isPinHeight)).toBe(true);
    expect([1, 31, 33, -32, 1.5].some(isPinHeight)).toBe(false);
  });
  it('consensus window', () => {
    expect(consensusPinWindow(100)).toEqual({ lowest: 0, highest: 96 });
    expect(consensusPinWindow(10_017)).toEqual({ lowest: 10_016 - 8_160, highest: 10_016 });
  });
});

describe('mempool window (pinBegin)', () => {
  it('pinBegin(x) = 32·(floor(x/32) − 255) or 0', () => {
    expect(pinBegin(0)).toBe(0);
    expect(pinBegin(8_191)).toBe(0);
    expect(pinBegin(8_192)).toBe(32);
    expect(pinBegin(10_000)).toBe(32 * (312 - 255));
  });
  it('equals the consensus lower bound except one step higher when length + 1 is a multiple of 32', () => {
    for (const length of [10_000, 10_015, 10_030, 10_031, 10_032, 50_000]) {
      const diff = mempoolPinWindow(length).lowest - consensusPinWindow(length + 1).lowest;
      expect(diff).toBe((length + 1) % 32 === 0 ? 32 : 0);
    }
  });
  it('admits pin heights ≤ length in the window', () => {
    expect(mempoolPinWindow(100)).toEqual({ lowest: 0, highest: 96 });
    expect(isMempoolPinHeight(100, 96)).toBe(true);
    expect(isMempoolPinHeight(95, 96)).toBe(false);
    expect(isMempoolPinHeight(96, 96)).toBe(true);
    expect(isMempoolPinHeight(10_000, 32 * 56)).toBe(false);
    expect(isMempoolPinHeight(10_000, 32 * 57)).toBe(true);
  });
});
