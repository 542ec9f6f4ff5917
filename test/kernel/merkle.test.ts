// Merkle root through the WASM kernel: consensus.md §11.6 and the tree shapes of §6.7.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { merklePrefix, merkleRoot } from '../../ts/kernel/merkle.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const sha = (...parts: Uint8Array[]) => new Uint8Array(createHash('sha256').update(Buffer.concat(parts)).digest());

beforeAll(async () => {
  await initKernel();
});

describe('consensus.md §11.6 (testnet block 1)', () => {
  const leaf0 = sha(hex('3661579d61abde5837a8686dc4d65348a2fc61b1'));
  const leaf1 = sha(hex('00000000000000010000000011e1a300'));
  const x = new Uint8Array(10);
  it('leaves, root and prefix', () => {
    expect(toHex(leaf0)).toBe('fe5f40934a0fe34da7b5990220b1cda58382c81ccdbc6b17ca3ada615eecd569');
    expect(toHex(leaf1)).toBe('7922d9c006a9e4bcd3c1ccfe70f80050fd712dfdfdc7a3bcb03fab8d7999ac40');
    const root = merkleRoot([leaf0, leaf1], x, true);
    expect(toHex(root)).toBe('eab3b88a101b745e8d7b530eb129a789f571a4718edc07435ae74998981a3a7f');
    const prefix = merklePrefix([leaf0, leaf1]);
    expect(toHex(prefix)).toBe(toHex(leaf0) + toHex(leaf1));
    expect(toHex(sha(prefix, x))).toBe(toHex(root));
  });
});

describe('tree shapes (§6.7)', () => {
  const l = Array.from({ length: 9 }, (_, i) => sha(Uint8Array.of(i)));
  const x = Uint8Array.of(1, 2, 3, 4);
  // model: reduce pairwise (odd node hashed alone) while more than 2 nodes remain
  const prefixModel = (leaves: Uint8Array[]) => {
    let level = leaves;
    while (level.length > 2) {
      const next: Uint8Array[] = [];
      for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? sha(level[i], level[i + 1]) : sha(level[i]));
      level = next;
    }
    return Buffer.concat(level);
  };
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9])('%i leaves', (n) => {
    const leaves = l.slice(0, n);
    const p = prefixModel(leaves);
    expect(toHex(merklePrefix(leaves))).toBe(p.toString('hex'));
    expect(toHex(merkleRoot(leaves, x, true))).toBe(toHex(sha(p, x)));
    expect(toHex(merkleRoot(leaves, x, false))).toBe(toHex(sha(sha(p, x))));
  });
  it('single leaf and odd count by hand', () => {
    expect(toHex(merkleRoot([l[0]], x, true))).toBe(toHex(sha(l[0], x)));
    expect(merklePrefix([l[0]]).length).toBe(32);
    const p3 = Buffer.concat([sha(l[0], l[1]), sha(l[2])]);
    expect(toHex(merkleRoot(l.slice(0, 3), x, true))).toBe(toHex(sha(p3, x)));
    expect(toHex(merkleRoot(l.slice(0, 3), new Uint8Array(0), true))).toBe(toHex(sha(p3)));
  });
  it('many leaves (a full body)', () => {
    const many = Array.from({ length: 355 }, (_, i) => sha(Uint8Array.of(i & 255, i >> 8)));
    expect(toHex(merkleRoot(many, x, true))).toBe(toHex(sha(prefixModel(many), x)));
  });
  it('rejects misuse', () => {
    expect(() => merkleRoot([], x, true)).toThrow(RangeError);
    expect(() => merklePrefix([])).toThrow(RangeError);
    expect(() => merkleRoot([new Uint8Array(31)], x, true)).toThrow(RangeError);
    expect(() => merkleRoot([l[0]], 'x' as unknown as Uint8Array, true)).toThrow(RangeError);
  });
});
