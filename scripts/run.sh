#!/usr/bin/env bash
# The main job: replays the sample capture into a coloured voxel cloud (out/sample.ply) and shows
# it: in a window where a display exists, otherwise as a screenshot (out/sample.png).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

swift build -c release --product pointpaint
bin=.build/release/pointpaint
mkdir -p out
"$bin" replay Captures/sample -o out/sample.ply
if [[ -n "${DISPLAY:-}" ]]; then
  "$bin" view out/sample.ply
else
  xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" view out/sample.ply --screenshot out/sample.png
  echo "no display: wrote a screenshot to out/sample.png"
fi
