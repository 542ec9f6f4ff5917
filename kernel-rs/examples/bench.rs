//! Native kernel throughput on 80-byte headers (`cargo run --release --example bench`).
//! Prints `native <what>/s: <n>` lines; bench/kernel.ts parses them to compare with WASM.
use std::hint::black_box;
use std::time::{Duration, Instant};

use kernel::janus::janushash;
use kernel::sha256::sha256d;

/// A real mainnet header (consensus.md §11.2).
const HEADER: &str = "05b42d206f8a4b2b8094199fd28423151af8aa54a5073ac6e6805f42096dc3a20ae7cde7f3c41bf363fe94eb448bf924f791f77c22a2ebd6a3a5d8948f8aff019f072bea0000000366f2fefb2719fef5";

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
}
