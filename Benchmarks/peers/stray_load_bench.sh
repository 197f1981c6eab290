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
scratch=${SCRATCH:-.build-bench}
runs=${RUNS:-10}
dir=${TMPDIR:-/tmp}/pointpaint-video-bench
video="$dir/rgb.mp4"
stray="$dir/stray"
mkdir -p "$dir"
if [[ ! -f "$video" ]]; then
  echo "encoding $video (300 frames, x265; a few minutes on 2 cores)" >&2
  ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc2=size=1920x1440:rate=30" -frames:v 300 \
    -pix_fmt yuv420p -c:v libx265 -preset fast -b:v 10M -x265-params log-level=error \
    -color_range tv -colorspace bt709 -color_primaries bt709 -color_trc bt709 -tag:v hvc1 "$dir/encoding.mp4"
  mv "$dir/encoding.mp4" "$video"
fi
swift build -c release --package-path Benchmarks --scratch-path "$scratch" --product StrayLoad >&2
bin="$(swift build -c release --package-path Benchmarks --scratch-path "$scratch" --show-bin-path)/StrayLoad"
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
