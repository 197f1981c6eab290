#!/usr/bin/env bash
# Builds Apple's reference LZFSE library (github.com/lzfse/lzfse, BSD licence) as OUT_DIR/liblzfse.so,
# the peer of Benchmarks/Benchmarks/Compression and of peers/lzfse_peers.py. Fetches nothing, and
# nothing it builds is committed: give it a copy of the sources you obtained yourself, either a
# checkout of github.com/lzfse/lzfse or the lzfse/ folder of the pyliblzfse source package
# (`pip download --no-binary :all: --no-deps pyliblzfse`, then unpack it).
#
# Flags: -O2, baseline x86-64 like PointPaint's release build. The reference's own Makefile uses -Os,
# which decoded the depth map about 15 % slower here; -O3 measured the same as -O2 within the noise.
#
# Usage: bash Benchmarks/peers/build_lzfse_reference.sh LZFSE_SOURCE_DIR OUT_DIR
#        export LZFSE_REFERENCE_LIB=OUT_DIR/liblzfse.so
set -euo pipefail
if (($# != 2)); then
  echo "usage: $0 LZFSE_SOURCE_DIR OUT_DIR" >&2
  exit 2
fi
src="$1/src"
[[ -f "$src/lzfse_decode_base.c" ]] || { echo "$src/lzfse_decode_base.c not found: not an lzfse source folder" >&2; exit 1; }
mkdir -p "$2"
sources=()
for f in "$src"/*.c; do [[ "$(basename "$f")" == lzfse_main.c ]] || sources+=("$f"); done
"${CC:-cc}" -O2 -DNDEBUG -std=c99 -fPIC -shared -o "$2/liblzfse.so" "${sources[@]}"
echo "built $2/liblzfse.so"
