#!/usr/bin/env bash
# Coverage-guided fuzzing of PointPaint's parsers with libFuzzer, under the address and
# undefined-behaviour sanitizers.
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]   build, then run TARGET (default: all, one after the
#                                            other) for SECONDS each (default 20), from its seeds
#   scripts/fuzz.sh --smoke [SECONDS]        build, then every target for SECONDS (default 10),
#                                            as many at once as there are cores: what CI runs
#   scripts/fuzz.sh --build                  build only
#   scripts/fuzz.sh --list                   the targets
#   scripts/fuzz.sh --replay TARGET FILE...  run TARGET once on each FILE (a crash's input)
#
# The harnesses (Tests/Fuzz/Harnesses, one a parser entry point) call the API the CLI runs. They
# are built here, outside SwiftPM, into one program (.build-fuzz/pointpaint-fuzz, the target
# named by FUZZ_TARGET): the library's sources compiled once with coverage instrumentation
# (-sanitize=fuzzer,address, optimised with assertions on, -enable-testing so a harness can reach
# internal entry points through @testable import), the C targets with
# -fsanitize=fuzzer-no-link,address,undefined (Swift has no -sanitize=undefined on Linux; the C
# code's UBSan handlers come with the ASan runtime), then one link.
#
# Inputs a run finds go to .build-fuzz/corpus/TARGET (the seeds in Tests/Fuzz/Corpus/TARGET and
# the minimised inputs of past findings in Tests/Fuzz/Regressions/TARGET stay as they are),
# crashes to .build-fuzz/artifacts/TARGET, logs to .build-fuzz/logs. A run fails on a crash, a
# leak, an error that is not one clear line, a broken invariant, an input taking more than
# FUZZ_TIMEOUT seconds (default 1) or memory past FUZZ_RSS_MB (default 512). FUZZ_FLAGS adds
# libFuzzer flags.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$root/.build-fuzz
binary=$build/pointpaint-fuzz
# A harness's fatalError is reported by libFuzzer; Swift's own backtracer would read the stack
# under ASan and report itself instead.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

# target → dictionary (Tests/Fuzz/Dictionaries/NAME.dict), in the order runs take them.
declare -A dictionary=(
  [manifest]=json [xyz]=xyz [cube]=cube [ply-header]=ply [ply-ascii]=ply [ply-binary]=ply [ply-cloud]=ply
  [png-cube]=png [png-image]=png [png-plane]=png [jpeg]=jpeg [exr]=exr [lzfse]=lzfse [zip]=zip [npy]=npy
  [store]=store [las]=las [laz]=laz [copc]=copc [stray-csv]=csv [r3d]=zip [record3d-metadata]=app-json [polycam-camera]=app-json
  [scanner-frame]=app-json [nerfstudio]=app-json [poses]=poses
)
targets=(manifest xyz cube ply-header ply-ascii ply-binary ply-cloud png-cube png-image png-plane
         jpeg exr lzfse zip npy store las laz copc stray-csv r3d record3d-metadata polycam-camera scanner-frame nerfstudio poses)

swiftc=${SWIFTC:-swiftc}
clang=${CLANG:-clang}
packages=(libpng libturbojpeg libzip libavformat libavcodec libavutil)
c_flags=$(pkg-config --cflags "${packages[@]}")
libs="$(pkg-config --libs "${packages[@]}") -lOpenEXRCore"
# C targets compiled here (their include/ folder becomes a module), and system-library modules.
c_modules=(PNGCodec EXRCodec CFFmpegSupport CPointPaintSupport CPointPaintKernels LAZCodec)
system_modules=(CPNG CTurboJPEG CZip CFFmpeg)

# Newer than every file under the given paths? (make's rule, without make)
up_to_date() {
  local product=$1; shift
  [[ -e $product ]] || return 1
  [[ -z $(find "$@" -newer "$product" -type f -print -quit) ]]
}

objects=()
module_flags=()
build_library() {
  mkdir -p "$build/modules" "$build/obj"
  for m in "${system_modules[@]}"; do module_flags+=(-Xcc "-fmodule-map-file=$root/Sources/$m/module.modulemap"); done
  for m in "${c_modules[@]}"; do
    mkdir -p "$build/modules/$m"
    local headers="" h
    for h in "Sources/$m/include/"*.h; do headers+="  header \"$root/$h\"\n"; done
    # A name of this process's own: two runs started at once each rename their own file.
    local fresh="$build/modules/$m/module.modulemap.new.$$"
    printf "module %s {\n$headers  export *\n}\n" "$m" > "$fresh"
    cmp -s "$fresh" "$build/modules/$m/module.modulemap" 2>/dev/null || mv "$fresh" "$build/modules/$m/module.modulemap"
    rm -f "$fresh"
    module_flags+=(-Xcc "-fmodule-map-file=$build/modules/$m/module.modulemap")
    for c in "Sources/$m/"*.c; do
      local o="$build/obj/$m-$(basename "$c" .c).o"
      objects+=("$o")
      if ! up_to_date "$o" "Sources/$m" Tests/Fuzz/coverage-ignorelist.txt; then
        echo "fuzz: compiling $c"
        # shellcheck disable=SC2086
        "$clang" -c -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
          -fsanitize-coverage-ignorelist="$root/Tests/Fuzz/coverage-ignorelist.txt" -fno-omit-frame-pointer -I "Sources/$m/include" $c_flags "$c" -o "$o"
      fi
    done
  done
  local lib="$build/obj/PointPaint.o"
  objects+=("$lib")
  if ! up_to_date "$lib" Sources/PointPaint "${c_modules[@]/#/Sources/}"; then
    echo "fuzz: compiling the PointPaint library (instrumented, optimised, assertions on)"
    # shellcheck disable=SC2046
    "$swiftc" -parse-as-library -module-name PointPaint -package-name pointpaint -swift-version 6 \
      -O -assert-config Debug -enable-testing -g -wmo -sanitize=fuzzer,address \
      -emit-module -emit-module-path "$build/modules/PointPaint.swiftmodule" \
      -c -o "$lib" "${module_flags[@]}" $(find Sources/PointPaint -name '*.swift' | sort)
  fi
}

build_all() {
  build_library
  if up_to_date "$binary" Tests/Fuzz/Harnesses "${objects[@]}"; then return; fi
  echo "fuzz: linking pointpaint-fuzz"
  # shellcheck disable=SC2086
  "$swiftc" -parse-as-library -module-name PointPaintFuzz -package-name pointpaint -swift-version 6 \
    -O -assert-config Debug -g -sanitize=fuzzer,address -use-ld=lld \
    -I "$build/modules" "${module_flags[@]}" \
    Tests/Fuzz/Harnesses/*.swift "${objects[@]}" $libs -o "$binary"
}

known() {
  [[ -n ${dictionary[$1]:-} ]] || { echo "fuzz: no target '$1' (see --list)" >&2; exit 2; }
}

# Runs `target` for `seconds` from its seeds and regressions; its log goes to .build-fuzz/logs.
run_target() {
  local target=$1 seconds=$2
  local corpus="$build/corpus/$target" artifacts="$build/artifacts/$target/" log="$build/logs/$target.log"
  mkdir -p "$corpus" "$artifacts" "$build/logs"
  local flags=(-timeout="${FUZZ_TIMEOUT:-1}" -rss_limit_mb="${FUZZ_RSS_MB:-512}" -max_total_time="$seconds"
               -artifact_prefix="$artifacts" -print_final_stats=1 -detect_leaks=1)
  local dict="Tests/Fuzz/Dictionaries/${dictionary[$target]}.dict"
  [[ -f $dict ]] && flags+=(-dict="$dict")
  local dirs=("$corpus" "Tests/Fuzz/Corpus/$target")
  [[ -d Tests/Fuzz/Regressions/$target ]] && dirs+=("Tests/Fuzz/Regressions/$target")
  # shellcheck disable=SC2086
  FUZZ_TARGET=$target "$binary" "${flags[@]}" ${FUZZ_FLAGS:-} "${dirs[@]}" > "$log" 2>&1
}

# One line per target from its log: executions, new inputs, peak memory, slowest input.
summary() {
  local target=$1 status=$2 log="$build/logs/$1.log"
  local runs rss slowest
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  slowest=$(grep -o 'stat::slowest_unit_time_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  printf 'fuzz: %-18s %s  %10s runs  peak %4s MB  slowest %s s\n' "$target" "$status" "$runs" "$rss" "$slowest"
}

run_one() {
  local target=$1 seconds=$2
  if run_target "$target" "$seconds"; then summary "$target" ok; return 0; fi
  summary "$target" FAILED
  grep -m1 -A3 -E 'ERROR|Fatal error|deadly signal|out-of-memory|timeout' "$build/logs/$target.log" | sed 's/^/    /'
  return 1
}

case "${1:-all}" in
  --list) printf '%s\n' "${targets[@]}" ;;
  --build) build_all ;;
  --replay)
    target=${2:?"--replay TARGET FILE..."}; shift 2
    known "$target"; build_all
    FUZZ_TARGET=$target "$binary" -runs=1 "$@"
    ;;
  --smoke)
    seconds=${2:-10}
    start=$(date +%s)
    build_all
    built=$(date +%s)
    jobs=$(nproc)
    failed=0
    pids=() names=()
    for t in "${targets[@]}"; do
      run_one "$t" "$seconds" & pids+=($!) names+=("$t")
      while (( $(jobs -rp | wc -l) >= jobs )); do wait -n || true; done
    done
    for i in "${!pids[@]}"; do wait "${pids[$i]}" || failed=1; done
    echo "fuzz: smoke of ${#targets[@]} targets, ${seconds} s each, $jobs at once: build $((built - start)) s, runs $(( $(date +%s) - built )) s"
    exit $failed
    ;;
  all)
    build_all
    failed=0
    for t in "${targets[@]}"; do run_one "$t" "${2:-20}" || failed=1; done
    exit $failed
    ;;
  *)
    known "$1"; build_all
    run_one "$1" "${2:-20}"
    ;;
esac
