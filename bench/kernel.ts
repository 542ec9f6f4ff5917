// Kernel throughput: the WASM module against the same Rust code compiled natively.
// Prints plain `<where> <what>/s: <n>` lines. Run by `make bench` (via bench/index.ts), or on
// its own once bundled/transpiled (e.g. `npx tsx bench/kernel.ts`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initKernel } from '../ts/kernel/instance.js';
import { sha256d } from '../ts/kernel/hash.js';
import { janushashNumber } from '../ts/kernel/pow.js';
import { recoverManyKernel, recoverPublicKeyKernel } from '../ts/kernel/secp256k1.js';
import { fromHex } from '../ts/core/hex.js';

/** Reads a file of test/vectors/ (the same path from bench/ and from the bundle in dist/). */
const vectors = (name: string) => JSON.parse(readFileSync(new URL(`../test/vectors/${name}`, import.meta.url), 'utf8'));

/** A real mainnet header (consensus.md §11.2, the first of consensus-examples.json). */
const HEADER: string = vectors('consensus-examples.json').headers[0].raw;

/** (txHash, signature65) of coin transfers the reference accepted. */
const SIGNED: [string, string][] = vectors('coin-transfers.json').cases.map((c: { txHash: string; signature65: string }) => [c.txHash, c.signature65]);

/** Calls `f(i)` for i = 0, 1, … for about `seconds`; returns calls per second. */
function rate(seconds: number, f: (i: number) => void): number {
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  let n = 0;
  for (;;) {
    for (let k = 0; k < 64; k++) f(n++);
    const now = performance.now();
    if (now >= end) return (n * 1000) / (now - start);
  }
}

/** Runs the native example and returns its `native …/s: n` figures by name. */
function nativeFigures(): Map<string, number> {
  const dir = fileURLToPath(new URL('../kernel-rs', import.meta.url));
  const out = execFileSync('cargo', ['run', '--release', '-q', '--example', 'bench'], { cwd: dir, encoding: 'utf8' });
  const figures = new Map<string, number>();
  for (const m of out.matchAll(/^native (.+)\/s: (\d+(?:\.\d+)?)$/gm)) figures.set(m[1], Number(m[2]));
  return figures;
}

export async function benchKernel(): Promise<void> {
  await initKernel();
  const h = fromHex(HEADER)!;
  const dv = new DataView(h.buffer);
  rate(0.2, (i) => {
    dv.setUint32(76, i);
    janushashNumber(h);
  }); // warm-up (JIT tiers)

  const wasm = new Map<string, number>();
  // Mining pattern: only the nonce changes, so VerusHash reuses its key.
  wasm.set(
    'janushash',
    rate(2, (i) => {
      dv.setUint32(76, i);
      janushashNumber(h);
    }),
  );
  // Validation pattern: bytes 0..64 change, so every hash generates a new 8,832-byte key.
  wasm.set(
    'janushash cold-key',
    rate(2, (i) => {
      dv.setUint32(0, i);
      janushashNumber(h);
    }),
  );
  wasm.set(
    'sha256d',
    rate(2, (i) => {
      dv.setUint32(76, i);
      sha256d(h);
    }),
  );
  // Block validation pattern: a different signature each time (cycling through the vectors), through the TS wrapper.
  const signed = SIGNED.map(([d, s]) => [fromHex(d)!, fromHex(s)!] as const);
  if (signed.some(([d, s]) => !recoverPublicKeyKernel(d, s))) throw new Error('secp256k1 bench vectors do not recover');
  wasm.set(
    'secp256k1 recover',
    rate(2, (i) => {
      const [d, s] = signed[i % signed.length];
      recoverPublicKeyKernel(d, s);
    }),
  );
  // A block's signatures as one recovery worker gets them (half of 353): one call, the inversions shared.
  const BATCH = 176;
  const batch = new Uint8Array(BATCH * 97);
  for (let i = 0; i < BATCH; i++) {
    const [d, s] = signed[i % signed.length];
    batch.set(d, 97 * i);
    batch.set(s, 97 * i + 32);
  }
  wasm.set('secp256k1 recover (batches of 176)', BATCH * rate(2, () => recoverManyKernel(batch)));
  for (const [k, v] of wasm) console.log(`wasm ${k}/s: ${Math.round(v)}`);

  let native: Map<string, number>;
  try {
    native = nativeFigures();
  } catch (e) {
    console.log(`native: unavailable (${(e as Error).message.split('\n')[0]})`);
    return;
  }
  for (const [k, v] of native) console.log(`native ${k}/s: ${Math.round(v)}`);
  for (const [k, w] of wasm) {
    const n = native.get(k);
    if (n !== undefined) console.log(`ratio native/wasm ${k}: ${(n / w).toFixed(2)}`);
  }
}

// Direct run (not when bundled into dist/bench.mjs, whose entry calls benchKernel itself).
if (/[\\/]bench[\\/]kernel\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) await benchKernel();
