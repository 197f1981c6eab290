#!/usr/bin/env bash
# Viewer frame time (the ViewerBenchmark target of this package) beside a plain C + OpenGL program
# drawing the same scene, in the same run, offscreen at 1280x720 under Xvfb (Mesa llvmpipe): 100k
# instanced boxes, then 1M voxels (the viewer falls back to points past its box budget; the C peer
# draws the same points).
#   Benchmarks/peers/viewer_bench.sh            # FRAMES=20 ROUNDS=2 SCRATCH=.build-viewer
# Targets: 100k boxes <= 1.2x the C program's time; 1M voxels < 150 ms/frame.
set -euo pipefail
cd "$(dirname "$0")/../.."
scratch=${SCRATCH:-.build-viewer}
frames=${FRAMES:-20}
rounds=${ROUNDS:-2}
swift build -c release --package-path Benchmarks --scratch-path "$scratch" --product ViewerBenchmark >&2
bin="$(swift build -c release --package-path Benchmarks --scratch-path "$scratch" --show-bin-path)/ViewerBenchmark"
cc -O2 -Wall -o "$scratch/cubes" Benchmarks/peers/cubes.c -lglfw -lGL -lm
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" bash -c '
    set -e
    for round in $(seq '"$rounds"'); do
        echo "round $round"
        "$0/cubes" 100000 '"$frames"'
        "$1" 100000 '"$frames"'
        "$0/cubes" 1000000 '"$frames"' points
        "$1" 1000000 '"$frames"'
    done' "$scratch" "$bin"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
