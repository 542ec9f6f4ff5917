// Targets, difficulty, work and worksum (consensus.md §2.4–§2.6, §11.9) and PoW acceptance of the
// real mainnet headers of §11 through the kernel with the PoW version of their heights (§3.1).
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { powCheck } from '../../ts/kernel/pow.js';
import { fromHex } from '../../ts/core/hex.js';
import { MAINNET, powVersionAt, targetKindAt } from '../../ts/consensus/params.js';
import { checkPow, targetAt } from '../../ts/consensus/header_check.js';
import { addWork, decodeTarget, encodeTarget, targetDifficulty, targetWork, worksumDouble, worksumHex } from '../../ts/consensus/target.js';
import { HEADERS } from '../core/vectors.js';

beforeAll(async () => {
  await initKernel();
});

describe('§11.9 work and difficulty', () => {
  const table: [number, 'V1' | 'V2', number, bigint][] = [
    [0x20ffffff, 'V1', 4_294_967_552.000015, 4_294_967_552n],
    [0x0affffff, 'V2', 8_796_095_119_360.5, 8_796_095_119_360n],
    [0x0a3fffff, 'V2', 1_099_511_889_920.06, 1_099_511_889_920n],
    [0x077fffff, 'V2', 536_871_040.00003, 536_871_040n],
    [0x0ae7cde7, 'V2', 14_142_941_042_437.885, 14_142_941_040_640n],
  ];
  for (const [raw, kind, difficulty, work] of table) {
    it(`${raw.toString(16).padStart(8, '0')} (${kind})`, () => {
      const t = decodeTarget(raw, kind);
      expect(encodeTarget(kind, t.zeros, t.mantissa)).toBe(raw);
      expect(targetDifficulty(t)).toBeCloseTo(difficulty, 2);
      expect(targetWork(t)).toBe(work);
    });
  }

  it('decodes zero counts and mantissas', () => {
    expect(decodeTarget(0x20ffffff, 'V1')).toMatchObject({ zeros: 32, mantissa: 0xffffff });
    expect(decodeTarget(0x0ae7cde7, 'V2')).toMatchObject({ zeros: 43, mantissa: 0x27cde7 });
    expect(decodeTarget(0xc03fffff, 'V2')).toMatchObject({ zeros: 768, mantissa: 0x3fffff });
    expect(decodeTarget(0xff800000, 'V1')).toMatchObject({ zeros: 255, mantissa: 0x800000 });
  });

  it('worksumHex of a one-block chain', () => {
    const ws = addWork(0n, targetWork(decodeTarget(0x0ae7cde7, 'V2')));
    expect(worksumHex(ws)).toBe('0x' + '0'.repeat(52) + '0cdce8fa1000');
    expect(worksumDouble(ws)).toBe(14_142_941_040_640);
  });

  it('worksum: 256-bit wrap, hex width, limb-wise double', () => {
    expect(worksumHex(0n)).toBe('0x' + '0'.repeat(64));
    expect(addWork((1n << 256n) - 1n, 2n)).toBe(1n);
    const big = (0x8bf81fe0n << 32n) | 0x113cf6a0n; // a mainnet /chain/head example
    expect(worksumHex(big)).toBe('0x0000000000000000000000000000000000000000000000008bf81fe0113cf6a0');
    expect(worksumDouble(big)).toBe(1.008584641271857e19);
  });

  it('work is exact where doubles are not, for every shift', () => {
    const t = decodeTarget(encodeTarget('V2', 200, 0x3fffff), 'V2');
    expect(targetWork(t)).toBe(((1n << 53n) / 0x3fffffn) << 169n);
    const small = decodeTarget(encodeTarget('V2', 3, 0x200000), 'V2');
    expect(targetWork(small)).toBe((1n << 32n) >> 28n);
  });
});

describe('mainnet headers of §11', () => {
  for (const v of HEADERS) {
    it(`${v.name} (height ${v.height}): target kind, difficulty, work, PoW ${v.powVersion}`, () => {
      expect(targetKindAt(MAINNET, v.height)).toBe(v.targetKind);
      const t = targetAt(MAINNET, v.height, v.target);
      expect(t).toMatchObject({ kind: v.targetKind, zeros: v.zeros, mantissa: v.mantissa });
      expect(targetDifficulty(t)).toBeCloseTo(v.difficulty, 2);
      expect(powVersionAt(MAINNET, v.height)).toBe(v.powVersion);
      const raw = fromHex(v.raw)!;
      expect(checkPow(MAINNET, v.height, raw)).toBe(true);
    });
  }

  it('§11.2 work', () => {
    expect(targetWork(targetAt(MAINNET, 1_949_766, 0x0ae7cde7))).toBe(14_142_941_040_640n);
  });

  it('the wrong PoW version rejects (v2.1 instead of v2.2; Janus8 rules on a Janus1 header)', () => {
    expect(powCheck(fromHex(HEADERS[0].raw)!, 7)).toBe(false);
    expect(powCheck(fromHex(HEADERS[0].raw)!, 8)).toBe(true);
    const tampered = fromHex(HEADERS[0].raw)!;
    tampered[79] ^= 1;
    expect(checkPow(MAINNET, HEADERS[0].height, tampered)).toBe(false);
    const original = fromHex(HEADERS[4].raw)!;
    original[79] ^= 1;
    expect(checkPow(MAINNET, HEADERS[4].height, original)).toBe(false);
  });
});
