#!/usr/bin/env bash
# The outputs an internal change must leave byte for byte as they are: replays of every capture
# in Captures/ and of each `synth --layout` recording (whole, and as merged shards), paint with
# every --visibility and with --exposure auto, voxelize, merge, lut, and a screenshot of each
# render strategy. Writes the outputs and their checksums (SHA256SUMS) under DIR.
#
#   scripts/baseline.sh DIR [POINTPAINT]          DIR: a new folder; POINTPAINT: the binary
#                                                 (default .build/debug/pointpaint)
#   scripts/baseline.sh --compare DIR1 DIR2       lists the outputs that differ; exit 1 if any
#
# A refactoring step: run it before (on the old binary) and after, then --compare the two.
# Screenshots need a display (under xvfb-run they are Mesa's llvmpipe, which is deterministic).
set -euo pipefail

if [[ ${1:-} == --compare ]]; then
  a=${2:?"--compare DIR1 DIR2"} b=${3:?"--compare DIR1 DIR2"}
  if diff <(cd "$a" && cat SHA256SUMS) <(cd "$b" && cat SHA256SUMS); then
    echo "baseline: $(wc -l < "$a/SHA256SUMS") outputs identical"
  else
    echo "baseline: outputs differ (< $a, > $b)" >&2
    exit 1
  fi
  exit 0
fi

out=${1:?"usage: scripts/baseline.sh DIR [POINTPAINT]"}
pp=$(realpath "${2:-.build/debug/pointpaint}")
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(realpath "$out")
work=$out/.work
rm -rf "$work"
mkdir -p "$work"
# Everything runs in the work folder with relative names: the clouds' headers name their
# sources, and must not differ from one run (or folder) to the next.
cd "$work"
ln -s "$root/Captures/sample" sample
ln -s "$root/Captures/iphone-lidar" iphone-lidar
ln -s "$root/Captures/iphone-lidar.png" photo.png

run() { "$pp" "$@" > /dev/null; }

# Recordings: the samples, and one of each layout the synthesizer writes (small and fixed).
for layout in v1 stray record3d polycam scanner-app nerfstudio; do
  target=$layout
  [[ $layout == record3d ]] && target=record3d.r3d
  run synth -o "$target" --layout "$layout" --frames 6 --size 320x240
done
captures=(sample iphone-lidar v1 stray record3d.r3d polycam scanner-app nerfstudio)

# Replay: each recording whole, and in three shards merged back.
for capture in "${captures[@]}"; do
  name=$(basename "$capture" .r3d)
  run replay "$capture" -o "$out/replay-$name.ply"
  run replay "$capture" -o "$out/replay-$name.las"
  shards=()
  for k in 0 1 2; do
    run replay "$capture" -o "$name-$k.ppstore" --shard "$k/3"
    shards+=("$name-$k.ppstore")
  done
  run merge "${shards[@]}" -o "$out/merge-$name.ppstore"
  run merge "${shards[@]}" -o "$out/merge-$name.ply"
done
run replay stray -o "$out/replay-stray-exposure.ply" --exposure auto --accumulate latest
run replay stray -o "$out/replay-stray-nearest.ply" --interpolation nearest --depth-stride 2 --look cyanotype
run replay scanner-app -o "$out/replay-scanner-app-cloud.ply" --points cloud

# Paint: the synthesizer's truth cloud from its own recording, each visibility, exposure.
for visibility in auto depth zbuffer off; do
  run paint stray/truth.ply stray -o "$out/paint-$visibility.ply" --visibility "$visibility"
done
run paint v1/truth.ply v1 -o "$out/paint-v1-exposure.ply" --exposure auto --accumulate best
run paint stray/truth.ply stray -o "$out/paint-voxels.ply" --voxel-size 0.02 --quality-properties

# Voxelize, LUTs.
run voxelize ../paint-auto.ply -o "$out/voxelize.ply" --voxel-size 0.05
run lut identity -o "$out/lut-identity.png" --size 17
run lut make -o "$out/lut-make.cube" --look cyanotype --strength 0.5 --contrast 0.2
run lut compose "$out/lut-make.cube" "$out/lut-make.cube" -o "$out/lut-compose.cube"
run lut apply "$out/lut-make.cube" --to photo.png -o "$out/lut-apply.png"

# Screenshots of each strategy.
for strategy in shaded flat points gamut views spread; do
  run view ../replay-sample.ply --strategy "$strategy" --screenshot "$out/view-$strategy.png" --size 320x240 --yaw 25 --pitch 15
done

cd "$out"
rm -rf "$work"
(cd "$out" && find . -type f ! -name SHA256SUMS | sort | xargs sha256sum > SHA256SUMS)
echo "baseline: $(wc -l < "$out/SHA256SUMS") outputs in $out"
