#!/usr/bin/env bash
# Replay throughput: a 1920x1440 NV12 capture with 1,000 feature points a frame, read from the
# page cache. Synthesizes 20 distinct frames once, then a manifest of 600 frames that cycles
# through them (so the files are cached after the first pass), and times `pointpaint replay`.
# Target (issue 4): at least 500 frames/s on the 2-core reference machine.
# Usage: Benchmarks/replay_bench.sh [path/to/pointpaint]   (default: a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/pointpaint}
[[ -x "$bin" ]] || swift build -c release --product pointpaint
dir=${TMPDIR:-/tmp}/pointpaint-replay-bench
if [[ ! -f "$dir/base/capture.json" ]]; then
  "$bin" synth -o "$dir/base" --frames 20 --size 1920x1440 --points 1000 --encoding nv12 --seed 5
fi
python3 - "$dir" <<'PY'
import json, sys, os
d = sys.argv[1]
base = json.load(open(os.path.join(d, "base", "capture.json")))
frames = base["frames"]
out = dict(base)
out["frames"] = []
for i in range(600):
    f = dict(frames[i % len(frames)])
    f["timestamp"] = i / 60
    for key in ("image", "points"):
        f[key] = "base/" + f[key]
    out["frames"].append(f)
json.dump(out, open(os.path.join(d, "capture.json"), "w"))
PY
"$bin" replay "$dir" -o "$dir/warm.ply" --quiet > /dev/null   # fill the page cache
for run in 1 2 3; do
  "$bin" replay "$dir" -o "$dir/cloud.ply" --quiet | head -1
done
