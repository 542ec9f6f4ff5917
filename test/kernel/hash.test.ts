// The kernel's hash family through WASM: SHA-256 forms against node:crypto, VerusHash against
// the recorded headers of consensus.md §4.5 and §11.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { sha256, sha256d, sha256t, verushashV21, verushashV22 } from '../../ts/kernel/hash.js';
import { fromHex, toHex } from '../../ts/core/hex.js';

beforeAll(async () => {
  await initKernel();
});

const node = (d: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(d).digest());
const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 131 + 7) & 0xff);
const hex = (s: string): Uint8Array => fromHex(s)!;

describe('sha256 family vs node:crypto', () => {
  for (const n of [0, 1, 55, 56, 63, 64, 65, 80, 1000, 1023, 1024, 1025, 1 << 20]) {
    it(`length ${n}`, () => {
      const d = bytes(n);
      expect(toHex(sha256(d))).toBe(toHex(node(d)));
      expect(toHex(sha256d(d))).toBe(toHex(node(node(d))));
      expect(toHex(sha256t(d))).toBe(toHex(node(node(node(d)))));
    });
  }
  it('genesis (§11.1)', () => {
    const seed = new TextEncoder().encode("The New York Times International Edition 29/06/2023: 'Water troubles: A preview'");
    expect(toHex(sha256(seed))).toBe('b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537');
  });
  it('does not modify its input', () => {
    const d = bytes(80);
    const copy = d.slice();
    sha256d(d);
    expect(d).toEqual(copy);
  });
});

describe('VerusHash', () => {
  const cases: [string, string, string][] = [
    // header, v2.1, v2.2 (consensus.md §4.5/§11.2, §11.6)
    [
      '05b42d206f8a4b2b8094199fd28423151af8aa54a5073ac6e6805f42096dc3a20ae7cde7f3c41bf363fe94eb448bf924f791f77c22a2ebd6a3a5d8948f8aff019f072bea0000000366f2fefb2719fef5',
      '8d9ed79784fe729b23854d1f7c65d75d26d7cf2e58713fbfb46869cf9b062070',
      '0000000000b069112cc0caf14507169f6adf1e5278a2ef286cddc89f1162d7ca',
    ],
    [
      'b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537077fffffeab3b88a101b745e8d7b530eb129a789f571a4718edc07435ae74998981a3a7f000000036948246d00000000',
      '2443706cf33a161fd811fa69c7180787f4ddbc518f9e8cacd4efef29b3cc22a9',
      'fdae9a4bc8cff612feedaaa2b547989b15988a3fee593643629a72f4029eaf0c',
    ],
  ];
  it('v2.1 and v2.2 of recorded headers', () => {
    for (const [h, v21, v22] of cases) {
      expect(toHex(verushashV21(hex(h)))).toBe(v21);
      expect(toHex(verushashV22(hex(h)))).toBe(v22);
    }
  });
  it('checkpoint (§11.3, v2.2) and Janus1 headers (§11.4, v2.1)', () => {
    expect(
      toHex(
        verushashV22(
          hex(
            '34b4064fced07341204e3b2283477d5fc6423d7f8244f83d6e1fa1551a74ad470ba7c02fc4c7d16b758e8af266349dc1070727b5ecd5d7fc6c6417d2458018e328818355000000036748585daf74da6b',
          ),
        ),
      ),
    ).toBe('000000000016d0ee7968a4720b43103c69a6c20a75de83c7e1a12eba017cc22c');
    expect(
      toHex(
        verushashV21(
          hex(
            '97d7572245923377cd972657994013e9bcbe8d07251db053be7a8603c4c2325f0aed5677607773e58740a6161b1338bbf51ceea97a76431707c44c6dc0a8143267b7fcb5000000026580b4bce36e3bc8',
          ),
        ),
      ),
    ).toBe('00000000008c749dc593bb29a1cf6fe46bcdd851b8c1c991fb0dd6fc31ec0eb6');
  });
  it('hashes any length (key cache and fresh buffers agree)', () => {
    for (const n of [0, 1, 31, 32, 33, 64, 80, 200, 2000]) {
      const d = bytes(n);
      const a = verushashV22(d);
      verushashV21(bytes(n + 1)); // disturb the cached key
      expect(toHex(verushashV22(d))).toBe(toHex(a));
      expect(a.length).toBe(32);
    }
  });
});
