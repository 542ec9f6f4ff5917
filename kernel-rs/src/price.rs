//! The 3-byte limit price (exchange.md §4, consensus.md §7.5, layout of line L).
//!
//! A price is a normalised 16-bit mantissa m (top bit set) and an exponent byte e ≤ 127 whose
//! value is m·2^(e−79) coin E8 per smallest asset unit. Wire/hex form: m big-endian, then e.

use core::cmp::Ordering;

/// A valid limit price: `0x8000 ≤ m` and `e ≤ 127` hold for every value of this type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Price {
    m: u16,
    e: u8,
}

/// Largest asset precision (exchange.md §1.3).
pub const MAX_DECIMALS: u32 = 18;

/// 10^(8−d) for d = 0..=18: scales a coin-per-unit price to the raw price (§4.4 step 2).
/// Literals, so each entry is the double nearest to the power.
const TO_RAW: [f64; 19] =
    [1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 1e2, 1e1, 1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10];

/// 10^(d−8) for d = 0..=18: scales the raw price to coins per whole unit (§4.3). Multiplying by
/// this double (not dividing by 10^(8−d)) is what reproduces the reference's `doubleAdjusted`.
const TO_ADJUSTED: [f64; 19] =
    [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

impl Price {
    /// The price (m, e), or None unless m ≥ 0x8000 and e ≤ 127 (§4.1 validity, our proposal).
    pub fn new(m: u16, e: u8) -> Option<Price> {
        (m >= 0x8000 && e <= 127).then_some(Price { m, e })
    }

    /// Reads the 3 wire bytes: m big-endian, then e.
    pub fn from_bytes(b: [u8; 3]) -> Option<Price> {
        Price::new(u16::from_be_bytes([b[0], b[1]]), b[2])
    }

    pub fn to_bytes(self) -> [u8; 3] {
        let [hi, lo] = self.m.to_be_bytes();
        [hi, lo, self.e]
    }

    pub fn mantissa(self) -> u16 {
        self.m
    }

    /// The raw exponent byte (0..=127); `exponent2` of the API is this minus 79.
    pub fn exponent(self) -> u8 {
        self.e
    }

    /// m·2^(e−79) as a double. Exact: a 16-bit integer times a power of two within 2^−79..2^48.
    pub fn double_raw(self) -> f64 {
        f64::from(self.m) * pow2(i32::from(self.e) - 79)
    }

    /// doubleRaw·10^(d−8): coins per whole asset unit for an asset of `decimals` (§4.3).
    pub fn double_adjusted(self, decimals: u32) -> Option<f64> {
        TO_ADJUSTED.get(decimals as usize).map(|&s| self.double_raw() * s)
    }
}

/// Numeric order: exponent first, then mantissa (§4.1). Not the order of the wire bytes.
impl Ord for Price {
    fn cmp(&self, other: &Price) -> Ordering {
        (self.e, self.m).cmp(&(other.e, other.m))
    }
}

impl PartialOrd for Price {
    fn partial_cmp(&self, other: &Price) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// 2^k as a double for normal exponents (−1022..=1023), built from its bit pattern.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// Why `parse_price` refused its input; the discriminant is the export's status code.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PriceError {
    /// Not a decimal number of the accepted grammar (see `parse_decimal`).
    Syntax = 1,
    /// Decimals outside 0..=18.
    Decimals = 2,
    /// Zero, negative, or overflowing to infinity.
    NotPositive = 3,
    /// The floor or the ceil encoding needs an exponent outside 0..=127.
    Range = 4,
}

/// `/tools/parse_price` (exchange.md §4.4): the decimal price (coins per whole unit) of an asset
/// with `decimals`, as the largest price ≤ it (floor) and the smallest ≥ it (ceil), both on
/// the 16-bit grid of the scaled double.
pub fn parse_price(text: &[u8], decimals: u32) -> Result<(Price, Price), PriceError> {
    let x = parse_decimal(text).ok_or(PriceError::Syntax)?;
    let scale = *TO_RAW.get(decimals as usize).ok_or(PriceError::Decimals)?;
    if !(x.is_finite() && x > 0.0) {
        return Err(PriceError::NotPositive);
    }
    let y = x * scale; // double arithmetic, as the reference does
    if !(y.is_finite() && y > 0.0) {
        // infinity leaves the exponent range; underflow to 0 is below it
        return Err(PriceError::Range);
    }
    let (sig, k) = frexp_bits(y);
    // y = f·2^k with f = sig·2^−53 ∈ [0.5, 1); f·65536 = sig·2^−37, so its floor and fraction are
    // plain integer operations on the 53-bit significand (exactly frexp, multiply, floor).
    let m_floor = sig >> 37;
    let inexact = sig & ((1u64 << 37) - 1) != 0;
    let (mut m_ceil, mut k_ceil) = (m_floor + u64::from(inexact), k);
    if m_ceil == 0x1_0000 {
        // carry: 65536·2^(k−16) = 32768·2^(k+1−16)
        m_ceil = 0x8000;
        k_ceil += 1;
    }
    let make = |m: u64, k: i32| -> Option<Price> {
        let e = u8::try_from(k + 63).ok()?;
        Price::new(m as u16, e)
    };
    match (make(m_floor, k), make(m_ceil, k_ceil)) {
        (Some(f), Some(c)) => Ok((f, c)),
        _ => Err(PriceError::Range),
    }
}

/// frexp of a finite y > 0 as integers: (sig, k) with y = sig·2^(k−53) and 2^52 ≤ sig < 2^53.
fn frexp_bits(y: f64) -> (u64, i32) {
    let bits = y.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if biased != 0 {
        (frac | (1u64 << 52), biased - 1022)
    } else {
        // subnormal: normalise the significand (its exponent then lies far below the range)
        let shift = frac.leading_zeros() as i32 - 11;
        (frac << shift, -1021 - shift)
    }
}

/// Parses the price text as a C `strtod`-style decimal that must span the whole text, matching
/// every answer in vectors/prices.json: `[-] (digits [. digits] | . digits) [(e|E) [+|-] digits]`,
/// correctly rounded to a double ("1e-400" gives 0, "1e400" infinity; both are refused later).
/// Refused here: empty text, a leading '+' ("+1": the reference's `from_chars` refuses it), any
/// whitespace (" 1", "%201"), trailing characters ("1.5.5"),
/// hexadecimal floats (our choice; no vector covers them) and the words inf/infinity/nan
/// (none of which could give a valid price anyway).
pub fn parse_decimal(text: &[u8]) -> Option<f64> {
    let digits = |i: usize| text[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = usize::from(text.first() == Some(&b'-'));
    let int = digits(i);
    i += int;
    let mut frac = 0;
    if text.get(i) == Some(&b'.') {
        i += 1;
        frac = digits(i);
        i += frac;
    }
    if int + frac == 0 {
        return None;
    }
    if matches!(text.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(text.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp = digits(i);
        if exp == 0 {
            return None;
        }
        i += exp;
    }
    if i != text.len() {
        return None;
    }
    // The text is now plain ASCII of that grammar, which Rust's correctly rounded parser accepts.
    core::str::from_utf8(text).ok()?.parse::<f64>().ok()
}

/// Unpacks the (m, e) export arguments; None unless both fit and form a valid price.
fn arg_price(m: u32, e: u32) -> Option<Price> {
    Price::new(u16::try_from(m).ok()?, u8::try_from(e).ok()?)
}

/// Parses `len` bytes of price text at `ptr` for an asset with `decimals`; writes the floor then
/// the ceil price (3 wire bytes each) to `out` (6 bytes). Returns 0 or a `PriceError` code.
///
/// # Safety
/// `ptr..ptr+len` readable and `out..out+6` writable linear memory.
#[no_mangle]
pub unsafe extern "C" fn price_parse(ptr: *const u8, len: usize, decimals: u32, out: *mut u8) -> u32 {
    match parse_price(crate::input(ptr, len), decimals) {
        Ok((floor, ceil)) => {
            let (f, c) = (floor.to_bytes(), ceil.to_bytes());
            crate::output(out, &[f[0], f[1], f[2], c[0], c[1], c[2]]);
            0
        }
        Err(err) => err as u32,
    }
}

/// 1 when (m, e) is a valid price (0x8000 ≤ m ≤ 0xFFFF, e ≤ 127), else 0.
#[no_mangle]
pub extern "C" fn price_is_valid(m: u32, e: u32) -> u32 {
    u32::from(arg_price(m, e).is_some())
}

/// Compares two prices numerically: −1, 0 or 1; 2 when either is invalid.
#[no_mangle]
pub extern "C" fn price_compare(m1: u32, e1: u32, m2: u32, e2: u32) -> i32 {
    match (arg_price(m1, e1), arg_price(m2, e2)) {
        (Some(a), Some(b)) => a.cmp(&b) as i32,
        _ => 2,
    }
}

/// `doubleRaw` of (m, e); NaN when the price is invalid.
#[no_mangle]
pub extern "C" fn price_double_raw(m: u32, e: u32) -> f64 {
    arg_price(m, e).map_or(f64::NAN, Price::double_raw)
}

/// `doubleAdjusted` of (m, e) for `decimals`; NaN when the price or the decimals are invalid.
#[no_mangle]
pub extern "C" fn price_double_adjusted(m: u32, e: u32, decimals: u32) -> f64 {
    arg_price(m, e).and_then(|p| p.double_adjusted(decimals)).unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    // ---- a tiny reader for prices.json: objects, string/number/object values by key ----

    /// Length of the JSON value starting at `s[0]` (string, object or bare number/literal).
    fn value_len(s: &str) -> usize {
        let b = s.as_bytes();
        match b[0] {
            b'"' => 2 + s[1..].find('"').unwrap(),
            b'{' => {
                let mut depth = 0;
                for (i, &c) in b.iter().enumerate() {
                    depth += (c == b'{') as i32 - (c == b'}') as i32;
                    if depth == 0 {
                        return i + 1;
                    }
                }
                panic!("unbalanced")
            }
            _ => s.find([',', '}', ']', '\n', ' ']).unwrap(),
        }
    }

    /// The raw text of member `key` of the object `obj` (strings without quotes).
    fn field<'a>(obj: &'a str, key: &str) -> Option<&'a str> {
        let mut rest = &obj[1..];
        loop {
            rest = rest.trim_start_matches([' ', '\n', ',']);
            if rest.starts_with('}') {
                return None;
            }
            let klen = value_len(rest);
            let k = &rest[1..klen - 1];
            rest = rest[klen..].trim_start_matches([' ', ':']);
            let vlen = value_len(rest);
            let v = &rest[..vlen];
            if k == key {
                return Some(v.strip_prefix('"').map_or(v, |x| &x[..x.len() - 1]));
            }
            rest = &rest[vlen..];
        }
    }

    fn cases() -> Vec<&'static str> {
        let json = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../test/vectors/prices.json"));
        let mut rest = &json[json.find("\"cases\"").unwrap()..];
        rest = &rest[rest.find('[').unwrap() + 1..];
        let mut out = vec![];
        while let Some(at) = rest.find('{') {
            let n = value_len(&rest[at..]);
            out.push(&rest[at..at + n]);
            rest = &rest[at + n..];
        }
        out
    }

    fn hex3(p: Price) -> String {
        p.to_bytes().iter().map(|b| format!("{b:02x}")).collect()
    }

    fn check_view(p: Price, d: u32, v: &str, what: &str) {
        let num = |k| field(v, k).unwrap().parse::<f64>().unwrap();
        assert_eq!(field(v, "hex").unwrap(), hex3(p), "{what} hex");
        assert_eq!(num("mantissa"), f64::from(p.mantissa()), "{what} mantissa");
        assert_eq!(num("exponent2"), f64::from(i32::from(p.exponent()) - 79), "{what} exponent2");
        assert_eq!(num("precExponent10"), 8.0 - f64::from(d), "{what} precExponent10");
        assert_eq!(num("doubleRaw").to_bits(), p.double_raw().to_bits(), "{what} doubleRaw");
        assert_eq!(num("doubleAdjusted").to_bits(), p.double_adjusted(d).unwrap().to_bits(), "{what} doubleAdjusted");
    }

    #[test]
    fn reference_vectors() {
        let cases = cases();
        assert_eq!(cases.len(), 99);
        let (mut ok, mut refused) = (0, 0);
        for c in cases {
            let text = field(c, "price").unwrap();
            let dec_text = field(c, "decimals").unwrap();
            // The route's integer rule: base-10 digits only; anything else is refused before us.
            let dec = if !dec_text.is_empty() && dec_text.bytes().all(|b| b.is_ascii_digit()) {
                dec_text.parse::<u32>().ok()
            } else {
                None
            };
            let got = dec.ok_or(PriceError::Decimals).and_then(|d| parse_price(text.as_bytes(), d));
            if field(c, "error") == Some("true") {
                assert!(got.is_err(), "{text} / {dec_text} should be refused, got {got:?}");
                refused += 1;
                continue;
            }
            let (floor, ceil) = got.unwrap_or_else(|e| panic!("{text} / {dec_text}: {e:?}"));
            let d = dec.unwrap();
            check_view(floor, d, field(c, "floor").unwrap(), &format!("{text}/{d} floor"));
            check_view(ceil, d, field(c, "ceil").unwrap(), &format!("{text}/{d} ceil"));
            ok += 1;
        }
        assert_eq!((ok, refused), (80, 19));
    }

    #[test]
    fn table_4_1_and_example_4_3() {
        let t: [(&str, u16, u8, f64); 6] = [
            ("800040", 0x8000, 64, 1.0),
            ("c00040", 0xC000, 64, 1.5),
            ("a00040", 0xA000, 64, 1.25),
            ("c0003f", 0xC000, 63, 0.75),
            ("800041", 0x8000, 65, 2.0),
            ("c0e74d", 49383, 77, 12345.75),
        ];
        for (hex, m, e, raw) in t {
            let p = Price::new(m, e).unwrap();
            assert_eq!(hex3(p), hex);
            assert_eq!(Price::from_bytes(p.to_bytes()), Some(p));
            assert_eq!(p.double_raw(), raw);
        }
        let p = Price::new(49383, 77).unwrap();
        assert_eq!(p.double_adjusted(4), Some(1.234575)); // §4.3
                                                          // consensus.md §7.5 seed examples
                                                          // Its 0.123455 is the decimal value; the reference's double (raw·1e−5, see TO_ADJUSTED)
                                                          // is the neighbour 0.12345500000000001, which dividing by 1e5 would not give.
        let p = Price::from_bytes([0xc0, 0xe6, 0x4d]).unwrap();
        assert_eq!(p.double_raw(), 12345.5);
        assert_eq!(p.double_adjusted(3), Some(0.12345500000000001));
        assert_ne!(p.double_adjusted(3), Some(0.123455));
        let p = Price::from_bytes([0xfa, 0x00, 0x49]).unwrap();
        assert_eq!((p.double_raw(), p.double_adjusted(4)), (1000.0, Some(0.1)));
    }

    #[test]
    fn validity_and_order() {
        assert!(Price::new(0x7FFF, 64).is_none());
        assert!(Price::new(0x8000, 128).is_none());
        assert!(Price::new(0xFFFF, 127).is_some());
        assert!(Price::new(0x8000, 0).is_some());
        assert_eq!(Price::new(0x8000, 0).unwrap().double_raw(), 2f64.powi(-64)); // §4.1 range
        assert_eq!(Price::new(0xFFFF, 127).unwrap().double_raw(), 65535.0 * 2f64.powi(48));
        assert!(Price::from_bytes([0x7f, 0xff, 0x40]).is_none());
        let a = Price::new(0xFFFF, 63).unwrap();
        let b = Price::new(0x8000, 64).unwrap();
        assert!(a < b && a.double_raw() < b.double_raw()); // wire bytes would order them the other way
        assert_eq!(price_compare(0xFFFF, 63, 0x8000, 64), -1);
        assert_eq!(price_compare(0x8000, 64, 0x8000, 64), 0);
        assert_eq!(price_compare(0x8001, 64, 0x8000, 64), 1);
        assert_eq!(price_compare(0x7FFF, 64, 0x8000, 64), 2);
        assert_eq!(price_compare(0x1_8000, 64, 0x8000, 64), 2);
        assert_eq!(price_is_valid(0x8000, 127), 1);
        assert_eq!(price_is_valid(0x8000, 0x100 + 64), 0);
        assert!(price_double_raw(1, 1).is_nan());
        assert!(price_double_adjusted(0x8000, 64, 19).is_nan());
        assert_eq!(price_double_adjusted(0x8000, 64, 8), 1.0);
        // order equals numeric order over the whole space (sampled)
        let mut prev: Option<Price> = None;
        for e in 0..=127u8 {
            for m in (0x8000..=0xFFFFu16).step_by(251).chain([0xFFFF]) {
                let p = Price::new(m, e).unwrap();
                if let Some(q) = prev {
                    assert!(q < p && q.double_raw() < p.double_raw());
                }
                prev = Some(p);
            }
        }
    }

    #[test]
    fn grammar() {
        let ok = ["1", "1.", ".5", "1e5", "1E5", "1e+5", "1e-15", "0001.50", "-1"];
        for t in ok {
            assert!(parse_decimal(t.as_bytes()).is_some(), "{t}");
        }
        let bad = [
            "", ".", "+", "-", "+1", "+.5", "e5", "1e", "1e+", "1.5.5", " 1", "1 ", "%201", "0x10", "0x1p3", "inf",
            "Infinity", "nan", "NaN", "1,5", "1_000", "abc", "1e5x", "١",
        ];
        for t in bad {
            assert!(parse_decimal(t.as_bytes()).is_none(), "{t}");
        }
        assert_eq!(parse_decimal(b"1e-400"), Some(0.0));
        assert_eq!(parse_decimal(b"1e400"), Some(f64::INFINITY));
        assert_eq!(parse_price(b"-1", 4), Err(PriceError::NotPositive));
        assert_eq!(parse_price(b"-0", 4), Err(PriceError::NotPositive));
        assert_eq!(parse_price(b"0", 4), Err(PriceError::NotPositive));
        assert_eq!(parse_price(b"1e-400", 4), Err(PriceError::NotPositive));
        assert_eq!(parse_price(b"1e400", 4), Err(PriceError::NotPositive));
        assert_eq!(parse_price(b"1.7976931348623157e308", 4), Err(PriceError::Range));
        assert_eq!(parse_price(b"5e-324", 18), Err(PriceError::Range));
        assert_eq!(parse_price(b"5e-324", 0), Err(PriceError::Range));
        assert_eq!(parse_price(b"1", 19), Err(PriceError::Decimals));
        assert_eq!(parse_price(b"nan", 4), Err(PriceError::Syntax));
        // same double, same answer: the text form does not matter
        assert_eq!(parse_price(b"12345.5", 8), parse_price(b"1.23455e4", 8));
        assert_eq!(parse_price(b"+1", 4), Err(PriceError::Syntax));
    }

    #[test]
    fn floor_ceil_and_carry() {
        // exact grid values: floor == ceil
        let (f, c) = parse_price(b"1", 8).unwrap();
        assert_eq!((f, c), (Price::new(0x8000, 64).unwrap(), Price::new(0x8000, 64).unwrap()));
        // just below a power of two: the ceil mantissa carries into the exponent
        let below_two = f64::from_bits(2f64.to_bits() - 1); // 2 − 2^−52
        let (f, c) = parse_price(format!("{below_two:e}").as_bytes(), 8).unwrap();
        assert_eq!((f.mantissa(), f.exponent()), (0xFFFF, 64));
        assert_eq!((c.mantissa(), c.exponent()), (0x8000, 65));
        // range ends: 2^−64 is the smallest price, (2^16−1)·2^48 the largest
        let (f, _) = parse_price(format!("{:e}", 2f64.powi(-64)).as_bytes(), 8).unwrap();
        assert_eq!((f.mantissa(), f.exponent()), (0x8000, 0));
        let below_min = f64::from_bits(2f64.powi(-64).to_bits() - 1);
        assert_eq!(parse_price(format!("{below_min:e}").as_bytes(), 8), Err(PriceError::Range));
        let max = 65535.0 * 2f64.powi(48);
        let (f, c) = parse_price(format!("{max:e}").as_bytes(), 8).unwrap();
        assert_eq!((f, c), (Price::new(0xFFFF, 127).unwrap(), Price::new(0xFFFF, 127).unwrap()));
        // a little above the maximum: the floor exists but the ceil would need e = 128
        let above = f64::from_bits(max.to_bits() + 1);
        assert_eq!(parse_price(format!("{above:e}").as_bytes(), 8), Err(PriceError::Range));
        assert_eq!(parse_price(b"1e20", 8), Err(PriceError::Range));
    }

    #[test]
    fn export_parse() {
        let mut out = [0u8; 6];
        let s = b"12345.5";
        assert_eq!(unsafe { price_parse(s.as_ptr(), s.len(), 8, out.as_mut_ptr()) }, 0);
        assert_eq!(out, [0xc0, 0xe6, 0x4d, 0xc0, 0xe6, 0x4d]);
        assert_eq!(unsafe { price_parse(s.as_ptr(), s.len(), 0, out.as_mut_ptr()) }, 0);
        assert_eq!(out, [0x8f, 0xb8, 0x68, 0x8f, 0xb9, 0x68]);
        assert_eq!(unsafe { price_parse(core::ptr::null(), 0, 8, out.as_mut_ptr()) }, 1);
        assert_eq!(unsafe { price_parse(s.as_ptr(), s.len(), 99, out.as_mut_ptr()) }, 2);
    }
}
