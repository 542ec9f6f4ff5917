//! Native kernel throughput on 80-byte headers (`cargo run --release --example bench`).
//! Prints `native <what>/s: <n>` lines; bench/kernel.ts parses them to compare with WASM.
use std::hint::black_box;
use std::time::{Duration, Instant};

use kernel::janus::janushash;
use kernel::secp256k1::{recover, recover_many};
use kernel::sha256::sha256d;

/// The values of every `"name": "…"` member of a vector file, in order (the crate has no JSON
/// parser, and needs none: the files are flat enough).
fn string_values<'a>(json: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!("\"{name}\": \"");
    json.match_indices(&key)
        .map(|(i, _)| {
            let rest = &json[i + key.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

/// Real mainnet headers (consensus.md §11); the first is the §11.2 one.
const EXAMPLES: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../test/vectors/consensus-examples.json"));
/// Coin transfers the reference accepted: their txHash and signature65.
const TRANSFERS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../test/vectors/coin-transfers.json"));

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
    let mut h: [u8; 80] = unhex(string_values(EXAMPLES, "raw")[0]);
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
    // Block validation pattern: a different signature each time (cycling through the vectors).
    let signed: Vec<([u8; 32], [u8; 65])> = string_values(TRANSFERS, "txHash")
        .into_iter()
        .zip(string_values(TRANSFERS, "signature65"))
        .map(|(h, s)| (unhex(h), unhex(s)))
        .collect();
    let sr = rate(2.0, |n| {
        let (d, s) = &signed[n as usize % signed.len()];
        black_box(recover(black_box(d), black_box(s)).unwrap());
    });
    println!("native secp256k1 recover/s: {}", sr.round());
    let batch: Vec<([u8; 32], [u8; 65])> = (0..176).map(|i| signed[i % signed.len()]).collect();
    let sb = 176.0
        * rate(2.0, |_| {
            black_box(recover_many(black_box(&batch)));
        });
    println!("native secp256k1 recover (batches of 176)/s: {}", sb.round());
}
