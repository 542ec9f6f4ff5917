#!/usr/bin/env bash
# Builds the MAINNET reference node 0.8.20 (github.com/warthog-network/core, commit a59f7ddf) from a local bare
# mirror, plus the --regtest-mainnet variant; the patches and compile shims live beside
# this script. GCC 12 / libstdc++ and Debian bookworm packages only; release build, assertions on.
# The mirror: any bare clone of github.com/warthog-network/core holding a59f7ddf
# (`git clone --bare https://github.com/warthog-network/core`).
#
# Usage: build-0.8.sh [--regtest | --regtest-mainnet] [--no-apt] MIRROR_GIT_DIR [WORK_DIR]
#   MIRROR_GIT_DIR     bare git directory; the source is `git archive` of the pinned commit from there.
#   WORK_DIR           default: $TMPDIR/warthog-ref (or /tmp/warthog-ref). Source WORK_DIR/VARIANT/src, build
#                      WORK_DIR/VARIANT/build; VARIANT = reference-0.8, regtest-0.8 or regtest-mainnet-0.8.
#   --regtest          also apply SHIMS_DIR/../regtest-0.8.patch: --testnet speaks our --regtest.
#   --regtest-mainnet  also apply regtest-mainnet-0.8.patch (beside this script): --testnet speaks our
#                      --regtest-mainnet, mainnet's rules of today from height 1 (see README.md).
#   --no-apt           skip the apt-get step (packages already installed).
# SHIMS_DIR: the compile shims, default shims-0.8 beside this script.
# All variants share the ccache WORK_DIR/ccache (CCACHE_DIR overrides). Result: WORK_DIR/VARIANT/build/src/node/wart-node.
set -euo pipefail

COMMIT=a59f7ddf04daa7564c50891256e1379ee9773e06
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SHIMS_DIR="${SHIMS_DIR:-$HERE/shims-0.8}"
VARIANT=reference-0.8
EXTRA=
APT=1
ARGS=()
for a in "$@"; do
  case "$a" in
    --regtest) VARIANT=regtest-0.8 EXTRA="$SHIMS_DIR/../regtest-0.8.patch" ;;
    --regtest-mainnet) VARIANT=regtest-mainnet-0.8 EXTRA="$HERE/regtest-mainnet-0.8.patch" ;;
    --no-apt) APT=0 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) ARGS+=("$a") ;;
  esac
done
[ "${#ARGS[@]}" -ge 1 ] || { echo "usage: $0 [--regtest | --regtest-mainnet] [--no-apt] MIRROR_GIT_DIR [WORK_DIR]" >&2; exit 2; }
ls "$SHIMS_DIR"/*.patch >/dev/null 2>&1 || { echo "no shims in SHIMS_DIR=$SHIMS_DIR (the shims-0.8 folder beside this script, or SHIMS_DIR)" >&2; exit 1; }
[ -z "$EXTRA" ] || [ -f "$EXTRA" ] || { echo "missing $EXTRA" >&2; exit 1; }
MIRROR="${ARGS[0]}"
WORK="${ARGS[1]:-${TMPDIR:-/tmp}/warthog-ref}"
SRC="$WORK/$VARIANT/src"
BUILD="$WORK/$VARIANT/build"
START=$(date +%s)

if [ "$APT" = 1 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends \
    git patch gcc g++ meson ninja-build pkg-config ccache libuv1-dev libspdlog-dev libfmt-dev libsqlite3-dev
fi

git --git-dir="$MIRROR" cat-file -e "$COMMIT^{commit}" || { echo "commit $COMMIT not in $MIRROR" >&2; exit 1; }
rm -rf "$SRC" "$BUILD"
mkdir -p "$SRC"
git --git-dir="$MIRROR" archive "$COMMIT" | tar -x -C "$SRC"
for p in "$SHIMS_DIR"/*.patch $EXTRA; do
  echo "applying $(basename "$p"): $(head -1 "$p" | sed 's/^# //' | cut -c1-160)"
  patch -d "$SRC" -p1 --batch --forward --no-backup-if-mismatch -s -i "$p"
done

export CCACHE_DIR="${CCACHE_DIR:-$WORK/ccache}"
export CCACHE_BASEDIR="$WORK"
CC="ccache gcc" CXX="ccache g++" meson setup "$BUILD" "$SRC" \
  --buildtype=release -Db_ndebug=false -Ddefault_library=static --wrap-mode=nodownload
ninja -C "$BUILD" -j"$(nproc)" src/node/wart-node

echo "built $BUILD/src/node/wart-node in $(($(date +%s) - START)) s"
