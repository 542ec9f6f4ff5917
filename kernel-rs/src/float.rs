//! The janushash custom float (spec §3.3–§3.6): sign, 32-bit exponent, 32-bit mantissa with the
//! top bit set, value m·2^(e−32). Every operation is the exact integer rule of the spec
//! (truncating, no rounding) because accept/reject decisions near a target depend on the last
//! bit; IEEE doubles are used only to report a finished value (`to_f64`).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CFloat {
    pub neg: bool,
    pub e: i32,
    /// 0 means zero; otherwise 2^31 ≤ m < 2^32.
    pub m: u32,
}

pub const ZERO: CFloat = CFloat { neg: false, e: 0, m: 0 };

/// Positive constant (e, m).
pub const fn pos(e: i32, m: u32) -> CFloat {
    CFloat { neg: false, e, m }
}
const fn negc(e: i32, m: u32) -> CFloat {
    CFloat { neg: true, e, m }
}

/// φ ≈ 0.7, the janushash exponent (§3.1).
pub const PHI: CFloat = pos(0, 3_006_477_107);

// Log and exp polynomial coefficients of §3.6.
const C0: CFloat = pos(1, 2_872_373_668);
const C1: CFloat = negc(3, 2_377_545_675);
const C2: CFloat = pos(3, 3_384_280_813);
const C3: CFloat = negc(2, 3_451_338_727);
const D0: CFloat = pos(-3, 3_207_796_260);
const D1: CFloat = pos(-2, 3_510_493_713);
const D2: CFloat = pos(0, 3_014_961_390);
const D3: CFloat = pos(1, 2_147_933_481);

/// Up(e, m) of §3.3 for m ≥ 1: shift left until the top bit is set.
#[inline]
fn up(neg: bool, e: i32, m: u32) -> CFloat {
    debug_assert!(m != 0);
    let s = m.leading_zeros();
    CFloat { neg, e: e.wrapping_sub(s as i32), m: m << s }
}

/// Down(e, m) of §3.3 for m ≥ 2^31 (possibly ≥ 2^32): shift right until it fits 32 bits.
#[inline]
fn down(neg: bool, e: i32, m: u64) -> CFloat {
    let s = 32u32.saturating_sub(m.leading_zeros());
    CFloat { neg, e: e.wrapping_add(s as i32), m: (m >> s) as u32 }
}

impl CFloat {
    pub fn is_zero(self) -> bool {
        self.m == 0
    }

    /// from_int (§3.5).
    pub fn from_int(i: i32) -> CFloat {
        if i == 0 {
            ZERO
        } else {
            up(i < 0, 32, i.unsigned_abs())
        }
    }

    /// F(h) of §3.4: the hash as a big-endian fraction padded with 1 bits; normalization shifts
    /// in zeros, it does not pull more hash bits.
    pub fn from_hash(h: &[u8; 32]) -> CFloat {
        let k = h.iter().take_while(|&&b| b == 0).count();
        let byte = |i: usize| if i < 32 { h[i] } else { 0xff };
        let m = u32::from_be_bytes([byte(k), byte(k + 1), byte(k + 2), byte(k + 3)]);
        up(false, -8 * k as i32, m)
    }

    /// a < b of §3.5, defined for positive values with e ≤ 0 (exponent first, then mantissa).
    pub fn lt(self, b: CFloat) -> bool {
        if self.e != b.e {
            self.e < b.e
        } else {
            self.m < b.m
        }
    }

    /// log2 of a positive non-zero value (§3.6): exponent plus a cubic in the mantissa.
    pub fn log2(self) -> CFloat {
        let y = pos(0, self.m);
        // Lp(y) = c3 + y·(c2 + y·(c1 + y·c0))
        let lp = C3 + y * (C2 + y * (C1 + y * C0));
        CFloat::from_int(self.e) + lp
    }

    /// 2^x (§3.6) with the exponent rules reproduced literally.
    pub fn pow2(self) -> CFloat {
        if self.is_zero() {
            return CFloat::from_int(1);
        }
        let (e, m) = (self.e, self.m as u64);
        if e > 0 {
            // Integer part I and fraction bits of |x|. e ≤ 31 in practice; larger e saturates
            // harmlessly (no panic), it never occurs for hash inputs (|log2| ≤ 256·φ).
            let sh = e.min(63) as u32;
            let i = (m.checked_shr(32 - sh.min(32)).unwrap_or(0)) as i32;
            let fm = (m << sh.min(32)) as u32;
            if fm == 0 {
                let ex = if self.neg { 1i32.wrapping_sub(i) } else { i.wrapping_add(1) };
                return pos(ex, 1 << 31);
            }
            let frac = up(false, 0, fm);
            if !self.neg {
                let r = ep(frac);
                CFloat { e: r.e.wrapping_add(i), ..r }
            } else {
                let r = ep(CFloat::from_int(1) - frac);
                CFloat { e: r.e.wrapping_add(i).wrapping_sub(1).wrapping_neg(), ..r }
            }
        } else if !self.neg {
            ep(self)
        } else {
            let r = ep(CFloat::from_int(1) + self);
            CFloat { e: 1i32.wrapping_sub(r.e), ..r }
        }
    }

    /// base^y = pow2(y · log2(base)) (§3.6).
    pub fn pow(self, y: CFloat) -> CFloat {
        (y * self.log2()).pow2()
    }

    /// The exact value m·2^(e−32) as a double (m has 32 bits, so only range can be lost).
    pub fn to_f64(self) -> f64 {
        if self.is_zero() {
            return 0.0;
        }
        let v = ldexp(self.m as f64, self.e as i64 - 32);
        if self.neg {
            -v
        } else {
            v
        }
    }
}

/// Truncating product (§3.5).
impl core::ops::Mul for CFloat {
    type Output = CFloat;
    fn mul(self, b: CFloat) -> CFloat {
        if self.is_zero() || b.is_zero() {
            return ZERO;
        }
        let mut p = (self.m as u64) * (b.m as u64);
        let mut e = self.e.wrapping_add(b.e);
        if p < 1 << 63 {
            p <<= 1;
            e = e.wrapping_sub(1);
        }
        CFloat { neg: self.neg != b.neg, e, m: (p >> 32) as u32 }
    }
}

/// Sum (§3.5): align the smaller exponent by a truncating shift, then renormalize.
impl core::ops::Add for CFloat {
    type Output = CFloat;
    fn add(self, b: CFloat) -> CFloat {
        if self.is_zero() {
            return b;
        }
        if b.is_zero() {
            return self;
        }
        let (x, y) = if self.e >= b.e { (self, b) } else { (b, self) };
        let d = (x.e as i64) - (y.e as i64);
        if d >= 64 {
            return x;
        }
        let t = x.m as u64;
        let u = (y.m as u64) >> d;
        if x.neg == y.neg {
            down(x.neg, x.e, t + u)
        } else if u == t {
            ZERO
        } else if u > t {
            up(y.neg, y.e, (u - t) as u32)
        } else {
            up(x.neg, x.e, (t - u) as u32)
        }
    }
}

impl core::ops::Neg for CFloat {
    type Output = CFloat;
    fn neg(self) -> CFloat {
        CFloat { neg: !self.neg, ..self }
    }
}

/// a − b = a + (−b).
impl core::ops::Sub for CFloat {
    type Output = CFloat;
    fn sub(self, b: CFloat) -> CFloat {
        self + -b
    }
}

/// Ep(f) = d3 + f·(d2 + f·(d1 + f·d0)) (§3.6).
fn ep(f: CFloat) -> CFloat {
    D3 + f * (D2 + f * (D1 + f * D0))
}

/// x·2^n by exact power-of-two multiplications (steps stay within the normal range).
fn ldexp(mut x: f64, mut n: i64) -> f64 {
    let p2 = |k: i64| f64::from_bits(((k + 1023) as u64) << 52);
    while n > 1000 {
        x *= p2(1000);
        n -= 1000;
        if x.is_infinite() {
            return x;
        }
    }
    while n < -1000 {
        x *= p2(-1000);
        n += 1000;
        if x == 0.0 {
            return x;
        }
    }
    x * p2(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unhex32(s: &str) -> [u8; 32] {
        let v: Vec<u8> = (0..32).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect();
        v.try_into().unwrap()
    }

    #[test]
    fn from_int_and_hash() {
        assert_eq!(CFloat::from_int(1), pos(1, 1 << 31));
        assert_eq!(CFloat::from_int(-3), negc(2, 3 << 30));
        // §3.4 example.
        let f = CFloat::from_hash(&unhex32("0000000000b069112cc0caf14507169f6adf1e5278a2ef286cddc89f1162d7ca"));
        assert_eq!(f, pos(-40, 2_959_675_692));
        assert_eq!(f.to_f64(), 6.267357060779177e-13);
        // All-zero hash: k = 32, M = 0xFFFFFFFF; padding with ones.
        assert_eq!(CFloat::from_hash(&[0; 32]), pos(-256, u32::MAX));
        // Near the end: only 2 real bytes left after the zero run.
        let mut h = [0u8; 32];
        h[30] = 1;
        assert_eq!(CFloat::from_hash(&h), up(false, -240, 0x0100ffff));
    }

    #[test]
    fn section_11_2_intermediates() {
        let fs = CFloat::from_hash(&unhex32("02a507400db273886cd1bdc61e05bc4bde6978d74ce6e48d33a46fa705c59ae1"));
        assert_eq!(fs, pos(-6, 2_839_662_592));
        assert_eq!(fs.to_f64(), 0.010330632328987122);
        let l = fs.log2();
        assert_eq!(l, negc(3, 3_541_106_323));
        let pl = PHI * l;
        assert_eq!(pl, negc(3, 2_478_774_425));
        let pw = pl.pow2();
        assert_eq!(pw, pos(-4, 2_800_782_137));
        assert_eq!(pw.to_f64(), 0.040756744230748154);
        assert_eq!(fs.pow(PHI), pw);
        let fv = pos(-40, 2_959_675_692);
        let prod = fv * pw;
        assert_eq!(prod, pos(-45, 3_860_055_845));
        assert_eq!(prod.to_f64(), 2.554370686684796e-14);
    }

    #[test]
    fn arithmetic_rules() {
        let one = CFloat::from_int(1);
        assert_eq!(one - one, ZERO);
        assert_eq!(one + one, pos(2, 1 << 31));
        assert_eq!(CFloat::from_int(3) - CFloat::from_int(5), CFloat::from_int(-2));
        assert_eq!(pos(100, 1 << 31) + pos(30, 1 << 31), pos(100, 1 << 31)); // d ≥ 64
        assert_eq!(pos(0, 1 << 31) * pos(0, 1 << 31), pos(-1, 1 << 31)); // 0.5·0.5
        assert_eq!(ZERO.pow2(), one);
        // Exact integers: pow2(±3) = 2^±3 through the Fm = 0 branch.
        assert_eq!(CFloat::from_int(3).pow2().to_f64(), 8.0);
        assert_eq!(CFloat::from_int(-3).pow2().to_f64(), 0.125);
        assert!(pos(-5, 1 << 31).lt(pos(-4, 1 << 31)));
        assert!(!pos(-4, 1 << 31).lt(pos(-4, 1 << 31)));
        assert_eq!(ldexp(1.0, -1074), f64::from_bits(1));
    }

    #[test]
    fn pow2_approximates() {
        for &x in &[-7.3f64, -1.0, -0.6, -0.01, 0.01, 0.5, 0.99, 1.5, 5.25] {
            // Build x as a custom float from a scaled integer, compare against 2^x loosely.
            let cf = CFloat::from_int((x * 65536.0) as i32) * pos(-15, 1 << 31);
            let got = cf.pow2().to_f64();
            assert!((got / 2f64.powf(cf.to_f64()) - 1.0).abs() < 1e-3, "x={x} got={got}");
        }
    }
}
