//! SHA-256 (FIPS 180-4) and its iterated forms: `sha256d` = SHA-256 twice (block hash, merkle,
//! Original PoW, spec §3.1) and `sha256t` = three times (Janushash input, spec §3.8).
//! Single-shot over a byte slice; the block loop works on a stack state, no heap.

const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
];

const H0: [u32; 8] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/// One compression of a 64-byte block into `h`.
#[inline(always)]
fn compress(h: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = [0u32; 64];
    for i in 0..16 {
        w[i] = u32::from_be_bytes([block[4 * i], block[4 * i + 1], block[4 * i + 2], block[4 * i + 3]]);
    }
    for i in 16..64 {
        let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
        let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = *h;
    for i in 0..64 {
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        let t2 = s0.wrapping_add(maj);
        hh = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }
    for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
        *x = x.wrapping_add(y);
    }
}

fn digest(h: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, v) in h.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&v.to_be_bytes());
    }
    out
}

/// SHA-256 of `data`.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    let mut h = H0;
    let mut chunks = data.chunks_exact(64);
    for c in &mut chunks {
        compress(&mut h, c.try_into().unwrap());
    }
    // Padding: 0x80, zeros, 64-bit big-endian bit length; one or two final blocks.
    let rest = chunks.remainder();
    let mut tail = [0u8; 128];
    tail[..rest.len()].copy_from_slice(rest);
    tail[rest.len()] = 0x80;
    let n = if rest.len() < 56 { 64 } else { 128 };
    let bits = (data.len() as u64).wrapping_mul(8);
    tail[n - 8..n].copy_from_slice(&bits.to_be_bytes());
    compress(&mut h, tail[..64].try_into().unwrap());
    if n == 128 {
        compress(&mut h, tail[64..].try_into().unwrap());
    }
    digest(&h)
}

/// SHA-256 of a 32-byte digest: a single padded block, the inner step of sha256d/sha256t.
#[inline]
fn sha256_of32(d: &[u8; 32]) -> [u8; 32] {
    let mut block = [0u8; 64];
    block[..32].copy_from_slice(d);
    block[32] = 0x80;
    block[62] = 0x01; // 256 bits, big-endian
    let mut h = H0;
    compress(&mut h, &block);
    digest(&h)
}

/// SHA-256 applied twice.
pub fn sha256d(data: &[u8]) -> [u8; 32] {
    sha256_of32(&sha256(data))
}

/// SHA-256 applied three times.
pub fn sha256t(data: &[u8]) -> [u8; 32] {
    sha256_of32(&sha256_of32(&sha256(data)))
}

/// # Safety
/// `ptr..ptr+len` readable, `out..out+32` writable.
#[no_mangle]
pub unsafe extern "C" fn sha256_raw(ptr: *const u8, len: usize, out: *mut u8) {
    crate::output(out, &sha256(crate::input(ptr, len)));
}

/// # Safety
/// `ptr..ptr+len` readable, `out..out+32` writable.
#[no_mangle]
pub unsafe extern "C" fn sha256d_raw(ptr: *const u8, len: usize, out: *mut u8) {
    crate::output(out, &sha256d(crate::input(ptr, len)));
}

/// # Safety
/// `ptr..ptr+len` readable, `out..out+32` writable.
#[no_mangle]
pub unsafe extern "C" fn sha256t_raw(ptr: *const u8, len: usize, out: *mut u8) {
    crate::output(out, &sha256t(crate::input(ptr, len)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{:02x}", x)).collect()
    }

    #[test]
    fn fips_vectors() {
        assert_eq!(hex(&sha256(b"")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(hex(&sha256(b"abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(
            hex(&sha256(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        let million = vec![b'a'; 1_000_000];
        assert_eq!(hex(&sha256(&million)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }

    #[test]
    fn iterated() {
        assert_eq!(sha256d(b"abc"), sha256(&sha256(b"abc")));
        assert_eq!(sha256t(b"abc"), sha256(&sha256(&sha256(b"abc"))));
        // Padding boundaries 55/56/63/64 bytes agree with the general path.
        for n in [55usize, 56, 63, 64, 65, 119, 120, 128] {
            let d = vec![0x5au8; n];
            assert_eq!(sha256d(&d), sha256(&sha256(&d)));
        }
    }
}
