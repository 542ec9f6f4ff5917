// Proof of work in worker threads (ts/kernel/pow_pool.ts): the same verdicts as the kernel on the
// main thread, header by header; and header sync's batch verification (HeaderStage.addBatch)
// refuses a header whose proof of work fails, keeping the valid headers before it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { PowPool } from '../../ts/kernel/pow_pool.js';
import { powCheck, type PowVersion } from '../../ts/kernel/pow.js';
import { sha256d } from '../../ts/kernel/hash.js';
import { PackedHeaders } from '../../ts/chain/packed_headers.js';
import { Chain } from '../../ts/chain/chain.js';
import { REGTEST } from '../../ts/consensus/params.js';
import { NodeError } from '../../ts/core/errors.js';
import { HeaderStage, verifyPow } from '../../ts/p2p/header_stage.js';
import { openDatabase } from '../../ts/store/database.js';
import { mineRegtestHeader, regtestHeaders } from '../helpers/regtest_headers.js';

await initKernel();
const pool = new PowPool(2);
const T0 = 1_700_000_000;
afterAll(() => pool.close());

describe('PowPool', () => {
  it('gives the kernel verdict and the hash of every header, in order', async () => {
    const n = 1_000;
    const all = new Uint8Array(n * 80);
    const versions: PowVersion[] = [];
    for (let i = 0; i < n; i++) {
      const raw = all.subarray(i * 80, (i + 1) * 80);
      for (let k = 0; k < 80; k++) raw[k] = (i * 31 + k * 7) & 0xff;
      new DataView(raw.buffer, raw.byteOffset).setUint32(32, i % 3 === 0 ? 0x003fffff : 0x077fffff);
      versions.push(([0, 1, 7, 8] as const)[i % 4]);
    }
    const expected = versions.map((v, i) => (powCheck(all.subarray(i * 80, (i + 1) * 80), v) ? 1 : 0));
    const got = await pool.verify(all, versions);
    expect([...got.ok]).toEqual(expected);
    for (const i of [0, 1, 499, 999]) expect(got.hashes.subarray(32 * i, 32 * i + 32)).toEqual(sha256d(all.subarray(i * 80, (i + 1) * 80)));
    expect(expected.filter((x) => x === 1).length).toBeGreaterThan(0);
    expect(expected.filter((x) => x === 0).length).toBeGreaterThan(0);
    expect([...(await pool.verify(new Uint8Array(0), [])).ok]).toEqual([]);
    await expect(pool.verify(new Uint8Array(79), [8])).rejects.toThrow(RangeError);
  });
});

describe('HeaderStage.addBatch with verifyPow', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('stages valid headers and refuses the first one with bad proof of work (EPOW)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wartnode-powpool-'));
    dirs.push(dir);
    const { db } = await openDatabase(dir);
    try {
      const chain = await Chain.open(db, REGTEST);
      const good = regtestHeaders(600);
      const raws = Array.from({ length: 600 }, (_, i) => good.rawAt(i + 1));
      const now = T0 + 20 * 700;
      const stage = new HeaderStage(chain, 0);
      stage.addBatch(raws, now, await verifyPow(REGTEST, 1, raws, pool));
      expect(stage.length).toBe(600);
      expect(stage.tipHash).toEqual(good.tipHash);
      expect(stage.worksum).toBe(good.worksum);

      // The same chain with header 400 replaced by one whose proof of work fails.
      const bad = new PackedHeaders(REGTEST);
      const badRaws: Uint8Array[] = [];
      for (let h = 1; h <= 500; h++)
        badRaws.push(h < 400 ? (bad.push(raws[h - 1], good.hashAt(h)), raws[h - 1]) : mineRegtestHeader(bad, new Uint8Array(32), T0, h !== 400));
      const refusing = new HeaderStage(chain, 0);
      const verdicts = await verifyPow(REGTEST, 1, badRaws, pool);
      expect([...verdicts.ok].map((v, i) => (v ? 0 : i + 1)).filter(Boolean)).toEqual([400]);
      let err: unknown = null;
      try {
        refusing.addBatch(badRaws, now, verdicts);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(NodeError);
      expect((err as NodeError).errorName).toBe('EPOW');
      expect(refusing.length).toBe(399);
      expect(refusing.tipHash).toEqual(good.hashAt(399));
    } finally {
      await db.close();
    }
  });
});
