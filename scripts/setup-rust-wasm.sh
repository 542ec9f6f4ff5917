#!/usr/bin/env bash
# Installs Debian's rustc-web toolchain, its std source and the matching wasm-ld (toolchain.md §1).
# Idempotent: does nothing when everything is present.
set -euo pipefail
llvm_major() { /usr/bin/rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p'; }
need_install() {
  [ -x /usr/bin/cargo ] && [ -x /usr/bin/rustc ] && [ -e /usr/lib/rustlib/src/rust/library/Cargo.lock ] || return 0
  command -v "wasm-ld-$(llvm_major)" >/dev/null || return 0
  return 1
}
if need_install; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends rustc-web cargo-web rust-web-src >/dev/null
  apt-get install -y -qq --no-install-recommends "lld-$(llvm_major)" >/dev/null
fi
