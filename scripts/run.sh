#!/usr/bin/env bash
# The main job: replays the sample capture into a coloured voxel cloud (out/sample.ply), then
# shows the painted cloud: where a display exists, a window replays the capture live and keeps
# the final cloud to orbit; otherwise a screenshot of it is written to out/sample.png.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

swift build -c release --product pointpaint
bin=.build/release/pointpaint
mkdir -p out
"$bin" replay Captures/sample -o out/sample.ply
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  "$bin" view Captures/sample
else
  xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" "$bin" view out/sample.ply --screenshot out/sample.png
  echo "no display: wrote a screenshot of the painted cloud to out/sample.png"
fi
