#!/usr/bin/env bash
# `pointpaint paint` beside its NumPy peer (peers/paint_numpy.py) in the same run (issue 13):
# a cloud of POINTS points (default 4,000,000) painted from FRAMES frames (default 260) of a
# 1920x1440 NV12 capture, --visibility zbuffer --exposure off --accumulate mean, as whole
# processes that alternate (peer, pointpaint, peer, ...) after a check that the two agree.
#
# The workload: `pointpaint synth --occluders` (posts in front of the boxes, so the z-buffer has
# work) writes the capture and its surfaces sampled every 5 mm (scene.ply, hidden faces
# included, about 3.3 M points); the cloud is those points plus an even share of the same
# surfaces sampled every 1 cm, up to POINTS. Frames are read from the page cache.
#   Benchmarks/peers/paint_bench.sh             # RUNS=3 FRAMES=260 POINTS=4000000
#   POINTPAINT=path/to/pointpaint ...           # default: .build-rel/release/pointpaint (built if absent)
# Target: pointpaint at most 0.1x the peer's wall time. Prints points x frames per second.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-3}
frames=${FRAMES:-260}
points=${POINTS:-4000000}
bin=${POINTPAINT:-.build-rel/release/pointpaint}
dir=${TMPDIR:-/tmp}/pointpaint-paint-bench
if [[ ! -x "$bin" ]]; then
  swift build -c release --product pointpaint --scratch-path .build-rel >&2
fi
mkdir -p "$dir"
capture="$dir/capture-$frames"
if [[ ! -f "$capture/scene.ply" ]]; then
  echo "synthesizing $frames frames of 1920x1440 into $capture ($((frames * 4147200 / 1000000)) MB)" >&2
  "$bin" synth -o "$capture" --frames "$frames" --size 1920x1440 --points 200 --occluders --scene-cloud 0.005 --seed 3 >&2
fi
if [[ ! -f "$dir/coarse/scene.ply" ]]; then
  "$bin" synth -o "$dir/coarse" --frames 1 --size 64x48 --points 10 --occluders --scene-cloud 0.01 --seed 3 >&2
fi
cloud="$dir/cloud-$points.ply"
[[ -f "$cloud" ]] || python3 - "$capture/scene.ply" "$dir/coarse/scene.ply" "$points" "$cloud" <<'PY'
import sys
import numpy as np
sys.path.insert(0, "Benchmarks/peers")
from paint_numpy import read_ply, write_ply
fine, coarse, n, out = read_ply(sys.argv[1]), read_ply(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def xyz(v): return np.stack([v["x"], v["y"], v["z"]], axis=1)
def rgb(v): return np.stack([v["red"], v["green"], v["blue"]], axis=1)
if n <= len(fine):
    take = np.linspace(0, len(fine) - 1, n).astype(np.int64)
    positions, colors = xyz(fine)[take], rgb(fine)[take]
else:
    extra = n - len(fine)
    if extra > len(coarse):
        sys.exit(f"at most {len(fine) + len(coarse)} points from these surfaces")
    take = np.linspace(0, len(coarse) - 1, extra).astype(np.int64)
    positions = np.concatenate([xyz(fine), xyz(coarse)[take]])
    colors = np.concatenate([rgb(fine), rgb(coarse)[take]])
write_ply(out, positions, colors)
print(f"wrote {out}: {len(positions)} points", file=sys.stderr)
PY

# Agreement first, on the first 8 frames: the peer fails unless its colours and view counts match.
"$bin" paint "$cloud" "$capture" -o "$dir/check.ply" --frames ..7 --visibility zbuffer --exposure off --accumulate mean --weights off \
  --point-spacing 0.005 --float-colors always --quality-properties --quiet >&2
python3 Benchmarks/peers/paint_numpy.py "$cloud" "$capture" --point-spacing 0.005 --frames 8 --check "$dir/check.ply" --quiet

cat "$capture"/frames/* > /dev/null   # page cache
python3 - "$bin" "$cloud" "$capture" "$dir" "$runs" "$frames" "$points" <<'PY'
import os, statistics, subprocess, sys, time
bin_, cloud, capture, d, runs, frames, points = sys.argv[1:8]
runs, frames, points = int(runs), int(frames), int(points)
commands = {
    "numpy": [sys.executable, "Benchmarks/peers/paint_numpy.py", cloud, capture, "--point-spacing", "0.005",
              "-o", os.path.join(d, "numpy.ply"), "--quiet"],
    "pointpaint": [bin_, "paint", cloud, capture, "-o", os.path.join(d, "pointpaint.ply"), "--visibility", "zbuffer",
                   "--exposure", "off", "--accumulate", "mean", "--weights", "off", "--point-spacing", "0.005", "--quiet"],
}
print(f"{points} points x {frames} frames of 1920x1440; load before {open('/proc/loadavg').read().split()[:3]}")
wall = {k: [] for k in commands}
cpu = {k: [] for k in commands}
for run in range(runs):
    for name, command in commands.items():
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        output = process.stdout.read()
        if status != 0:
            sys.exit(f"{name} failed:\n{output}")
        wall[name].append(seconds)
        cpu[name].append(usage.ru_utime + usage.ru_stime)
        print(f"run {run + 1} {name}: {seconds:.2f} s wall, {cpu[name][-1]:.2f} s CPU, peak RSS {usage.ru_maxrss / 1024:.0f} MB", flush=True)
for name in commands:
    w, c = statistics.median(wall[name]), statistics.median(cpu[name])
    print(f"{name}: median {w:.2f} s wall (runs {', '.join(f'{x:.2f}' for x in wall[name])}), {c:.2f} s CPU; "
          f"{points * frames / w / 1e6:.1f} M points x frames / s wall, {points * frames / c / 1e6:.1f} M / s of CPU")
ratio = statistics.median(wall["pointpaint"]) / statistics.median(wall["numpy"])
cratio = statistics.median(cpu["pointpaint"]) / statistics.median(cpu["numpy"])
print(f"pointpaint / numpy: {ratio:.3f}x wall, {cratio:.3f}x CPU (target <= 0.1x wall: {'met' if ratio <= 0.1 else 'missed'}); "
      f"load after {open('/proc/loadavg').read().split()[:3]}")
PY
