//! Haraka v2 (spec §4.2): one AES round exactly as x86 AESENC, Haraka-256 and the Haraka-512
//! permutation with a caller-chosen set of 40 round-key lanes (VerusHash keys the last one).
//!
//! WebAssembly has no AES instructions, so the round is table-driven: four 256-entry u32 tables
//! ("T-tables") that fuse SubBytes and MixColumns, generated at compile time by `const fn`.
//! A 16-byte lane is held as four little-endian u32 words, word j = AES column j (FIPS-197 byte
//! order: byte i is row i mod 4, column i / 4), so the §4.2 groups w0..w3 are the words.

/// A 16-byte lane as four little-endian 32-bit words (the §4.2 groups w0..w3).
pub type Words = [u32; 4];

/// GF(2^8) multiplication modulo x^8 + x^4 + x^3 + x + 1 (only used at compile time).
const fn gmul(mut a: u8, mut b: u8) -> u8 {
    let mut p = 0u8;
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        let hi = a & 0x80;
        a <<= 1;
        if hi != 0 {
            a ^= 0x1b;
        }
        b >>= 1;
    }
    p
}

/// The AES S-box: multiplicative inverse (x^254) followed by the FIPS-197 affine map.
const fn sbox() -> [u8; 256] {
    let mut s = [0u8; 256];
    let mut x = 0usize;
    while x < 256 {
        // x^254 = x^-1 (0 maps to 0): square-and-multiply over the exponent bits 11111110.
        let mut inv = 1u8;
        let mut i = 0;
        while i < 8 {
            inv = gmul(inv, inv);
            if i < 7 {
                inv = gmul(inv, x as u8);
            }
            i += 1;
        }
        if x == 0 {
            inv = 0;
        }
        let b = inv;
        s[x] = b ^ b.rotate_left(1) ^ b.rotate_left(2) ^ b.rotate_left(3) ^ b.rotate_left(4) ^ 0x63;
        x += 1;
    }
    s
}

/// T[r][x]: contribution of an S-boxed byte of row r to its MixColumns column, as a little-endian
/// word (row 0 in the low byte). Column coefficients for row 0 are (2, 1, 1, 3); row r is the same
/// word rotated left by 8r bits.
const fn ttables() -> [[u32; 256]; 4] {
    let s = sbox();
    let mut t = [[0u32; 256]; 4];
    let mut x = 0;
    while x < 256 {
        let v = s[x];
        let w = (gmul(v, 2) as u32) | ((v as u32) << 8) | ((v as u32) << 16) | ((gmul(v, 3) as u32) << 24);
        t[0][x] = w;
        t[1][x] = w.rotate_left(8);
        t[2][x] = w.rotate_left(16);
        t[3][x] = w.rotate_left(24);
        x += 1;
    }
    t
}

static T: [[u32; 256]; 4] = ttables();

/// AESR(s, k) of §4.2: SubBytes, ShiftRows, MixColumns, then XOR the round key (= AESENC).
/// ShiftRows moves row r left by r columns, so output column c takes row r from column c + r.
#[inline(always)]
pub fn aesr(s: Words, k: Words) -> Words {
    let t0 = &T[0];
    let t1 = &T[1];
    let t2 = &T[2];
    let t3 = &T[3];
    let col = |c: usize| {
        t0[(s[c] & 0xff) as usize]
            ^ t1[((s[(c + 1) & 3] >> 8) & 0xff) as usize]
            ^ t2[((s[(c + 2) & 3] >> 16) & 0xff) as usize]
            ^ t3[(s[(c + 3) & 3] >> 24) as usize]
    };
    [col(0) ^ k[0], col(1) ^ k[1], col(2) ^ k[2], col(3) ^ k[3]]
}

/// MIX2 of §4.2: (lo32(a, b), hi32(a, b)).
#[inline(always)]
pub fn mix2(a: Words, b: Words) -> (Words, Words) {
    ([a[0], b[0], a[1], b[1]], [a[2], b[2], a[3], b[3]])
}

/// AES2 of §4.2: two interleaved rounds on each of a and b.
#[inline(always)]
pub fn aes2(a: &mut Words, b: &mut Words, k: [Words; 4]) {
    *a = aesr(*a, k[0]);
    *b = aesr(*b, k[1]);
    *a = aesr(*a, k[2]);
    *b = aesr(*b, k[3]);
}

/// Lane <-> words (little-endian, §4.2).
#[inline(always)]
pub fn words(x: u128) -> Words {
    [x as u32, (x >> 32) as u32, (x >> 64) as u32, (x >> 96) as u32]
}

#[inline(always)]
pub fn lane(w: Words) -> u128 {
    (w[0] as u128) | ((w[1] as u128) << 32) | ((w[2] as u128) << 64) | ((w[3] as u128) << 96)
}

#[inline(always)]
pub fn words_from_bytes(b: &[u8]) -> Words {
    let g = |i: usize| u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
    [g(0), g(1), g(2), g(3)]
}

const fn hexval(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => panic!("bad hex in RC"),
    }
}

/// The 40 standard Haraka v2 round constants of §4.2, as lanes (hex in byte order).
const RC_HEX: [&str; 40] = [
    "9d7b8175f0fec5b20ac020e64c708406",
    "17f7082fa46b0f646ba0f388e1b4668b",
    "1491029f609d02cf9884f2532dde0234",
    "794f5bfdafbcf3bb084f7b2ee6ead60e",
    "447039be1ccdee798b447248cbb0cfcb",
    "7b058a2bed35538db732906eeecdea7e",
    "1bef4fda612741e2d07c2e5e438fc267",
    "3b0bc71fe2fd5f6707cccaafb0d92429",
    "ee65d4b9ca8fdbece97f86e6f1634dab",
    "337e03ad4f402a5b64cdb7d484bf301c",
    "0098f68d2e8b0269bf231794b90bccb2",
    "8a2d9d5cc89eaa4a72556fdea67804fa",
    "d49f12292e4ffa0e122a776b2b9fb4df",
    "ee126abbae11d63236a249f44403a11e",
    "a6eca89cc900965f8400054b884904af",
    "ec93e527e3c7a2784f9c199dd85e0221",
    "7301d482cd2e28b9b7c959a7f8aa3abf",
    "6b7d3010d9eff23717b086610d706062",
    "c69afcf65391c28143043021c245ca5a",
    "3a94d136e892af2cbb686b223c972392",
    "b47110e558b9ba6ceb8658223892bfd3",
    "8d12e124ddfd3d9377c6f0aee53c86db",
    "b11222cbe38de4839ca0ebff686260bb",
    "7df72bc74e1ab92d9cd1e4e2dcd34b73",
    "4e92b32cc415144b431b3061c347bb43",
    "9968eb16dd31b203f6ef07e7a875a7db",
    "2c47ca7e02235e8e7759753c4b61f36d",
    "f91786b8b9e51b6d777dded6175aa7cd",
    "5dee46a99d066c9daae9a86bf0436bec",
    "c127f33b591153a22b3357f950691ecb",
    "d9d00e605303ede49c61da00750cee2c",
    "50a3a463bcbabb80ab0ce996a1a5b1f0",
    "39ca8d9330de0dab8829965e02b13dae",
    "42b4752ea8f314880ba454d5388fbb17",
    "f6160a3679b7b6aed77f425f5b8abb34",
    "deafbaff1859ce433854e5cb4152f626",
    "78c99e83f79ccaa26a02f3b9549ae94c",
    "35129022286ec040bef7df1b1aa551ae",
    "cf59a6480fbc73c12bd27eba3c61c1a0",
    "a19dc5e9fdbdd64a8882280203cc6a75",
];

const fn rc() -> [Words; 40] {
    let mut out = [[0u32; 4]; 40];
    let mut i = 0;
    while i < 40 {
        let h = RC_HEX[i].as_bytes();
        let mut b = 0;
        while b < 16 {
            let byte = (hexval(h[2 * b]) << 4) | hexval(h[2 * b + 1]);
            out[i][b / 4] |= (byte as u32) << (8 * (b % 4));
            b += 1;
        }
        i += 1;
    }
    out
}

/// Standard round constants RC[0..39].
pub static RC: [Words; 40] = rc();

/// The Haraka-512 permutation of §4.2 on four lanes; `rk(i)` yields round-key lane i (0..39).
#[inline(always)]
pub fn perm512(s: &mut [Words; 4], rk: impl Fn(usize) -> Words) {
    for i in 0..5 {
        for j in 0..2 {
            for (l, lane) in s.iter_mut().enumerate() {
                *lane = aesr(*lane, rk(8 * i + 4 * j + l));
            }
        }
        // MIX4: s0 = (a3, c3, b3, d3), s1 = (c0, a0, d0, b0), s2 = (c1, a1, d1, b1), s3 = (a2, c2, b2, d2).
        let [a, b, c, d] = *s;
        *s = [[a[3], c[3], b[3], d[3]], [c[0], a[0], d[0], b[0]], [c[1], a[1], d[1], b[1]], [a[2], c[2], b[2], d[2]]];
    }
}

/// Haraka512 of §4.2 on a 64-byte block held as four lanes: the truncated feed-forward output.
#[inline(always)]
pub fn haraka512_words(x: &[Words; 4], rk: impl Fn(usize) -> Words) -> [u8; 32] {
    let mut s = *x;
    perm512(&mut s, rk);
    // y = perm(x) XOR x; keep y[8..16) ‖ y[24..32) ‖ y[32..40) ‖ y[48..56) = words (0,2..3) (1,2..3) (2,0..1) (3,0..1).
    let sel = [(0, 2), (0, 3), (1, 2), (1, 3), (2, 0), (2, 1), (3, 0), (3, 1)];
    let mut out = [0u8; 32];
    for (n, &(l, w)) in sel.iter().enumerate() {
        out[4 * n..4 * n + 4].copy_from_slice(&(s[l][w] ^ x[l][w]).to_le_bytes());
    }
    out
}

fn block_words(x: &[u8; 64]) -> [Words; 4] {
    [
        words_from_bytes(&x[0..16]),
        words_from_bytes(&x[16..32]),
        words_from_bytes(&x[32..48]),
        words_from_bytes(&x[48..64]),
    ]
}

/// Unkeyed Haraka512 (RK = RC).
pub fn haraka512(x: &[u8; 64]) -> [u8; 32] {
    haraka512_words(&block_words(x), |i| RC[i])
}

/// Haraka512 keyed with 40 round-key lanes (VerusHash's final step, §4.3 step 5).
pub fn haraka512_keyed(x: &[u8; 64], rk: &[u128]) -> [u8; 32] {
    haraka512_words(&block_words(x), |i| words(rk[i]))
}

/// Haraka256 of §4.2 on two lanes; returns the two output lanes.
#[inline(always)]
pub fn haraka256_words(x: [Words; 2]) -> [Words; 2] {
    let [mut s0, mut s1] = x;
    for i in 0..5 {
        for j in 0..2 {
            s0 = aesr(s0, RC[4 * i + 2 * j]);
            s1 = aesr(s1, RC[4 * i + 2 * j + 1]);
        }
        (s0, s1) = mix2(s0, s1);
    }
    let f = |s: Words, x: Words| [s[0] ^ x[0], s[1] ^ x[1], s[2] ^ x[2], s[3] ^ x[3]];
    [f(s0, x[0]), f(s1, x[1])]
}

/// Haraka256 on bytes.
pub fn haraka256(x: &[u8; 32]) -> [u8; 32] {
    let r = haraka256_words([words_from_bytes(&x[..16]), words_from_bytes(&x[16..])]);
    let mut out = [0u8; 32];
    for (i, w) in r.iter().flatten().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{:02x}", x)).collect()
    }

    fn lane_bytes(w: Words) -> Vec<u8> {
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn sbox_spot_values() {
        let s = sbox();
        assert_eq!((s[0x00], s[0x01], s[0x53], s[0xff]), (0x63, 0x7c, 0xed, 0x16));
    }

    #[test]
    fn aesr_zero() {
        assert_eq!(lane_bytes(aesr([0; 4], [0; 4])), vec![0x63u8; 16]);
    }

    #[test]
    fn aesr_fips197_round() {
        // FIPS-197 Appendix B, round 1: start of round state -> state after MixColumns, XOR round key 1.
        let s = words_from_bytes(&hexb("193de3bea0f4e22b9ac68d2ae9f84808"));
        let k = words_from_bytes(&hexb("a0fafe1788542cb123a339392a6c7605"));
        assert_eq!(hex(&lane_bytes(aesr(s, k))), "a49c7ff2689f352b6b5bea43026a5049");
    }

    fn hexb(s: &str) -> Vec<u8> {
        (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect()
    }

    #[test]
    fn haraka_vectors() {
        let mut x32 = [0u8; 32];
        for (i, b) in x32.iter_mut().enumerate() {
            *b = i as u8;
        }
        assert_eq!(hex(&haraka256(&x32)), "8027ccb87949774b78d0545fb72bf70c695c2a0923cbd47bba1159efbf2b2c1c");
        let mut x64 = [0u8; 64];
        for (i, b) in x64.iter_mut().enumerate() {
            *b = i as u8;
        }
        assert_eq!(hex(&haraka512(&x64)), "be7f723b4e80a99813b292287f306f625a6d57331cae5f34dd9277b0945be2aa");
        // Keyed with RC as lanes gives the unkeyed result.
        let rk: Vec<u128> = RC.iter().map(|w| lane(*w)).collect();
        assert_eq!(haraka512_keyed(&x64, &rk), haraka512(&x64));
    }
}
