#!/usr/bin/env bash
# Stray Scanner's frame loader beside FFmpeg in the same run: the 300-frame 1920x1440 HEVC file
# of video_decode_bench.sh (made here if absent) in a Stray recording (a row a frame, 256x192
# depth and confidence PNGs), loaded whole by the StrayLoad tool (StrayCapture.frames: the video
# decoded in order on the loader's thread with 2 libavcodec frame threads, each frame made into
# the capture's image, depth maps read on another thread) and decoded to nothing by
# `ffmpeg -threads 2 -i rgb.mp4 -f null -`, both as whole processes.
#   Benchmarks/peers/stray_load_bench.sh        # RUNS=10 SCRATCH=.build-bench
# Target (issue 12): a whole replay of such a capture <= 1.3x ffmpeg; the loader is its first part.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/peers/bench_setup.sh 10
video_bench pointpaint-video-bench
bin=$(bench_tool StrayLoad)
[[ -f "$stray/odometry.csv" ]] || "$bin" --make "$stray" "$video" >&2
"$bin" "$stray" 2 >&2   # checks every frame loads; fills the page cache

ffmpeg_cmd=(ffmpeg -nostdin -loglevel error -threads 2 -i "$video" -f null -)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$dir/stray-times.json"
hyperfine -N --warmup 1 --runs "$runs" --export-json "$dir/stray-times.json" \
  -n ffmpeg "${ffmpeg_cmd[*]}" -n StrayLoad "$bin $stray 2" >&2
python3 - "$dir/stray-times.json" <<'PY'
import json, statistics, sys
# Wall seconds per run, and CPU seconds (user + system) per run on average.
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
base, ours = results["ffmpeg"], results["StrayLoad"]
for name, r in results.items():
    print(f"{name}: median {statistics.median(r['times']):.3f} s, min {min(r['times']):.3f} s, CPU {r['user'] + r['system']:.2f} s")
print(f"ratio to ffmpeg: median {statistics.median(ours['times']) / statistics.median(base['times']):.3f}x, "
      f"min {min(ours['times']) / min(base['times']):.3f}x, CPU {(ours['user'] + ours['system']) / (base['user'] + base['system']):.3f}x")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
