// secp256k1 public-key recovery through the WASM kernel (consensus.md §7.3), checked against
// @noble/secp256k1 on random keys and digests, on the rejection rules, and on the coin transfers
// the reference node accepted (vectors/coin-transfers.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as secp from '@noble/secp256k1';
import { beforeAll, describe, expect, it } from 'vitest';
import { initKernel } from '../../ts/kernel/instance.js';
import {
  publicKeyKernel,
  recoverManyHintedKernel,
  recoverManyKernel,
  recoverPublicKeyKernel,
  SIGNER_TAG,
  signatureInRange,
} from '../../ts/kernel/secp256k1.js';
import { sigOf } from '../helpers/secp_math.js';
import { isCanonicalSignature, publicKeyOf, randomPrivateKey, recoverPublicKey, signDigest } from '../../ts/core/keys.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const toHex = (b: Uint8Array | null) => (b ? Buffer.from(b).toString('hex') : null);

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const P = 2n ** 256n - 2n ** 32n - 977n;
const HALF_N = N >> 1n;
const be32 = (v: bigint) => hex(v.toString(16).padStart(64, '0'));
const num = (b: Uint8Array) => BigInt('0x' + Buffer.from(b).toString('hex'));

/** Deterministic byte stream (xorshift32) so failures can be reproduced. */
function bytes(seed: number): (n: number) => Uint8Array {
  let x = seed >>> 0 || 1;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      out[i] = x & 0xff;
    }
    return out;
  };
}

/** noble's own recovery of a r ‖ s ‖ recid signature (null when it refuses). */
function nobleRecover(digest: Uint8Array, sig65: Uint8Array): Uint8Array | null {
  const rec = new Uint8Array(65);
  rec[0] = sig65[64];
  rec.set(sig65.subarray(0, 64), 1);
  try {
    return secp.recoverPublicKey(rec, digest, { prehash: false });
  } catch {
    return null;
  }
}

beforeAll(async () => {
  await initKernel();
});

describe('random keys and digests against @noble/secp256k1', () => {
  it('2,000 signatures recover to the signing key', () => {
    const rnd = bytes(0x5ec9256b);
    const recids = [0, 0, 0, 0];
    for (let i = 0; i < 2000; i++) {
      const sk =
        i % 2 === 0
          ? randomPrivateKey()
          : (() => {
              for (;;) {
                const k = rnd(32);
                if (num(k) > 0n && num(k) < N) return k;
              }
            })();
      // every 100th digest is ≥ n (reduced mod n by the recovery), a few are all-zero / all-ones
      const digest = i % 100 === 0 ? new Uint8Array(32).fill(0xff) : i % 100 === 1 ? new Uint8Array(32) : rnd(32);
      const sig = signDigest(digest, sk);
      recids[sig[64]]++;
      const want = toHex(publicKeyOf(sk));
      expect(isCanonicalSignature(sig)).toBe(true);
      expect(toHex(recoverPublicKeyKernel(digest, sig))).toBe(want);
      expect(toHex(recoverPublicKey(digest, sig))).toBe(want);
      expect(toHex(nobleRecover(digest, sig))).toBe(want);
      if (i % 4 === 0) {
        // the other parity recovers a different key, identical in both implementations
        const other = sig.slice();
        other[64] ^= 1;
        const k = recoverPublicKeyKernel(digest, other);
        expect(toHex(k)).not.toBe(want);
        expect(toHex(k)).toBe(toHex(nobleRecover(digest, other)));
      }
    }
    expect(recids[0] + recids[1]).toBe(2000);
    expect(recids[0]).toBeGreaterThan(800);
    expect(recids[1]).toBeGreaterThan(800);
  });

  it('any r ‖ s ‖ recid in range gives the same answer as noble', () => {
    const rnd = bytes(0x1234567);
    for (let i = 0; i < 300; i++) {
      const digest = rnd(32);
      const r = num(rnd(32)) % N || 1n;
      const s = (num(rnd(32)) % HALF_N) + 1n;
      const sig = sigOf(r, s, i % 2);
      expect(toHex(recoverPublicKeyKernel(digest, sig))).toBe(toHex(nobleRecover(digest, sig)));
    }
  });
});

describe('publicKeyKernel', () => {
  it("equals noble's sk·G for random keys and the extremes; null for 0, n and beyond, and wrong lengths", () => {
    const rnd = bytes(0x2468ace);
    const keys = [Uint8Array.of(...new Uint8Array(31), 1), be32(N - 1n)];
    for (let i = 0; i < 100; i++) keys.push(be32((num(rnd(32)) % (N - 1n)) + 1n));
    for (const sk of keys) expect(toHex(publicKeyKernel(sk))).toBe(toHex(publicKeyOf(sk)));
    for (const bad of [new Uint8Array(32), be32(N), new Uint8Array(32).fill(0xff), new Uint8Array(31), new Uint8Array(33)])
      expect(publicKeyKernel(bad)).toBeNull();
  });
});

describe('recoverManyKernel', () => {
  it('answers each item as recoverPublicKeyKernel does, in one call, invalid signatures among valid ones', () => {
    const rnd = bytes(0x7654321);
    const items: [Uint8Array, Uint8Array][] = [];
    for (let i = 0; i < 60; i++) {
      const digest = rnd(32);
      const r = num(rnd(32)) % N || 1n;
      const s = (num(rnd(32)) % HALF_N) + 1n;
      items.push([digest, i % 10 === 3 ? sigOf(r, N - s, 0) : i % 10 === 7 ? sigOf(r, s, 5) : sigOf(r, s, i % 2)]);
    }
    const packed = new Uint8Array(items.length * 97);
    items.forEach(([d, sig], i) => {
      packed.set(d, 97 * i);
      packed.set(sig, 97 * i + 32);
    });
    const out = recoverManyKernel(packed);
    expect(out.length).toBe(34 * items.length);
    items.forEach(([d, sig], i) => {
      const want = recoverPublicKeyKernel(d, sig);
      const answer = out.subarray(34 * i, 34 * (i + 1));
      if (want) expect([answer[0], toHex(answer.subarray(1))]).toEqual([0, toHex(want)]);
      else expect(answer[0]).toBeGreaterThan(0);
    });
    expect(recoverManyKernel(new Uint8Array(0)).length).toBe(0);
    expect(() => recoverManyKernel(new Uint8Array(96))).toThrow(RangeError);
  });
});

describe('recoverManyHintedKernel', () => {
  /** digest ‖ signature ‖ hint, packed */
  const pack = (items: [Uint8Array, Uint8Array, Uint8Array][]) => {
    const out = new Uint8Array(items.length * 130);
    items.forEach(([d, sig, hint], i) => {
      out.set(d, 130 * i);
      out.set(sig, 130 * i + 32);
      out.set(hint, 130 * i + 97);
    });
    return out;
  };
  /** Every answer against noble's recovery of the same digest and signature, the hint aside. */
  const expectNobleVerdicts = (items: [Uint8Array, Uint8Array, Uint8Array][]) => {
    const out = recoverManyHintedKernel(pack(items));
    expect(out.length).toBe(34 * items.length);
    let recovered = 0;
    items.forEach(([d, sig], i) => {
      const want = nobleRecover(d, sig);
      const answer = out.subarray(34 * i, 34 * (i + 1));
      if (want && isCanonicalSignature(sig)) {
        expect([i, answer[0], toHex(answer.subarray(1))]).toEqual([i, 0, toHex(want)]);
        recovered++;
      } else {
        expect([i, answer[0] > 0, toHex(answer.subarray(1))]).toEqual([i, true, '00'.repeat(33)]);
      }
    });
    return recovered;
  };

  it("gives noble's verdict for each of 800 signatures of 8 signers, hinted right, wrong, by tag, with no key, corrupted", () => {
    const rnd = bytes(0x29b47c);
    const keys = Array.from({ length: 8 }, (_, tag) => {
      const sk = rnd(32);
      sk[0] = (sk[0] % 0xf0) + 1; // below n
      return { sk, pub: publicKeyOf(sk), tag: Uint8Array.of(SIGNER_TAG, tag, ...new Uint8Array(31)) };
    });
    const noKey = new Uint8Array(33);
    const items: [Uint8Array, Uint8Array, Uint8Array][] = [];
    for (let i = 0; i < 800; i++) {
      const who = keys[rnd(1)[0] % 8];
      const digest = rnd(32);
      let sig = signDigest(digest, who.sk);
      let hint = who.pub;
      const roll = rnd(1)[0];
      if (roll < 4) {
        sig = sig.slice();
        sig[rnd(1)[0] % 65] ^= 1 << (rnd(1)[0] % 8); // any bit of the signature
      } else if (roll < 8)
        digest[rnd(1)[0] % 32] ^= 1; // signed another digest
      else if (roll < 10)
        sig = sigOf(num(sig.subarray(0, 32)), N - num(sig.subarray(32, 64)), sig[64] ^ 1); // the high-s twin
      else if (roll < 16)
        hint = keys[rnd(1)[0] % 8].pub; // a hint of another signer
      else if (roll < 18)
        hint = Uint8Array.of(4, ...who.pub.subarray(1)); // no compressed key
      else if (roll < 20)
        hint = Uint8Array.of(2, ...new Uint8Array(32).fill(0xff)); // x ≥ p
      else if (roll < 24) hint = noKey;
      if (roll >= 4 && roll < 10 && i % 2 === 0) hint = who.tag;
      else if (roll >= 160) hint = who.tag; // the first that recovers names the key for the others
      items.push([digest, sig, hint]);
    }
    expect(expectNobleVerdicts(items)).toBeGreaterThan(680);
    expect(expectNobleVerdicts(items.slice(0, 1))).toBeLessThanOrEqual(1);
    expect(recoverManyHintedKernel(new Uint8Array(0)).length).toBe(0);
    expect(() => recoverManyHintedKernel(new Uint8Array(129))).toThrow(RangeError);
  });

  it('refuses under the right hint what recovery refuses: ranges, no point, the key at infinity, garbage', () => {
    const sk = hex('cb6b03db23870c557e3a07858afd691d479ab0d61673fdffbbfc807f7238c5ff');
    const pub = publicKeyOf(sk);
    const rnd = bytes(0x51c);
    const items: [Uint8Array, Uint8Array, Uint8Array][] = [];
    const good = () => {
      const d = rnd(32);
      return [d, signDigest(d, sk), pub] as [Uint8Array, Uint8Array, Uint8Array];
    };
    for (let i = 0; i < 10; i++) items.push(good());
    const [d0, g0] = good();
    const r = num(g0.subarray(0, 32)),
      s = num(g0.subarray(32, 64));
    for (const sig of [
      sigOf(r, N - s, g0[64] ^ 1),
      sigOf(r, HALF_N + 1n, g0[64]),
      sigOf(r, s, 4),
      sigOf(0n, s, g0[64]),
      sigOf(r, 0n, g0[64]),
      sigOf(N, s, g0[64]),
      sigOf(P - N, s, 2),
      sigOf(5n, s, 0), // 5³ + 7 is no square mod p
    ])
      items.push([d0, sig, pub]);
    const k = 0x1234567890abcdefn;
    const R = secp.Point.BASE.multiply(k).toAffine();
    items.push([be32((5n * k) % N), sigOf(R.x, 5n, Number(R.y & 1n)), pub]); // Q at infinity
    for (let i = 0; i < 40; i++) {
      const sig = rnd(65);
      sig[64] &= 1;
      items.push([rnd(32), sig, pub]);
    }
    for (let i = 0; i < 10; i++) items.push(good());
    expect(expectNobleVerdicts(items)).toBeGreaterThanOrEqual(20);
  });

  it('recovers the coin transfers the reference accepted, each hinted with its key', () => {
    const file = JSON.parse(readFileSync(join(import.meta.dirname, '../vectors/coin-transfers.json'), 'utf8')) as {
      cases: { txHash: string; signature65: string }[];
    };
    const items = file.cases.map((c): [Uint8Array, Uint8Array, Uint8Array] => {
      const key = recoverPublicKey(hex(c.txHash), hex(c.signature65))!;
      return [hex(c.txHash), hex(c.signature65), key];
    });
    expect(expectNobleVerdicts([...items, ...items])).toBe(2 * items.length);
  });
});

describe('invalid signatures give null', () => {
  const sk = hex('cb6b03db23870c557e3a07858afd691d479ab0d61673fdffbbfc807f7238c5ff');
  const digest = hex('dd156b4a9dd0a81e1b241ffa17acd7ab9bf41ffd52bd5419cb8dbd6944cd1303');
  const good = signDigest(digest, sk);
  const r = num(good.subarray(0, 32));
  const s = num(good.subarray(32, 64));
  const rec = good[64];

  it('the good signature recovers', () => {
    expect(toHex(recoverPublicKey(digest, good))).toBe(toHex(publicKeyOf(sk)));
    expect(isCanonicalSignature(good)).toBe(true);
  });

  const cases: [string, () => Uint8Array][] = [
    ['high s (the n − s twin)', () => sigOf(r, N - s, rec ^ 1)],
    ['s = n/2 + 1', () => sigOf(r, HALF_N + 1n, rec)],
    ['s = n − 1', () => sigOf(r, N - 1n, rec)],
    ['recid 4', () => sigOf(r, s, 4)],
    ['recid 27', () => sigOf(r, s, 27)],
    ['recid 31', () => sigOf(r, s, 31)],
    ['r = 0', () => sigOf(0n, s, rec)],
    ['s = 0', () => sigOf(r, 0n, rec)],
    ['r = n', () => sigOf(N, s, rec)],
    ['r = n + 1', () => sigOf(N + 1n, s, rec)],
    ['r = 2²⁵⁶ − 1', () => sigOf(2n ** 256n - 1n, s, rec)],
    ['s = n', () => sigOf(r, N, rec)],
    ['recid 2 with r + n ≥ p', () => sigOf(P - N, s, 2)],
    ['recid 3 with r + n ≥ p', () => sigOf(N - 1n, s, 3)],
  ];
  for (const [name, make] of cases) {
    it(name, () => {
      const sig = make();
      expect(recoverPublicKeyKernel(digest, sig)).toBeNull();
      expect(recoverPublicKey(digest, sig)).toBeNull();
    });
  }

  it('isCanonicalSignature agrees with the kernel range rules', () => {
    for (const [, make] of cases.slice(0, 12)) expect(isCanonicalSignature(make())).toBe(false);
    expect(isCanonicalSignature(sigOf(r, HALF_N, rec))).toBe(true);
    expect(isCanonicalSignature(sigOf(N - 1n, 1n, 3))).toBe(true);
    expect(isCanonicalSignature(sigOf(1n, 1n, 0))).toBe(true);
    expect(isCanonicalSignature(new Uint8Array(64))).toBe(false);
    expect(isCanonicalSignature(new Uint8Array(66))).toBe(false);
    expect(signatureInRange(good)).toBe(true);
  });

  it('an x that is not on the curve', () => {
    // smallest x with x³ + 7 a non-residue mod p (Euler's criterion)
    const pow = (b: bigint, e: bigint) => {
      let r = 1n;
      b %= P;
      while (e) {
        if (e & 1n) r = (r * b) % P;
        b = (b * b) % P;
        e >>= 1n;
      }
      return r;
    };
    let x = 1n;
    while (pow(x ** 3n + 7n, (P - 1n) / 2n) === 1n) x++;
    for (const recid of [0, 1]) {
      const sig = sigOf(x, s, recid);
      expect(isCanonicalSignature(sig)).toBe(true);
      expect(recoverPublicKey(digest, sig)).toBeNull();
      expect(nobleRecover(digest, sig)).toBeNull();
    }
  });

  it('the key at infinity (s·R = z·G)', () => {
    // R = k·G, z = s·k mod n: Q = r⁻¹(s·R − z·G) = ∞
    const k = 0x1234567890abcdefn;
    const R = secp.Point.BASE.multiply(k).toAffine();
    const sig = sigOf(R.x, 5n, Number(R.y & 1n));
    const z = be32((5n * k) % N);
    expect(isCanonicalSignature(sig)).toBe(true);
    expect(recoverPublicKey(z, sig)).toBeNull();
  });

  it('garbage', () => {
    const rnd = bytes(99);
    let valid = 0;
    for (let i = 0; i < 400; i++) {
      const sig = rnd(65);
      if (i % 2) sig[64] &= 1; // half with recid 0 or 1, half any byte
      const d = rnd(32);
      const k = recoverPublicKeyKernel(d, sig);
      expect(toHex(k)).toBe(isCanonicalSignature(sig) ? toHex(nobleRecover(d, sig)) : null);
      if (k) valid++;
    }
    expect(valid).toBeGreaterThan(20); // low s and x on the curve: about 1/4 of those with recid 0/1
    expect(recoverPublicKey(new Uint8Array(31), good)).toBeNull();
    expect(recoverPublicKey(digest, good.subarray(0, 64))).toBeNull();
    expect(recoverPublicKey(digest, new Uint8Array(65))).toBeNull();
  });
});

describe('coin transfers accepted by the reference (vectors/coin-transfers.json)', () => {
  const file = JSON.parse(readFileSync(join(import.meta.dirname, '../vectors/coin-transfers.json'), 'utf8')) as {
    note: string;
    cases: { case: string; txHash: string; signature65: string }[];
  };
  const keys = Object.values(JSON.parse(file.note.slice(file.note.indexOf('{'))) as Record<string, string>).map((sk) => toHex(publicKeyOf(hex(sk))));

  it('has three signing keys and eight signatures', () => {
    expect(keys).toHaveLength(3);
    expect(file.cases).toHaveLength(8);
  });
  for (const c of file.cases) {
    it(c.case, () => {
      const key = toHex(recoverPublicKey(hex(c.txHash), hex(c.signature65)));
      expect(keys).toContain(key);
      expect(key).toBe(toHex(nobleRecover(hex(c.txHash), hex(c.signature65))));
    });
  }
});
