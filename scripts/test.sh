#!/usr/bin/env bash
# Runs every PointPaint test: the Swift suites (viewer tests render under Xvfb) and the Python
# cross-checks against outside references (colour-science, plyfile, Open3D, ffmpeg).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --python

swift build --build-tests
xvfb-run -a -s "-screen 0 1920x1080x24" swift test --skip-build

export POINTPAINT_BIN="$PWD/.build/debug/pointpaint"
python3 -m pytest -q Tests/python
