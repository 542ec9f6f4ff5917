//! secp256k1 public-key recovery for transaction signatures (consensus.md §7.3; SEC 1 §4.1.6).
//!
//! A signature is r(32) ‖ s(32) ‖ recid(1, 0..3, no +27 offset) over the 32-byte txHash itself
//! (no further hashing). It is valid iff recid ≤ 3, r and s lie in [1, n−1], s ≤ n/2 ("low s"),
//! the point R with x = r (+ n when recid ≥ 2) and y parity recid & 1 exists, and
//! Q = r⁻¹·(s·R − z·G) is not the point at infinity; Q is the signer's public key.
//!
//! Only public data is processed (recovery, never signing), so nothing here is constant-time.
//!
//! Layout:
//! * `Fe`: integers mod p = 2²⁵⁶ − 2³² − 977 in ten 26-bit limbs (u64 products: wasm32 has a
//!   native 64-bit multiply but no 64×64→128 one). Results of `mul`/`sqr`/`weak` have limbs
//!   ≤ 2²⁶ + 2²² ("magnitude 1"); sums grow the magnitude, and `mul`/`sqr` accept inputs up to
//!   magnitude 7 (limbs < 2²⁹). `mul` is one level of Karatsuba over 5-limb halves.
//! * scalars mod n as four u64 limbs (few operations per recovery, so plain u128 code, with the
//!   64×64-bit products built from 32-bit ones on wasm32).
//! * inverses mod p and mod n by safegcd divsteps (`modinv`, after libsecp256k1).
//! * Jacobian points; Q = u1·G + u2·R by interleaved wNAF: u1 split into 128-bit halves against
//!   two fixed tables (G and 2¹²⁸·G, width W_G, built once per instance), u2 split with the
//!   endomorphism λ·(x, y) = (β·x, y) into two ~128-bit halves against odd multiples of R and λ·R.
//!
//! Tried for WebAssembly and not kept (V8 in Node 20, x86-64): SIMD products with
//! `i64x2.extmul_*_i32x4_u` (V8 unpacks both operands for each, LLVM turns some into the emulated
//! `i64x2.mul`, and the column sums must leave the vector registers: slower than scalar);
//! `#[inline(always)]` on `mul`/`sqr` (twice as slow overall); the multiply-free shift form of the
//! 0x3D10 folds (LLVM turns it back into a multiply).

use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------------
// Field elements mod p

const M26: u64 = (1 << 26) - 1;
const M22: u64 = (1 << 22) - 1;
/// p in the limb layout (2²⁵⁶ − 2³² − 977: 977 + 2³² taken out of the all-ones pattern).
const P_LIMBS: [u32; 10] = [
    0x3FF_FC2F, 0x3FF_FFBF, 0x3FF_FFFF, 0x3FF_FFFF, 0x3FF_FFFF, 0x3FF_FFFF, 0x3FF_FFFF, 0x3FF_FFFF, 0x3FF_FFFF,
    0x3F_FFFF,
];
/// 2²⁵⁶ mod p = 2³² + 977; as limbs: 977 at position 0 and 2⁶ at position 1 (2³² = 2²⁶·2⁶).
const R256_LO: u64 = 977;
/// 2²⁶⁰ mod p = 2³⁶ + 0x3D10: 0x3D10 at position 0 and 2¹⁰ at position 1 (per 2²⁶⁰ of weight).
const R260_LO: u64 = 0x3D10;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Fe([u32; 10]);

/// Propagates carries so limbs 0..8 hold 26 bits each (limbs as u64 to hold the carries).
fn carry(t: &mut [u64; 10]) {
    for k in 0..9 {
        t[k + 1] += t[k] >> 26;
        t[k] &= M26;
    }
}

/// Folds the bits above 2²⁵⁶ back in: 2²⁵⁶ ≡ 2³² + 977 (mod p).
fn fold(t: &mut [u64; 10]) {
    let x = t[9] >> 22;
    t[9] &= M22;
    t[0] += x * R256_LO;
    t[1] += x << 6;
}

impl Fe {
    const ZERO: Fe = Fe([0; 10]);
    const ONE: Fe = Fe([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

    /// From four little-endian 64-bit limbs (any 256-bit value; not reduced).
    fn from_u64x4(v: &[u64; 4]) -> Fe {
        let mut l = [0u32; 10];
        for (i, limb) in l.iter_mut().enumerate() {
            let bit = 26 * i;
            let (w, sh) = (bit / 64, bit % 64);
            let mut x = v[w] >> sh;
            if sh > 38 && w + 1 < 4 {
                x |= v[w + 1] << (64 - sh);
            }
            *limb = (x & if i == 9 { M22 } else { M26 }) as u32;
        }
        Fe(l)
    }

    /// The fully reduced value (in [0, p)) as four little-endian 64-bit limbs.
    fn to_u64x4(&self) -> [u64; 4] {
        let t = self.normalized();
        let mut v = [0u64; 4];
        for (i, &limb) in t.iter().enumerate() {
            let bit = 26 * i;
            let (w, sh) = (bit / 64, bit % 64);
            v[w] |= (limb as u64) << sh;
            if sh > 38 && w + 1 < 4 {
                v[w + 1] |= (limb as u64) >> (64 - sh);
            }
        }
        v
    }

    #[cfg(test)]
    fn from_bytes(b: &[u8; 32]) -> Fe {
        Fe::from_u64x4(&u256_from_be(b))
    }

    fn to_bytes(&self) -> [u8; 32] {
        u256_to_be(&self.to_u64x4())
    }

    /// Carries every limb into 26 bits (22 for the top one) and folds the bits above 2²⁵⁶ back
    /// in; the result has magnitude 1 (any input with limbs < 2³²).
    fn weak(&self) -> Fe {
        let mut t = self.0.map(|x| x as u64);
        carry(&mut t);
        fold(&mut t);
        t[1] += t[0] >> 26;
        t[0] &= M26;
        t[2] += t[1] >> 26;
        t[1] &= M26;
        Fe(t.map(|x| x as u32))
    }

    /// Fully reduced limbs: the unique representative in [0, p).
    fn normalized(&self) -> [u32; 10] {
        let mut t = self.0.map(|x| x as u64);
        // Two rounds of carry + fold bring any value below 2²⁵⁶ + 2⁴⁴, then below 2²⁵⁶.
        for _ in 0..2 {
            carry(&mut t);
            fold(&mut t);
        }
        carry(&mut t);
        // t[9] may still carry into bit 22 only if the value was within 2⁴⁴ of 2²⁵⁶.
        fold(&mut t);
        carry(&mut t);
        // Now value < 2²⁵⁶; subtract p once if value ≥ p, i.e. if value + (2²⁵⁶ − p) ≥ 2²⁵⁶.
        let mut u = t;
        u[0] += R256_LO;
        u[1] += 1 << 6;
        for k in 0..9 {
            u[k + 1] += u[k] >> 26;
            u[k] &= M26;
        }
        if u[9] >> 22 != 0 {
            u[9] &= M22;
            t = u;
        }
        t.map(|x| x as u32)
    }

    /// True iff the value is 0 mod p.
    fn is_zero(&self) -> bool {
        // Fast path (libsecp256k1's normalizes_to_zero_var): with the bits above 2²⁵⁶ folded in,
        // the value is below 2p (limbs < 2³²), so it is 0 mod p only if it is 0 or p, and its
        // low 26 bits, which limb 0 and the fold alone determine, must then be those of 0 or p.
        let low = (self.0[0] as u64 + (self.0[9] >> 22) as u64 * R256_LO) & M26;
        if low != 0 && low != P_LIMBS[0] as u64 {
            return false;
        }
        // After `weak` and one more carry pass the value is below 2²⁵⁶ + 2⁴⁴ < 2p with limbs 0..8
        // canonical 26-bit digits, so it is 0 mod p iff its limbs are those of 0 or of p.
        let mut t = self.weak().0;
        for k in 0..9 {
            t[k + 1] += t[k] >> 26;
            t[k] &= M26 as u32;
        }
        t == [0; 10] || t == P_LIMBS
    }

    fn is_odd(&self) -> bool {
        self.normalized()[0] & 1 == 1
    }

    #[inline(always)]
    fn add(&self, b: &Fe) -> Fe {
        let mut r = [0u32; 10];
        for i in 0..10 {
            r[i] = self.0[i] + b.0[i];
        }
        Fe(r)
    }

    #[inline(always)]
    fn mul_small(&self, k: u32) -> Fe {
        Fe(self.0.map(|x| x * k))
    }

    /// −a for a of magnitude ≤ m (m ≥ 1): 2m·p − a, of magnitude ≤ 2m.
    #[inline(always)]
    fn neg(&self, m: u32) -> Fe {
        let mut r = [0u32; 10];
        for i in 0..10 {
            r[i] = 2 * m * P_LIMBS[i] - self.0[i];
        }
        Fe(r)
    }

    /// Checks the magnitude bound of `mul`/`sqr` inputs in debug test builds (`cargo test`).
    #[cfg(all(test, debug_assertions))]
    fn check_mul_input(&self) {
        assert!(self.0.iter().all(|&x| x < 1 << 29), "field limb out of bounds: {:x?}", self.0);
    }

    /// a·b; inputs of magnitude ≤ 7, result of magnitude 1.
    fn mul(&self, b: &Fe) -> Fe {
        #[cfg(all(test, debug_assertions))]
        {
            self.check_mul_input();
            b.check_mul_input();
        }
        // Karatsuba on halves of five limbs: aL·bL, aH·bH and (aL + aH)·(bL + bH) − aL·bL − aH·bH
        // give the schoolbook column sums with 75 limb products instead of 100. Under V8 the three
        // 5×5 blocks also keep few values live at once, which matters more than the products
        // saved (one 10×10 block spilled half its operands). Limbs < 2²⁹, so half sums < 2³⁰ and
        // every middle column < 5·2⁶⁰; the middle differences are exact (≥ 0).
        let (al, ah) = halves(&self.0);
        let (bl, bh) = halves(&b.0);
        let ll = columns5(&al, &bl);
        let hh = columns5(&ah, &bh);
        let mm = columns5(&add5(&al, &ah), &add5(&bl, &bh));
        let mut c = [0u64; 19];
        for k in 0..9 {
            c[k] += ll[k];
            c[k + 10] += hh[k];
            c[k + 5] += mm[k] - ll[k] - hh[k];
        }
        reduce_columns(&c)
    }

    /// a²; input of magnitude ≤ 7, result of magnitude 1.
    fn sqr(&self) -> Fe {
        self.sqr_inline()
    }

    /// `sqr`, inlined into the loop of `sqr_n` (square roots and inverses are chains of squares).
    #[inline(always)]
    fn sqr_inline(&self) -> Fe {
        #[cfg(all(test, debug_assertions))]
        self.check_mul_input();
        let [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9] = self.0.map(|x| x as u64);
        let [_, d1, d2, d3, d4, d5, d6, d7, d8, d9] = self.0.map(|x| 2 * x as u64);
        // Position k ≥ 10 ≡ 0x3D10 at k − 10 plus 2¹⁰ at k − 9 (2²⁶⁰ ≡ 2³⁶ + 0x3D10). Column k + 10
        // is split as l + h·2²⁶ (every product below 2⁵⁰) and folded while column k is summed,
        // so that few values are live at once; column 18's h sits at position 19 ≡ 0x3D10 at 9
        // plus 2¹⁰ at 10, and position 10 ≡ 0x3D10 at 0 plus 2¹⁰ at 1.
        let u = a9 * a9;
        let (l18, h18) = (u & M26, u >> 26);
        let top = h18 << 10;
        let mut r = [0u32; 10];
        // pending additions for positions k and k + 1
        let (mut p1, mut p2) = (0u64, top << 10);
        let mut acc = top * R260_LO;
        let u = a1 * d9 + a2 * d8 + a3 * d7 + a4 * d6 + a5 * a5;
        let (l, h) = (u & M26, u >> 26);
        acc += a0 * a0 + l * R260_LO + p1;
        p1 = p2 + (l << 10) + h * R260_LO;
        p2 = h << 10;
        r[0] = (acc & M26) as u32;
        acc >>= 26;
        let u = a2 * d9 + a3 * d8 + a4 * d7 + a5 * d6;
        let (l, h) = (u & M26, u >> 26);
        acc += a0 * d1 + l * R260_LO + p1;
        p1 = p2 + (l << 10) + h * R260_LO;
        p2 = h << 10;
        r[1] = (acc & M26) as u32;
        acc >>= 26;
        let u = a3 * d9 + a4 * d8 + a5 * d7 + a6 * a6;
        let (l, h) = (u & M26, u >> 26);
        acc += a0 * d2 + a1 * a1 + l * R260_LO + p1;
        p1 = p2 + (l << 10) + h * R260_LO;
        p2 = h << 10;
        r[2] = (acc & M26) as u32;
        acc >>= 26;
        let u = a4 * d9 + a5 * d8 + a6 * d7;
        let (l, h) = (u & M26, u >> 26);
        acc += a0 * d3 + a1 * d2 + l * R260_LO + p1;
        p1 = p2 + (l << 10) + h * R260_LO;
        p2 = h << 10;
        r[3] = (acc & M26) as u32;
        acc >>= 26;
        let u = a5 * d9 + a6 * d8 + a7 * a7;
        let (l, h) = (u & M26, u >> 26);
        acc += a0 * d4 + a1 * d3 + a2 * a2 + l * R260_LO + p1;
        p1 = p2 + (l << 10) + h * R260_LO;
        p2 = h << 10;
        r[4] = (acc & M26) as u32;
        acc >>= 26;
        let u = a6 * d9 + a7 * d8;
        let (l, h) = (u & M26, u >> 26);
        acc += a0 * d5 + a1 * d4 + a2 * d3 + l * R260_LO + p1;
        p1 = p2 + (l << 10) + h * R260_LO;
        p2 = h << 10;
        r[5] = (acc & M26) as u32;
        acc >>= 26;
        let u = a7 * d9 + a8 * a8;
        let (l, h) = (u & M26, u >> 26);
        acc += a0 * d6 + a1 * d5 + a2 * d4 + a3 * a3 + l * R260_LO + p1;
        p1 = p2 + (l << 10) + h * R260_LO;
        p2 = h << 10;
        r[6] = (acc & M26) as u32;
        acc >>= 26;
        let u = a8 * d9;
        let (l, h) = (u & M26, u >> 26);
        acc += a0 * d7 + a1 * d6 + a2 * d5 + a3 * d4 + l * R260_LO + p1;
        p1 = p2 + (l << 10) + h * R260_LO;
        p2 = h << 10;
        r[7] = (acc & M26) as u32;
        acc >>= 26;
        acc += a0 * d8 + a1 * d7 + a2 * d6 + a3 * d5 + a4 * a4 + l18 * R260_LO + p1;
        p1 = p2 + (l18 << 10) + h18 * R260_LO;
        r[8] = (acc & M26) as u32;
        acc >>= 26;
        acc += a0 * d9 + a1 * d8 + a2 * d7 + a3 * d6 + a4 * d5 + p1;
        // acc = position 9 and everything above 2²⁵⁶ (< 2⁶²): fold that by 2²⁵⁶ ≡ 2³² + 977
        let x = acc >> 22;
        r[9] = (acc & M22) as u32;
        let t0 = r[0] as u64 + x * R256_LO;
        let t1 = r[1] as u64 + (x << 6) + (t0 >> 26);
        r[0] = (t0 & M26) as u32;
        r[1] = (t1 & M26) as u32;
        r[2] += (t1 >> 26) as u32;
        Fe(r)
    }

    fn sqr_n(&self, n: usize) -> Fe {
        let mut r = *self;
        for _ in 0..n {
            r = r.sqr_inline();
        }
        r
    }

    /// a^(2²²³ − 1) and a^(2²² − 1), a^(2² − 1): the shared prefix of the exponents p − 2 and
    /// (p + 1)/4, both of which start with 223 one bits, a zero and 22 one bits.
    fn pow_prefix(&self) -> (Fe, Fe, Fe) {
        let x2 = self.sqr().mul(self);
        let x3 = x2.sqr().mul(self);
        let x6 = x3.sqr_n(3).mul(&x3);
        let x9 = x6.sqr_n(3).mul(&x3);
        let x11 = x9.sqr_n(2).mul(&x2);
        let x22 = x11.sqr_n(11).mul(&x11);
        let x44 = x22.sqr_n(22).mul(&x22);
        let x88 = x44.sqr_n(44).mul(&x44);
        let x176 = x88.sqr_n(88).mul(&x88);
        let x220 = x176.sqr_n(44).mul(&x44);
        let x223 = x220.sqr_n(3).mul(&x3);
        // 223 ones, one zero, 22 ones
        (x223.sqr_n(23).mul(&x22), x2, *self)
    }

    /// a⁻¹ (0 for a = 0), by divsteps (`modinv`; much faster than `inv_pow`).
    fn inv(&self) -> Fe {
        match scalar::inv_mod(&self.to_u64x4(), &P) {
            Some(v) => Fe::from_u64x4(&v),
            None => Fe::ZERO,
        }
    }

    /// a^(p − 2) = a⁻¹ (0 for a = 0). p − 2 = [223 ones] 0 [22 ones] 0000 1 0 11 0 1.
    #[cfg(test)]
    fn inv_pow(&self) -> Fe {
        let (t, x2, a) = self.pow_prefix();
        t.sqr_n(5).mul(&a).sqr_n(3).mul(&x2).sqr_n(2).mul(&a)
    }

    /// A square root of a if one exists: a^((p + 1)/4), valid since p ≡ 3 mod 4.
    /// (p + 1)/4 = [223 ones] 0 [22 ones] 0000 11 00.
    fn sqrt(&self) -> Option<Fe> {
        let (t, x2, _) = self.pow_prefix();
        let r = t.sqr_n(6).mul(&x2).sqr_n(2);
        if r.sqr().add(&self.neg(1)).is_zero() {
            Some(r)
        } else {
            None
        }
    }
}

/// The low and high five limbs, widened for products.
#[inline(always)]
fn halves(a: &[u32; 10]) -> ([u64; 5], [u64; 5]) {
    (std::array::from_fn(|i| a[i] as u64), std::array::from_fn(|i| a[i + 5] as u64))
}

#[inline(always)]
fn add5(a: &[u64; 5], b: &[u64; 5]) -> [u64; 5] {
    std::array::from_fn(|i| a[i] + b[i])
}

/// The 9 column sums Σ a_i·b_j (i + j = k) of two five-limb numbers.
#[inline(always)]
fn columns5(a: &[u64; 5], b: &[u64; 5]) -> [u64; 9] {
    [
        a[0] * b[0],
        a[0] * b[1] + a[1] * b[0],
        a[0] * b[2] + a[1] * b[1] + a[2] * b[0],
        a[0] * b[3] + a[1] * b[2] + a[2] * b[1] + a[3] * b[0],
        a[0] * b[4] + a[1] * b[3] + a[2] * b[2] + a[3] * b[1] + a[4] * b[0],
        a[1] * b[4] + a[2] * b[3] + a[3] * b[2] + a[4] * b[1],
        a[2] * b[4] + a[3] * b[3] + a[4] * b[2],
        a[3] * b[4] + a[4] * b[3],
        a[4] * b[4],
    ]
}

/// a·b mod p (magnitude 1) from the 19 column sums c_k = Σ a_i·b_j (i + j = k), each < 2⁶².
#[inline(always)]
fn reduce_columns(c: &[u64; 19]) -> Fe {
    // Position k ≥ 10 ≡ 0x3D10 at k − 10 plus 2¹⁰ at k − 9 (2²⁶⁰ ≡ 2³⁶ + 0x3D10). Column k + 10
    // is split as l + h·2²⁶ (so that the factors fit) and folded while column k is summed;
    // column 18's h sits at position 19 ≡ 0x3D10 at 9 plus 2¹⁰ at 10, and position 10 ≡ 0x3D10
    // at 0 plus 2¹⁰ at 1.
    let top = (c[18] >> 26) << 10;
    let mut r = [0u32; 10];
    // pending additions for positions k + 1 and k + 2
    let (mut p1, mut p2) = (0u64, top << 10);
    let mut acc = top * R260_LO;
    for k in 0..9 {
        let (l, h) = (c[k + 10] & M26, c[k + 10] >> 26);
        acc += c[k] + l * R260_LO + p1;
        p1 = p2 + (l << 10) + h * R260_LO;
        p2 = h << 10;
        r[k] = (acc & M26) as u32;
        acc >>= 26;
    }
    acc += c[9] + p1;
    // acc = position 9 and everything above 2²⁵⁶ (< 2⁶²): fold that by 2²⁵⁶ ≡ 2³² + 977
    let x = acc >> 22;
    r[9] = (acc & M22) as u32;
    let t0 = r[0] as u64 + x * R256_LO;
    let t1 = r[1] as u64 + (x << 6) + (t0 >> 26);
    r[0] = (t0 & M26) as u32;
    r[1] = (t1 & M26) as u32;
    r[2] += (t1 >> 26) as u32;
    Fe(r)
}

// ---------------------------------------------------------------------------------------------
// 256-bit integers and scalars mod n (little-endian u64 limbs)

type U256 = [u64; 4];

/// n, the group order.
const N: U256 = [0xBFD2_5E8C_D036_4141, 0xBAAE_DCE6_AF48_A03B, 0xFFFF_FFFF_FFFF_FFFE, 0xFFFF_FFFF_FFFF_FFFF];
/// floor(n / 2): the largest "low" s.
const N_HALF: U256 = [0xDFE9_2F46_681B_20A0, 0x5D57_6E73_57A4_501D, 0xFFFF_FFFF_FFFF_FFFF, 0x7FFF_FFFF_FFFF_FFFF];
/// p, the field modulus.
const P: U256 = [0xFFFF_FFFE_FFFF_FC2F, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF];
/// 2²⁵⁶ − n (129 bits).
const N_COMPLEMENT: [u64; 3] = [0x402D_A173_2FC9_BEBF, 0x4551_2319_50B7_5FC4, 1];

fn u256_from_be(b: &[u8; 32]) -> U256 {
    let mut v = [0u64; 4];
    for (i, limb) in v.iter_mut().enumerate() {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[32 - 8 * (i + 1)..32 - 8 * i]);
        *limb = u64::from_be_bytes(w);
    }
    v
}

fn u256_to_be(v: &U256) -> [u8; 32] {
    let mut b = [0u8; 32];
    for i in 0..4 {
        b[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&v[i].to_be_bytes());
    }
    b
}

fn is_zero256(a: &U256) -> bool {
    a.iter().all(|&x| x == 0)
}

/// a < b
fn lt256(a: &U256, b: &U256) -> bool {
    for i in (0..4).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

/// (a + b mod 2²⁵⁶, carry)
fn add256(a: &U256, b: &U256) -> (U256, bool) {
    let mut r = [0u64; 4];
    let mut carry = false;
    for i in 0..4 {
        let (s1, c1) = a[i].overflowing_add(b[i]);
        let (s2, c2) = s1.overflowing_add(carry as u64);
        r[i] = s2;
        carry = c1 | c2;
    }
    (r, carry)
}

/// (a − b mod 2²⁵⁶, borrow)
fn sub256(a: &U256, b: &U256) -> (U256, bool) {
    let mut r = [0u64; 4];
    let mut borrow = false;
    for i in 0..4 {
        let (d1, b1) = a[i].overflowing_sub(b[i]);
        let (d2, b2) = d1.overflowing_sub(borrow as u64);
        r[i] = d2;
        borrow = b1 | b2;
    }
    (r, borrow)
}

/// x·y. On wasm32 from four 32×32-bit products: a u128 product would call the `__multi3`
/// routine, which computes a full 128×128-bit product (about twice as slow here).
#[inline(always)]
fn mul_64x64(x: u64, y: u64) -> u128 {
    #[cfg(target_arch = "wasm32")]
    return mul_64x64_halves(x, y);
    #[cfg(not(target_arch = "wasm32"))]
    return (x as u128) * (y as u128);
}

#[cfg(any(test, target_arch = "wasm32"))]
#[inline(always)]
fn mul_64x64_halves(x: u64, y: u64) -> u128 {
    const M32: u64 = 0xFFFF_FFFF;
    let (x0, x1, y0, y1) = (x & M32, x >> 32, y & M32, y >> 32);
    let (lo, hi) = (x0 * y0, x1 * y1);
    let (m1, m2) = (x1 * y0, x0 * y1);
    // bits 32..96: the middle products and the carry out of lo (< 3·2³²)
    let mid = (lo >> 32) + (m1 & M32) + (m2 & M32);
    let low = (lo & M32) | (mid << 32);
    let high = hi + (m1 >> 32) + (m2 >> 32) + (mid >> 32);
    (high as u128) << 64 | low as u128
}

/// The full product of little-endian limb slices (result length a.len() + b.len()).
fn mul_wide<const R: usize>(a: &[u64], b: &[u64]) -> [u64; R] {
    let mut r = [0u64; R];
    for (i, &x) in a.iter().enumerate() {
        let mut carry: u128 = 0;
        for (j, &y) in b.iter().enumerate() {
            let t = r[i + j] as u128 + mul_64x64(x, y) + carry;
            r[i + j] = t as u64;
            carry = t >> 64;
        }
        let mut k = i + b.len();
        while carry != 0 && k < R {
            let t = r[k] as u128 + carry;
            r[k] = t as u64;
            carry = t >> 64;
            k += 1;
        }
    }
    r
}

mod scalar {
    //! Arithmetic mod n on fully reduced values in [0, n).
    use super::*;

    /// x mod n for any 512-bit x, by folding 2²⁵⁶ ≡ 2²⁵⁶ − n.
    pub(super) fn reduce512(mut w: [u64; 8]) -> U256 {
        while w[4..].iter().any(|&x| x != 0) {
            let hi: [u64; 8] = mul_wide(&w[4..], &N_COMPLEMENT);
            let mut carry = false;
            for i in 0..8 {
                let lo = if i < 4 { w[i] } else { 0 };
                let (s1, c1) = lo.overflowing_add(hi[i]);
                let (s2, c2) = s1.overflowing_add(carry as u64);
                w[i] = s2;
                carry = c1 | c2;
            }
        }
        let mut r = [w[0], w[1], w[2], w[3]];
        while !lt256(&r, &N) {
            r = sub256(&r, &N).0;
        }
        r
    }

    /// a mod n for a < 2²⁵⁶.
    pub(super) fn reduce(a: &U256) -> U256 {
        if lt256(a, &N) {
            *a
        } else {
            sub256(a, &N).0
        }
    }

    pub(super) fn mul(a: &U256, b: &U256) -> U256 {
        reduce512(mul_wide(a, b))
    }

    pub(super) fn neg(a: &U256) -> U256 {
        if is_zero256(a) {
            *a
        } else {
            sub256(&N, a).0
        }
    }

    /// a + b mod n.
    pub(super) fn add(a: &U256, b: &U256) -> U256 {
        let (t, carry) = add256(a, b);
        if carry || !lt256(&t, &N) {
            sub256(&t, &N).0
        } else {
            t
        }
    }

    pub(super) fn sub(a: &U256, b: &U256) -> U256 {
        let (d, borrow) = sub256(a, b);
        if borrow {
            add256(&d, &N).0
        } else {
            d
        }
    }

    #[cfg(test)]
    fn shr1(a: &mut U256, top: bool) {
        for i in 0..3 {
            a[i] = (a[i] >> 1) | (a[i + 1] << 63);
        }
        a[3] = (a[3] >> 1) | ((top as u64) << 63);
    }

    #[cfg(test)]
    /// x / 2 mod m for x < m, m odd.
    fn half(x: &mut U256, m: &U256) {
        if x[0] & 1 == 0 {
            shr1(x, false);
        } else {
            let (s, c) = add256(x, m);
            *x = s;
            shr1(x, c);
        }
    }

    /// a⁻¹ mod m (m prime, a < m); None for a = 0. By Bernstein–Yang divsteps (`modinv`).
    pub(super) fn inv_mod(a: &U256, m: &U256) -> Option<U256> {
        if is_zero256(a) {
            None
        } else {
            Some(super::modinv::inv(a, m))
        }
    }

    /// a⁻¹ mod m (m odd, 0 < a < m, gcd(a, m) = 1) by the binary extended Euclidean algorithm;
    /// None when no inverse exists (the reference for `inv_mod` in tests).
    #[cfg(test)]
    pub(super) fn inv_mod_binary(a: &U256, m: &U256) -> Option<U256> {
        const ONE: U256 = [1, 0, 0, 0];
        if is_zero256(a) {
            return None;
        }
        // Invariants: x1·a ≡ u and x2·a ≡ v (mod m).
        let (mut u, mut v) = (*a, *m);
        let (mut x1, mut x2) = (ONE, [0u64; 4]);
        while u != ONE && v != ONE {
            if is_zero256(&u) || is_zero256(&v) {
                return None;
            }
            while u[0] & 1 == 0 {
                shr1(&mut u, false);
                half(&mut x1, m);
            }
            while v[0] & 1 == 0 {
                shr1(&mut v, false);
                half(&mut x2, m);
            }
            if !lt256(&u, &v) {
                u = sub256(&u, &v).0;
                x1 = sub_mod(&x1, &x2, m);
            } else {
                v = sub256(&v, &u).0;
                x2 = sub_mod(&x2, &x1, m);
            }
        }
        Some(if u == ONE { x1 } else { x2 })
    }

    #[cfg(test)]
    fn sub_mod(a: &U256, b: &U256, m: &U256) -> U256 {
        let (d, borrow) = sub256(a, b);
        if borrow {
            add256(&d, m).0
        } else {
            d
        }
    }

    /// round(a·g / 2³⁸⁴) for the endomorphism split.
    fn mul_shift_384(a: &U256, g: &U256) -> U256 {
        let w: [u64; 8] = mul_wide(a, g);
        let round = w[5] >> 63;
        let (r, _) = add256(&[w[6], w[7], 0, 0], &[round, 0, 0, 0]);
        r
    }

    /// λ, a cube root of unity mod n with λ·(x, y) = (β·x, y).
    pub(super) const LAMBDA: U256 =
        [0xDF02_967C_1B23_BD72, 0x122E_22EA_2081_6678, 0xA526_1C02_8812_645A, 0x5363_AD4C_C05C_30E0];
    /// Reduced lattice basis of {(a, b) : a + b·λ ≡ 0 mod n} (extended Euclid on n and λ):
    /// v1 = (a1, b1) with b1 = −MINUS_B1, v2 = (a2, b2) with b2 = B2 (= a1); a1·b2 − a2·b1 = n.
    const MINUS_B1: U256 = [0x6F54_7FA9_0ABF_E4C3, 0xE443_7ED6_010E_8828, 0, 0];
    const B2: U256 = [0xE86C_90E4_9284_EB15, 0x3086_D221_A7D4_6BCD, 0, 0];
    /// round(2³⁸⁴·b2 / n) and round(2³⁸⁴·(−b1) / n).
    const G1: U256 = [0xE893_209A_45DB_B031, 0x3DAA_8A14_71E8_CA7F, 0xE86C_90E4_9284_EB15, 0x3086_D221_A7D4_6BCD];
    const G2: U256 = [0x1571_B4AE_8AC4_7F71, 0x2212_08AC_9DF5_06C6, 0x6F54_7FA9_0ABF_E4C4, 0xE443_7ED6_010E_8828];

    /// Splits k (< n) as k ≡ k1 + k2·λ (mod n) with short k1, k2 (about 128 bits), returned as
    /// magnitudes with a flag telling that the term is negative.
    pub(super) fn split_lambda(k: &U256) -> ((U256, bool), (U256, bool)) {
        // c1 = round(b2·k/n), c2 = round(−b1·k/n); (k1, k2) = (k, 0) − c1·v1 − c2·v2.
        let c1 = reduce(&mul_shift_384(k, &G1));
        let c2 = reduce(&mul_shift_384(k, &G2));
        let k2 = sub(&mul(&c1, &MINUS_B1), &mul(&c2, &B2));
        let k1 = sub(k, &mul(&k2, &LAMBDA));
        let signed = |x: U256| if lt256(&N_HALF, &x) { (neg(&x), true) } else { (x, false) };
        (signed(k1), signed(k2))
    }
}

mod modinv {
    //! Modular inverses by Bernstein–Yang "safegcd" divsteps, 30 at a time with 64-bit
    //! products (wasm32 has no 64×64→128 multiply), in variable time: a port of libsecp256k1's
    //! `modinv32_var`. About twice as fast here as the binary extended Euclidean algorithm.
    //! Numbers are nine signed 30-bit limbs ("signed30"), value Σ v_i·2³⁰ⁱ.
    use super::U256;

    const M30: i64 = (1 << 30) - 1;

    fn to_signed30(a: &U256) -> [i32; 9] {
        std::array::from_fn(|i| {
            let bit = 30 * i;
            let (w, sh) = (bit / 64, bit % 64);
            let mut x = a[w] >> sh;
            if sh > 34 && w + 1 < 4 {
                x |= a[w + 1] << (64 - sh);
            }
            (x & M30 as u64) as i32
        })
    }

    /// From limbs in [0, 2³⁰) of a value below 2²⁵⁶.
    fn from_signed30(v: &[i32; 9]) -> U256 {
        let mut r = [0u64; 4];
        for (i, &x) in v.iter().enumerate() {
            let (bit, x) = (30 * i, x as u64);
            let (w, sh) = (bit / 64, bit % 64);
            r[w] |= x << sh;
            if sh > 34 && w + 1 < 4 {
                r[w + 1] |= x >> (64 - sh);
            }
        }
        r
    }

    /// The transition matrix [u v; q r] of 30 divsteps on the low bits f0, g0 of f, g (scaled by
    /// 2³⁰), and the new eta (= −delta).
    fn divsteps_30(mut eta: i32, f0: u32, g0: u32) -> (i32, [i32; 4]) {
        let (mut u, mut v, mut q, mut r) = (1u32, 0u32, 0u32, 1u32);
        let (mut f, mut g) = (f0, g0);
        let mut i = 30;
        loop {
            // every zero bottom bit of g is one divstep that only halves g (a sentinel stops at i)
            let zeros = (g | (u32::MAX << i)).trailing_zeros();
            g >>= zeros;
            u <<= zeros;
            v <<= zeros;
            eta -= zeros as i32;
            i -= zeros;
            if i == 0 {
                break;
            }
            // f and g are odd now; if eta < 0, (f, g) becomes (g, −f)
            if eta < 0 {
                eta = -eta;
                (f, g) = (g, f.wrapping_neg());
                (u, q) = (q, u.wrapping_neg());
                (v, r) = (r, v.wrapping_neg());
            }
            // cancel up to min(eta + 1, i, 6) bottom bits of g at once by adding w·f, with
            // w = −g/f mod 2^limit (f⁻¹ mod 2⁶ by Newton's iteration: f·f ≡ 1 mod 8)
            let limit = (eta + 1).min(i as i32).min(6) as u32;
            let mask = (1u32 << limit) - 1;
            let f_inv = f.wrapping_mul(2u32.wrapping_sub(f.wrapping_mul(f)));
            let w = g.wrapping_mul(f_inv).wrapping_neg() & mask;
            g = g.wrapping_add(f.wrapping_mul(w));
            q = q.wrapping_add(u.wrapping_mul(w));
            r = r.wrapping_add(v.wrapping_mul(w));
        }
        (eta, [u as i32, v as i32, q as i32, r as i32])
    }

    /// [d, e] ← t·[d, e] / 2³⁰ mod m, adding multiples of m that clear the low 30 bits; d and e
    /// stay in (−2m, m).
    fn update_de(d: &mut [i32; 9], e: &mut [i32; 9], t: &[i32; 4], m: &[i32; 9], m_inv30: u32) {
        let [u, v, q, r] = t.map(|x| x as i64);
        // plus [u, q] if d < 0 and [v, r] if e < 0, to keep the result above −2m
        let (sd, se) = ((d[8] >> 31) as i64, (e[8] >> 31) as i64);
        let mut md = (u & sd) + (v & se);
        let mut me = (q & sd) + (r & se);
        let (d0, e0) = (d[0] as i64, e[0] as i64);
        let mut cd = u * d0 + v * e0;
        let mut ce = q * d0 + r * e0;
        md -= ((m_inv30 as i64).wrapping_mul(cd) + md) & M30;
        me -= ((m_inv30 as i64).wrapping_mul(ce) + me) & M30;
        cd += m[0] as i64 * md;
        ce += m[0] as i64 * me;
        debug_assert!(cd & M30 == 0 && ce & M30 == 0);
        cd >>= 30;
        ce >>= 30;
        for i in 1..9 {
            let (di, ei) = (d[i] as i64, e[i] as i64);
            cd += u * di + v * ei + m[i] as i64 * md;
            ce += q * di + r * ei + m[i] as i64 * me;
            d[i - 1] = (cd & M30) as i32;
            e[i - 1] = (ce & M30) as i32;
            cd >>= 30;
            ce >>= 30;
        }
        d[8] = cd as i32;
        e[8] = ce as i32;
    }

    /// [f, g] ← t·[f, g] / 2³⁰ (exact) on the low `len` limbs.
    fn update_fg(len: usize, f: &mut [i32; 9], g: &mut [i32; 9], t: &[i32; 4]) {
        let [u, v, q, r] = t.map(|x| x as i64);
        let (f0, g0) = (f[0] as i64, g[0] as i64);
        let mut cf = (u * f0 + v * g0) >> 30;
        let mut cg = (q * f0 + r * g0) >> 30;
        for i in 1..len {
            let (fi, gi) = (f[i] as i64, g[i] as i64);
            cf += u * fi + v * gi;
            cg += q * fi + r * gi;
            f[i - 1] = (cf & M30) as i32;
            g[i - 1] = (cg & M30) as i32;
            cf >>= 30;
            cg >>= 30;
        }
        f[len - 1] = cf as i32;
        g[len - 1] = cg as i32;
    }

    /// a⁻¹ mod m for an odd prime m and 0 < a < m.
    pub(super) fn inv(a: &U256, m: &U256) -> U256 {
        let ms = to_signed30(m);
        // m⁻¹ mod 2³⁰ by Newton's iteration (m·m ≡ 1 mod 8; each step doubles the bits)
        let m0 = m[0] as u32;
        let mut m_inv30 = m0;
        for _ in 0..4 {
            m_inv30 = m_inv30.wrapping_mul(2u32.wrapping_sub(m0.wrapping_mul(m_inv30)));
        }
        m_inv30 &= M30 as u32;
        let (mut d, mut e) = ([0i32; 9], [1, 0, 0, 0, 0, 0, 0, 0, 0]);
        let (mut f, mut g) = (ms, to_signed30(a));
        let (mut len, mut eta) = (9, -1);
        loop {
            let t;
            (eta, t) = divsteps_30(eta, f[0] as u32, g[0] as u32);
            update_de(&mut d, &mut e, &t, &ms, m_inv30);
            update_fg(len, &mut f, &mut g, &t);
            if g[..len].iter().all(|&x| x == 0) {
                break;
            }
            // drop the top limb while it is 0 or −1 in both f and g (its sign goes one down)
            let (fn_, gn) = (f[len - 1], g[len - 1]);
            if len > 1 && (fn_ == 0 || fn_ == -1) && (gn == 0 || gn == -1) {
                f[len - 2] |= ((fn_ as u32) << 30) as i32;
                g[len - 2] |= ((gn as u32) << 30) as i32;
                len -= 1;
            }
        }
        // Now f = ±1 (gcd) and d = ±a⁻¹ in (−2m, m): bring it to [0, m).
        normalize(&mut d, f[len - 1] < 0, &ms);
        from_signed30(&d)
    }

    /// d in (−2m, m) with limbs in (−2³⁰, 2³⁰) → (−d if `negate` else d) mod m, limbs in [0, 2³⁰).
    fn normalize(d: &mut [i32; 9], negate: bool, m: &[i32; 9]) {
        let carry = |d: &mut [i32; 9]| {
            for i in 0..8 {
                d[i + 1] += d[i] >> 30;
                d[i] &= M30 as i32;
            }
        };
        // (−2m, m) → (−m, m) → negated if asked → [0, m)
        if d[8] < 0 {
            for i in 0..9 {
                d[i] += m[i];
            }
        }
        if negate {
            for x in d.iter_mut() {
                *x = -*x;
            }
        }
        carry(d);
        if d[8] < 0 {
            for i in 0..9 {
                d[i] += m[i];
            }
        }
        carry(d);
    }
}

// ---------------------------------------------------------------------------------------------
// Points

/// An affine point (never the point at infinity); coordinates of magnitude ≤ 1.
#[derive(Clone, Copy, Debug)]
struct Affine {
    x: Fe,
    y: Fe,
}

/// A Jacobian point (X/Z², Y/Z³); coordinates of magnitude ≤ 1.
#[derive(Clone, Copy, Debug)]
struct Jac {
    x: Fe,
    y: Fe,
    z: Fe,
    inf: bool,
}

/// β, a cube root of unity mod p.
const BETA: U256 = [0xC139_6C28_7195_01EE, 0x9CF0_4975_12F5_8995, 0x6E64_479E_AC34_34E9, 0x7AE9_6A2B_657C_0710];
const GX: U256 = [0x59F2_815B_16F8_1798, 0x029B_FCDB_2DCE_28D9, 0x55A0_6295_CE87_0B07, 0x79BE_667E_F9DC_BBAC];
const GY: U256 = [0x9C47_D08F_FB10_D4B8, 0xFD17_B448_A685_5419, 0x5DA4_FBFC_0E11_08A8, 0x483A_DA77_26A3_C465];

impl Affine {
    fn g() -> Affine {
        Affine { x: Fe::from_u64x4(&GX), y: Fe::from_u64x4(&GY) }
    }

    fn to_jac(&self) -> Jac {
        Jac { x: self.x, y: self.y, z: Fe::ONE, inf: false }
    }

    /// The 33-byte SEC 1 compressed encoding.
    fn compressed(&self) -> [u8; 33] {
        let mut out = [0u8; 33];
        out[0] = if self.y.is_odd() { 3 } else { 2 };
        out[1..].copy_from_slice(&self.x.to_bytes());
        out
    }
}

impl Jac {
    const INF: Jac = Jac { x: Fe::ZERO, y: Fe::ONE, z: Fe::ZERO, inf: true };

    /// 2P (a = 0): with A = X², B = Y², C = B², D = 4XB, E = 3A:
    /// X3 = E² − 2D, Y3 = E(D − X3) − 8C, Z3 = 2YZ.
    fn dbl(&self) -> Jac {
        if self.inf {
            return *self;
        }
        let a = self.x.sqr();
        let b = self.y.sqr();
        let c = b.sqr();
        let d = self.x.mul(&b).mul_small(4); // 4
        let e = a.mul_small(3); // 3
        let x3 = e.sqr().add(&d.neg(4).mul_small(2)).weak(); // 1 + 16
        let y3 = e.mul(&d.add(&x3.neg(1))).add(&c.mul_small(8).neg(8)).weak(); // 1 + 16
        let z3 = self.y.mul_small(2).mul(&self.z);
        Jac { x: x3, y: y3, z: z3, inf: false }
    }

    /// P + Q for affine Q (y of magnitude ≤ 2). With U2 = x2·Z1², S2 = y2·Z1³, H = U2 − X1,
    /// R = S2 − Y1: X3 = R² − H³ − 2·X1·H², Y3 = R(X1·H² − X3) − Y1·H³, Z3 = Z1·H.
    fn add_affine(&self, q: &Affine) -> Jac {
        if self.inf {
            return Jac { x: q.x, y: q.y.weak(), z: Fe::ONE, inf: false };
        }
        let z1z1 = self.z.sqr();
        let u2 = q.x.mul(&z1z1);
        let s2 = q.y.mul(&self.z).mul(&z1z1);
        let h = u2.add(&self.x.neg(1)); // 3
        let r = s2.add(&self.y.neg(1)); // 3
        if h.is_zero() {
            return if r.is_zero() { self.dbl() } else { Jac::INF };
        }
        let hh = h.sqr();
        let hhh = h.mul(&hh);
        let v = self.x.mul(&hh);
        let x3 = r.sqr().add(&hhh.neg(1)).add(&v.neg(1).mul_small(2)).weak(); // 1 + 2 + 4
        let y3 = r.mul(&v.add(&x3.neg(1))).add(&self.y.mul(&hhh).neg(1)).weak(); // 1 + 2
        let z3 = self.z.mul(&h);
        Jac { x: x3, y: y3, z: z3, inf: false }
    }

    fn to_affine(&self) -> Option<Affine> {
        if self.inf {
            return None;
        }
        let zi = self.z.inv();
        let zi2 = zi.sqr();
        Some(Affine { x: self.x.mul(&zi2), y: self.y.mul(&zi2).mul(&zi) })
    }
}

/// Affine forms of finite points with one field inversion (Montgomery's trick): `out[i]` for `pts[i]`.
fn batch_affine_into(pts: &[Jac], out: &mut [Affine]) {
    let mut prefix = vec![Fe::ONE; pts.len()];
    let mut acc = Fe::ONE;
    for (i, p) in pts.iter().enumerate() {
        prefix[i] = acc;
        acc = acc.mul(&p.z);
    }
    let mut inv = acc.inv(); // (z0·…·z_{K−1})⁻¹
    for i in (0..pts.len()).rev() {
        let zi = inv.mul(&prefix[i]); // z_i⁻¹
        inv = inv.mul(&pts[i].z);
        let zi2 = zi.sqr();
        out[i] = Affine { x: pts[i].x.mul(&zi2), y: pts[i].y.mul(&zi2).mul(&zi) };
    }
}

/// Appends P, 3P, 5P, …, (2k − 1)P in Jacobian form to `out`.
fn push_odd_multiples(p: &Affine, k: usize, out: &mut Vec<Jac>) {
    // The additions of D = 2P = (X, Y, Z) are mixed ones (8M + 3S instead of 12M + 4S): the map
    // (x, y) → (x·Z², y·Z³) takes the curve to y² = x³ + 7·Z⁶, where D is the affine point
    // (X, Y), and the formulas (a = 0) never use the constant; a point (X', Y', Z') there is
    // (X', Y', Z'·Z) here.
    let d = p.to_jac().dbl();
    let z2 = d.z.sqr();
    let d_iso = Affine { x: d.x, y: d.y };
    let mut q = Jac { x: p.x.mul(&z2), y: p.y.mul(&z2.mul(&d.z)), z: Fe::ONE, inf: false };
    out.push(p.to_jac());
    for _ in 1..k {
        q = q.add_affine(&d_iso);
        out.push(Jac { z: q.z.mul(&d.z), ..q });
    }
}

/// P, 3P, 5P, …, (2K − 1)P.
fn odd_multiples<const K: usize>(p: &Affine) -> [Affine; K] {
    let mut jac = Vec::with_capacity(K);
    push_odd_multiples(p, K, &mut jac);
    let mut out = [Affine { x: Fe::ZERO, y: Fe::ZERO }; K];
    batch_affine_into(&jac, &mut out);
    out
}

/// wNAF width for the fixed G tables and the per-signature R tables. W_G = 14 (2 × 4096 points,
/// 640 KiB, about 10 ms to build) takes ~3 % off a recovery against W_G = 12; a wider W_R costs
/// more in table building than it saves in additions.
const W_G: u32 = 14;
const W_R: u32 = 5;
const G_TABLE: usize = 1 << (W_G - 2);
const R_TABLE: usize = 1 << (W_R - 2);

/// Odd multiples of G, then of 2¹²⁸·G (G_TABLE each), built on first use.
fn g_tables() -> &'static [Affine] {
    static TABLES: OnceLock<Vec<Affine>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let g = Affine::g();
        let mut h = g.to_jac();
        for _ in 0..128 {
            h = h.dbl();
        }
        let h = h.to_affine().unwrap_or(g); // 2¹²⁸·G is finite (n is prime and > 2¹²⁸)
                                            // On the heap: as arrays, tables this size would overflow the 1 MiB WebAssembly stack.
        let mut jac = Vec::with_capacity(2 * G_TABLE);
        push_odd_multiples(&g, G_TABLE, &mut jac);
        push_odd_multiples(&h, G_TABLE, &mut jac);
        let mut out = vec![Affine { x: Fe::ZERO, y: Fe::ZERO }; jac.len()];
        batch_affine_into(&jac, &mut out);
        out
    })
}

/// Width-w NAF digits of k, least significant first: odd digits in (−2^(w−1), 2^(w−1)) or 0,
/// any two non-zero digits at least w apart. Returns the number of digits (≤ 257).
fn wnaf(k: &U256, w: u32, out: &mut [i16; 258]) -> usize {
    // Reads w-bit windows of k instead of subtracting digits from it: `carry` is the 1 that a
    // negative digit borrowed from the bits above it (as in libsecp256k1).
    let bits = |i: usize| -> u64 {
        let (limb, sh) = (i / 64, i % 64);
        let mut x = if limb < 4 { k[limb] >> sh } else { 0 };
        if sh + w as usize > 64 && limb + 1 < 4 {
            x |= k[limb + 1] << (64 - sh);
        }
        x & ((1 << w) - 1)
    };
    out.fill(0);
    let (mut i, mut carry, mut len) = (0, 0, 0);
    while i < 257 {
        let word = bits(i) + carry;
        if word & 1 == 0 {
            // bit i plus carry is even: a zero digit (and the carry moves on)
            i += 1;
            continue;
        }
        // word < 2^w: bit i + carry is odd, so word = 2^w is impossible
        carry = word >> (w - 1);
        out[i] = (word as i64 - ((carry as i64) << w)) as i16;
        len = i + 1;
        i += w as usize;
    }
    len
}

/// u1·G + u2·R (u1, u2 < n).
fn ecmult(r: &Affine, u2: &U256, u1: &U256) -> Jac {
    // u2 = 0 (a public key from its secret): R's table is never read, so not built.
    let rt = if is_zero256(u2) { [*r; R_TABLE] } else { odd_multiples(r) };
    ecmult_table(&rt, u2, u1)
}

/// u1·G + u2·R given R's odd multiples `rt` (u1, u2 < n).
fn ecmult_table(rt: &[Affine; R_TABLE], u2: &U256, u1: &U256) -> Jac {
    let gt = g_tables();
    let ((k1, neg1), (k2, neg2)) = scalar::split_lambda(u2);
    let mut naf = [[0i16; 258]; 4];
    let mut lens = [0usize; 4];
    lens[0] = wnaf(&[u1[0], u1[1], 0, 0], W_G, &mut naf[0]);
    lens[1] = wnaf(&[u1[2], u1[3], 0, 0], W_G, &mut naf[1]);
    lens[2] = wnaf(&k1, W_R, &mut naf[2]);
    lens[3] = wnaf(&k2, W_R, &mut naf[3]);

    let beta = Fe::from_u64x4(&BETA);
    let rlt = if lens[3] > 0 { rt.map(|p| Affine { x: p.x.mul(&beta), y: p.y }) } else { *rt };
    let tables: [(&[Affine], bool); 4] = [(&gt[..G_TABLE], false), (&gt[G_TABLE..], false), (rt, neg1), (&rlt, neg2)];

    let len = lens.iter().copied().max().unwrap_or(0);
    let mut q = Jac::INF;
    for i in (0..len).rev() {
        q = q.dbl();
        for t in 0..4 {
            let d = naf[t][i];
            if d != 0 {
                let (table, negate) = tables[t];
                let Some(&p) = table.get((d.unsigned_abs() as usize - 1) / 2) else { continue };
                let p = if (d < 0) != negate { Affine { x: p.x, y: p.y.neg(1) } } else { p };
                q = q.add_affine(&p);
            }
        }
    }
    q
}

/// Why a recovery failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum RecoverError {
    /// recid > 3
    BadRecid = 1,
    /// r or s is 0 or ≥ n
    OutOfRange = 2,
    /// s > n/2
    HighS = 3,
    /// x = r (+ n) is ≥ p or not the x of a curve point
    NoPoint = 4,
    /// the recovered point is the point at infinity
    Infinity = 5,
}

/// A signature whose ranges hold, with its point R and digest scalar z.
struct Prepared {
    big_r: Affine,
    r: U256,
    s: U256,
    z: U256,
}

/// The compressed public key that signed the 32-byte `digest` with `sig` = r ‖ s ‖ recid
/// (consensus.md §7.3; SEC 1 §4.1.6 with e = digest as an integer, no hashing).
pub fn recover(digest: &[u8; 32], sig: &[u8; 65]) -> Result<[u8; 33], RecoverError> {
    let p = prepare(digest, sig)?;
    // Q = r⁻¹·(s·R − z·G) = u1·G + u2·R with u1 = −z·r⁻¹, u2 = s·r⁻¹.
    let Some(r_inv) = scalar::inv_mod(&p.r, &N) else { return Err(RecoverError::OutOfRange) };
    let u1 = scalar::neg(&scalar::mul(&p.z, &r_inv));
    let u2 = scalar::mul(&p.s, &r_inv);
    match ecmult(&p.big_r, &u2, &u1).to_affine() {
        Some(q) => Ok(q.compressed()),
        None => Err(RecoverError::Infinity),
    }
}

/// `recover` of every (digest, signature), with its verdicts: the three inversions each recovery
/// needs (r⁻¹ mod n, R's table and the result to affine form, mod p) are shared by the whole batch
/// (Montgomery's trick), about a quarter of a lone recovery's time.
pub fn recover_many(items: &[([u8; 32], [u8; 65])]) -> Vec<Result<[u8; 33], RecoverError>> {
    let mut out: Vec<Result<[u8; 33], RecoverError>> = vec![Err(RecoverError::OutOfRange); items.len()];
    let mut ok: Vec<(usize, Prepared)> = Vec::with_capacity(items.len());
    for (i, (digest, sig)) in items.iter().enumerate() {
        match prepare(digest, sig) {
            Ok(p) => ok.push((i, p)),
            Err(e) => out[i] = Err(e),
        }
    }
    if ok.is_empty() {
        return out;
    }
    // r⁻¹ for all: r ∈ [1, n−1] and n is prime, so every prefix product is invertible.
    let mut prefix = Vec::with_capacity(ok.len());
    let mut acc: U256 = [1, 0, 0, 0];
    for (_, p) in &ok {
        prefix.push(acc);
        acc = scalar::mul(&acc, &p.r);
    }
    let Some(mut inv) = scalar::inv_mod(&acc, &N) else { return out };
    let mut r_inv = vec![[0u64; 4]; ok.len()];
    for k in (0..ok.len()).rev() {
        r_inv[k] = scalar::mul(&inv, &prefix[k]);
        inv = scalar::mul(&inv, &ok[k].1.r);
    }
    // R's odd multiples for all, to affine form with one inversion.
    let mut jac = Vec::with_capacity(ok.len() * R_TABLE);
    for (_, p) in &ok {
        push_odd_multiples(&p.big_r, R_TABLE, &mut jac);
    }
    let mut tables = vec![Affine { x: Fe::ZERO, y: Fe::ZERO }; jac.len()];
    batch_affine_into(&jac, &mut tables);
    // The products, then the finite ones to affine form with one inversion.
    let mut results = Vec::with_capacity(ok.len());
    for (k, (_, p)) in ok.iter().enumerate() {
        let u1 = scalar::neg(&scalar::mul(&p.z, &r_inv[k]));
        let u2 = scalar::mul(&p.s, &r_inv[k]);
        let rt: &[Affine; R_TABLE] = tables[k * R_TABLE..(k + 1) * R_TABLE].try_into().unwrap();
        results.push(ecmult_table(rt, &u2, &u1));
    }
    let finite: Vec<usize> = (0..results.len()).filter(|&k| !results[k].inf).collect();
    let points: Vec<Jac> = finite.iter().map(|&k| results[k]).collect();
    let mut affine = vec![Affine { x: Fe::ZERO, y: Fe::ZERO }; points.len()];
    batch_affine_into(&points, &mut affine);
    for (i, _) in &ok {
        out[*i] = Err(RecoverError::Infinity);
    }
    for (j, &k) in finite.iter().enumerate() {
        out[ok[k].0] = Ok(affine[j].compressed());
    }
    out
}

/// Fewer signatures than this under one hint are recovered one by one: the batch check pays one
/// product with the key (about a recovery) besides its share per signature.
const MIN_HINTED_BATCH: usize = 2;
/// The first byte of a hint that names no key but a signer: SIGNER_TAG ‖ any 32 bytes, equal for
/// the signatures the caller expects from one signer whose key it does not know.
pub const SIGNER_TAG: u8 = 0xFF;

/// `recover_many` of every (digest, signature, hint), with the same verdicts. The hint is what
/// the caller expects of the signer: its compressed key, or a signer tag (SIGNER_TAG ‖ 32 bytes:
/// the signatures with equal tags are expected from one signer; the first of them that recovers
/// names the key for the others), or nothing (33 zero bytes). The signatures hinted with one key
/// are checked together, in about a third of a recovery's time each, by one multi-scalar product
/// (`all_recover_to`); where that check fails (a wrong hint, an invalid signature among them), or
/// the hint is no canonical compressed key, or fewer than MIN_HINTED_BATCH signatures share it,
/// they are recovered one by one. A hint never changes a verdict: a batch passes only if every
/// signature in it recovers to the hinted key (but with a probability below 2⁻¹²⁸ for a batch
/// crafted to pass, see `all_recover_to`).
pub fn recover_many_hinted(items: &[([u8; 32], [u8; 65], [u8; 33])]) -> Vec<Result<[u8; 33], RecoverError>> {
    let mut out: Vec<Result<[u8; 33], RecoverError>> = vec![Err(RecoverError::OutOfRange); items.len()];
    let mut groups: Vec<([u8; 33], Vec<usize>)> = Vec::new();
    let mut group_of: std::collections::HashMap<[u8; 33], usize> = std::collections::HashMap::new();
    let mut alone: Vec<usize> = Vec::new();
    for (i, (_, _, hint)) in items.iter().enumerate() {
        if hint.iter().all(|&b| b == 0) {
            alone.push(i);
            continue;
        }
        let g = *group_of.entry(*hint).or_insert_with(|| {
            groups.push((*hint, Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(i);
    }
    for (hint, members) in groups {
        if members.len() < MIN_HINTED_BATCH {
            alone.extend(members);
            continue;
        }
        let (key, rest) = if hint[0] == SIGNER_TAG {
            // The first member that recovers names the key the others are checked against.
            let mut first = None;
            for (k, &i) in members.iter().enumerate() {
                let v = recover(&items[i].0, &items[i].1);
                out[i] = v;
                if let Ok(key) = v {
                    first = Some((key, k + 1));
                    break;
                }
            }
            let Some((key, next)) = first else { continue };
            (key, &members[next..])
        } else {
            (hint, &members[..])
        };
        if rest.is_empty() {
            continue;
        }
        let Some(q) = decompress(&key) else {
            alone.extend_from_slice(rest);
            continue;
        };
        let mut prepared = Vec::with_capacity(rest.len());
        let mut checked = Vec::with_capacity(rest.len());
        for &i in rest {
            match prepare(&items[i].0, &items[i].1) {
                Ok(p) => {
                    prepared.push(p);
                    checked.push(i);
                }
                // a range or point failure is the verdict, whatever the hint
                Err(e) => out[i] = Err(e),
            }
        }
        if checked.is_empty() {
            continue;
        }
        let mut transcript = Vec::with_capacity(97 * checked.len() + 33);
        for &i in &checked {
            transcript.extend_from_slice(&items[i].0);
            transcript.extend_from_slice(&items[i].1);
        }
        transcript.extend_from_slice(&key);
        if all_recover_to(&q, &prepared, &crate::sha256::sha256(&transcript)) {
            for &i in &checked {
                out[i] = Ok(key);
            }
        } else {
            alone.extend(checked);
        }
    }
    alone.sort_unstable();
    let rest: Vec<([u8; 32], [u8; 65])> = alone.iter().map(|&i| (items[i].0, items[i].1)).collect();
    for (k, v) in recover_many(&rest).into_iter().enumerate() {
        out[alone[k]] = v;
    }
    out
}

/// The point of a canonical compressed key: 02 or 03 (the parity of y), then x < p of a curve point.
fn decompress(key: &[u8; 33]) -> Option<Affine> {
    if key[0] != 2 && key[0] != 3 {
        return None;
    }
    let xv = u256_from_be(key[1..].try_into().unwrap());
    if !lt256(&xv, &P) {
        return None;
    }
    let x = Fe::from_u64x4(&xv);
    let rhs = x.sqr().mul(&x).add(&Fe::from_u64x4(&[7, 0, 0, 0]));
    let mut y = rhs.sqrt()?;
    if y.is_odd() != (key[0] == 3) {
        y = y.neg(1).weak();
    }
    Some(Affine { x, y })
}

/// The batch coefficient k of a check: 128 bits of SHA-256(seed ‖ k), never 0.
fn coefficient(seed: &[u8; 32], k: usize) -> U256 {
    let mut m = [0u8; 36];
    m[..32].copy_from_slice(seed);
    m[32..].copy_from_slice(&(k as u32).to_le_bytes());
    let h = crate::sha256::sha256(&m);
    let lo = u64::from_le_bytes(h[..8].try_into().unwrap());
    let hi = u64::from_le_bytes(h[8..16].try_into().unwrap());
    if lo == 0 && hi == 0 {
        [1, 0, 0, 0]
    } else {
        [lo, hi, 0, 0]
    }
}

/// Whether every prepared signature (R_i, r_i, s_i, z_i) recovers to Q. Each does iff
/// r_i·Q = s_i·R_i − z_i·G (r_i ≠ 0, Q finite), i.e. R_i = w_i·z_i·G + w_i·r_i·Q with w_i = s_i⁻¹.
/// Checked at once: Σ c_i·R_i − (Σ c_i·w_i·z_i)·G − (Σ c_i·w_i·r_i)·Q = O, with 128-bit c_i
/// derived from `seed`, a hash of every input (digests, signatures, key). If all recover to Q the
/// sum is O exactly. If one does not, its difference D_j = R_j − w_j·(z_j·G + r_j·Q) ≠ O and the
/// sum is O for at most one value of c_j mod n given the others (the group has prime order), so
/// with coefficients a hash of the inputs, inputs making a false batch pass are found with
/// probability 2⁻¹²⁸ per hash evaluated (the batch-verification argument of Bellare, Garay and
/// Rabin, with Fiat–Shamir coefficients). One Strauss product over every term: a shared doubling
/// chain of ~129 steps, R_i's with width-W_R tables, G's with the fixed tables, Q's split by λ.
fn all_recover_to(q: &Affine, group: &[Prepared], seed: &[u8; 32]) -> bool {
    let n = group.len();
    // s⁻¹ for all (Montgomery's trick; s ∈ [1, n−1], n prime: every product is invertible)
    let mut prefix = Vec::with_capacity(n);
    let mut acc: U256 = [1, 0, 0, 0];
    for p in group {
        prefix.push(acc);
        acc = scalar::mul(&acc, &p.s);
    }
    let Some(mut inv) = scalar::inv_mod(&acc, &N) else { return false };
    let mut w = vec![[0u64; 4]; n];
    for k in (0..n).rev() {
        w[k] = scalar::mul(&inv, &prefix[k]);
        inv = scalar::mul(&inv, &group[k].s);
    }
    let (mut gsum, mut qsum) = ([0u64; 4], [0u64; 4]);
    let mut naf = vec![[0i16; 258]; n + 4];
    let mut lens = vec![0usize; n + 4];
    for (k, p) in group.iter().enumerate() {
        let c = coefficient(seed, k);
        let cw = scalar::mul(&c, &w[k]);
        gsum = scalar::add(&gsum, &scalar::mul(&cw, &p.z));
        qsum = scalar::add(&qsum, &scalar::mul(&cw, &p.r));
        lens[4 + k] = wnaf(&c, W_R, &mut naf[4 + k]);
    }
    let (g, qk) = (scalar::neg(&gsum), scalar::neg(&qsum));
    let ((k1, neg1), (k2, neg2)) = scalar::split_lambda(&qk);
    lens[0] = wnaf(&[g[0], g[1], 0, 0], W_G, &mut naf[0]);
    lens[1] = wnaf(&[g[2], g[3], 0, 0], W_G, &mut naf[1]);
    lens[2] = wnaf(&k1, W_R, &mut naf[2]);
    lens[3] = wnaf(&k2, W_R, &mut naf[3]);
    // odd multiples of Q and of every R_i, to affine form with one inversion
    let mut jac = Vec::with_capacity((n + 1) * R_TABLE);
    push_odd_multiples(q, R_TABLE, &mut jac);
    for p in group {
        push_odd_multiples(&p.big_r, R_TABLE, &mut jac);
    }
    let mut tables = vec![Affine { x: Fe::ZERO, y: Fe::ZERO }; jac.len()];
    batch_affine_into(&jac, &mut tables);
    let beta = Fe::from_u64x4(&BETA);
    let qlt: Vec<Affine> = tables[..R_TABLE].iter().map(|p| Affine { x: p.x.mul(&beta), y: p.y }).collect();
    let gt = g_tables();
    let table = |t: usize| -> (&[Affine], bool) {
        match t {
            0 => (&gt[..G_TABLE], false),
            1 => (&gt[G_TABLE..], false),
            2 => (&tables[..R_TABLE], neg1),
            3 => (&qlt[..], neg2),
            _ => (&tables[(t - 3) * R_TABLE..(t - 2) * R_TABLE], false),
        }
    };
    let len = lens.iter().copied().max().unwrap_or(0);
    let mut sum = Jac::INF;
    for i in (0..len).rev() {
        sum = sum.dbl();
        for t in 0..n + 4 {
            let d = naf[t][i];
            if d != 0 {
                let (tab, negate) = table(t);
                let p = tab[(d.unsigned_abs() as usize - 1) / 2];
                let p = if (d < 0) != negate { Affine { x: p.x, y: p.y.neg(1) } } else { p };
                sum = sum.add_affine(&p);
            }
        }
    }
    sum.inf
}

/// The range rules and the point R of a signature (everything of `recover` before r⁻¹).
fn prepare(digest: &[u8; 32], sig: &[u8; 65]) -> Result<Prepared, RecoverError> {
    let recid = sig[64];
    if recid > 3 {
        return Err(RecoverError::BadRecid);
    }
    let mut rb = [0u8; 32];
    let mut sb = [0u8; 32];
    rb.copy_from_slice(&sig[..32]);
    sb.copy_from_slice(&sig[32..64]);
    let r = u256_from_be(&rb);
    let s = u256_from_be(&sb);
    if is_zero256(&r) || is_zero256(&s) || !lt256(&r, &N) || !lt256(&s, &N) {
        return Err(RecoverError::OutOfRange);
    }
    if lt256(&N_HALF, &s) {
        return Err(RecoverError::HighS);
    }
    // R: x = r, or r + n for recid 2 and 3 (only if still below p); y of parity recid & 1.
    let x = if recid >= 2 {
        let (x, carry) = add256(&r, &N);
        if carry || !lt256(&x, &P) {
            return Err(RecoverError::NoPoint);
        }
        x
    } else {
        r
    };
    let x = Fe::from_u64x4(&x);
    let rhs = x.sqr().mul(&x).add(&Fe::from_u64x4(&[7, 0, 0, 0]));
    let Some(mut y) = rhs.sqrt() else { return Err(RecoverError::NoPoint) };
    if y.is_odd() != (recid & 1 == 1) {
        y = y.neg(1).weak();
    }
    Ok(Prepared { big_r: Affine { x, y }, r, s, z: scalar::reduce(&u256_from_be(digest)) })
}

/// Recovers the signer's compressed public key from the 32-byte digest at `digest_ptr` and the
/// 65-byte signature r ‖ s ‖ recid at `sig_ptr`; writes 33 bytes to `out_ptr` and returns 0, or
/// returns 1 (recid > 3), 2 (r or s not in [1, n−1]), 3 (s > n/2), 4 (no curve point for r and
/// recid) or 5 (the key is the point at infinity) and leaves `out_ptr` untouched.
///
/// # Safety
/// `digest_ptr..+32` and `sig_ptr..+65` must be readable and `out_ptr..+33` writable memory.
#[no_mangle]
pub unsafe extern "C" fn secp256k1_recover(digest_ptr: *const u8, sig_ptr: *const u8, out_ptr: *mut u8) -> i32 {
    let mut digest = [0u8; 32];
    let mut sig = [0u8; 65];
    digest.copy_from_slice(crate::input(digest_ptr, 32));
    sig.copy_from_slice(crate::input(sig_ptr, 65));
    match recover(&digest, &sig) {
        Ok(key) => {
            crate::output(out_ptr, &key);
            0
        }
        Err(e) => e as i32,
    }
}

/// `secp256k1_recover` of `n` items at `items_ptr`, each digest(32) ‖ signature(65), in one call
/// (recover_many): writes n answers status(1) ‖ key(33) to `out_ptr`, status 0 with the key or the
/// error code of `secp256k1_recover` with 33 zero bytes.
///
/// # Safety
/// `items_ptr..+97·n` must be readable and `out_ptr..+34·n` writable memory.
#[no_mangle]
pub unsafe extern "C" fn secp256k1_recover_many(items_ptr: *const u8, n: usize, out_ptr: *mut u8) {
    let raw = crate::input(items_ptr, 97 * n);
    let items: Vec<([u8; 32], [u8; 65])> =
        raw.chunks_exact(97).map(|c| (c[..32].try_into().unwrap(), c[32..].try_into().unwrap())).collect();
    let mut out = vec![0u8; 34 * n];
    for (i, v) in recover_many(&items).into_iter().enumerate() {
        match v {
            Ok(key) => out[34 * i + 1..34 * (i + 1)].copy_from_slice(&key),
            Err(e) => out[34 * i] = e as u8,
        }
    }
    crate::output(out_ptr, &out);
}

/// `secp256k1_recover_many` with a hint per item (recover_many_hinted): `n` items at `items_ptr`,
/// each digest(32) ‖ signature(65) ‖ hint(33, the compressed key expected, or zeros); writes the
/// same n answers status(1) ‖ key(33) as `secp256k1_recover_many` would to `out_ptr`.
///
/// # Safety
/// `items_ptr..+130·n` must be readable and `out_ptr..+34·n` writable memory.
#[no_mangle]
pub unsafe extern "C" fn secp256k1_recover_many_hinted(items_ptr: *const u8, n: usize, out_ptr: *mut u8) {
    let raw = crate::input(items_ptr, 130 * n);
    let items: Vec<([u8; 32], [u8; 65], [u8; 33])> = raw
        .chunks_exact(130)
        .map(|c| (c[..32].try_into().unwrap(), c[32..97].try_into().unwrap(), c[97..].try_into().unwrap()))
        .collect();
    let mut out = vec![0u8; 34 * n];
    for (i, v) in recover_many_hinted(&items).into_iter().enumerate() {
        match v {
            Ok(key) => out[34 * i + 1..34 * (i + 1)].copy_from_slice(&key),
            Err(e) => out[34 * i] = e as u8,
        }
    }
    crate::output(out_ptr, &out);
}

/// The compressed public key sk·G of a secret key in [1, n−1] (for tests and tools).
pub fn public_key(sk: &[u8; 32]) -> Option<[u8; 33]> {
    let k = u256_from_be(sk);
    if is_zero256(&k) || !lt256(&k, &N) {
        return None;
    }
    ecmult(&Affine::g(), &[0; 4], &k).to_affine().map(|q| q.compressed())
}

/// Writes the compressed public key sk·G of the 32-byte secret key at `sk_ptr` to `out_ptr` (33
/// bytes) and returns 0, or returns 1 (the key is 0 or ≥ n) and leaves `out_ptr` untouched.
///
/// # Safety
/// `sk_ptr..+32` must be readable and `out_ptr..+33` writable memory.
#[no_mangle]
pub unsafe extern "C" fn secp256k1_public_key(sk_ptr: *const u8, out_ptr: *mut u8) -> i32 {
    let mut sk = [0u8; 32];
    sk.copy_from_slice(crate::input(sk_ptr, 32));
    match public_key(&sk) {
        Some(key) => {
            crate::output(out_ptr, &key);
            0
        }
        None => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    fn to_hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    fn b32(s: &str) -> [u8; 32] {
        hex(s).try_into().unwrap()
    }

    fn u256(s: &str) -> U256 {
        u256_from_be(&b32(s))
    }

    /// splitmix64: a deterministic stream for randomized checks.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn u256(&mut self) -> U256 {
            [self.next(), self.next(), self.next(), self.next()]
        }
        /// Uniform-ish in [1, n−1].
        fn scalar(&mut self) -> U256 {
            loop {
                let k = self.u256();
                if !is_zero256(&k) && lt256(&k, &N) {
                    return k;
                }
            }
        }
    }

    fn jac_eq(a: &Jac, b: &Jac) -> bool {
        match (a.to_affine(), b.to_affine()) {
            (None, None) => true,
            (Some(p), Some(q)) => p.x.to_u64x4() == q.x.to_u64x4() && p.y.to_u64x4() == q.y.to_u64x4(),
            _ => false,
        }
    }

    fn affine_xy(p: &Jac) -> (U256, U256) {
        let a = p.to_affine().unwrap();
        (a.x.to_u64x4(), a.y.to_u64x4())
    }

    fn add_n(x: &U256, y: &U256) -> U256 {
        let (s, c) = add256(x, y);
        if c || !lt256(&s, &N) {
            sub256(&s, &N).0
        } else {
            s
        }
    }

    /// Slow reference: a·b mod n by double-and-add.
    fn mul_slow(a: &U256, b: &U256) -> U256 {
        let add = add_n;
        let mut acc = [0u64; 4];
        for i in (0..256).rev() {
            acc = add(&acc, &acc);
            if (b[i / 64] >> (i % 64)) & 1 == 1 {
                acc = add(&acc, a);
            }
        }
        acc
    }

    /// ECDSA signing (test only): k the nonce, d the key, z the digest scalar. Returns the
    /// 65-byte low-s signature with its recovery id, or None for a degenerate nonce.
    fn sign(z: &U256, d: &U256, k: &U256) -> Option<[u8; 65]> {
        let (rx, ry) = affine_xy(&ecmult(&Affine::g(), &[0; 4], k));
        let r = scalar::reduce(&rx);
        if is_zero256(&r) {
            return None;
        }
        let mut recid = (ry[0] & 1) as u8 | if lt256(&rx, &N) { 0 } else { 2 };
        let k_inv = scalar::inv_mod(k, &N)?;
        let mut s = scalar::mul(&k_inv, &add_n(z, &scalar::mul(&r, d)));
        if is_zero256(&s) {
            return None;
        }
        if lt256(&N_HALF, &s) {
            s = scalar::neg(&s);
            recid ^= 1;
        }
        let mut sig = [0u8; 65];
        sig[..32].copy_from_slice(&u256_to_be(&r));
        sig[32..64].copy_from_slice(&u256_to_be(&s));
        sig[64] = recid;
        Some(sig)
    }

    /// ECDSA verification (test only) against a compressed key: x(z·s⁻¹·G + r·s⁻¹·Q) ≡ r.
    fn verify(z: &U256, sig: &[u8; 65], key: &[u8; 33]) -> bool {
        let r = u256_from_be(sig[..32].try_into().unwrap());
        let s = u256_from_be(sig[32..64].try_into().unwrap());
        let x = Fe::from_bytes(key[1..].try_into().unwrap());
        let mut y = x.sqr().mul(&x).add(&Fe::from_u64x4(&[7, 0, 0, 0])).sqrt().unwrap();
        if y.is_odd() != (key[0] == 3) {
            y = y.neg(1).weak();
        }
        let s_inv = scalar::inv_mod(&s, &N).unwrap();
        let p = ecmult(&Affine { x, y }, &scalar::mul(&r, &s_inv), &scalar::mul(z, &s_inv));
        match p.to_affine() {
            Some(a) => scalar::reduce(&a.x.to_u64x4()) == r,
            None => false,
        }
    }

    #[test]
    fn field_basics() {
        let p = P;
        let fe = |v: &U256| Fe::from_u64x4(v);
        // p, p + 1, 2²⁵⁶ − 1 reduce to 0, 1, 2³² + 976
        assert_eq!(fe(&p).to_u64x4(), [0; 4]);
        assert!(fe(&p).is_zero());
        assert_eq!(fe(&add256(&p, &[1, 0, 0, 0]).0).to_u64x4(), [1, 0, 0, 0]);
        assert_eq!(fe(&[u64::MAX; 4]).to_u64x4(), [0x1_0000_03D0, 0, 0, 0]);
        assert!(!fe(&[1, 0, 0, 0]).is_zero());
        // −1 is not a square (p ≡ 3 mod 4); squares have roots
        assert!(Fe::ONE.neg(1).sqrt().is_none());
        assert!(Fe::ZERO.sqrt().is_some());
        assert!(Fe::ZERO.inv().is_zero());
        assert!(Fe::from_u64x4(&P).inv().is_zero());
        assert!(Fe::ZERO.inv_pow().is_zero());
        let mut rng = Rng(1);
        for _ in 0..2000 {
            let a = fe(&rng.u256());
            let b = fe(&rng.u256());
            // a·a⁻¹ = 1 (a ≠ 0 with overwhelming probability), both ways of inverting
            assert_eq!(a.mul(&a.inv()).to_u64x4(), [1, 0, 0, 0]);
            assert_eq!(a.inv().to_u64x4(), a.inv_pow().to_u64x4());
            // sqrt(a²) = ±a
            let r = a.sqr().sqrt().unwrap();
            assert!(r.add(&a.neg(1)).is_zero() || r.add(&a).is_zero());
            // (a + b)² = a² + 2ab + b² with lazy magnitudes; sqr = mul by itself
            let lhs = a.add(&b).sqr();
            let rhs = a.sqr().add(&a.mul(&b).mul_small(2)).add(&b.sqr());
            assert!(lhs.add(&rhs.neg(4)).is_zero());
            assert_eq!(a.sqr().to_u64x4(), a.mul(&a).to_u64x4());
            // compare with the scalar-style wide multiplication reduced mod p
            let w: [u64; 8] = mul_wide(&a.to_u64x4(), &b.to_u64x4());
            assert_eq!(a.mul(&b).to_u64x4(), reduce512_p(w));
        }
        // the largest magnitude-7 limbs still multiply correctly
        let big = Fe([(1 << 29) - 1; 10]);
        let w: [u64; 8] = mul_wide(&big.to_u64x4(), &big.to_u64x4());
        assert_eq!(big.mul(&big).to_u64x4(), reduce512_p(w));
        assert_eq!(big.sqr().to_u64x4(), reduce512_p(w));
    }

    #[test]
    fn products_of_lazy_limbs() {
        // Inputs up to magnitude 7 (limbs < 2²⁹, extremes included) against the wide reference;
        // a square gives the very limbs of the product with itself.
        let mut rng = Rng(12);
        for i in 0..20000 {
            let mut limbs = || -> Fe {
                let bits = 26 + (rng.next() % 4) as u32;
                Fe(std::array::from_fn(|_| {
                    if i % 5 == 0 {
                        (1 << bits) - 1
                    } else {
                        (rng.next() as u32) & ((1 << bits) - 1)
                    }
                }))
            };
            let (a, b) = (limbs(), limbs());
            let w: [u64; 8] = mul_wide(&a.to_u64x4(), &b.to_u64x4());
            assert_eq!(a.mul(&b).to_u64x4(), reduce512_p(w));
            assert_eq!(a.sqr().0, a.mul(&a).0);
            assert!(a.mul(&b).0.iter().all(|&x| x <= (1 << 26) + (1 << 22)));
        }
    }

    /// x mod p for a 512-bit x (slow reference: bit-serial shift-and-subtract).
    fn reduce512_p(w: [u64; 8]) -> U256 {
        let mut acc = [0u64; 4];
        for i in (0..512).rev() {
            let (d, top) = add256(&acc, &acc);
            acc = d;
            if top || !lt256(&acc, &P) {
                acc = sub256(&acc, &P).0;
            }
            if (w[i / 64] >> (i % 64)) & 1 == 1 {
                let (s, c) = add256(&acc, &[1, 0, 0, 0]);
                acc = if c || !lt256(&s, &P) { sub256(&s, &P).0 } else { s };
            }
        }
        acc
    }

    #[test]
    fn scalar_arithmetic() {
        let mut rng = Rng(2);
        let n_minus_1 = sub256(&N, &[1, 0, 0, 0]).0;
        for i in 0..500 {
            let a = if i == 0 { n_minus_1 } else { rng.scalar() };
            let b = if i == 1 { n_minus_1 } else { rng.scalar() };
            assert_eq!(scalar::mul(&a, &b), mul_slow(&a, &b));
            let ai = scalar::inv_mod(&a, &N).unwrap();
            assert_eq!(scalar::mul(&a, &ai), [1, 0, 0, 0]);
            let pi = scalar::inv_mod(&a, &P).unwrap();
            assert_eq!(Fe::from_u64x4(&a).mul(&Fe::from_u64x4(&pi)).to_u64x4(), [1, 0, 0, 0]);
        }
        assert_eq!(scalar::inv_mod(&[0; 4], &N), None);
        assert_eq!(scalar::mul(&n_minus_1, &n_minus_1), [1, 0, 0, 0]);
        // 2⁵¹² − 1 = m² + 2m for m = 2²⁵⁶ − 1
        let m = scalar::reduce(&[u64::MAX; 4]);
        assert_eq!(scalar::reduce512([u64::MAX; 8]), add_n(&add_n(&mul_slow(&m, &m), &m), &m));
    }

    #[test]
    fn endomorphism() {
        // λ³ ≡ 1 (mod n), β³ ≡ 1 (mod p), λ·G = (β·Gx, Gy)
        let l = scalar::LAMBDA;
        assert_eq!(scalar::mul(&scalar::mul(&l, &l), &l), [1, 0, 0, 0]);
        let beta = Fe::from_u64x4(&BETA);
        assert_eq!(beta.sqr().mul(&beta).to_u64x4(), [1, 0, 0, 0]);
        let (x, y) = affine_xy(&ecmult(&Affine::g(), &[0; 4], &l));
        assert_eq!(x, Fe::from_u64x4(&GX).mul(&beta).to_u64x4());
        assert_eq!(y, GY);
        // the split recombines and is short
        let mut rng = Rng(3);
        let half = N_HALF;
        let specials = [
            [0u64; 4],
            [1, 0, 0, 0],
            sub256(&N, &[1, 0, 0, 0]).0,
            half,
            add256(&half, &[1, 0, 0, 0]).0,
            l,
            scalar::neg(&l),
        ];
        for i in 0..20000 {
            let k = if i < specials.len() { specials[i] } else { rng.scalar() };
            let ((k1, n1), (k2, n2)) = scalar::split_lambda(&k);
            assert!(k1[2] == 0 && k1[3] == 0 && k2[2] == 0 && k2[3] == 0, "long split of {k:x?}");
            let k1 = if n1 { scalar::neg(&k1) } else { k1 };
            let k2 = if n2 { scalar::neg(&k2) } else { k2 };
            assert_eq!(scalar::sub(&k, &k1), scalar::mul(&k2, &l));
        }
    }

    #[test]
    fn products_from_halves() {
        // the wasm32 path of `mul_64x64`
        let mut rng = Rng(13);
        let edges = [0, 1, 0xFFFF_FFFF, 1 << 32, u64::MAX - 1, u64::MAX];
        for &x in &edges {
            for &y in &edges {
                assert_eq!(mul_64x64_halves(x, y), x as u128 * y as u128);
            }
        }
        for _ in 0..100_000 {
            let (x, y) = (rng.next(), rng.next() >> (rng.next() % 64));
            assert_eq!(mul_64x64_halves(x, y), x as u128 * y as u128);
        }
    }

    #[test]
    fn divstep_inverses() {
        // mod p and mod n, against the binary extended Euclidean algorithm and by definition
        let mut rng = Rng(14);
        for m in [P, N] {
            let m_1 = sub256(&m, &[1, 0, 0, 0]).0;
            let specials =
                [[1, 0, 0, 0], [2, 0, 0, 0], m_1, sub256(&m, &[2, 0, 0, 0]).0, [0, 0, 0, 1 << 63], [u64::MAX, 0, 0, 0]];
            for i in 0..3000 {
                let a = if i < specials.len() { specials[i] } else { scalar::reduce(&rng.u256()) };
                let a = if i % 7 == 6 { [a[0], a[1] >> (rng.next() % 64), 0, 0] } else { a };
                if is_zero256(&a) || !lt256(&a, &m) {
                    continue;
                }
                let inv = scalar::inv_mod(&a, &m).unwrap();
                assert_eq!(Some(inv), scalar::inv_mod_binary(&a, &m), "{a:x?}");
                assert!(lt256(&inv, &m));
                let w: [u64; 8] = mul_wide(&a, &inv);
                let one = if m == P { reduce512_p(w) } else { scalar::reduce512(w) };
                assert_eq!(one, [1, 0, 0, 0]);
            }
            assert_eq!(scalar::inv_mod(&[0; 4], &m), None);
        }
    }

    #[test]
    fn wnaf_digits() {
        let mut rng = Rng(4);
        for w in [W_R, W_G] {
            for _ in 0..1000 {
                let k = rng.u256();
                let mut d = [0i16; 258];
                let len = wnaf(&k, w, &mut d);
                // Σ d_i·2^i = k, computed mod 2²⁵⁶ by Horner
                let mut acc = [0u64; 4];
                for i in (0..len).rev() {
                    acc = add256(&acc, &acc).0;
                    let v = d[i];
                    assert!(v == 0 || (v % 2 != 0 && v.unsigned_abs() < 1 << (w - 1)));
                    if v > 0 {
                        acc = add256(&acc, &[v as u64, 0, 0, 0]).0;
                    } else if v < 0 {
                        acc = sub256(&acc, &[(-v) as u64, 0, 0, 0]).0;
                    }
                }
                assert_eq!(acc, k);
                let nz: Vec<usize> = (0..len).filter(|&i| d[i] != 0).collect();
                assert!(nz.windows(2).all(|p| p[1] - p[0] >= w as usize));
            }
        }
    }

    #[test]
    fn known_public_keys() {
        let cases = [
            (
                "0000000000000000000000000000000000000000000000000000000000000001",
                "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
            ),
            // vectors/wallets.json (recorded from the reference node)
            (
                "0000000000000000000000000000000000000000000000000000000000000003",
                "02f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9",
            ),
            (
                "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364140",
                "0379be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
            ),
            (
                "1111111111111111111111111111111111111111111111111111111111111111",
                "034f355bdcb7cc0af728ef3cceb9615d90684bb5b2ca5f859ab0f0b704075871aa",
            ),
            (
                "313b34455d889d49a63e8ff0aeab5d2a92590012499c2286246e8d29c1a5f468",
                "03537f6b49aa45a84fbf4b899e4b1cf5be56b8ff7ba97f663af7ed7b9189cd9316",
            ),
        ];
        for (sk, pk) in cases {
            assert_eq!(to_hex(&public_key(&b32(sk)).unwrap()), pk, "key {sk}");
        }
        assert_eq!(public_key(&[0; 32]), None);
        assert_eq!(public_key(&u256_to_be(&N)), None);
    }

    #[test]
    fn wallets_json() {
        // every valid case of test/vectors/wallets.json
        let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../test/vectors/wallets.json"));
        let field = |obj: &str, name: &str| -> Option<String> {
            let i = obj.find(&format!("\"{name}\""))?;
            let rest = &obj[i + name.len() + 2..];
            let start = rest.find('"')? + 1;
            let end = start + rest[start..].find('"')?;
            Some(rest[start..end].to_string())
        };
        let mut checked = 0;
        for obj in text.split('{').skip(2) {
            let (Some(sk), Some(pk)) = (field(obj, "privKey"), field(obj, "pubKey")) else { continue };
            let sk = b32(&sk.to_lowercase());
            assert_eq!(to_hex(&public_key(&sk).unwrap()), pk.to_lowercase());
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} wallet cases");
    }

    #[test]
    fn g_and_r_paths_agree() {
        // u·G through the fixed tables equals u·G through the endomorphism path, and
        // a·G + b·G = (a + b)·G
        let mut rng = Rng(5);
        let g = Affine::g();
        for _ in 0..300 {
            let a = rng.scalar();
            let b = rng.scalar();
            let via_g = ecmult(&g, &[0; 4], &a);
            let via_r = ecmult(&g, &a, &[0; 4]);
            assert!(jac_eq(&via_g, &via_r));
            let sum = ecmult(&g, &b, &a);
            let (s, c) = add256(&a, &b);
            let ab = if c || !lt256(&s, &N) { sub256(&s, &N).0 } else { s };
            assert!(jac_eq(&sum, &ecmult(&g, &[0; 4], &ab)));
        }
        // a·G + (n − a)·G = ∞ (the doubling/cancellation paths of the additions)
        let a = rng.scalar();
        assert!(ecmult(&g, &scalar::neg(&a), &a).inf || ecmult(&g, &scalar::neg(&a), &a).to_affine().is_none());
        let one = [1u64, 0, 0, 0];
        assert!(jac_eq(&ecmult(&g, &one, &one), &ecmult(&g, &[0; 4], &[2, 0, 0, 0])));
    }

    /// test/vectors/coin-transfers.json: transfers the reference accepted, and their signing keys.
    const TRANSFERS_JSON: &str =
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../test/vectors/coin-transfers.json"));

    /// The values of every `"name": "…"` member, in order (the crate has no JSON parser).
    fn string_values<'a>(json: &'a str, name: &str) -> Vec<&'a str> {
        let key = format!("\"{name}\": \"");
        json.match_indices(&key)
            .map(|(i, _)| {
                let rest = &json[i + key.len()..];
                &rest[..rest.find('"').unwrap()]
            })
            .collect()
    }

    #[test]
    fn coin_transfer_vectors() {
        let keys: Vec<[u8; 33]> =
            ["A", "B", "C"].iter().map(|k| public_key(&b32(string_values(TRANSFERS_JSON, k)[0])).unwrap()).collect();
        let transfers: Vec<(&str, &str)> = string_values(TRANSFERS_JSON, "txHash")
            .into_iter()
            .zip(string_values(TRANSFERS_JSON, "signature65"))
            .collect();
        assert_eq!(transfers.len(), 8);
        for (hash, sig) in transfers {
            let digest = b32(hash);
            let sig: [u8; 65] = hex(sig).try_into().unwrap();
            let key = recover(&digest, &sig).unwrap();
            assert!(keys.contains(&key), "{hash} recovered to an unknown key {}", to_hex(&key));
            assert!(verify(&u256_from_be(&digest), &sig, &key));
            // the other parity gives a different key, which does not verify... as the same
            // signer; flipping a bit of the digest changes the key
            let mut other = sig;
            other[64] ^= 1;
            assert_ne!(recover(&digest, &other).ok(), Some(key));
            let mut d2 = digest;
            d2[31] ^= 1;
            assert_ne!(recover(&d2, &sig).ok(), Some(key));
            // through the C ABI
            let mut out = [0u8; 33];
            assert_eq!(unsafe { secp256k1_recover(digest.as_ptr(), sig.as_ptr(), out.as_mut_ptr()) }, 0);
            assert_eq!(out, key);
        }
    }

    #[test]
    fn random_signatures_recover() {
        let mut rng = Rng(6);
        for i in 0..400 {
            let d = rng.scalar();
            let k = rng.scalar();
            // digests ≥ n are reduced mod n like any other
            let z = if i % 50 == 0 { [u64::MAX; 4] } else { rng.u256() };
            let sig = sign(&scalar::reduce(&z), &d, &k).unwrap();
            let key = recover(&u256_to_be(&z), &sig).unwrap();
            assert_eq!(key, public_key(&u256_to_be(&d)).unwrap());
        }
    }

    #[test]
    fn recover_many_gives_the_verdicts_of_recover() {
        // Valid signatures mixed with every failure kind, the point at infinity included, in
        // batches of 0, 1 and many, through the export too.
        let mut rng = Rng(11);
        let mut items: Vec<([u8; 32], [u8; 65])> = Vec::new();
        for i in 0..120 {
            let (d, k) = (rng.scalar(), rng.scalar());
            let z = rng.u256();
            let mut sig = sign(&scalar::reduce(&z), &d, &k).unwrap();
            match i % 8 {
                1 => sig[64] = 4 + (i as u8 % 200),         // BadRecid
                2 => sig[..32].copy_from_slice(&[0u8; 32]), // OutOfRange
                3 => {
                    let high = u256_to_be(&scalar::neg(&u256_from_be(sig[32..64].try_into().unwrap())));
                    sig[32..64].copy_from_slice(&high); // HighS
                }
                4 => sig[64] ^= 2, // NoPoint (r + n ≥ p)
                5 => {
                    // Infinity: R = k·G and z = s·k
                    let (rx, ry) = affine_xy(&ecmult(&Affine::g(), &[0; 4], &k));
                    let s = scalar::reduce(&[rng.next(), rng.next(), rng.next(), rng.next() >> 2]);
                    items.push((u256_to_be(&scalar::mul(&s, &k)), sig_of(&rx, &s, (ry[0] & 1) as u8)));
                    continue;
                }
                _ => {}
            }
            items.push((u256_to_be(&z), sig));
        }
        let single: Vec<_> = items.iter().map(|(d, s)| recover(d, s)).collect();
        assert!(single.iter().any(|v| *v == Err(RecoverError::Infinity)));
        assert!(single.iter().filter(|v| v.is_ok()).count() >= 40);
        for e in [RecoverError::BadRecid, RecoverError::OutOfRange, RecoverError::HighS, RecoverError::NoPoint] {
            assert!(single.contains(&Err(e)));
        }
        assert_eq!(recover_many(&items), single);
        assert_eq!(recover_many(&items[..1]), single[..1].to_vec());
        assert_eq!(recover_many(&[]), vec![]);
        let raw: Vec<u8> = items.iter().flat_map(|(d, s)| d.iter().chain(s.iter()).copied()).collect();
        let mut out = vec![7u8; 34 * items.len()];
        unsafe { secp256k1_recover_many(raw.as_ptr(), items.len(), out.as_mut_ptr()) };
        for (i, v) in single.iter().enumerate() {
            let a = &out[34 * i..34 * (i + 1)];
            match v {
                Ok(key) => assert_eq!((a[0], &a[1..]), (0, &key[..])),
                Err(e) => assert_eq!((a[0], &a[1..]), (*e as u8, &[0u8; 33][..])),
            }
        }
    }

    fn sig_of(r: &U256, s: &U256, recid: u8) -> [u8; 65] {
        let mut sig = [0u8; 65];
        sig[..32].copy_from_slice(&u256_to_be(r));
        sig[32..64].copy_from_slice(&u256_to_be(s));
        sig[64] = recid;
        sig
    }

    #[test]
    fn range_and_encoding_rules() {
        let digest = b32(string_values(TRANSFERS_JSON, "txHash")[0]);
        let good: [u8; 65] = hex(string_values(TRANSFERS_JSON, "signature65")[0]).try_into().unwrap();
        let r = u256_from_be(good[..32].try_into().unwrap());
        let s = u256_from_be(good[32..64].try_into().unwrap());
        let rec = good[64];
        use RecoverError::*;
        for bad in [4u8, 27, 28, 255] {
            assert_eq!(recover(&digest, &sig_of(&r, &s, bad)), Err(BadRecid));
        }
        let n = N;
        let n_1 = sub256(&N, &[1, 0, 0, 0]).0;
        for (rr, ss) in [([0; 4], s), (r, [0; 4]), (n, s), (r, n), ([u64::MAX; 4], s), (r, [u64::MAX; 4])] {
            assert_eq!(recover(&digest, &sig_of(&rr, &ss, rec)), Err(OutOfRange));
        }
        // s = n/2 is low, n/2 + 1 and n − 1 are high; the high twin of a good signature fails
        assert_ne!(recover(&digest, &sig_of(&r, &N_HALF, rec)), Err(HighS));
        assert_eq!(recover(&digest, &sig_of(&r, &add256(&N_HALF, &[1, 0, 0, 0]).0, rec)), Err(HighS));
        assert_eq!(recover(&digest, &sig_of(&r, &n_1, rec)), Err(HighS));
        assert_eq!(recover(&digest, &sig_of(&r, &scalar::neg(&s), rec ^ 1)), Err(HighS));
        // r = n − 1 is in range (its R may or may not exist)
        assert_ne!(recover(&digest, &sig_of(&n_1, &s, 0)), Err(OutOfRange));
        // an x that is not on the curve: search small r with x³ + 7 a non-square
        let off = (1u64..).find(|&x| Fe::from_u64x4(&[x * x * x + 7, 0, 0, 0]).sqrt().is_none()).unwrap();
        for recid in 0..2 {
            assert_eq!(recover(&digest, &sig_of(&[off, 0, 0, 0], &s, recid)), Err(NoPoint));
        }
    }

    #[test]
    fn recid_2_and_3() {
        // r + n < p only for r < p − n (about 2¹²⁸); such an x = r + n on the curve gives keys
        // whose signatures verify with x(R) mod n = r.
        let p_minus_n = sub256(&P, &N).0;
        let mut rng = Rng(7);
        let mut found = 0;
        let mut r = [1u64, 0, 0, 0];
        while found < 8 {
            let x = add256(&r, &N).0;
            let fx = Fe::from_u64x4(&x);
            if fx.sqr().mul(&fx).add(&Fe::from_u64x4(&[7, 0, 0, 0])).sqrt().is_some() {
                let z = rng.u256();
                let s = scalar::reduce(&[rng.next(), rng.next(), rng.next(), rng.next() >> 1]);
                let k2 = recover(&u256_to_be(&z), &sig_of(&r, &s, 2)).unwrap();
                let k3 = recover(&u256_to_be(&z), &sig_of(&r, &s, 3)).unwrap();
                let k0 = recover(&u256_to_be(&z), &sig_of(&r, &s, 0)).ok();
                assert_ne!(k2, k3);
                assert_ne!(Some(k2), k0);
                for (key, recid) in [(k2, 2), (k3, 3)] {
                    assert!(verify(&scalar::reduce(&z), &sig_of(&r, &s, recid), &key));
                }
                found += 1;
            }
            r = add256(&r, &[rng.next() >> 1, rng.next() & 1, 0, 0]).0;
        }
        // x = r + n ≥ p: no point, whatever the curve says about x − p
        let s = [5u64, 0, 0, 0];
        for r in [p_minus_n, add256(&p_minus_n, &[1, 0, 0, 0]).0, sub256(&N, &[1, 0, 0, 0]).0, [0, 0, 2, 0]] {
            for recid in [2u8, 3] {
                assert_eq!(recover(&[7; 32], &sig_of(&r, &s, recid)), Err(RecoverError::NoPoint));
            }
        }
    }

    #[test]
    fn infinity() {
        // R = k·G, s·k ≡ z: then s·R = z·G and Q = r⁻¹(s·R − z·G) is the point at infinity
        let mut rng = Rng(8);
        for _ in 0..20 {
            let k = rng.scalar();
            let (rx, ry) = affine_xy(&ecmult(&Affine::g(), &[0; 4], &k));
            assert!(lt256(&rx, &N));
            let s = scalar::reduce(&[rng.next(), rng.next(), rng.next(), rng.next() >> 2]);
            let z = scalar::mul(&s, &k);
            let sig = sig_of(&rx, &s, (ry[0] & 1) as u8);
            assert_eq!(recover(&u256_to_be(&z), &sig), Err(RecoverError::Infinity));
            let mut out = [9u8; 33];
            assert_eq!(unsafe { secp256k1_recover(u256_to_be(&z).as_ptr(), sig.as_ptr(), out.as_mut_ptr()) }, 5);
            assert_eq!(out, [9u8; 33]);
        }
    }

    #[test]
    fn digest_is_not_hashed() {
        // z = 0: Q = r⁻¹·s·R
        let k = u256("00000000000000000000000000000000000000000000000000000000000000aa");
        let (rx, ry) = affine_xy(&ecmult(&Affine::g(), &[0; 4], &k));
        let s = [3u64, 0, 0, 0];
        let key = recover(&[0; 32], &sig_of(&rx, &s, (ry[0] & 1) as u8)).unwrap();
        let want = scalar::mul(&scalar::mul(&scalar::inv_mod(&rx, &N).unwrap(), &s), &k);
        assert_eq!(key, public_key(&u256_to_be(&want)).unwrap());
    }

    /// A valid signature by secret `d` over a random digest, with that digest.
    fn signed_by(rng: &mut Rng, d: &U256) -> ([u8; 32], [u8; 65]) {
        loop {
            let z = rng.u256();
            if let Some(sig) = sign(&scalar::reduce(&z), d, &rng.scalar()) {
                return (u256_to_be(&z), sig);
            }
        }
    }

    #[test]
    fn batch_check_passes_only_when_every_signature_recovers_to_the_key() {
        let mut rng = Rng(29);
        let (d1, d2) = (rng.scalar(), rng.scalar());
        let q1 = decompress(&public_key(&u256_to_be(&d1)).unwrap()).unwrap();
        let q2 = decompress(&public_key(&u256_to_be(&d2)).unwrap()).unwrap();
        let group: Vec<([u8; 32], [u8; 65])> = (0..40).map(|_| signed_by(&mut rng, &d1)).collect();
        let prepared =
            |g: &[([u8; 32], [u8; 65])]| -> Vec<Prepared> { g.iter().map(|(z, s)| prepare(z, s).unwrap()).collect() };
        let seed = [7u8; 32];
        assert!(all_recover_to(&q1, &prepared(&group), &seed));
        assert!(all_recover_to(&q1, &prepared(&group[..1]), &seed));
        assert!(!all_recover_to(&q2, &prepared(&group), &seed));
        // one signature by another key, one over another digest, one with the other parity
        for k in 0..3 {
            let mut g = group.clone();
            match k {
                0 => g[17] = signed_by(&mut rng, &d2),
                1 => g[3].0[31] ^= 1,
                _ => g[39].1[64] ^= 1,
            }
            assert!(!all_recover_to(&q1, &prepared(&g), &seed), "case {k}");
        }
    }

    #[test]
    fn decompress_takes_canonical_keys_only() {
        let mut rng = Rng(30);
        for _ in 0..50 {
            let key = public_key(&u256_to_be(&rng.scalar())).unwrap();
            assert_eq!(decompress(&key).unwrap().compressed(), key);
            let mut bad = key;
            bad[0] = 4;
            assert!(decompress(&bad).is_none());
        }
        let mut over_p = [0xFFu8; 33];
        over_p[0] = 2;
        assert!(decompress(&over_p).is_none());
        // x = 5 is not the x of a curve point (5³ + 7 = 132 is no square mod p)
        let mut off = [0u8; 33];
        off[0] = 2;
        off[32] = 5;
        assert!(decompress(&off).is_none());
    }

    #[test]
    fn recover_many_hinted_gives_the_verdicts_of_recover() {
        let mut rng = Rng(31);
        let keys: Vec<U256> = (0..4).map(|_| rng.scalar()).collect();
        let pk: Vec<[u8; 33]> = keys.iter().map(|d| public_key(&u256_to_be(d)).unwrap()).collect();
        let mut items: Vec<([u8; 32], [u8; 65], [u8; 33])> = Vec::new();
        // a clean group, hinted right
        for _ in 0..30 {
            let (z, s) = signed_by(&mut rng, &keys[0]);
            items.push((z, s, pk[0]));
        }
        // a group with one signature by another key among them
        for i in 0..20 {
            let (z, s) = signed_by(&mut rng, &keys[if i == 9 { 2 } else { 1 }]);
            items.push((z, s, pk[1]));
        }
        // every failure kind under a right hint, and the point at infinity
        for i in 0..10 {
            let (z, mut sig) = signed_by(&mut rng, &keys[3]);
            match i % 5 {
                0 => sig[64] = 9,
                1 => {
                    let high = u256_to_be(&scalar::neg(&u256_from_be(sig[32..64].try_into().unwrap())));
                    sig[32..64].copy_from_slice(&high);
                }
                2 => sig[..32].copy_from_slice(&u256_to_be(&N)),
                3 => sig[64] ^= 2,
                _ => {}
            }
            items.push((z, sig, pk[3]));
        }
        let k = rng.scalar();
        let (rx, ry) = affine_xy(&ecmult(&Affine::g(), &[0; 4], &k));
        let s = scalar::reduce(&[rng.next(), rng.next(), rng.next(), rng.next() >> 2]);
        items.push((u256_to_be(&scalar::mul(&s, &k)), sig_of(&rx, &s, (ry[0] & 1) as u8), pk[3]));
        // wrong hints: another's key, no key encodings, a lone hint, none
        for i in 0..12 {
            let (z, s) = signed_by(&mut rng, &keys[2]);
            let mut hint = pk[0];
            match i / 3 {
                0 => {}
                1 => hint[0] = 4,
                2 => hint[1..].copy_from_slice(&[0xFF; 32]),
                _ => hint = [0; 33],
            }
            items.push((z, s, hint));
        }
        let (z, s) = signed_by(&mut rng, &keys[2]);
        items.push((z, s, pk[2]));
        // signer tags: one signer's, one whose first signatures do not recover, one of two signers,
        // one whose signatures none recovers, a lone one
        let tag = |t: u8| {
            let mut h = [t; 33];
            h[0] = SIGNER_TAG;
            h
        };
        for i in 0..15 {
            let (z, s) = signed_by(&mut rng, &keys[3]);
            items.push((z, s, tag(1)));
            let (z, mut s) = signed_by(&mut rng, &keys[0]);
            if i < 3 {
                s[64] = 7;
            }
            items.push((z, s, tag(2)));
            let (z, s) = signed_by(&mut rng, &keys[i % 2]);
            items.push((z, s, tag(3)));
            let (z, mut s) = signed_by(&mut rng, &keys[1]);
            s[..32].copy_from_slice(&[0; 32]);
            items.push((z, s, tag(4)));
        }
        let (z, s) = signed_by(&mut rng, &keys[1]);
        items.push((z, s, tag(5)));
        // interleave the groups
        for i in 0..items.len() {
            let j = (rng.next() as usize) % items.len();
            items.swap(i, j);
        }
        let single: Vec<_> = items.iter().map(|(d, s, _)| recover(d, s)).collect();
        assert!(single.contains(&Err(RecoverError::Infinity)));
        for e in [RecoverError::BadRecid, RecoverError::OutOfRange, RecoverError::HighS, RecoverError::NoPoint] {
            assert!(single.contains(&Err(e)));
        }
        assert_eq!(recover_many_hinted(&items), single);
        assert_eq!(recover_many_hinted(&items[..1]), single[..1].to_vec());
        assert_eq!(recover_many_hinted(&[]), vec![]);
        let raw: Vec<u8> =
            items.iter().flat_map(|(d, s, h)| d.iter().chain(s.iter()).chain(h.iter()).copied()).collect();
        let mut out = vec![7u8; 34 * items.len()];
        unsafe { secp256k1_recover_many_hinted(raw.as_ptr(), items.len(), out.as_mut_ptr()) };
        for (i, v) in single.iter().enumerate() {
            let a = &out[34 * i..34 * (i + 1)];
            match v {
                Ok(key) => assert_eq!((a[0], &a[1..]), (0, &key[..])),
                Err(e) => assert_eq!((a[0], &a[1..]), (*e as u8, &[0u8; 33][..])),
            }
        }
    }

    #[test]
    fn hinted_batches_of_random_signers_and_corruptions() {
        // 3,000 items in groups of random size under random hints, a few corrupted at random
        let mut rng = Rng(32);
        let keys: Vec<U256> = (0..12).map(|_| rng.scalar()).collect();
        let pk: Vec<[u8; 33]> = keys.iter().map(|d| public_key(&u256_to_be(d)).unwrap()).collect();
        let mut items = Vec::new();
        for _ in 0..3000 {
            let who = (rng.next() % 12) as usize;
            let (mut z, mut sig) = signed_by(&mut rng, &keys[who]);
            let roll = rng.next() % 200;
            if roll == 0 {
                z[(rng.next() % 32) as usize] ^= 1 << (rng.next() % 8);
            } else if roll == 1 {
                sig[(rng.next() % 65) as usize] ^= 1 << (rng.next() % 8);
            }
            let mut tag = [who as u8; 33];
            tag[0] = SIGNER_TAG;
            let hint = match rng.next() % 20 {
                0 => pk[(rng.next() % 12) as usize],
                1..=6 => tag,
                _ => pk[who],
            };
            items.push((z, sig, hint));
        }
        let single: Vec<_> = items.iter().map(|(d, s, _)| recover(d, s)).collect();
        assert_eq!(recover_many_hinted(&items), single);
    }
}
