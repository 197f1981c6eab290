#!/usr/bin/env bash
# Viewer frame time (the ViewerBenchmark target of this package) beside a plain C + OpenGL program
# drawing the same scene, in the same run, offscreen at 1280x720 under Xvfb (Mesa llvmpipe): 100k
# instanced boxes; 1M voxels (the viewer falls back to points past its box budget and draws them
# all, within its 2M point budget; the C peer draws the same points); 20M voxels (the viewer draws
# through its level-of-detail octree: still frames within the 2M budget, moving frames within a
# quarter of it; the C peer draws all 20M points). Each line gives the wall clock a frame and the
# process's CPU time a frame (user + system, llvmpipe's threads included), which moves far less
# when other work shares the machine; the load average is printed each round.
#   Benchmarks/peers/viewer_bench.sh            # FRAMES=20 ROUNDS=2 SCRATCH=.build-bench BIG=20000000
# Targets: 100k boxes <= 1.2x the C program's time; 1M voxels < 150 ms/frame; 20M voxels <= 0.25x
# the C program drawing all 20M points and < 150 ms/frame.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/peers/bench_setup.sh
frames=${FRAMES:-20}
rounds=${ROUNDS:-2}
big=${BIG:-20000000}
bin=$(bench_tool ViewerBenchmark)
cc -O2 -Wall -o "$scratch/cubes" Benchmarks/peers/cubes.c -lglfw -lGL -lm
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" bash -c '
    set -e
    for round in $(seq '"$rounds"'); do
        echo "round $round (load $(cut -d" " -f1 /proc/loadavg))"
        "$0/cubes" 100000 '"$frames"'
        "$1" 100000 '"$frames"'
        "$0/cubes" 1000000 '"$frames"' points
        "$1" 1000000 '"$frames"'
        "$0/cubes" '"$big"' 3 points
        "$1" '"$big"' '"$frames"'
    done' "$scratch" "$bin"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
