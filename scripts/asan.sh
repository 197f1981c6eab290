#!/usr/bin/env bash
# The whole Swift test suite under the address sanitizer (out-of-bounds reads and writes,
# use after free, double free, stack overflow), under Xvfb for the viewer's suites. Not part of
# CI (a sanitized build and run take about 20 minutes on 2 cores); docs/reliability.md
# has the last run's result.
#
#   scripts/asan.sh [swift test options, e.g. --filter PLY]
#
# Leaks are not checked here: the GL driver the viewer's tests load (Mesa) keeps allocations
# for the life of the process and is unloaded before LeakSanitizer reports, so its leaks come
# without a module name and cannot be told from ours or suppressed. The fuzzing harnesses
# (scripts/fuzz.sh) check every parser for leaks input by input instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${ASAN_SCRATCH:-.build-asan}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
# The fatal report is ASan's; Swift's backtracer would read the stack under ASan and report itself.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
exec xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" \
  swift test --scratch-path "$scratch" --sanitize=address "$@"
