// The compact header chain (ts/chain/packed_headers.ts): append, rollback and fork across a chunk
// boundary, hashes and worksums against a plain reference computed header by header, copies that
// later changes do not touch; and the chain manager's restart from the store with the same answers.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { PackedHeaders } from '../../ts/chain/packed_headers.js';
import { Chain } from '../../ts/chain/chain.js';
import { buildTemplate } from '../../ts/mining/template.js';
import { MAINNET, REGTEST, targetKindAt } from '../../ts/consensus/params.js';
import { decodeTarget, targetWork } from '../../ts/consensus/target.js';
import { blockHash, parseHeader } from '../../ts/core/header.js';
import { openDatabase } from '../../ts/store/database.js';
import { HEADER_CHUNK, META_HEAD, headerChunkKey, headerKey, u32Value } from '../../ts/store/keys.js';
import { regtestHeaders } from '../helpers/regtest_headers.js';
import { TestWallet } from '../helpers/wallet.js';

await initKernel();

/** A header linked to `prev` with a target that changes every 1,000 heights (the data is not checked here). */
function header(prev: Uint8Array, height: number, salt: number): Uint8Array {
  const raw = new Uint8Array(80);
  const v = new DataView(raw.buffer);
  raw.set(prev, 0);
  v.setUint32(32, ((20 + (Math.floor(height / 1000) % 7)) << 22) | (0x100000 + (height % 1000)));
  raw.fill(salt & 0xff, 36, 68);
  v.setUint32(68, 4);
  v.setUint32(72, 1_700_000_000 + 20 * height);
  v.setUint32(76, height ^ salt);
  return raw;
}

/** The plain reference: one entry per header. */
function reference(p: typeof REGTEST, raws: Uint8Array[]) {
  const hashes = [p.genesisHash],
    sums = [0n];
  raws.forEach((raw, i) => {
    hashes.push(blockHash(raw));
    sums.push(sums[i] + targetWork(decodeTarget(parseHeader(raw).target, targetKindAt(p, i + 1))));
  });
  return { hashes, sums };
}

function grow(packed: PackedHeaders, raws: Uint8Array[], n: number, salt: number): void {
  for (let i = 0; i < n; i++) {
    const raw = header(packed.tipHash, packed.length + 1, salt);
    packed.push(raw, blockHash(raw));
    raws.push(raw);
  }
}

describe('PackedHeaders', () => {
  it('answers like one object per header, across chunks, rollbacks and a fork', () => {
    for (const p of [REGTEST, MAINNET]) {
      const packed = new PackedHeaders(p);
      const raws: Uint8Array[] = [];
      grow(packed, raws, 70_000, 1); // more than one chunk of 65,536
      const kept = packed.rawAt(69_990);
      const keptHash = packed.hashAt(69_990);
      for (let i = 0; i < 1_000; i++) {
        packed.pop();
        raws.pop();
      }
      grow(packed, raws, 1_500, 2); // a fork at 69,000
      expect(packed.length).toBe(70_500);
      const ref = reference(p, raws);
      for (const h of [0, 1, 2, 63, 64, 65, 65_535, 65_536, 65_537, 68_999, 69_000, 69_001, 69_990, 70_499, 70_500]) {
        expect(packed.hashAt(h)).toEqual(ref.hashes[h]);
        expect(packed.worksumAt(h)).toBe(ref.sums[h]);
        if (h === 0) continue;
        expect(packed.rawAt(h)).toEqual(raws[h - 1]);
        expect(packed.headerAt(h)).toEqual(parseHeader(raws[h - 1]));
        expect(packed.timestampAt(h)).toBe(parseHeader(raws[h - 1]).timestamp);
        expect(packed.targetAt(h)).toBe(parseHeader(raws[h - 1]).target);
      }
      expect(packed.tipHash).toEqual(ref.hashes[70_500]);
      expect(packed.worksum).toBe(ref.sums[70_500]);
      expect(packed.rangeAt(65_535, 65_537)).toEqual(Uint8Array.from([...raws[65_534], ...raws[65_535], ...raws[65_536]]));
      // Released chunks (an applied header sync) are no longer read; everything above them is.
      if (p === REGTEST) {
        packed.release(65_536 + 64 + 1); // keeps 64 headers below it: 65,537 on
        expect(() => packed.rawAt(65_535)).toThrow(RangeError);
        expect(() => packed.rawAt(1)).toThrow(RangeError);
        packed.release(70_500); // never the chunk still being written
        for (const h of [65_537, 65_600, 70_500]) {
          expect(packed.rawAt(h)).toEqual(raws[h - 1]);
          expect(packed.worksumAt(h)).toBe(ref.sums[h]);
          expect(packed.hashAt(h)).toEqual(ref.hashes[h]);
        }
      }
      // What was handed out before the fork still reads as it did.
      expect(blockHash(kept)).toEqual(keptHash);
      expect(kept).not.toEqual(packed.rawAt(69_990));
    }
  });

  it('holds a segment above a base and refuses heights outside it', () => {
    const below = new PackedHeaders(REGTEST);
    const raws: Uint8Array[] = [];
    grow(below, raws, 100, 3);
    const seg = new PackedHeaders(REGTEST, 100, below.tipHash, below.worksum);
    grow(seg, raws, 100, 3);
    const ref = reference(REGTEST, raws);
    expect(seg.length).toBe(200);
    expect(seg.size).toBe(100);
    for (const h of [100, 101, 163, 164, 165, 200]) {
      expect(seg.hashAt(h)).toEqual(ref.hashes[h]);
      expect(seg.worksumAt(h)).toBe(ref.sums[h]);
    }
    expect(() => seg.rawAt(100)).toThrow(RangeError);
    expect(() => seg.rawAt(201)).toThrow(RangeError);
    expect(() => seg.worksumAt(99)).toThrow(RangeError);
    for (let i = 0; i < 100; i++) seg.pop();
    expect(seg.tipHash).toEqual(below.tipHash);
    expect(seg.worksum).toBe(below.worksum);
    expect(() => seg.pop()).toThrow(RangeError);
  });
});

describe('Chain on packed headers', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('restarts from the store with the same heights, hashes, worksums and hash lookups', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wartnode-packed-'));
    dirs.push(dir);
    let { db } = await openDatabase(dir);
    let chain = await Chain.open(db, REGTEST);
    const miner = TestWallet.fromSeed(5).address;
    const T0 = 1_700_000_000;
    for (let h = 1; h <= 120; h++) {
      const t = await buildTemplate(chain, db, miner, T0 + 20 * h);
      await chain.append(t.header, t.body, { now: T0 + 20 * h, skipPow: true });
    }
    await chain.rollback();
    const before = {
      length: chain.length,
      tip: chain.tipHash,
      worksum: chain.worksum,
      hashes: [0, 1, 64, 119].map((h) => chain.hashAt(h)),
      sums: [1, 64, 100].map((h) => chain.worksumAt(h)),
    };
    await db.close();
    ({ db } = await openDatabase(dir));
    chain = await Chain.open(db, REGTEST);
    expect(chain.length).toBe(119);
    expect(chain.tipHash).toEqual(before.tip);
    expect(chain.worksum).toBe(before.worksum);
    expect([0, 1, 64, 119].map((h) => chain.hashAt(h))).toEqual(before.hashes);
    expect([1, 64, 100].map((h) => chain.worksumAt(h))).toEqual(before.sums);
    for (const h of [1, 64, 119]) {
      expect(await chain.heightOfHash(chain.hashAt(h))).toBe(h);
      expect(blockHash(chain.rawHeaderAt(h))).toEqual(chain.hashAt(h));
      expect((await chain.block(h))!.hash).toEqual(chain.hashAt(h));
    }
    await db.close();
  });

  it('reads whole chunks from their records, writes a missing record once, and keeps records with appends and rollbacks', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wartnode-packed-'));
    dirs.push(dir);
    let { db } = await openDatabase(dir);
    // A store as written before chunk records existed: single headers only.
    const mined = regtestHeaders(HEADER_CHUNK - 1);
    await db.batch([
      ...Array.from({ length: mined.length }, (_, i) => ({ type: 'put' as const, key: headerKey(i + 1), value: mined.rawAt(i + 1) })),
      { type: 'put', key: META_HEAD, value: u32Value(mined.length) },
    ]);
    let chain = await Chain.open(db, REGTEST);
    const record = async () => {
      const v = await db.get(headerChunkKey(0));
      return v && Uint8Array.from(v);
    };
    expect([chain.length, chain.worksum]).toEqual([mined.length, mined.worksum]);
    expect(await record()).toBeUndefined();
    const T = 1_700_000_000 + 20 * HEADER_CHUNK;
    const t = await buildTemplate(chain, db, TestWallet.fromSeed(6).address, T);
    await chain.append(t.header, t.body, { now: T, skipPow: true });
    expect(await record()).toEqual(chain.rawHeadersAt(1, HEADER_CHUNK));
    await chain.rollback();
    expect(await record()).toBeUndefined();
    await chain.append(t.header, t.body, { now: T, skipPow: true });
    const tip = chain.tipHash,
      worksum = chain.worksum,
      mid = chain.hashAt(2_000);
    // A lost record is rebuilt from the single headers at start-up; then it is read as a whole.
    for (const drop of [true, false]) {
      if (drop) await db.del(headerChunkKey(0));
      await db.close();
      ({ db } = await openDatabase(dir));
      chain = await Chain.open(db, REGTEST);
      expect([chain.length, chain.tipHash, chain.worksum, chain.hashAt(2_000)]).toEqual([HEADER_CHUNK, tip, worksum, mid]);
      expect(await record()).toEqual(chain.rawHeadersAt(1, HEADER_CHUNK));
    }
    await db.close();
  });
});
