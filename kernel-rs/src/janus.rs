//! Proof of work (spec §3): the Original SHA256d test against a TargetV1 (§2.4, §3.2), the
//! Janus1..Janus8 tests against a TargetV2 (§3.1, §3.7), and the janushash number the API
//! reports (§3.8). The kernel stays pure: the caller maps network and height to a PoW version.

use crate::float::{pos, CFloat, PHI};
use crate::sha256::{sha256d, sha256t};
use crate::verus::verushash;

/// PoW version numbers of the exports: 0 = Original, 1..8 = Janus1..Janus8.
pub const POW_ORIGINAL: u32 = 0;
pub const POW_JANUS8: u32 = 8;

// Extra Janus conditions (§3.1), custom floats (e, m).
const C3: CFloat = pos(-30, 3_496_838_790);
const C4: CFloat = pos(-33, 3_785_965_345);
const C5: CFloat = pos(-9, 3_306_097_748);
const C6: CFloat = pos(-7, 2_748_779_069);

/// Header version field (bytes 68..72, big-endian, §2.1).
fn header_version(h: &[u8; 80]) -> u32 {
    u32::from_be_bytes([h[68], h[69], h[70], h[71]])
}

/// Compact target (bytes 32..36, big-endian, §2.1).
fn target_bits(h: &[u8; 80]) -> u32 {
    u32::from_be_bytes([h[32], h[33], h[34], h[35]])
}

/// Original PoW (§3.2): SHA256d read as a little-endian integer H; valid iff z ≤ 224, the
/// mantissa's top bit (23) is set and H ≤ b·2^(232−z).
fn original_ok(h: &[u8; 80]) -> bool {
    let d = target_bits(h);
    let z = d >> 24;
    let b = d & 0x00ff_ffff;
    if z > 224 || b & 0x0080_0000 == 0 {
        return false;
    }
    let hash = sha256d(h);
    let limb = |i: usize| u64::from_le_bytes(hash[8 * i..8 * i + 8].try_into().unwrap());
    // Threshold b << s as four 64-bit limbs (s ≤ 232 and b < 2^24, so it fits 256 bits).
    let s = 232 - z;
    let mut t = [0u64; 4];
    let v = (b as u128) << (s % 64);
    let idx = (s / 64) as usize;
    t[idx] = v as u64;
    if idx + 1 < 4 {
        t[idx + 1] = (v >> 64) as u64;
    }
    for i in (0..4).rev() {
        let hi = limb(i);
        if hi != t[i] {
            return hi < t[i];
        }
    }
    true // equal: H ≤ threshold
}

/// P < T for a TargetV2 (§3.7): compare by exponent, then mantissa against b·1024.
fn below_target_v2(p: CFloat, d: u32) -> bool {
    let z = (d >> 22) as i64;
    let b = (d & 0x003f_ffff) as u64;
    if p.is_zero() {
        return b != 0;
    }
    if p.e > 0 {
        return false; // P ≥ 1 > T
    }
    let zp = -(p.e as i64);
    if zp != z {
        zp > z
    } else {
        (p.m as u64) < b * 1024
    }
}

/// F(V)·pow(s, φ), the Janus2+ product.
fn product(fv: CFloat, s: CFloat) -> CFloat {
    fv * s.pow(PHI)
}

/// Janus1..Janus8 acceptance (§3.1). `version` must be 1..=8.
fn janus_ok(h: &[u8; 80], version: u32) -> bool {
    let t = target_bits(h);
    let fs = CFloat::from_hash(&sha256t(h));
    // Janus5, 7, 8 reject a small F(S) outright: decide that before the costly VerusHash.
    if (version == 7 || version == 8) && fs.lt(C6) || version == 5 && fs.lt(C5) {
        return false;
    }
    let v = verushash(h, version == 8);
    let fv = CFloat::from_hash(&v);
    match version {
        1 => v[0] == 0 && below_target_v2(fv * fs, t),
        2 => v[0] == 0 && below_target_v2(product(fv, fs), t),
        3 => v[0] == 0 && below_target_v2(product(fv, fs), t) && fv.lt(C3),
        4 | 5 => v[0] == 0 && below_target_v2(product(fv, fs), t) && fv.lt(C4),
        6 => below_target_v2(product(fv, if fs.lt(C6) { C6 } else { fs }), t),
        _ => below_target_v2(product(fv, fs), t), // 7, 8 (the C6 test is done above)
    }
}

/// Proof-of-work test: `Some(accepted)`, or `None` for an unknown PoW version.
pub fn check_pow(h: &[u8; 80], version: u32) -> Option<bool> {
    match version {
        POW_ORIGINAL => Some(original_ok(h)),
        1..=POW_JANUS8 => Some(janus_ok(h, version)),
        _ => None,
    }
}

/// The janushash number of §3.8 (the miners' helper, not an acceptance rule): VerusHash v2.1
/// when the header version field is 2, else v2.2; 1.0 if F(S) < C6, else F(V)·pow(F(S), φ).
pub fn janushash(h: &[u8; 80]) -> f64 {
    let fs = CFloat::from_hash(&sha256t(h));
    if fs.lt(C6) {
        return 1.0;
    }
    let fv = CFloat::from_hash(&verushash(h, header_version(h) != 2));
    product(fv, fs).to_f64()
}

/// The API's header `pow` values (§3.8): VerusHash (v2.2 if `v22`), SHA256t and their floats.
pub struct PowInfo {
    pub hash_verus: [u8; 32],
    pub hash_sha256t: [u8; 32],
    pub float_verus: f64,
    pub float_sha256t: f64,
}

pub fn pow_info_of(h: &[u8; 80], v22: bool) -> PowInfo {
    let hash_verus = verushash(h, v22);
    let hash_sha256t = sha256t(h);
    PowInfo {
        float_verus: CFloat::from_hash(&hash_verus).to_f64(),
        float_sha256t: CFloat::from_hash(&hash_sha256t).to_f64(),
        hash_verus,
        hash_sha256t,
    }
}

/// # Safety
/// `p..p+80` readable (unless null).
unsafe fn header<'a>(p: *const u8) -> Option<&'a [u8; 80]> {
    if p.is_null() {
        None
    } else {
        Some(&*(p as *const [u8; 80]))
    }
}

/// Janushash number of an 80-byte header; NaN for a null pointer.
///
/// # Safety
/// `header_ptr..+80` readable.
#[no_mangle]
pub unsafe extern "C" fn janushash_number(header_ptr: *const u8) -> f64 {
    match header(header_ptr) {
        Some(h) => janushash(h),
        None => f64::NAN,
    }
}

/// 1 accept, 0 reject, -1 unknown PoW version, -2 null pointer.
///
/// # Safety
/// `header_ptr..+80` readable.
#[no_mangle]
pub unsafe extern "C" fn pow_check(header_ptr: *const u8, pow_version: u32) -> i32 {
    let Some(h) = header(header_ptr) else {
        return -2;
    };
    match check_pow(h, pow_version) {
        Some(true) => 1,
        Some(false) => 0,
        None => -1,
    }
}

/// Writes verus (32) ‖ sha256t (32) ‖ floatVerus f64 LE (8) ‖ floatSha256t f64 LE (8) to
/// `out_ptr` (80 bytes). 0 ok, -2 null pointer.
///
/// # Safety
/// `header_ptr..+80` readable, `out_ptr..+80` writable.
#[no_mangle]
pub unsafe extern "C" fn pow_info(header_ptr: *const u8, v22: u32, out_ptr: *mut u8) -> i32 {
    let Some(h) = header(header_ptr) else {
        return -2;
    };
    if out_ptr.is_null() {
        return -2;
    }
    let i = pow_info_of(h, v22 != 0);
    let mut out = [0u8; 80];
    out[..32].copy_from_slice(&i.hash_verus);
    out[32..64].copy_from_slice(&i.hash_sha256t);
    out[64..72].copy_from_slice(&i.float_verus.to_le_bytes());
    out[72..80].copy_from_slice(&i.float_sha256t.to_le_bytes());
    crate::output(out_ptr, &out);
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sha256::sha256;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{:02x}", x)).collect()
    }
    fn hdr(s: &str) -> [u8; 80] {
        let v: Vec<u8> = (0..80).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect();
        v.try_into().unwrap()
    }
    fn cf(h: &[u8; 32]) -> CFloat {
        CFloat::from_hash(h)
    }

    const H11_2: &str = "05b42d206f8a4b2b8094199fd28423151af8aa54a5073ac6e6805f42096dc3a20ae7cde7f3c41bf363fe94eb448bf924f791f77c22a2ebd6a3a5d8948f8aff019f072bea0000000366f2fefb2719fef5";
    const H11_3: &str = "34b4064fced07341204e3b2283477d5fc6423d7f8244f83d6e1fa1551a74ad470ba7c02fc4c7d16b758e8af266349dc1070727b5ecd5d7fc6c6417d2458018e328818355000000036748585daf74da6b";
    const H746727: &str = "97d7572245923377cd972657994013e9bcbe8d07251db053be7a8603c4c2325f0aed5677607773e58740a6161b1338bbf51ceea97a76431707c44c6dc0a8143267b7fcb5000000026580b4bce36e3bc8";
    const H746726: &str = "3eb6fc536af5dd035c568d9148d6f21e71fb6340ffbb1958b60038090fb117510aed5677a893cfcab30cb30bd374b2862b8f253cbf7899c8dd43a2082413dddbfc7b1fcb000000026580b4b84eaebc09";
    const H11_5: &str = "11f2b6860910f7b544e01fd5ed5419588c29e42b305553bd492a0d00000000002ac075d9a4d44aff9ebd539f2b5e758fb76df22bfd13a2e4d894752c7892f9e9c3f3d96900000001650bd0820d8e8eab";
    const H11_6: &str = "b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537077fffffeab3b88a101b745e8d7b530eb129a789f571a4718edc07435ae74998981a3a7f000000036948246d00000000";

    #[test]
    fn genesis_11_1() {
        let seed = b"The New York Times International Edition 29/06/2023: 'Water troubles: A preview'";
        assert_eq!(seed.len(), 80);
        assert_eq!(hex(&sha256(seed)), "b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537");
    }

    #[test]
    fn mainnet_janus8_11_2() {
        let h = hdr(H11_2);
        assert_eq!(hex(&sha256d(&h)), "80b200a9ac37d7c41d98ad1cc2d6add8ab50a3905bf52d8347b56955923c28bc");
        let s = sha256t(&h);
        assert_eq!(hex(&s), "02a507400db273886cd1bdc61e05bc4bde6978d74ce6e48d33a46fa705c59ae1");
        let v = verushash(&h, true);
        assert_eq!(hex(&v), "0000000000b069112cc0caf14507169f6adf1e5278a2ef286cddc89f1162d7ca");
        assert_eq!(hex(&verushash(&h, false)), "8d9ed79784fe729b23854d1f7c65d75d26d7cf2e58713fbfb46869cf9b062070");
        let (fv, fs) = (cf(&v), cf(&s));
        assert_eq!(fv, pos(-40, 2_959_675_692));
        assert_eq!(fv.to_f64(), 6.267357060779177e-13);
        assert_eq!(fs, pos(-6, 2_839_662_592));
        assert_eq!(fs.to_f64(), 0.010330632328987122);
        let l = fs.log2();
        assert_eq!((l.neg, l.e, l.m), (true, 3, 3_541_106_323));
        let pl = PHI * l;
        assert_eq!((pl.neg, pl.e, pl.m), (true, 3, 2_478_774_425));
        let pw = pl.pow2();
        assert_eq!(pw, pos(-4, 2_800_782_137));
        assert_eq!(pw.to_f64(), 0.040756744230748154);
        let p = product(fv, fs);
        assert_eq!(p, pos(-45, 3_860_055_845));
        assert_eq!(p.to_f64(), 2.554370686684796e-14);
        assert_eq!(target_bits(&h), 0x0ae7cde7);
        assert!(below_target_v2(p, 0x0ae7cde7));
        assert_eq!(check_pow(&h, 8), Some(true));
        // Version 3 header: the API number uses v2.2, i.e. the same product.
        assert_eq!(janushash(&h), 2.554370686684796e-14);
        let i = pow_info_of(&h, true);
        assert_eq!((i.hash_verus, i.hash_sha256t), (v, s));
        assert_eq!((i.float_verus, i.float_sha256t), (6.267357060779177e-13, 0.010330632328987122));
    }

    #[test]
    fn checkpoint_11_3() {
        let h = hdr(H11_3);
        assert_eq!(hex(&sha256d(&h)), "425a74799bbf9e7ecdd57628bc88be349738add14e988ff31a71f59710e1a5f5");
        let v = verushash(&h, true);
        let s = sha256t(&h);
        assert_eq!(hex(&v), "000000000016d0ee7968a4720b43103c69a6c20a75de83c7e1a12eba017cc22c");
        assert_eq!(hex(&s), "04961e4ea61828f7b5a839450009cd0ba6a29aab0c3981faae7f41c999b8dbcf");
        assert_eq!(cf(&v).to_f64(), 8.105920842623566e-14);
        assert_eq!(cf(&s).to_f64(), 0.017915624659508467);
        assert_eq!(product(cf(&v), cf(&s)).to_f64(), 4.849697988805411e-15);
        assert_eq!(target_bits(&h), (46 << 22) | 0x27c02f);
        assert_eq!(check_pow(&h, 8), Some(true));
    }

    #[test]
    fn janus1_11_4() {
        let h = hdr(H746727);
        assert_eq!(hex(&sha256d(&h)), "a235342bab7ff6a10ff47e6ba07392946b152785cd6a45e9fbaeb4bd8a9abe11");
        assert_eq!(hex(&h[..32]), "97d7572245923377cd972657994013e9bcbe8d07251db053be7a8603c4c2325f");
        let v = verushash(&h, false);
        let s = sha256t(&h);
        assert_eq!(hex(&v), "00000000008c749dc593bb29a1cf6fe46bcdd851b8c1c991fb0dd6fc31ec0eb6");
        assert_eq!(hex(&s), "0f2a435d4e320967c0e04b0988f725e9b679db990984afe77e7d40c3eedcecdc");
        let (fv, fs) = (cf(&v), cf(&s));
        assert_eq!(fv, pos(-40, 2_356_452_805));
        assert_eq!(fs, pos(-4, 4_070_847_952));
        let p1 = fv * fs;
        assert_eq!(p1, pos(-44, 2_233_488_735));
        assert_eq!(p1.to_f64(), 2.955997727916139e-14);
        assert_eq!(fs.pow(PHI), pos(-2, 2_375_816_404));
        assert_eq!(product(fv, fs), pos(-43, 2_607_004_358));
        assert_eq!(check_pow(&h, 1), Some(true));

        let h6 = hdr(H746726);
        assert_eq!(hex(&sha256d(&h6)), hex(&h[..32])); // 746,727 links to 746,726
        let v6 = verushash(&h6, false);
        assert_eq!(hex(&v6), "00000000b7ef396106eb21b3555d8006954a905e8d6d3d851e4450a0b61f47a1");
        assert_eq!((cf(&v6) * cf(&sha256t(&h6))).to_f64(), 1.6088978003795322e-14);
        assert_eq!(check_pow(&h6, 1), Some(true));
    }

    #[test]
    fn original_11_5() {
        let h = hdr(H11_5);
        assert_eq!(hex(&sha256d(&h)), "ac4f50ef90c0730075f4995d0b33691e9e7d69f84d2191c029371c0000000000");
        assert_eq!(target_bits(&h), 0x2ac075d9);
        assert_eq!(check_pow(&h, POW_ORIGINAL), Some(true));
        // The same header under a target one notch harder (z 43) fails only if H > b·2^189.
        let mut harder = h;
        harder[32..36].copy_from_slice(&0x30c075d9u32.to_be_bytes()); // z 48
        assert_eq!(check_pow(&harder, POW_ORIGINAL), Some(false));
        let mut bad_mantissa = h;
        bad_mantissa[32..36].copy_from_slice(&0x2a4075d9u32.to_be_bytes()); // bit 23 clear
        assert_eq!(check_pow(&bad_mantissa, POW_ORIGINAL), Some(false));
    }

    #[test]
    fn small_block_11_6() {
        let h = hdr(H11_6);
        assert_eq!(hex(&sha256d(&h)), "6851377f19b814ab3a4354c811a96908afba9c47cf3e4b85048d95de11e3f6aa");
        assert_eq!(hex(&sha256t(&h)), "353389ceb7bccd1efe58d3ff45b97c4efd99d0a460070d554a2f78edd92482b7");
        assert_eq!(hex(&verushash(&h, false)), "2443706cf33a161fd811fa69c7180787f4ddbc518f9e8cacd4efef29b3cc22a9");
        assert_eq!(hex(&verushash(&h, true)), "fdae9a4bc8cff612feedaaa2b547989b15988a3fee593643629a72f4029eaf0c");
        // Fake-mined: the Janus7 (v2.1) product ≈ 0.05 against T ≈ 1.9e-9 → rejected under every
        // Janus version. (The §3.8 number of this version-3 header uses v2.2 instead: ≈ 0.33.)
        let fs = cf(&sha256t(&h));
        let p7 = product(cf(&verushash(&h, false)), fs).to_f64();
        assert!(p7 > 0.04 && p7 < 0.06, "{p7}");
        let n = janushash(&h);
        assert_eq!(n, product(cf(&verushash(&h, true)), fs).to_f64());
        assert!(n > 0.3 && n < 0.35, "{n}");
        for v in 1..=8 {
            assert_eq!(check_pow(&h, v), Some(false), "Janus{v}");
        }
    }

    #[test]
    fn flipped_nonce_rejects() {
        for (s, v) in [(H11_2, 8), (H11_3, 8), (H746727, 1), (H746726, 1), (H11_5, 0)] {
            let h = hdr(s);
            assert_eq!(check_pow(&h, v), Some(true));
            for byte in 76..80 {
                let mut f = h;
                f[byte] ^= 0x01;
                assert_eq!(check_pow(&f, v), Some(false), "version {v} byte {byte}");
            }
        }
    }

    #[test]
    fn version_dispatch() {
        // 746,727 (§11.4): the Janus2+ product (−43, 2,607,004,358) is below its target
        // (z 43, m < 0x2D5677·1024); F(V) (e −40) < C3, C4; F(S) (e −4) is not < C5, C6.
        let h = hdr(H746727);
        for v in 1..=7 {
            assert_eq!(check_pow(&h, v), Some(true), "Janus{v}");
        }
        // §11.2 under v2.1 (Janus1..7): V[0] = 0x8d ≠ 0 and F(V) ≈ 0.55 → rejected.
        let h = hdr(H11_2);
        for v in 1..=7 {
            assert_eq!(check_pow(&h, v), Some(false), "Janus{v}");
        }
        // Read as TargetV1, 0x0ae7cde7 is z 10: H (top byte 0xbc) > 0xe7cde7·2^222 → rejected.
        assert_eq!(check_pow(&h, POW_ORIGINAL), Some(false));
    }

    #[test]
    fn small_sha256t_gives_one() {
        // Search a nonce with F(S) < C6 (about 1 in 200): the §3.8 number is then exactly 1.0,
        // and Janus7/8 reject before any VerusHash.
        let mut h = hdr(H11_2);
        let n = (0u32..100_000)
            .find(|n| {
                h[76..80].copy_from_slice(&n.to_be_bytes());
                cf(&sha256t(&h)).lt(C6)
            })
            .expect("a nonce with small SHA256t");
        h[76..80].copy_from_slice(&n.to_be_bytes());
        assert_eq!(janushash(&h), 1.0);
        assert_eq!(check_pow(&h, 7), Some(false));
        assert_eq!(check_pow(&h, 8), Some(false));
    }

    #[test]
    fn target_v2_rule() {
        let t = (43 << 22) | 0x27cde7;
        assert!(below_target_v2(pos(-44, u32::MAX), t)); // zP > z
        assert!(!below_target_v2(pos(-42, 1 << 31), t)); // zP < z
        assert!(below_target_v2(pos(-43, 0x27cde7 * 1024 - 1), t)); // equal z: m < b·1024
        assert!(!below_target_v2(pos(-43, 0x27cde7 * 1024), t));
        assert!(!below_target_v2(pos(1, 1 << 31), t));
    }

    #[test]
    fn versions_and_exports() {
        let h = hdr(H11_2);
        assert_eq!(check_pow(&h, 9), None);
        unsafe {
            assert_eq!(pow_check(h.as_ptr(), 9), -1);
            assert_eq!(pow_check(h.as_ptr(), u32::MAX), -1);
            assert_eq!(pow_check(core::ptr::null(), 8), -2);
            assert_eq!(pow_check(h.as_ptr(), 8), 1);
            assert!(janushash_number(core::ptr::null()).is_nan());
            assert_eq!(janushash_number(h.as_ptr()), 2.554370686684796e-14);
            let mut out = [0u8; 80];
            assert_eq!(pow_info(h.as_ptr(), 1, out.as_mut_ptr()), 0);
            assert_eq!(hex(&out[..32]), "0000000000b069112cc0caf14507169f6adf1e5278a2ef286cddc89f1162d7ca");
            assert_eq!(f64::from_le_bytes(out[72..80].try_into().unwrap()), 0.010330632328987122);
        }
    }

    /// Every case of vectors/janushash.json (recorded from the reference node, "%.20e").
    #[test]
    fn janushash_json_vectors() {
        let json = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../test/vectors/janushash.json"));
        let strings = |key: &str| -> Vec<String> {
            let pat = format!("\"{key}\": \"");
            json.match_indices(&pat)
                .map(|(i, _)| {
                    let rest = &json[i + pat.len()..];
                    rest[..rest.find('"').unwrap()].to_string()
                })
                .collect()
        };
        let headers = strings("headerHex");
        let numbers = strings("janushashNumber");
        assert_eq!(headers.len(), numbers.len());
        assert!(headers.len() >= 37, "{}", headers.len());
        for (h, n) in headers.iter().zip(&numbers) {
            let want: f64 = n.parse().unwrap();
            assert_eq!(janushash(&hdr(h)), want, "{h}");
        }
    }
}
