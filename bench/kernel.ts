// Kernel throughput: the WASM module against the same Rust code compiled natively.
// Prints plain `<where> <what>/s: <n>` lines. Run by `make bench` (via bench/index.ts), or on
// its own once bundled/transpiled (e.g. `npx tsx bench/kernel.ts`).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { initKernel } from '../ts/kernel/instance.js';
import { sha256d } from '../ts/kernel/hash.js';
import { janushashNumber } from '../ts/kernel/pow.js';
import { recoverPublicKeyKernel } from '../ts/kernel/secp256k1.js';
import { fromHex } from '../ts/core/hex.js';

/** A real mainnet header (consensus.md §11.2). */
const HEADER = '05b42d206f8a4b2b8094199fd28423151af8aa54a5073ac6e6805f42096dc3a20ae7cde7f3c41bf363fe94eb448bf924f791f77c22a2ebd6a3a5d8948f8aff019f072bea0000000366f2fefb2719fef5';

/** (txHash, signature65) of coin transfers the reference accepted (vectors/coin-transfers.json). */
const SIGNED: [string, string][] = [
  ['dd156b4a9dd0a81e1b241ffa17acd7ab9bf41ffd52bd5419cb8dbd6944cd1303', 'd706a1500acb4f40a1b482cbb959e5c4d05da8fef10ba2b4847e39db49a7459d7d8391b65b0216362fc0f3245fa1b26f02d6ec0d835ed2e5313a489e40f3197601'],
  ['541d2c35debab849f5b9b4928d68b4fe3796a0902904b5904c8ff6c54b3aadd1', '94c11659af2e3b4db766c25bbcfa40484e9c3623df612641916b94f90117a8e97b2a7eb5adde3e71b1e88fe40a558cde3a565ca86528d73e9871276c6e78302b00'],
  ['d9098f3ccd0cafdd07771efb794315367ace10c8054dba000c6307a7db296324', '69cbf7d2dcc94eabc20a00cab7106b9d5f3b7c86cd56b4cab1b1b7d4a78c6370620c36eb14c68bec0a1d7f9f977a0789f918df1fa932a0d0965f6a4cbf37815a00'],
  ['39b50b824e5364cab261f4d3b71c2dd2264eabe1466d3bad667f2840823effa8', '7d85e076b0d426d46856c8a698f35aa587c653df33bc1690576f7588d79d087426ca472481b09c690a64ca57e363375f175758e2a2b014faf9586abe1dca12a800'],
];

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
  rate(0.2, (i) => { dv.setUint32(76, i); janushashNumber(h); }); // warm-up (JIT tiers)

  const wasm = new Map<string, number>();
  // Mining pattern: only the nonce changes, so VerusHash reuses its key.
  wasm.set('janushash', rate(2, (i) => { dv.setUint32(76, i); janushashNumber(h); }));
  // Validation pattern: bytes 0..64 change, so every hash generates a new 8,832-byte key.
  wasm.set('janushash cold-key', rate(2, (i) => { dv.setUint32(0, i); janushashNumber(h); }));
  wasm.set('sha256d', rate(2, (i) => { dv.setUint32(76, i); sha256d(h); }));
  // Block validation pattern: a different signature each time (the 4 cycle), through the TS wrapper.
  const signed = SIGNED.map(([d, s]) => [fromHex(d)!, fromHex(s)!] as const);
  if (signed.some(([d, s]) => !recoverPublicKeyKernel(d, s))) throw new Error('secp256k1 bench vectors do not recover');
  wasm.set('secp256k1 recover', rate(2, (i) => { const [d, s] = signed[i & 3]; recoverPublicKeyKernel(d, s); }));
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
