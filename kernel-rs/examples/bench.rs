//! Native kernel throughput on 80-byte headers (`cargo run --release --example bench`).
//! Prints `native <what>/s: <n>` lines; bench/kernel.ts parses them to compare with WASM.
use std::hint::black_box;
use std::time::{Duration, Instant};

use kernel::janus::janushash;
use kernel::secp256k1::recover;
use kernel::sha256::sha256d;

/// A real mainnet header (consensus.md §11.2).
const HEADER: &str = "05b42d206f8a4b2b8094199fd28423151af8aa54a5073ac6e6805f42096dc3a20ae7cde7f3c41bf363fe94eb448bf924f791f77c22a2ebd6a3a5d8948f8aff019f072bea0000000366f2fefb2719fef5";

/// (txHash, signature65) of coin transfers the reference accepted (vectors/coin-transfers.json).
const SIGNED: [(&str, &str); 4] = [
    ("dd156b4a9dd0a81e1b241ffa17acd7ab9bf41ffd52bd5419cb8dbd6944cd1303", "d706a1500acb4f40a1b482cbb959e5c4d05da8fef10ba2b4847e39db49a7459d7d8391b65b0216362fc0f3245fa1b26f02d6ec0d835ed2e5313a489e40f3197601"),
    ("541d2c35debab849f5b9b4928d68b4fe3796a0902904b5904c8ff6c54b3aadd1", "94c11659af2e3b4db766c25bbcfa40484e9c3623df612641916b94f90117a8e97b2a7eb5adde3e71b1e88fe40a558cde3a565ca86528d73e9871276c6e78302b00"),
    ("d9098f3ccd0cafdd07771efb794315367ace10c8054dba000c6307a7db296324", "69cbf7d2dcc94eabc20a00cab7106b9d5f3b7c86cd56b4cab1b1b7d4a78c6370620c36eb14c68bec0a1d7f9f977a0789f918df1fa932a0d0965f6a4cbf37815a00"),
    ("39b50b824e5364cab261f4d3b71c2dd2264eabe1466d3bad667f2840823effa8", "7d85e076b0d426d46856c8a698f35aa587c653df33bc1690576f7588d79d087426ca472481b09c690a64ca57e363375f175758e2a2b014faf9586abe1dca12a800"),
];

fn unhex<const N: usize>(s: &str) -> [u8; N] {
    let mut b = [0u8; N];
    for (i, x) in b.iter_mut().enumerate() {
        *x = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
    }
    b
}

/// Calls `f(i)` for i = 0, 1, … for about `secs` seconds; returns calls per second.
fn rate(secs: f64, mut f: impl FnMut(u32)) -> f64 {
    let budget = Duration::from_secs_f64(secs);
    let start = Instant::now();
    let mut n = 0u32;
    loop {
        for _ in 0..64 {
            f(n);
            n = n.wrapping_add(1);
        }
        let el = start.elapsed();
        if el >= budget {
            return n as f64 / el.as_secs_f64();
        }
    }
}

fn main() {
    let mut h = [0u8; 80];
    for i in 0..80 {
        h[i] = u8::from_str_radix(&HEADER[2 * i..2 * i + 2], 16).unwrap();
    }
    // Mining pattern: only the nonce changes, so VerusHash reuses its key.
    let jn = rate(2.0, |n| {
        h[76..80].copy_from_slice(&n.to_be_bytes());
        black_box(janushash(black_box(&h)));
    });
    println!("native janushash/s: {}", jn.round());
    // Validation pattern: every header differs in bytes 0..64, so every hash generates a key.
    let jc = rate(2.0, |n| {
        h[0..4].copy_from_slice(&n.to_be_bytes());
        black_box(janushash(black_box(&h)));
    });
    println!("native janushash cold-key/s: {}", jc.round());
    let sd = rate(2.0, |n| {
        h[76..80].copy_from_slice(&n.to_be_bytes());
        black_box(sha256d(black_box(&h)));
    });
    println!("native sha256d/s: {}", sd.round());
    // Block validation pattern: a different signature each time (the 4 cycle).
    let signed: Vec<([u8; 32], [u8; 65])> = SIGNED.iter().map(|(h, s)| (unhex(h), unhex(s))).collect();
    let sr = rate(2.0, |n| {
        let (d, s) = &signed[n as usize % signed.len()];
        black_box(recover(black_box(d), black_box(s)).unwrap());
    });
    println!("native secp256k1 recover/s: {}", sr.round());
}
