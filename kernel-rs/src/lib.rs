//! Consensus kernel: the byte-exact, performance-critical rules shared by the Node.js node and
//! browser nodes. Zero dependencies; every export is a raw `extern "C"` function (toolchain.md §4)
//! that takes pointers into linear memory and returns a status code instead of panicking.

pub mod fee16;
pub mod float;
pub mod haraka;
pub mod janus;
pub mod merkle;
pub mod pool;
pub mod price;
pub mod secp256k1;
pub mod sha256;
pub mod verus;

/// Allocates `len` bytes of linear memory for the host to fill; pair with `wasm_free`.
#[no_mangle]
pub extern "C" fn wasm_alloc(len: usize) -> *mut u8 {
    let mut v: Vec<u8> = Vec::with_capacity(len.max(1));
    let p = v.as_mut_ptr();
    core::mem::forget(v);
    p
}

/// # Safety
/// `ptr` must come from `wasm_alloc(len)` with the same `len`, and be freed once.
#[no_mangle]
pub unsafe extern "C" fn wasm_free(ptr: *mut u8, len: usize) {
    drop(Vec::from_raw_parts(ptr, 0, len.max(1)));
}

/// Builds a slice from a host pointer; never from a null pointer, even for length 0.
///
/// # Safety
/// `ptr..ptr+len` must be readable linear memory.
pub(crate) unsafe fn input<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        core::slice::from_raw_parts(ptr, len)
    }
}

/// # Safety
/// `out..out+bytes.len()` must be writable linear memory.
pub(crate) unsafe fn output(out: *mut u8, bytes: &[u8]) {
    core::ptr::copy_nonoverlapping(bytes.as_ptr(), out, bytes.len());
}
