#!/usr/bin/env bash
# Builds kernel-rs for wasm32-unknown-unknown with Debian's rustc-web (toolchain.md §2).
# Usage: build-wasm.sh TARGET_DIR   -> TARGET_DIR/wasm32-unknown-unknown/release/kernel.wasm
set -euo pipefail
target_dir=$(realpath -m "${1:-target/wasm}")
cd "$(dirname "$0")/../kernel-rs"
SRC=/usr/lib/rustlib/src/rust/library
LLVM_MAJOR=$(/usr/bin/rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1
# The path remap makes the module byte-identical whatever the checkout directory.
export RUSTFLAGS="--remap-path-prefix=$PWD=. --remap-path-prefix=$target_dir=target"
/usr/bin/cargo build --release --locked --offline -q \
  --target wasm32-unknown-unknown --target-dir "$target_dir" \
  -Zbuild-std=std,panic_abort \
  --config 'source.crates-io.replace-with="debian-rust-std-vendor"' \
  --config "source.debian-rust-std-vendor.directory=\"$SRC/vendor\"" \
  --config "target.wasm32-unknown-unknown.linker=\"wasm-ld-$LLVM_MAJOR\""
