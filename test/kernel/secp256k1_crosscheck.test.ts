// The kernel's secp256k1 recovery (consensus.md §7.3) against libsecp256k1, the C library the
// reference node links, called as the reference calls it (test/helpers/libsecp256k1.ts), on
// SIGNATURES seeded random signatures, valid and invalid in fixed shares (test/helpers/secp_cases.ts):
// every case through recover_many and recover_many_hinted, one in 16 through the single recover; the
// same key or the same refusal, and each refusal's status the reason found without the kernel. A
// consensus fork needs one signature on which the two disagree, so the count is large; worker threads
// share it. Another seed: SECP_CROSSCHECK_SEED=n.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import { recoverPublicKeyKernel } from '../../ts/kernel/secp256k1.js';
import { Libsecp256k1 } from '../helpers/libsecp256k1.js';
import { BATCH, CLASSES, classOf, drawBatch } from '../helpers/secp_cases.js';
import { judge, newTally, refusalReason, SINGLE_EVERY, type Tally } from '../helpers/secp_crosscheck.js';
import type { CrosscheckJob } from '../helpers/secp_crosscheck_worker.js';
import { be32, HALF_N, N, P, toBig, toHex } from '../helpers/secp_math.js';

/** Random signatures cross-checked in `make test` (issue 29: at least 1,000,000). */
const SIGNATURES = 1_000_000;
const SEED = Number(process.env.SECP_CROSSCHECK_SEED ?? 0x29c0ffee);

const packageDir = dirname(createRequire(import.meta.url).resolve('secp256k1/package.json'));
let lib: Libsecp256k1;

beforeAll(async () => {
  await initKernel();
  lib = new Libsecp256k1(packageDir);
});

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const sigOf = (r: bigint, s: bigint, recid: number) => Uint8Array.of(...be32(r), ...be32(s), recid);

describe('the oracle: libsecp256k1 as the reference calls it', () => {
  const sk = hex('cb6b03db23870c557e3a07858afd691d479ab0d61673fdffbbfc807f7238c5ff');
  const digest = hex('dd156b4a9dd0a81e1b241ffa17acd7ab9bf41ffd52bd5419cb8dbd6944cd1303');

  it('gives the verdicts secp256k1.test.ts pins for the kernel', () => {
    const good = lib.sign(digest, sk);
    const [r, s, rec] = [toBig(good.subarray(0, 32)), toBig(good.subarray(32, 64)), good[64]];
    expect(toHex(lib.recover(digest, good))).toBe(toHex(lib.publicKey(sk)));
    expect(toHex(recoverPublicKeyKernel(digest, good))).toBe(toHex(lib.publicKey(sk)));
    // r = 5: 5³ + 7 is no square mod p; key at infinity: R = k·G, z = 5·k
    const k = 0x1234567890abcdefn;
    const R = lib.publicKey(be32(k));
    const refused: [string, Uint8Array, Uint8Array, number][] = [
      ['high s (the n − s twin)', digest, sigOf(r, N - s, rec ^ 1), 3],
      ['s = n/2 + 1', digest, sigOf(r, HALF_N + 1n, rec), 3],
      ['recid 4', digest, sigOf(r, s, 4), 1],
      ['recid 255', digest, sigOf(r, s, 255), 1],
      ['r = 0', digest, sigOf(0n, s, rec), 2],
      ['s = 0', digest, sigOf(r, 0n, rec), 2],
      ['r = n', digest, sigOf(N, s, rec), 2],
      ['s = n', digest, sigOf(r, N, rec), 2],
      ['r = 2²⁵⁶ − 1', digest, sigOf(2n ** 256n - 1n, s, rec), 2],
      ['recid 2 with r + n = p', digest, sigOf(P - N, s, 2), 4],
      ['no curve point at x = 5', digest, sigOf(5n, s, 0), 4],
      ['key at infinity', be32(5n * k), sigOf(toBig(R.subarray(1)), 5n, R[0] & 1), 5],
    ];
    for (const [name, d, sig, reason] of refused) {
      expect([name, lib.recover(d, sig), refusalReason(sig, lib)]).toEqual([name, null, reason]);
      expect([name, recoverPublicKeyKernel(d, sig)]).toEqual([name, null]);
    }
    // s = n/2 is still low: it recovers (to some key) in both
    const half = sigOf(r, HALF_N, rec);
    expect(lib.recover(digest, half)).not.toBeNull();
    expect(toHex(recoverPublicKeyKernel(digest, half))).toBe(toHex(lib.recover(digest, half)));
  });

  it("finds a curve point at x exactly where Euler's criterion says x³ + 7 is a square mod p", () => {
    const pow = (b: bigint, e: bigint) => {
      let r = 1n;
      for (b %= P; e; e >>= 1n, b = (b * b) % P) if (e & 1n) r = (r * b) % P;
      return r;
    };
    const xs = [0n, 1n, 5n, P - N - 1n, P - 1n, ...drawBatch(SEED, 0, lib).map((c) => toBig(c.sig.subarray(0, 32)) % P)];
    for (const x of xs) expect([x, lib.hasPointAt(be32(x))]).toEqual([x, pow(x ** 3n + 7n, (P - 1n) / 2n) !== P - 1n]);
  });

  it('recovers the coin transfers the reference accepted (vectors/coin-transfers.json) to the kernel’s keys', () => {
    const file = JSON.parse(readFileSync(join(import.meta.dirname, '../vectors/coin-transfers.json'), 'utf8')) as {
      cases: { txHash: string; signature65: string }[];
    };
    expect(file.cases.length).toBeGreaterThan(0);
    for (const c of file.cases) {
      const key = lib.recover(hex(c.txHash), hex(c.signature65));
      expect(key).not.toBeNull();
      expect(toHex(key)).toBe(toHex(recoverPublicKeyKernel(hex(c.txHash), hex(c.signature65))));
    }
  });
});

describe('the cross-check itself', () => {
  it('draws every case from the seed and its index (but OpenSSL’s nonces), each class in its share', () => {
    const strip = (b: ReturnType<typeof drawBatch>) =>
      b.filter((c) => !c.cls.includes('OpenSSL')).map((c) => `${toHex(c.sig)} ${toHex(c.digest)} ${toHex(c.hint)}`);
    expect(strip(drawBatch(SEED, 7, lib))).toEqual(strip(drawBatch(SEED, 7, lib)));
    expect(strip(drawBatch(SEED, 7, lib))).not.toEqual(strip(drawBatch(SEED + 1, 7, lib)));
    const counts = CLASSES.map(() => 0);
    for (let i = 0; i < 100; i++) counts[classOf(i)]++;
    expect(counts).toEqual(CLASSES.map((c) => c.per100));
  });

  it('reports a key, a status or a hinted answer that differs', () => {
    const cases = drawBatch(SEED, 3, lib);
    const valid = cases.find((c) => c.implied === 'signer')!;
    const refused = cases.find((c) => c.implied === 3)!;
    const answer = (key: Uint8Array | null, status = 0) => Uint8Array.of(key ? 0 : status, ...(key ?? new Uint8Array(33)));
    const right = answer(valid.signer);
    expect(judge(valid, right, right, valid.signer, lib)).toBeNull();
    const wrongKey = right.slice();
    wrongKey[20] ^= 1;
    expect(judge(valid, wrongKey, wrongKey, undefined, lib)).toMatch(/recover_many .*libsecp256k1/);
    expect(judge(valid, right, wrongKey, undefined, lib)).toMatch(/recover_many_hinted/);
    expect(judge(valid, right, right, null, lib)).toMatch(/recover \(single\) refused/);
    expect(judge(valid, answer(null, 4), answer(null, 4), undefined, lib)).toMatch(/refused \(4\)/);
    expect(judge(refused, answer(null, 3), answer(null, 3), undefined, lib)).toBeNull();
    expect(judge(refused, answer(null, 2), answer(null, 2), undefined, lib)).toMatch(/status 2, reason 3/);
  });
});

/** The bundle the workers run (worker threads load JavaScript only). */
async function workerSource(): Promise<string> {
  const out = await build({
    entryPoints: [join(import.meta.dirname, '../helpers/secp_crosscheck_worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
  });
  return out.outputFiles[0].text;
}

function runWorker(source: string, job: CrosscheckJob): Promise<Tally> {
  return new Promise((resolve, reject) => {
    const w = new Worker(source, { eval: true, workerData: job });
    w.once('message', (t: Tally) => resolve(t));
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`cross-check worker exited with ${code} before answering`)));
  });
}

describe(`${SIGNATURES.toLocaleString('en')} random signatures against libsecp256k1`, () => {
  it('the kernel recovers the same key or refuses as the reference does, for the same reason', { timeout: 30 * 60_000 }, async () => {
    expect(SIGNATURES % BATCH).toBe(0);
    const batches = SIGNATURES / BATCH;
    const threads = Math.max(1, Math.min(availableParallelism(), batches));
    const source = await workerSource();
    const started = Date.now();
    const tallies = await Promise.all(
      Array.from({ length: threads }, (_, t) =>
        runWorker(source, { seed: SEED, fromBatch: Math.floor((t * batches) / threads), toBatch: Math.floor(((t + 1) * batches) / threads), packageDir }),
      ),
    );
    const all = newTally();
    for (const t of tallies) {
      all.cases += t.cases;
      all.singles += t.singles;
      all.recoveredAtRPlusN += t.recoveredAtRPlusN;
      t.byClass.forEach((v, k) => (all.byClass[k] += v));
      t.recoveredByClass.forEach((v, k) => (all.recoveredByClass[k] += v));
      t.byStatus.forEach((v, k) => (all.byStatus[k] += v));
      all.failures.push(...t.failures);
    }
    console.log(
      [
        `seed ${SEED}: ${all.cases} signatures in ${threads} workers, ${((Date.now() - started) / 1000).toFixed(1)} s`,
        ...CLASSES.map((c, k) => `  ${c.name}: ${all.byClass[k]} (${all.recoveredByClass[k]} recover)`),
        `  kernel statuses 0..5: ${all.byStatus.join(', ')}; recovered at x = r + n: ${all.recoveredAtRPlusN}; single recover: ${all.singles}`,
      ].join('\n'),
    );
    expect(all.failures).toEqual([]);
    expect(all.cases).toBe(SIGNATURES);
    expect(all.byClass).toEqual(CLASSES.map((c) => (c.per100 * SIGNATURES) / 100));
    expect(all.singles).toBe(SIGNATURES / SINGLE_EVERY);
    // every refusal the rules name was met, and recoveries through x = r + n
    for (const status of [1, 2, 3, 4, 5]) expect(all.byStatus[status]).toBeGreaterThan(SIGNATURES / 1000);
    expect(all.recoveredAtRPlusN).toBeGreaterThan(SIGNATURES / 1000);
  });
});
