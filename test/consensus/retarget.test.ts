// Retargeting (consensus.md §5.2) on constructed timestamp sequences.
import { describe, expect, it } from 'vitest';
import { MAINNET, REGTEST, TESTNET } from '../../ts/consensus/params.js';
import { isRetargetHeight, nextTarget, retargetFloor } from '../../ts/consensus/retarget.js';
import { decodeTarget, encodeTarget } from '../../ts/consensus/target.js';

/** Timestamps with `interval` seconds between blocks, starting at block 1. */
const spaced =
  (interval: number, start = 1_700_000_000) =>
  (h: number): number =>
    start + interval * (h - 1);

describe('retarget heights', () => {
  it('rf(h): 720-grid (0 → 1) below 1,296,000, 8,640-grid from it', () => {
    expect([0, 1, 719, 720, 1_439, 1_440].map(retargetFloor)).toEqual([1, 1, 1, 720, 720, 1_440]);
    expect([1_295_999, 1_296_000, 1_304_639, 1_304_640].map(retargetFloor)).toEqual([1_295_280, 1_296_000, 1_296_000, 1_304_640]);
    expect([1, 720, 1_295_280, 1_296_000, 1_304_640].every(isRetargetHeight)).toBe(true);
    expect([2, 721, 1_296_720, 1_300_000].some(isRetargetHeight)).toBe(false);
  });
});

describe('next target', () => {
  const V1 = (z: number, b: number) => encodeTarget('V1', z, b);
  const V2 = (z: number, b: number) => encodeTarget('V2', z, b);

  it('genesis, unchanged between retargets and after block 1', () => {
    expect(nextTarget(MAINNET, 0, 0, spaced(20))).toBe(0x20ffffff);
    expect(nextTarget(TESTNET, 0, 0, spaced(20))).toBe(0x077fffff);
    expect(nextTarget(REGTEST, 0, 0, spaced(20))).toBe(0x003fffff);
    expect(nextTarget(MAINNET, 1, 0x20ffffff, spaced(1))).toBe(0x20ffffff);
    expect(nextTarget(MAINNET, 719, V1(40, 0xabcdef), spaced(1))).toBe(V1(40, 0xabcdef));
  });

  it('on time: the first period spans 719 intervals, so 20 s blocks keep the target', () => {
    expect(nextTarget(MAINNET, 720, V1(40, 0xabcdef), spaced(20))).toBe(V1(40, 0xabcdef));
    expect(nextTarget(MAINNET, 1_440, V1(40, 0xabcdef), spaced(20))).toBe(V1(40, 0xabcdef));
  });

  it('at most a factor 2: z ± 1 with the mantissa kept when clamped', () => {
    expect(nextTarget(MAINNET, 1_440, V1(40, 0xabcdef), spaced(10))).toBe(V1(41, 0xabcdef));
    expect(nextTarget(MAINNET, 1_440, V1(40, 0xabcdef), spaced(1))).toBe(V1(41, 0xabcdef));
    expect(nextTarget(MAINNET, 1_440, V1(40, 0xabcdef), spaced(40))).toBe(V1(39, 0xabcdef));
    expect(nextTarget(MAINNET, 1_440, V1(40, 0xabcdef), spaced(1000))).toBe(V1(39, 0xabcdef));
  });

  it('in between: harder blocks double `easier` and add a zero, then scale the mantissa', () => {
    // 15 s blocks: easier 10,800, harder 14,400 → z 41, b = floor(0x900000 · 21,600 / 14,400)
    const b = Math.floor((0x900000 * 21_600) / 14_400);
    expect(nextTarget(MAINNET, 1_440, V1(40, 0x900000), spaced(15))).toBe(V1(41, b));
    // 25 s blocks: easier 18,000, harder 14,400 → b·1.25 overflows 24 bits → halve, z − 1
    const grown = Math.floor((0xe00000 * 18_000) / 14_400);
    expect(grown).toBeGreaterThan(0xffffff);
    expect(nextTarget(MAINNET, 1_440, V1(40, 0xe00000), spaced(25))).toBe(V1(39, Math.floor(grown / 2)));
    // growing without overflow keeps z
    expect(nextTarget(MAINNET, 1_440, V1(40, 0x900000), spaced(25))).toBe(V1(40, Math.floor((0x900000 * 18_000) / 14_400)));
  });

  it('bounds: V1 never easier than genesis nor harder than 0xff800000', () => {
    expect(nextTarget(MAINNET, 1_440, V1(32, 0xffffff), spaced(100))).toBe(0x20ffffff);
    expect(nextTarget(MAINNET, 1_440, V1(254, 0x900000), spaced(1))).toBe(0xff800000);
  });

  it('mainnet overrides at 745,200 (to TargetV2 INITIAL) and 769,680 (INITIAL_V2)', () => {
    expect(nextTarget(MAINNET, 745_200, V1(42, 0xc075d9), spaced(1))).toBe(0x0affffff);
    expect(nextTarget(MAINNET, 769_680, V2(45, 0x3fffff), spaced(1))).toBe(0x0a3fffff);
    expect(nextTarget(TESTNET, 745_200, V2(40, 0x300000), spaced(20))).toBe(V2(40, 0x300000));
  });

  it('V2 minimum: INITIAL up to retarget height 769,680, INITIAL_V2 after; testnet its genesis; MAX above', () => {
    expect(nextTarget(MAINNET, 769_680 - 720, V2(43, 0x3fffff), spaced(100))).toBe(0x0affffff);
    expect(nextTarget(MAINNET, 770_400, V2(40, 0x3fffff), spaced(100))).toBe(0x0a3fffff);
    expect(nextTarget(MAINNET, 770_400, V2(41, 0x3fffff), spaced(100))).toBe(V2(40, 0x3fffff));
    expect(nextTarget(TESTNET, 720, V2(29, 0x3fffff), spaced(100))).toBe(0x077fffff);
    expect(nextTarget(REGTEST, 720, V2(0, 0x3fffff), spaced(100))).toBe(0x003fffff);
    expect(nextTarget(REGTEST, 720, V2(0, 0x3fffff), spaced(0.001))).toBe(V2(1, 0x3fffff));
    expect(nextTarget(MAINNET, 1_442_880, V2(767, 0x3fffff), spaced(1))).toBe(0xc03fffff);
  });

  it('the period switch: R = 1,296,000 measures from 1,295,280, then 8,640-block periods', () => {
    const t = V2(50, 0x300000);
    // only the two measured timestamps matter: make the period exactly on time
    const ts = (from: number, to: number) => (h: number) => (h === to ? 20 * (to - from) : h === from ? 0 : -1);
    expect(nextTarget(MAINNET, 1_296_000, t, ts(1_295_280, 1_296_000))).toBe(t);
    expect(nextTarget(MAINNET, 1_304_640, t, ts(1_296_000, 1_304_640))).toBe(t);
    expect(nextTarget(MAINNET, 1_296_720, t, ts(1_296_000, 1_296_720))).toBe(t); // no longer a retarget height
    // twice as fast over the long period
    const fast = (h: number) => (h === 1_304_640 ? 10 * 8_640 : 0);
    expect(decodeTarget(nextTarget(MAINNET, 1_304_640, t, fast), 'V2').zeros).toBe(51);
  });
});
