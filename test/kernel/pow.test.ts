// Proof of work and the janushash number through WASM: the reference node's recorded numbers
// (vectors/janushash.json) and the real headers of consensus.md §11.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { janushashNumber, powCheck, powInfo, PowVersion } from '../../ts/kernel/pow.js';
import { sha256d } from '../../ts/kernel/hash.js';
import { fromHex, toHex } from '../../ts/core/hex.js';

beforeAll(async () => {
  await initKernel();
});

const hex = (s: string): Uint8Array => fromHex(s)!;

const H11_2 =
  '05b42d206f8a4b2b8094199fd28423151af8aa54a5073ac6e6805f42096dc3a20ae7cde7f3c41bf363fe94eb448bf924f791f77c22a2ebd6a3a5d8948f8aff019f072bea0000000366f2fefb2719fef5';
const H11_3 =
  '34b4064fced07341204e3b2283477d5fc6423d7f8244f83d6e1fa1551a74ad470ba7c02fc4c7d16b758e8af266349dc1070727b5ecd5d7fc6c6417d2458018e328818355000000036748585daf74da6b';
const H746727 =
  '97d7572245923377cd972657994013e9bcbe8d07251db053be7a8603c4c2325f0aed5677607773e58740a6161b1338bbf51ceea97a76431707c44c6dc0a8143267b7fcb5000000026580b4bce36e3bc8';
const H746726 =
  '3eb6fc536af5dd035c568d9148d6f21e71fb6340ffbb1958b60038090fb117510aed5677a893cfcab30cb30bd374b2862b8f253cbf7899c8dd43a2082413dddbfc7b1fcb000000026580b4b84eaebc09';
const H11_5 =
  '11f2b6860910f7b544e01fd5ed5419588c29e42b305553bd492a0d00000000002ac075d9a4d44aff9ebd539f2b5e758fb76df22bfd13a2e4d894752c7892f9e9c3f3d96900000001650bd0820d8e8eab';
const H11_6 =
  'b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537077fffffeab3b88a101b745e8d7b530eb129a789f571a4718edc07435ae74998981a3a7f000000036948246d00000000';

const vectorsFile = () => join(import.meta.dirname, '../vectors/janushash.json');

describe('janushash number (§3.8)', () => {
  const { cases } = JSON.parse(readFileSync(vectorsFile(), 'utf8')) as {
    cases: { headerHex: string; source: string; janushashNumber: string }[];
  };
  it('has the recorded cases', () => expect(cases.length).toBeGreaterThanOrEqual(37));
  it.each(cases.map((c, i) => [i, c.source, c] as const))('vector %i (%s)', (_i, _s, c) => {
    // "%.20e" text parses to the exact double the reference printed.
    expect(janushashNumber(hex(c.headerHex))).toBe(Number(c.janushashNumber));
  });
  it('mainnet §11.2 and §11.3', () => {
    expect(janushashNumber(hex(H11_2))).toBe(2.554370686684796e-14);
    expect(janushashNumber(hex(H11_3))).toBe(4.849697988805411e-15);
  });
  it('rejects a wrong header length with RangeError', () => {
    expect(() => janushashNumber(new Uint8Array(79))).toThrow(RangeError);
    expect(() => janushashNumber(new Uint8Array(81))).toThrow(RangeError);
  });
});

describe('powCheck', () => {
  const accepted: [string, string, PowVersion][] = [
    ['§11.2 Janus8', H11_2, PowVersion.Janus8],
    ['§11.3 checkpoint Janus8', H11_3, PowVersion.Janus8],
    ['§11.4 746,727 Janus1', H746727, PowVersion.Janus1],
    ['§11.4 746,726 Janus1', H746726, PowVersion.Janus1],
    ['§11.5 Original', H11_5, PowVersion.Original],
  ];
  it.each(accepted)('accepts %s', (_n, h, v) => expect(powCheck(hex(h), v)).toBe(true));
  it.each(accepted)('rejects %s with a flipped nonce byte', (_n, h, v) => {
    for (let i = 76; i < 80; i++) {
      const b = hex(h);
      b[i] ^= 0x01;
      expect(powCheck(b, v)).toBe(false);
    }
  });
  it('§11.5 hash has its zero bytes at the end (little-endian threshold)', () => {
    expect(toHex(sha256d(hex(H11_5)))).toBe('ac4f50ef90c0730075f4995d0b33691e9e7d69f84d2191c029371c0000000000');
  });
  it('rejects the fake-mined §11.6 block under every Janus version', () => {
    for (let v = 1; v <= 8; v++) expect(powCheck(hex(H11_6), v as PowVersion)).toBe(false);
  });
  it('refuses unknown versions and wrong lengths', () => {
    expect(() => powCheck(hex(H11_2), 9 as PowVersion)).toThrow(RangeError);
    expect(() => powCheck(hex(H11_2), -1 as PowVersion)).toThrow(RangeError);
    expect(() => powCheck(hex(H11_2), 1.5 as PowVersion)).toThrow(RangeError);
    expect(() => powCheck(new Uint8Array(0), PowVersion.Janus8)).toThrow(RangeError);
  });
});

describe('powInfo (§3.8)', () => {
  it('§11.2 with v2.2', () => {
    const i = powInfo(hex(H11_2), true);
    expect(toHex(i.hashVerus)).toBe('0000000000b069112cc0caf14507169f6adf1e5278a2ef286cddc89f1162d7ca');
    expect(toHex(i.hashSha256t)).toBe('02a507400db273886cd1bdc61e05bc4bde6978d74ce6e48d33a46fa705c59ae1');
    expect(i.floatVerus).toBe(6.267357060779177e-13);
    expect(i.floatSha256t).toBe(0.010330632328987122);
  });
  it('§11.3 with v2.2 and §11.4 with v2.1', () => {
    const c = powInfo(hex(H11_3), true);
    expect(toHex(c.hashVerus)).toBe('000000000016d0ee7968a4720b43103c69a6c20a75de83c7e1a12eba017cc22c');
    expect(toHex(c.hashSha256t)).toBe('04961e4ea61828f7b5a839450009cd0ba6a29aab0c3981faae7f41c999b8dbcf');
    expect(c.floatVerus).toBe(8.105920842623566e-14);
    expect(c.floatSha256t).toBe(0.017915624659508467);
    const j = powInfo(hex(H746727), false);
    expect(toHex(j.hashVerus)).toBe('00000000008c749dc593bb29a1cf6fe46bcdd851b8c1c991fb0dd6fc31ec0eb6');
    expect(toHex(j.hashSha256t)).toBe('0f2a435d4e320967c0e04b0988f725e9b679db990984afe77e7d40c3eedcecdc');
    expect(j.floatVerus).toBe(2356452805 * 2 ** -72);
    expect(j.floatSha256t).toBe(4070847952 * 2 ** -36);
  });
  it('§11.6 hashes', () => {
    expect(toHex(powInfo(hex(H11_6), false).hashVerus)).toBe('2443706cf33a161fd811fa69c7180787f4ddbc518f9e8cacd4efef29b3cc22a9');
    const i = powInfo(hex(H11_6), true);
    expect(toHex(i.hashVerus)).toBe('fdae9a4bc8cff612feedaaa2b547989b15988a3fee593643629a72f4029eaf0c');
    expect(toHex(i.hashSha256t)).toBe('353389ceb7bccd1efe58d3ff45b97c4efd99d0a460070d554a2f78edd92482b7');
    expect(() => powInfo(new Uint8Array(80 + 1), true)).toThrow(RangeError);
  });
});
