#!/usr/bin/env bash
# Runs every PointPaint test: the Swift suites (viewer tests render under Xvfb) and the Python
# cross-checks against outside references (colour-science, plyfile, Open3D, laspy, ffmpeg, Dask).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --python

swift build --build-tests
# -noreset: Xvfb otherwise resets whenever its last client disconnects, and a test opening a
# window in that moment fails with "Failed to open display".
xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" swift test --skip-build

# Thread sanitizer over the suites that sample and convert frames on many threads at once and
# hand them over in order (samplers on many frames in a task group, row bands over cores, the
# ordered pipeline, the frame pass, LAZ chunks and PLY records decoded on every core). Its own scratch path, so the
# debug build above stays as it is; on a 2-core machine about 2 minutes to build, 40 s to run.
swift test --scratch-path .build-tsan --sanitize=thread --filter 'CapturedImageSamplerTests|FrameConverterTests|OrderedPipelineTests|FramePassTests|CloudPainterFramesTests|LAZTests|PLYCloudLayoutTests'

export POINTPAINT_BIN="$PWD/.build/debug/pointpaint"
python3 -m pytest -q Tests/python

# Fuzzing smoke (scripts/fuzz.sh, Tests/Fuzz): every libFuzzer harness built under ASan/UBSan
# and run from its seeds and past findings, 20,000 inputs each with a fixed seed, so a harness
# cannot rot and the run is the same every time (a random-seed run belongs to `scripts/fuzz.sh`,
# not to CI). About 3 minutes to build and 45 s to run on 2 cores.
FUZZ_FLAGS="-seed=1 -runs=20000" bash scripts/fuzz.sh --smoke 8
