//! The 16-bit compact fee codec (consensus.md §7.4, http-api-details.md §4.5 and §9.4).
//!
//! A code is 6 exponent bits over 10 mantissa bits with an implicit leading one, so a decoded fee
//! is an 11-bit mantissa shifted by (exponent − 10). Small exponents shift right, which is why
//! code 0x0000 decodes to 1 and several small codes share a value; every code is accepted.

/// How `encode` treats a value that is not on the grid.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rounding {
    /// Largest representable value ≤ input: the reference `/tools/encode16bit` (§9.4).
    Down,
    /// Smallest representable value ≥ input, capped at 0xFFFF: `--minfee` and the minfee setting.
    Up,
    /// Nearer of `Down` and `Up`, the larger one on a tie: the contract's `/tools/encode16bit`.
    Closest,
}

/// The largest decodable fee, 2047·2^53 E8 (code 0xFFFF).
pub const MAX_FEE: u64 = 2047 << 53;

/// Decoded fee of a code: m·2^(e−10) with m = 1024 + low 10 bits, floored when e < 10.
pub fn decode(code: u16) -> u64 {
    let e = u32::from(code >> 10);
    let m = u64::from(code & 0x3FF) | 0x400;
    if e < 10 {
        m >> (10 - e)
    } else {
        m << (e - 10)
    }
}

/// Encodes `value` (E8). 0 maps to 0x0000 (which decodes to 1) in every mode.
pub fn encode(value: u64, rounding: Rounding) -> u16 {
    match rounding {
        Rounding::Down => encode_directed(value, false),
        Rounding::Up => encode_directed(value, true),
        Rounding::Closest => {
            let (lo, hi) = (encode_directed(value, false), encode_directed(value, true));
            // decode(lo) can exceed value only for value 0, and decode(hi) be below it only past
            // MAX_FEE; in both cases lo == hi, so abs_diff is just a distance here.
            if value.abs_diff(decode(lo)) < value.abs_diff(decode(hi)) {
                lo
            } else {
                hi
            }
        }
    }
}

/// Round down or up (§7.4 steps 1–5): keep the 11 leading bits of the value, remember whether
/// a set bit was dropped, and on rounding up add one unit, carrying into the exponent.
fn encode_directed(value: u64, up: bool) -> u16 {
    if value == 0 {
        return 0;
    }
    let bits = 64 - value.leading_zeros(); // 1..=64
    let (mut f, mut e) = if bits > 11 {
        let drop = bits - 11;
        let inexact = value & ((1u64 << drop) - 1) != 0;
        let mut f = value >> drop;
        if up && inexact {
            f += 1;
        }
        (f, 10 + drop)
    } else {
        // Short values are shifted left to normalise; nothing is dropped.
        (value << (11 - bits), bits - 1)
    };
    if f > 0x7FF {
        // Carry out of the 11-bit mantissa after rounding up: 0x800 becomes 0x400 one exponent up.
        f >>= 1;
        e += 1;
        // The exponent field has 6 bits; a value above MAX_FEE has no code ≥ it, so it is capped.
        if e > 63 {
            return 0xFFFF;
        }
    }
    ((e << 10) as u16) | (f as u16 & 0x3FF)
}

/// True when the value is exactly on the grid (what `POST /transaction/add` requires, §7.4).
/// 0 is not: its code decodes to 1.
pub fn is_exact(value: u64) -> bool {
    decode(encode(value, Rounding::Down)) == value
}

/// Decoded fee of a 16-bit code; 0 (never a decoded fee) when `code` does not fit in 16 bits.
#[no_mangle]
pub extern "C" fn fee16_decode(code: u32) -> u64 {
    match u16::try_from(code) {
        Ok(c) => decode(c),
        Err(_) => 0,
    }
}

/// Encodes a u64 fee (passed as i64 bits). `mode` 0 = down, 1 = up, 2 = closest.
/// Returns the code, or 0xFFFF_FFFF for an unknown mode.
#[no_mangle]
pub extern "C" fn fee16_encode(value: u64, mode: u32) -> u32 {
    let rounding = match mode {
        0 => Rounding::Down,
        1 => Rounding::Up,
        2 => Rounding::Closest,
        _ => return u32::MAX,
    };
    u32::from(encode(value, rounding))
}

/// 1 when the u64 fee is exactly representable, else 0.
#[no_mangle]
pub extern "C" fn fee16_is_exact(value: u64) -> u32 {
    u32::from(is_exact(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Minimal reader for the flat objects of fee16.json: the unsigned number after `"key":`.
    fn num(obj: &str, key: &str) -> u64 {
        let pat = format!("\"{key}\":");
        let at = obj.find(&pat).unwrap_or_else(|| panic!("{key} missing in {obj}")) + pat.len();
        let digits: String = obj[at..].trim_start().chars().take_while(char::is_ascii_digit).collect();
        digits.parse().unwrap()
    }

    fn cases() -> Vec<(u64, u64, u16)> {
        let json = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../test/vectors/fee16.json"));
        let body = &json[json.find("\"cases\"").unwrap()..];
        body.split('{').skip(1).map(|o| (num(o, "inputE8"), num(o, "roundedDownE8"), num(o, "code16") as u16)).collect()
    }

    #[test]
    fn reference_vectors() {
        let cases = cases();
        assert_eq!(cases.len(), 149);
        for (input, rounded, code) in cases {
            assert_eq!(encode(input, Rounding::Down), code, "encodeDown({input})");
            assert_eq!(decode(code), rounded, "decode({code:#x})");
            assert_eq!(fee16_encode(input, 0), u32::from(code));
            assert_eq!(fee16_decode(u32::from(code)), rounded);
            assert_eq!(is_exact(input), input == rounded, "is_exact({input})");
        }
    }

    #[test]
    fn spec_table_11_8() {
        // (E8 in, down code, down value, up code, up value)
        let table: [(u64, u16, u64, u16, u64); 9] = [
            (0, 0x0000, 1, 0x0000, 1),
            (1, 0x0000, 1, 0x0000, 1),
            (1_023, 0x27FE, 1_023, 0x27FE, 1_023),
            (1_024, 0x2800, 1_024, 0x2800, 1_024),
            (2_049, 0x2C00, 2_048, 0x2C01, 2_050),
            (5_002, 0x30E2, 5_000, 0x30E3, 5_004),
            (9_992, 0x34E1, 9_992, 0x34E1, 9_992),
            (100_000, 0x421A, 99_968, 0x421B, 100_032),
            (1_000_448, 0x4FA2, 1_000_448, 0x4FA2, 1_000_448),
        ];
        for (v, dc, dv, uc, uv) in table {
            assert_eq!(encode(v, Rounding::Down), dc, "down {v}");
            assert_eq!(decode(dc), dv);
            assert_eq!(encode(v, Rounding::Up), uc, "up {v}");
            assert_eq!(decode(uc), uv);
        }
        assert_eq!(decode(0xFFFF), 18_437_736_874_454_810_624);
        assert_eq!(decode(0xFFFF), MAX_FEE);
    }

    #[test]
    fn closest_and_ties() {
        let c = |v| decode(encode(v, Rounding::Closest));
        assert_eq!(c(0), 1);
        assert_eq!(c(1), 1);
        assert_eq!(c(2_047), 2_047);
        assert_eq!(c(2_049), 2_050); // tie 2048 / 2050 → larger
        assert_eq!(c(2_051), 2_052); // tie 2050 / 2052 → larger
        assert_eq!(c(4_097), 4_096); // 4096 / 4100: nearer below
        assert_eq!(c(4_099), 4_100); // nearer above
        assert_eq!(c(4_098), 4_100); // tie
        assert_eq!(c(5_001), 5_000);
        assert_eq!(c(5_002), 5_004); // tie 5000 / 5004
        assert_eq!(c(5_003), 5_004);
        assert_eq!(c(100_000), 100_032); // tie 99,968 / 100,032
        assert_eq!(c(99_999), 99_968);
        assert_eq!(c(100_001), 100_032);
        assert_eq!(c(1_000_448), 1_000_448);
        assert_eq!(encode(u64::MAX, Rounding::Closest), 0xFFFF);
        assert_eq!(encode(MAX_FEE + 1, Rounding::Closest), 0xFFFF);
        assert_eq!(fee16_encode(100_000, 2), 0x421B);
    }

    #[test]
    fn cap_and_carry() {
        // Above the largest fee there is no code ≥ the value: rounding up is capped at 0xFFFF.
        assert_eq!(encode(u64::MAX, Rounding::Up), 0xFFFF);
        assert_eq!(encode(MAX_FEE + 1, Rounding::Up), 0xFFFF);
        assert_eq!(encode(MAX_FEE, Rounding::Up), 0xFFFF);
        assert_eq!(encode(u64::MAX, Rounding::Down), 0xFFFF);
        // A carry below the top stays exact: 2047·2^44 + 1 rounds up to 2^55.
        let v = (2047u64 << 44) + 1;
        assert_eq!(decode(encode(v, Rounding::Up)), 1 << 55);
        assert_eq!(decode(encode(2_047 * 2 + 1, Rounding::Up)), 4_096);
    }

    #[test]
    fn whole_code_space() {
        // Decoding is monotone in the code, and exactly 9,217 codes are non-canonical (§7.4).
        let mut non_canonical = 0;
        for c in 0..=0xFFFFu16 {
            let v = decode(c);
            if c > 0 {
                assert!(decode(c - 1) <= v);
            }
            let back = encode(v, Rounding::Down);
            assert_eq!(decode(back), v);
            assert_eq!(encode(v, Rounding::Up), back);
            assert!(is_exact(v));
            if back != c {
                non_canonical += 1;
            }
        }
        assert_eq!(non_canonical, 9_217);
    }

    #[test]
    fn directed_rounding_against_the_grid() {
        // The grid of distinct decoded values (decode is monotone in the code).
        let mut grid: Vec<u64> = (0..=0xFFFFu16).map(decode).collect();
        grid.dedup();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15; // xorshift: values spread over the whole u64 range
        for i in 0..300_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = if i < 5_000 { u64::from(i) } else { x >> (x % 64) };
            let pos = grid.partition_point(|&g| g <= v); // grid[pos-1] ≤ v < grid[pos]
            let want_down = if pos == 0 { grid[0] } else { grid[pos - 1] };
            let want_up = if pos > 0 && grid[pos - 1] == v { v } else { *grid.get(pos).unwrap_or(&MAX_FEE) };
            let (dl, dh) = (decode(encode(v, Rounding::Down)), decode(encode(v, Rounding::Up)));
            assert_eq!(dl, want_down, "down {v}");
            assert_eq!(dh, want_up, "up {v}");
            let want_closest = if v.abs_diff(dl) < v.abs_diff(dh) { dl } else { dh };
            assert_eq!(decode(encode(v, Rounding::Closest)), want_closest, "closest {v}");
        }
    }

    #[test]
    fn bad_mode_and_code() {
        assert_eq!(fee16_encode(5, 3), u32::MAX);
        assert_eq!(fee16_decode(0x1_0000), 0);
        assert_eq!(fee16_is_exact(0), 0);
        assert_eq!(fee16_is_exact(1), 1);
        assert_eq!(fee16_is_exact(5_002), 0);
    }
}
