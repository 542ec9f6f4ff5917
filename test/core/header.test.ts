// The 80-byte header (consensus.md §2.1, §2.2) on the real headers of §11.
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { sha256 } from '../../ts/kernel/hash.js';
import { blockHash, parseHeader, serializeHeader } from '../../ts/core/header.js';
import { NodeError } from '../../ts/core/errors.js';
import { fromHex, toHex } from '../../ts/core/hex.js';
import { GENESIS_HASH, GENESIS_SEED } from '../../ts/consensus/params.js';
import { HEADERS, TESTNET_BLOCK_1 } from './vectors.js';

beforeAll(async () => {
  await initKernel();
});

describe('genesis (§11.1)', () => {
  it('is SHA256 of the 80-byte seed', () => {
    const seed = new TextEncoder().encode(GENESIS_SEED);
    expect(seed.length).toBe(80);
    expect(toHex(sha256(seed))).toBe('b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537');
    expect(toHex(GENESIS_HASH)).toBe(toHex(sha256(seed)));
  });
});

describe('header layout', () => {
  for (const v of HEADERS) {
    it(`${v.name}: fields, hash and byte-exact round trip`, () => {
      const raw = fromHex(v.raw)!;
      const h = parseHeader(raw);
      expect(toHex(h.prevHash)).toBe(v.prevHash);
      expect(h.target).toBe(v.target);
      expect(h.version).toBe(v.version);
      expect(toHex(serializeHeader(h))).toBe(v.raw);
      expect(toHex(blockHash(raw))).toBe(v.hash);
      expect(toHex(blockHash(h))).toBe(v.hash);
    });
  }

  it('§11.2 fields in detail', () => {
    const h = parseHeader(fromHex(HEADERS[0].raw)!);
    expect(toHex(h.merkleRoot)).toBe('f3c41bf363fe94eb448bf924f791f77c22a2ebd6a3a5d8948f8aff019f072bea');
    expect(h.timestamp).toBe(1_727_201_019);
    expect(h.nonce.toString(16)).toBe('2719fef5');
  });

  it('§11.4: block 746,727 links to 746,726', () => {
    expect(HEADERS[2].prevHash).toBe(HEADERS[3].hash);
  });

  it('§11.6 testnet block 1 links to genesis', () => {
    const h = parseHeader(fromHex(TESTNET_BLOCK_1.header)!);
    expect(toHex(h.prevHash)).toBe(toHex(GENESIS_HASH));
    expect(h.target).toBe(0x077fffff);
    expect(h.nonce).toBe(0);
    expect(toHex(blockHash(h))).toBe(TESTNET_BLOCK_1.hash);
  });

  it('refuses other lengths with EBADHEADER', () => {
    for (const n of [0, 79, 81]) {
      expect(() => parseHeader(new Uint8Array(n))).toThrow(NodeError);
      try {
        parseHeader(new Uint8Array(n));
      } catch (e) {
        expect((e as NodeError).errorName).toBe('EBADHEADER');
      }
    }
  });
});
