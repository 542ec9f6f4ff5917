// Block bodies V1/V2/V4 (consensus.md §6.1–§6.9): the §11.6 block, byte-exact round trips of
// generated bodies, structure annotations, merkle leaves and root, and rejections.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { sha256 } from '../../ts/kernel/hash.js';
import { merkleRoot, merkleRootOfPieces } from '../../ts/kernel/merkle.js';
import {
  bodyMerkleLeaves,
  bodyMerklePrefix,
  bodyMerkleRoot,
  bodyStructure,
  parseBody,
  serializeBody,
  signedEntries,
  type Body,
  type BodyLayout,
} from '../../ts/core/body.js';
import { ENTRY_SIZE, entryBytes, entryTxHash, type SignedEntry } from '../../ts/core/entry.js';
import { recoverPublicKey } from '../../ts/core/keys.js';
import { addressFromPublicKey } from '../../ts/core/address.js';
import type { ParseAnnotation } from '../../ts/core/annotation.js';
import { NodeError, type ErrorName } from '../../ts/core/errors.js';
import { concatBytes, fromHex, toHex } from '../../ts/core/hex.js';
import { parseHeader } from '../../ts/core/header.js';
import { MAX_COIN_SUPPLY } from '../../ts/core/amount.js';
import { TESTNET_BLOCK_1 } from './vectors.js';
import { Rng, allSignedEntries, body, entries, entry, fullV4Body, tokenSection } from './gen.js';

beforeAll(async () => {
  await initKernel();
});

function errorOf(f: () => unknown): ErrorName | 'none' | 'other' {
  try {
    f();
  } catch (e) {
    return e instanceof NodeError ? e.errorName : 'other';
  }
  return 'none';
}

/** Round trip both ways; returns the serialized bytes. */
function roundTrip(b: Body, countFields: number): Uint8Array {
  const bytes = serializeBody(b);
  const parsed = parseBody(bytes, b.layout);
  const expected: Body = { ...b, countFields };
  if (b.layout === 'V1') expected.reserved = b.reserved ?? new Uint8Array(2);
  expect(parsed).toEqual(expected);
  expect(toHex(serializeBody(parsed))).toBe(toHex(bytes));
  return bytes;
}

const node = (tag: string, beginOffset: number, endOffset: number, children: ParseAnnotation[] = []): ParseAnnotation => ({
  tag,
  beginOffset,
  endOffset,
  children,
});

describe('§11.6 testnet block 1 (V4 layout with all count fields)', () => {
  const bytes = fromHex(TESTNET_BLOCK_1.body)!;

  it('parses to one new address and the reward, and serializes back byte for byte', () => {
    expect(bytes.length).toBe(58);
    const b = parseBody(bytes, 'V4');
    expect(toHex(b.extraNonce)).toBe('00'.repeat(10));
    expect(b.newAddresses.map(toHex)).toEqual([TESTNET_BLOCK_1.address]);
    expect(b.reward).toEqual({ toId: 1n, amount: 300_000_000n });
    expect(b.countFields).toBe(4);
    expect(signedEntries(b)).toEqual([]);
    expect(toHex(serializeBody(b))).toBe(TESTNET_BLOCK_1.body);
  });

  it('has the structure the reference serves (http-api.md tags)', () => {
    expect(bodyStructure(bytes, 'V4')).toEqual([
      node('extraNonce', 0, 10),
      node('newAddresses', 10, 32, [node('length', 10, 12)]),
      node('reward', 32, 48, [node('toAccountId', 32, 40), node('coin', 40, 48)]),
      node('coinTransfer', 48, 52, [node('length', 48, 52)]),
      node('cancelation', 52, 54, [node('length', 52, 54)]),
      node('tokenSections', 54, 56, [node('length', 54, 56)]),
      node('assetCreation', 56, 58, [node('length', 56, 58)]),
    ]);
  });

  it('has the published leaves, root and prefix', () => {
    const b = parseBody(bytes, 'V4');
    const leaves = bodyMerkleLeaves(b);
    expect(leaves.map(toHex)).toEqual(TESTNET_BLOCK_1.leaves);
    const root = bodyMerkleRoot(b, true);
    expect(toHex(root)).toBe(TESTNET_BLOCK_1.merkleRoot);
    expect(toHex(root)).toBe(toHex(parseHeader(fromHex(TESTNET_BLOCK_1.header)!).merkleRoot));
    const prefix = bodyMerklePrefix(b);
    expect(toHex(prefix)).toBe(TESTNET_BLOCK_1.leaves.join(''));
    expect(toHex(sha256(concatBytes(prefix, b.extraNonce)))).toBe(TESTNET_BLOCK_1.merkleRoot);
  });

  it('parses as V2 only without the V4 count fields (P is strict below version 4)', () => {
    expect(errorOf(() => parseBody(bytes, 'V2'))).toBe('EEXCESSBYTES');
    const v2 = parseBody(bytes.subarray(0, 52), 'V2');
    expect(v2.countFields).toBe(1);
    expect(toHex(bodyMerkleRoot(v2, true))).toBe(TESTNET_BLOCK_1.merkleRoot); // count fields are no leaves
  });
});

describe('round trips', () => {
  it('V1: u32 address count, reserved bytes, transfer count always present', () => {
    const rng = new Rng(1);
    for (const n of [0, 1, 5]) {
      const b = body('V1', rng, { reserved: rng.bytes(2), coinTransfers: entries('coinTransfer', n, rng) });
      b.coinTransfers.forEach((t) => {
        t.amount %= MAX_COIN_SUPPLY;
        t.feeCode = rng.int(0x4000);
      });
      const bytes = roundTrip(b, 1);
      expect(bytes.length).toBe(4 + 4 + 20 * b.newAddresses.length + 2 + 16 + 4 + 99 * n);
    }
  });

  it('V2: the transfer count is omitted by default when there are no transfers, and kept when parsed', () => {
    const rng = new Rng(2);
    const empty = body('V2', rng);
    const bytes = roundTrip(empty, 0);
    expect(bytes.length).toBe(10 + 2 + 20 * empty.newAddresses.length + 16);
    const withCount = roundTrip({ ...empty, countFields: 1 }, 1);
    expect(withCount.length).toBe(bytes.length + 4);
    const b = body('V2', rng, { coinTransfers: entries('coinTransfer', 4, rng) });
    b.coinTransfers.forEach((t) => {
      t.feeCode = rng.int(0x4000);
    });
    roundTrip(b, 1);
  });

  it('V4: all seven transaction types, several token sections', () => {
    const rng = new Rng(3);
    for (let i = 0; i < 5; i++) {
      const b = fullV4Body(rng);
      const bytes = roundTrip(b, 4);
      const size =
        10 +
        2 +
        20 * b.newAddresses.length +
        16 +
        4 +
        2 +
        2 +
        2 +
        allSignedEntries(b).reduce((n, e) => n + ENTRY_SIZE[e.kind], 0) +
        15 * b.tokenSections.length;
      expect(bytes.length).toBe(size);
    }
  });

  it('V4: every number of leading count fields that can hold the content', () => {
    const rng = new Rng(4);
    const base = body('V4', rng);
    for (let k = 0; k <= 4; k++) roundTrip({ ...base, countFields: k }, k);
    roundTrip({ ...base, coinTransfers: entries('coinTransfer', 1, rng), countFields: 1 }, 1);
    roundTrip({ ...base, cancelations: entries('cancelation', 1, rng), countFields: 2 }, 2);
    roundTrip({ ...base, tokenSections: [tokenSection(rng, [1, 0, 0, 0, 1])], countFields: 3 }, 3);
    expect(errorOf(() => serializeBody({ ...base, cancelations: entries('cancelation', 1, rng), countFields: 1 }))).toBe('EINV_BODY');
  });

  it('a parsed entry gives the bytes it was read from (no second encoding), equal to writing it; a built one is written', () => {
    const rng = new Rng(6);
    for (let i = 0; i < 5; i++) {
      const b = fullV4Body(rng);
      const bytes = serializeBody(b);
      const parsed = parseBody(bytes, 'V4');
      const built = allSignedEntries(b),
        read = allSignedEntries(parsed);
      expect(read.length).toBe(built.length);
      read.forEach((e, k) => {
        const raw = entryBytes(e);
        expect(raw.buffer).toBe(bytes.buffer); // a view of the body
        expect(toHex(raw)).toBe(toHex(entryBytes(built[k])));
        expect(toHex(raw)).toBe(toHex(entryBytes({ ...e }))); // a copy of the object is written afresh
      });
    }
  });

  it('entry sizes (§6.5; L orders are 95 bytes)', () => {
    const rng = new Rng(5);
    for (const kind of Object.keys(ENTRY_SIZE) as (keyof typeof ENTRY_SIZE)[]) {
      expect(entryBytes(entry(kind, rng)).length).toBe(ENTRY_SIZE[kind]);
    }
    expect(ENTRY_SIZE).toEqual({
      coinTransfer: 99,
      assetTransfer: 99,
      shareTransfer: 99,
      limitSwap: 95,
      liquidityDeposit: 99,
      liquidityWithdrawal: 91,
      cancelation: 91,
      assetCreation: 97,
    });
  });

  it('liquidity deposits carry base (asset) before quote (coin): block 69 the 0.10.3 reference mined', () => {
    const dir = 'test/vectors/reference-0.10.3-defi';
    const bytes = fromHex(JSON.parse(readFileSync(`${dir}/s09-A-first-deposit-100DEMO-30WART-block69-ref.binary.txt`, 'utf8')).data.bytes)!;
    const parsed = parseBody(bytes, 'V4');
    const d = parsed.tokenSections[0].liquidityDeposits[0];
    expect([d.base, d.quote]).toEqual([10000n, 3000000000n]); // 100.00 DEMO, 30 coins (tx-s09 as submitted)
    expect(toHex(serializeBody(parsed))).toBe(toHex(bytes));
    // Read so, the entry's signed hash is the reference's transaction hash and recovers A.
    const pinHash = fromHex(JSON.parse(readFileSync(`${dir}/s04-B-buy-5WART-at-0.4-no-pool/ref_chain_head.json`, 'utf8')).data.chainHead.hash)!;
    const assetHash = fromHex('763e6e3a87e69cf2138baecb2876896c48a91a3c12b1f4768c4f1c7fa21ad9ed')!;
    const hash = entryTxHash(d, 69, pinHash, { assetHash });
    expect(toHex(hash)).toBe('cc8923fb8bbeb600dbf51181b9c68e9a7fe5daa66dcba51a9ae5698a1673b648');
    expect(toHex(addressFromPublicKey(recoverPublicKey(hash, d.signature)!))).toBe('3661579d61abde5837a8686dc4d65348a2fc61b1');
  });

  it('the 10-bit counts are packed most significant bit first', () => {
    const rng = new Rng(7);
    const b = body('V4', rng, { newAddresses: [], tokenSections: [tokenSection(rng, [1, 2, 3, 4, 5])] });
    b.tokenSections[0].assetId = 0x0102n;
    const bytes = serializeBody(b);
    const at = 10 + 2 + 16 + 4 + 2 + 2;
    expect(toHex(bytes.subarray(at, at + 8))).toBe('0000000000000102');
    // 0000000001 0000000010 0000000011 0000000100 0000000101 000000
    expect(toHex(bytes.subarray(at + 8, at + 15))).toBe('0040200c040140');
  });
});

describe('structure annotations', () => {
  it('tag every entry and field, and tile the body', () => {
    const rng = new Rng(8);
    const b = fullV4Body(rng);
    const bytes = serializeBody(b);
    const tree = bodyStructure(bytes, 'V4');
    expect(tree.map((n) => n.tag)).toEqual(['extraNonce', 'newAddresses', 'reward', 'coinTransfer', 'cancelation', 'tokenSections', 'assetCreation']);
    // top-level nodes tile [0, length)
    let at = 0;
    for (const n of tree) {
      expect(n.beginOffset).toBe(at);
      at = n.endOffset;
    }
    expect(at).toBe(bytes.length);
    const transfers = tree[3];
    expect(transfers.children.map((n) => n.tag)).toEqual(['length', 'coinTransfer', 'coinTransfer', 'coinTransfer']);
    expect(transfers.children[1].children.map((n) => n.tag)).toEqual(['originAccountId', 'pinNonce', 'compactFee', 'toAccountId', 'coin', 'signature']);
    expect(transfers.children[1].endOffset - transfers.children[1].beginOffset).toBe(99);
    const sections = tree[5];
    expect(sections.children.map((n) => n.tag)).toEqual(['length', 'tokenSection', 'tokenSection', 'tokenSection']);
    expect(sections.children[1].children.map((n) => n.tag)).toEqual([
      'assetId',
      'tenBitsLengths',
      'assetTransfer',
      'assetTransfer',
      'shareTransfer',
      'limitSwap',
      'limitSwap',
      'liquidityDeposit',
      'liquidityWithdrawal',
    ]);
    expect(sections.children[1].children[5].children.map((n) => n.tag)).toEqual([
      'originAccountId',
      'pinNonce',
      'compactFee',
      'buy',
      'amount',
      'limitPrice',
      'signature',
    ]);
    expect(tree[6].children[1].children.map((n) => n.tag)).toEqual(['originAccountId', 'pinNonce', 'compactFee', 'supply', 'precision', 'name', 'signature']);
    expect(tree[4].children[1].children.map((n) => n.tag)).toEqual(['originAccountId', 'pinNonce', 'compactFee', 'cancelHeight', 'cancelNonceId', 'signature']);
  });

  it('V1 shows the reserved bytes; absent count fields give empty nodes', () => {
    const rng = new Rng(9);
    const v1 = serializeBody(body('V1', rng, { newAddresses: [] }));
    expect(bodyStructure(v1, 'V1').map((n) => [n.tag, n.beginOffset, n.endOffset])).toEqual([
      ['extraNonce', 0, 4],
      ['newAddresses', 4, 8],
      ['reserved', 8, 10],
      ['reward', 10, 26],
      ['coinTransfer', 26, 30],
    ]);
    const v2 = serializeBody(body('V2', rng, { newAddresses: [] }));
    expect(bodyStructure(v2, 'V2').at(-1)).toEqual(node('coinTransfer', 28, 28));
  });
});

describe('merkle leaves and root (§6.7)', () => {
  it('one leaf per address, the 16 reward bytes, then one per signed entry in body order', () => {
    const rng = new Rng(10);
    const b = fullV4Body(rng);
    const leaves = bodyMerkleLeaves(b);
    const expected = [
      ...b.newAddresses.map((a) => sha256(a)),
      sha256(concatBytes(fromHex(b.reward.toId.toString(16).padStart(16, '0'))!, fromHex(b.reward.amount.toString(16).padStart(16, '0'))!)),
      ...allSignedEntries(b).map((e: SignedEntry) => sha256(entryBytes(e))),
    ];
    expect(leaves.map(toHex)).toEqual(expected.map(toHex));
  });

  it('V1 leaves exclude the reserved bytes (P)', () => {
    const rng = new Rng(11);
    const b = body('V1', rng, { reserved: Uint8Array.of(1, 2) });
    const other = { ...b, reserved: Uint8Array.of(3, 4) };
    expect(toHex(bodyMerkleRoot(b, false))).toBe(toHex(bodyMerkleRoot(other, false)));
  });

  it('new type: SHA256(prefix ‖ extra nonce); old type hashes once more', () => {
    const rng = new Rng(12);
    for (const n of [0, 1, 2, 5]) {
      const b = body('V2', rng, { newAddresses: [], coinTransfers: entries('coinTransfer', n, rng) });
      const root = bodyMerkleRoot(b, true);
      expect(toHex(sha256(concatBytes(bodyMerklePrefix(b), b.extraNonce)))).toBe(toHex(root));
    }
    const one = body('V1', rng, { newAddresses: [] }); // a single leaf: root = SHA256(SHA256(leaf ‖ X))
    const leaf = bodyMerkleLeaves(one)[0];
    expect(toHex(bodyMerkleRoot(one, false))).toBe(toHex(sha256(sha256(concatBytes(leaf, one.extraNonce)))));
    expect(toHex(bodyMerkleRoot(one, true))).toBe(toHex(sha256(concatBytes(leaf, one.extraNonce))));
  });

  it("is the kernel's root of the leaves, hashed in one call, for parsed and built bodies of every layout and both types", () => {
    const rng = new Rng(15);
    for (const layout of ['V1', 'V2', 'V4'] as BodyLayout[]) {
      for (let i = 0; i < 4; i++) {
        const b = layout === 'V4' ? fullV4Body(rng) : body(layout, rng);
        const parsed = parseBody(serializeBody(b), layout);
        for (const newType of [true, false]) {
          const want = toHex(merkleRoot(bodyMerkleLeaves(b), b.extraNonce, newType));
          expect(toHex(bodyMerkleRoot(b, newType))).toBe(want);
          expect(toHex(bodyMerkleRoot(parsed, newType))).toBe(want);
        }
      }
    }
    expect(() => merkleRootOfPieces(new Uint8Array(5), [2, 2], new Uint8Array(0), true)).toThrow(RangeError);
    expect(() => merkleRootOfPieces(new Uint8Array(3), [2, 2], new Uint8Array(0), true)).toThrow(RangeError);
    expect(() => merkleRootOfPieces(new Uint8Array(0), [], new Uint8Array(0), true)).toThrow(RangeError);
  });

  it('the extra nonce changes the root but is no leaf', () => {
    const rng = new Rng(13);
    const b = fullV4Body(rng);
    const c = { ...b, extraNonce: rng.bytes(10) };
    expect(bodyMerkleLeaves(c).map(toHex)).toEqual(bodyMerkleLeaves(b).map(toHex));
    expect(toHex(bodyMerkleRoot(c, true))).not.toBe(toHex(bodyMerkleRoot(b, true)));
  });
});

describe('rejections', () => {
  const rng = new Rng(14);
  const layouts: BodyLayout[] = ['V1', 'V2', 'V4'];
  const sample = (layout: BodyLayout): Body => {
    const b = layout === 'V4' ? fullV4Body(rng) : body(layout, rng, { coinTransfers: entries('coinTransfer', 2, rng) });
    if (layout !== 'V4')
      b.coinTransfers.forEach((t) => {
        t.feeCode = 0x1000;
      });
    return b;
  };

  it('trailing bytes (EEXCESSBYTES)', () => {
    for (const layout of layouts) {
      const bytes = serializeBody(sample(layout));
      expect(errorOf(() => parseBody(concatBytes(bytes, Uint8Array.of(0)), layout))).toBe('EEXCESSBYTES');
    }
    // V2 bodies may not carry V4 count fields (P); V4 may not carry bytes after the asset creations
    const v2 = serializeBody(body('V2', rng, { countFields: 1 }));
    expect(errorOf(() => parseBody(concatBytes(v2, new Uint8Array(6)), 'V2'))).toBe('EEXCESSBYTES');
  });

  it('short bytes: every truncation inside a field fails with EINV_BODY', () => {
    for (const layout of layouts) {
      const b = sample(layout);
      const bytes = serializeBody(b);
      const boundaries = new Set(bodyStructure(bytes, layout).flatMap((n) => [n.beginOffset]));
      for (let n = 0; n < bytes.length; n++) {
        const got = errorOf(() => parseBody(bytes.subarray(0, n), layout));
        // a V2/V4 body may legitimately end right before an optional count field
        if (got === 'none') expect(layout !== 'V1' && boundaries.has(n)).toBe(true);
        else expect(got).toBe('EINV_BODY');
      }
    }
  });

  it('V1 without the transfer count (P)', () => {
    const bytes = serializeBody(body('V1', rng));
    expect(errorOf(() => parseBody(bytes.subarray(0, bytes.length - 4), 'V1'))).toBe('EINV_BODY');
  });

  it('bad counts: declared entries beyond the data', () => {
    const b = body('V4', rng, { newAddresses: [], coinTransfers: entries('coinTransfer', 1, rng) });
    const bytes = serializeBody(b);
    const bump = (offset: number, value: number, width: 2 | 4): Uint8Array => {
      const c = bytes.slice();
      for (let i = 0; i < width; i++) c[offset + i] = (value >>> (8 * (width - 1 - i))) & 0xff;
      return c;
    };
    expect(errorOf(() => parseBody(bump(10, 0xffff, 2), 'V4'))).toBe('EINV_BODY'); // addresses
    expect(errorOf(() => parseBody(bump(28, 0xffffffff, 4), 'V4'))).toBe('EINV_BODY'); // transfers
    expect(errorOf(() => parseBody(bump(28, 2, 4), 'V4'))).toBe('EINV_BODY');
    expect(errorOf(() => parseBody(bump(28, 0, 4), 'V4'))).not.toBe('none'); // 99 bytes left over
    const at = 28 + 4 + 99;
    expect(errorOf(() => parseBody(bump(at, 1, 2), 'V4'))).toBe('EINV_BODY'); // cancelations
    expect(errorOf(() => parseBody(bump(at + 2, 1, 2), 'V4'))).toBe('EINV_BODY'); // token sections
    expect(errorOf(() => parseBody(bump(at + 4, 1, 2), 'V4'))).toBe('EINV_BODY'); // asset creations
  });

  it('bad ten-bit counts: nonzero padding bits, more than 1,023 entries', () => {
    const b = body('V4', rng, { newAddresses: [], tokenSections: [tokenSection(rng, [0, 0, 0, 0, 0])] });
    const bytes = serializeBody(b);
    const pad = 10 + 2 + 16 + 4 + 2 + 2 + 8 + 6;
    bytes[pad] = 0x01;
    expect(errorOf(() => parseBody(bytes, 'V4'))).toBe('EINV_BODY');
    const big = tokenSection(rng, [0, 0, 0, 0, 0]);
    const w = entry('liquidityWithdrawal', rng);
    big.liquidityWithdrawals = Array.from({ length: 1024 }, () => w);
    expect(errorOf(() => serializeBody({ ...b, tokenSections: [big] }))).toBe('EINV_BODY');
  });

  it('token-era sections in a V1/V2 body cannot be serialized', () => {
    expect(errorOf(() => serializeBody(body('V2', rng, { cancelations: entries('cancelation', 1, rng) })))).toBe('EBLOCKV4');
  });

  describe('malformed fields', () => {
    /** Serializes a V4 body with one entry of `kind`, patches byte `at` of the entry and parses. */
    const patched = (e: SignedEntry, at: number, value: number, length = 1): ErrorName | 'none' | 'other' => {
      const parts: Partial<Body> = { newAddresses: [] };
      if (e.kind === 'cancelation') parts.cancelations = [e];
      else if (e.kind === 'assetCreation') parts.assetCreations = [e];
      else if (e.kind === 'coinTransfer') parts.coinTransfers = [e];
      else {
        const s = tokenSection(rng, [0, 0, 0, 0, 0]);
        if (e.kind === 'limitSwap') s.limitSwaps = [e];
        parts.tokenSections = [s];
      }
      const bytes = serializeBody(body('V4', rng, parts));
      const start = bytes.length - (e.kind === 'assetCreation' ? 97 : e.kind === 'limitSwap' ? 2 + 95 : e.kind === 'cancelation' ? 2 + 2 + 91 : 0);
      bytes.fill(value, start + at, start + at + length);
      return errorOf(() => parseBody(bytes, 'V4'));
    };
    it('buy flag other than 0/1 (EINVBUY)', () => {
      expect(patched(entry('limitSwap', rng), 18, 2)).toBe('EINVBUY');
      expect(patched(entry('limitSwap', rng), 18, 1)).toBe('none');
    });
    it('a limit that is no price parses: the reference reads any 3 bytes (dex/limit.ts)', () => {
      expect(patched(entry('limitSwap', rng), 27, 0x7f)).toBe('none');
      expect(patched(entry('limitSwap', rng), 29, 128)).toBe('none');
    });
    it('cancel height not a multiple of 32 (ENOPINHEIGHT)', () => {
      expect(patched(entry('cancelation', rng), 21, 0x21)).toBe('ENOPINHEIGHT');
    });
    it('precision above 18 (EBADASSETDECIMALS), a supply below one unit (EINV_SUPPLY), bad names (EASSETNAME)', () => {
      const e = { ...entry('assetCreation', rng), supply: 10n ** 18n };
      expect(patched(e, 26, 19)).toBe('EBADASSETDECIMALS');
      expect(patched(e, 26, 18)).toBe('none');
      expect(patched({ ...e, supply: 10n ** 18n - 1n }, 26, 18)).toBe('EINV_SUPPLY');
      expect(patched({ ...e, supply: 99n }, 26, 2)).toBe('EINV_SUPPLY');
      expect(patched({ ...e, supply: 100n }, 26, 2)).toBe('none');
      expect(patched(entry('assetCreation', rng), 27, 0x2d)).toBe('EASSETNAME');
      expect(patched(entry('assetCreation', rng), 27, 0)).toBe('EASSETNAME');
    });
    it('signature with recid > 3, high s, or r out of range (ECORRUPTEDSIG)', () => {
      const e = entry('assetCreation', rng);
      expect(patched(e, 96, 4)).toBe('ECORRUPTEDSIG');
      expect(patched(e, 32 + 32, 0xff)).toBe('ECORRUPTEDSIG'); // s ≥ n/2
      expect(patched(e, 32, 0xff, 32)).toBe('ECORRUPTEDSIG'); // r ≥ n
    });
  });

  it('V1/V2 amounts and fees above MAX_COIN_SUPPLY (P: EINV_FUNDS); V4 leaves them to the balance rules', () => {
    for (const layout of ['V1', 'V2'] as const) {
      const t = entry('coinTransfer', rng);
      t.feeCode = 0;
      const ok = body(layout, rng, { coinTransfers: [{ ...t, amount: MAX_COIN_SUPPLY }] });
      expect(errorOf(() => parseBody(serializeBody(ok), layout))).toBe('none');
      const over = body(layout, rng, { coinTransfers: [{ ...t, amount: MAX_COIN_SUPPLY + 1n }] });
      expect(errorOf(() => parseBody(serializeBody(over), layout))).toBe('EINV_FUNDS');
      const fee = body(layout, rng, { coinTransfers: [{ ...t, feeCode: 0xffff }] });
      expect(errorOf(() => parseBody(serializeBody(fee), layout))).toBe('EINV_FUNDS');
      const reward = body(layout, rng, { reward: { toId: 1n, amount: MAX_COIN_SUPPLY + 1n } });
      expect(errorOf(() => parseBody(serializeBody(reward), layout))).toBe('EINV_FUNDS');
    }
    const t = { ...entry('coinTransfer', rng), amount: MAX_COIN_SUPPLY + 1n, feeCode: 0xffff };
    expect(errorOf(() => parseBody(serializeBody(body('V4', rng, { coinTransfers: [t] })), 'V4'))).toBe('none');
  });
});
