// secp256k1's constants and plain bigint helpers for the signature cross-check, and the seeded
// stream its cases are drawn from.

/** The group order n, floor(n/2) (the largest low s) and the field prime p. */
export const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
export const HALF_N = N >> 1n;
export const P = 2n ** 256n - 2n ** 32n - 977n;

export const toBig = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex') || '0'}`);
export const be32 = (v: bigint): Uint8Array => Uint8Array.from(Buffer.from(v.toString(16).padStart(64, '0'), 'hex'));
/** r ‖ s ‖ recid */
export function sigOf(r: bigint, s: bigint, recid: number): Uint8Array {
  const out = new Uint8Array(65);
  out.set(be32(r), 0);
  out.set(be32(s), 32);
  out[64] = recid;
  return out;
}
export const toHex = (b: Uint8Array | null): string | null => (b ? Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex') : null);

/**
 * sfc32 (Small Fast Counting generator, 32-bit words) seeded from a few words by splitmix32: the
 * cross-check seeds one per case from (seed, case index), so a case is drawn the same whichever
 * worker draws it and can be drawn again alone.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...words: number[]) {
    let x = 0x9e3779b9;
    const mix = () => {
      x = (x + 0x9e3779b9) | 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    for (const w of words) {
      x = (x ^ Math.imul(w >>> 0, 0x85ebca6b)) | 0;
      mix();
    }
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, k) for k ≤ 2³² (the bias of the modulo is below 2⁻²⁰ for the k used here). */
  below(k: number): number {
    return this.u32() % k;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const w = this.u32();
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = w >>> (8 * j);
    }
    return out;
  }

  /** Uniform in [lo, hi) (rejection sampling over the bits of hi − lo). */
  big(lo: bigint, hi: bigint): bigint {
    const span = hi - lo;
    const bits = span.toString(2).length;
    const mask = (1n << BigInt(bits)) - 1n;
    for (;;) {
      const v = toBig(this.bytes(Math.ceil(bits / 8))) & mask;
      if (v < span) return lo + v;
    }
  }
}
