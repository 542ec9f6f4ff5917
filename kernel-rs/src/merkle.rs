//! Merkle root of a block body (consensus.md §6.7).
//!
//! Leaves are SHA-256 hashes of the body entries. Levels are built pairwise; an unpaired last
//! node is hashed alone (never duplicated). The extra bytes X (the first 10 or 4 body bytes,
//! chosen by the caller) enter only the final hash, so miners can vary them without redoing
//! the tree: the 1 or 2 nodes of that final hash are the "merkle prefix".

use crate::sha256::sha256;

/// The 1 or 2 nodes that enter the final hash, concatenated (32 or 64 bytes): levels are
/// reduced while more than two nodes remain. None for an empty leaf list.
pub fn prefix(leaves: &[[u8; 32]]) -> Option<Vec<u8>> {
    if leaves.is_empty() {
        return None;
    }
    let mut level: Vec<[u8; 32]> = leaves.to_vec();
    while level.len() > 2 {
        level = level.chunks(2).map(|pair| sha256(&pair.concat())).collect();
    }
    Some(level.concat())
}

/// Root of the leaves with extra bytes `x`. New type (mainnet h ≥ 900,000 and testnet):
/// SHA256(prefix ‖ X). Old type (mainnet h < 900,000): that hash hashed once more.
/// None for an empty leaf list (a body always has the reward leaf).
pub fn root(leaves: &[[u8; 32]], x: &[u8], new_type: bool) -> Option<[u8; 32]> {
    let mut input = prefix(leaves)?;
    input.extend_from_slice(x);
    let h = sha256(&input);
    Some(if new_type { h } else { sha256(&h) })
}

/// Reads `n` consecutive 32-byte leaves from host memory.
unsafe fn leaves_at(ptr: *const u8, n: usize) -> Option<Vec<[u8; 32]>> {
    let bytes = crate::input(ptr, n.checked_mul(32)?);
    Some(bytes.chunks_exact(32).map(|c| c.try_into().unwrap_or([0; 32])).collect())
}

/// Merkle root of `n_leaves` 32-byte leaves at `leaves_ptr` with the `x_len` extra bytes at
/// `x_ptr`; `new_type` 1 = new type, 0 = old type. Writes 32 bytes to `out`.
/// Returns 0, or 1 when there are no leaves (then `out` is untouched).
///
/// # Safety
/// The input ranges must be readable and `out..out+32` writable linear memory.
#[no_mangle]
pub unsafe extern "C" fn merkle_root(
    leaves_ptr: *const u8,
    n_leaves: usize,
    x_ptr: *const u8,
    x_len: usize,
    new_type: u32,
    out: *mut u8,
) -> u32 {
    let Some(leaves) = leaves_at(leaves_ptr, n_leaves) else { return 1 };
    match root(&leaves, crate::input(x_ptr, x_len), new_type != 0) {
        Some(r) => {
            crate::output(out, &r);
            0
        }
        None => 1,
    }
}

/// Merkle root whose leaves are the SHA-256 hashes of `n` consecutive pieces of the `data_len`
/// bytes at `data_ptr`, piece i being `lens[i]` bytes (`lens_ptr`: n little-endian u32): a block's
/// leaves hashed and its root computed in one call. Extra bytes and type as `merkle_root`.
/// Returns 0, 1 when n = 0, or 2 when the pieces do not cover the data exactly.
///
/// # Safety
/// The input ranges must be readable and `out..out+32` writable linear memory.
#[no_mangle]
pub unsafe extern "C" fn merkle_root_of_pieces(
    data_ptr: *const u8,
    data_len: usize,
    lens_ptr: *const u8,
    n: usize,
    x_ptr: *const u8,
    x_len: usize,
    new_type: u32,
    out: *mut u8,
) -> u32 {
    let Some(lens_len) = n.checked_mul(4) else { return 2 };
    match root_of_pieces(
        crate::input(data_ptr, data_len),
        crate::input(lens_ptr, lens_len),
        crate::input(x_ptr, x_len),
        new_type != 0,
    ) {
        Ok(r) => {
            crate::output(out, &r);
            0
        }
        Err(code) => code,
    }
}

/// `merkle_root_of_pieces` on slices: Err(1) without pieces, Err(2) when they do not tile `data`.
pub fn root_of_pieces(data: &[u8], lens: &[u8], x: &[u8], new_type: bool) -> Result<[u8; 32], u32> {
    let mut leaves = Vec::with_capacity(lens.len() / 4);
    let mut at = 0usize;
    for l in lens.chunks_exact(4) {
        let len = u32::from_le_bytes(l.try_into().unwrap()) as usize;
        let end = at.checked_add(len).filter(|&e| e <= data.len()).ok_or(2u32)?;
        leaves.push(sha256(&data[at..end]));
        at = end;
    }
    if at != data.len() {
        return Err(2);
    }
    root(&leaves, x, new_type).ok_or(1)
}

/// The merkle prefix of `n_leaves` leaves, written to `out` (room for 64 bytes).
/// Returns its length (32 or 64), or 0 when there are no leaves.
///
/// # Safety
/// The leaf range must be readable and `out..out+64` writable linear memory.
#[no_mangle]
pub unsafe extern "C" fn merkle_prefix(leaves_ptr: *const u8, n_leaves: usize, out: *mut u8) -> u32 {
    let Some(leaves) = leaves_at(leaves_ptr, n_leaves) else { return 0 };
    match prefix(&leaves) {
        Some(p) => {
            crate::output(out, &p);
            p.len() as u32
        }
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    fn h32(s: &str) -> [u8; 32] {
        hex(s).try_into().unwrap()
    }

    fn leaf(i: u8) -> [u8; 32] {
        sha256(&[i])
    }

    fn cat(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
    }

    #[test]
    fn testnet_block_11_6() {
        let address = hex("3661579d61abde5837a8686dc4d65348a2fc61b1");
        let reward = hex("00000000000000010000000011e1a300");
        let leaf0 = sha256(&address);
        let leaf1 = sha256(&reward);
        assert_eq!(leaf0, h32("fe5f40934a0fe34da7b5990220b1cda58382c81ccdbc6b17ca3ada615eecd569"));
        assert_eq!(leaf1, h32("7922d9c006a9e4bcd3c1ccfe70f80050fd712dfdfdc7a3bcb03fab8d7999ac40"));
        let x = [0u8; 10]; // extra nonce: the first 10 body bytes
        let want = h32("eab3b88a101b745e8d7b530eb129a789f571a4718edc07435ae74998981a3a7f");
        assert_eq!(root(&[leaf0, leaf1], &x, true), Some(want));
        assert_eq!(prefix(&[leaf0, leaf1]), Some(cat(&[&leaf0, &leaf1])));
        assert_eq!(sha256(&cat(&[&prefix(&[leaf0, leaf1]).unwrap(), &x])), want);
        // the root sits in the header at bytes 36..68
        let header = hex("b29988793c29118a842ba38ea4ab13d43e3dce3f04511ba6ca3340542dfd8537077fffffeab3b88a101b745e8d7b530eb129a789f571a4718edc07435ae74998981a3a7f000000036948246d00000000");
        assert_eq!(&header[36..68], &want);
    }

    #[test]
    fn shapes() {
        let x = b"XNONCE";
        let l: Vec<[u8; 32]> = (0..7).map(leaf).collect();
        let h2 = |a: &[u8], b: &[u8]| sha256(&cat(&[a, b]));
        // one leaf: SHA256(leaf ‖ X)
        assert_eq!(root(&l[..1], x, true), Some(sha256(&cat(&[&l[0], x]))));
        assert_eq!(root(&l[..1], x, false), Some(sha256(&sha256(&cat(&[&l[0], x])))));
        assert_eq!(prefix(&l[..1]), Some(l[0].to_vec()));
        // two leaves
        assert_eq!(root(&l[..2], x, true), Some(sha256(&cat(&[&l[0], &l[1], x]))));
        // three: [H(0‖1), H(2)] then the final hash with X; the odd node is hashed alone
        let p3 = cat(&[&h2(&l[0], &l[1]), &sha256(&l[2])]);
        assert_eq!(prefix(&l[..3]), Some(p3.clone()));
        assert_eq!(root(&l[..3], x, true), Some(sha256(&cat(&[&p3, x]))));
        assert_eq!(root(&l[..3], x, false), Some(sha256(&sha256(&cat(&[&p3, x])))));
        // four
        let p4 = cat(&[&h2(&l[0], &l[1]), &h2(&l[2], &l[3])]);
        assert_eq!(root(&l[..4], x, true), Some(sha256(&cat(&[&p4, x]))));
        // five: [01, 23, H(4)] → [H(01‖23), H(H(4))]
        let a = h2(&h2(&l[0], &l[1]), &h2(&l[2], &l[3]));
        let b = sha256(&sha256(&l[4]));
        assert_eq!(prefix(&l[..5]), Some(cat(&[&a, &b])));
        // seven: [01, 23, 45, H(6)] → [H(01‖23), H(45‖H(6))]
        let c = h2(&h2(&l[4], &l[5]), &sha256(&l[6]));
        assert_eq!(prefix(&l[..7]), Some(cat(&[&a, &c])));
        assert_eq!(root(&l[..7], &[], true), Some(h2(&a, &c)));
        // X changes only the final hash
        assert_ne!(root(&l[..7], b"a", true), root(&l[..7], b"b", true));
        assert_eq!(prefix(&[]), None);
        assert_eq!(root(&[], x, true), None);
    }

    #[test]
    fn exports() {
        let l: Vec<[u8; 32]> = (0..3).map(leaf).collect();
        let flat = l.concat();
        let x = [7u8; 4];
        let mut out = [0u8; 64];
        unsafe {
            assert_eq!(merkle_root(flat.as_ptr(), 3, x.as_ptr(), 4, 0, out.as_mut_ptr()), 0);
            assert_eq!(out[..32], root(&l, &x, false).unwrap());
            assert_eq!(merkle_root(flat.as_ptr(), 3, core::ptr::null(), 0, 1, out.as_mut_ptr()), 0);
            assert_eq!(out[..32], root(&l, &[], true).unwrap());
            assert_eq!(merkle_root(core::ptr::null(), 0, x.as_ptr(), 4, 1, out.as_mut_ptr()), 1);
            assert_eq!(merkle_prefix(flat.as_ptr(), 3, out.as_mut_ptr()), 64);
            assert_eq!(out.to_vec(), prefix(&l).unwrap());
            assert_eq!(merkle_prefix(flat.as_ptr(), 1, out.as_mut_ptr()), 32);
            assert_eq!(merkle_prefix(core::ptr::null(), 0, out.as_mut_ptr()), 0);
        }
    }

    #[test]
    fn root_of_pieces_hashes_each_piece_then_builds_the_root() {
        // pieces of 20, 16, 0 and 99 bytes; every count of pieces from 1 to 9, both types
        let data: Vec<u8> = (0..=255u8).cycle().take(20 + 16 + 99 * 7).collect();
        let mut lens: Vec<u32> = vec![20, 16, 0];
        lens.extend([99u32; 6]);
        for n in 1..=lens.len() {
            let used: usize = lens[..n].iter().map(|&l| l as usize).sum();
            let mut at = 0;
            let leaves: Vec<[u8; 32]> = lens[..n]
                .iter()
                .map(|&l| {
                    let h = sha256(&data[at..at + l as usize]);
                    at += l as usize;
                    h
                })
                .collect();
            let raw: Vec<u8> = lens[..n].iter().flat_map(|l| l.to_le_bytes()).collect();
            for new_type in [true, false] {
                let want = root(&leaves, b"xtra", new_type).unwrap();
                assert_eq!(root_of_pieces(&data[..used], &raw, b"xtra", new_type), Ok(want));
                let mut out = [0u8; 32];
                let status = unsafe {
                    merkle_root_of_pieces(
                        data.as_ptr(),
                        used,
                        raw.as_ptr(),
                        n,
                        b"xtra".as_ptr(),
                        4,
                        new_type as u32,
                        out.as_mut_ptr(),
                    )
                };
                assert_eq!((status, out), (0, want));
            }
            // pieces short of the data, or beyond it
            assert_eq!(root_of_pieces(&data[..used + 1], &raw, b"", true), Err(2));
            if used > 0 {
                assert_eq!(root_of_pieces(&data[..used - 1], &raw, b"", true), Err(2));
            }
        }
        assert_eq!(root_of_pieces(&[], &[], b"", true), Err(1));
    }
}
