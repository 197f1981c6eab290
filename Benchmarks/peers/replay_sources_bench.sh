#!/usr/bin/env bash
# Replay of real-recording layouts beside their decoders, issue 12's targets, peers alternating
# in the same session (run 1 of each, then run 2 of each, …):
#   1. a 300-frame 1920x1440 HEVC Stray Scanner recording (video_decode_bench.sh's rgb.mp4 with a
#      256x192 depth and confidence PNG a frame): `pointpaint replay STRAY` (points from depth,
#      every pixel) against `ffmpeg -threads 2 -i rgb.mp4 -f null -`            target <= 1.3x
#   2. the same 300 frames as JPEG files (ffmpeg -q:v 2, 4:2:0) in a PointPaint capture made by
#      `pointpaint import`: `pointpaint replay V1` against jpeg_planes.c, libjpeg-turbo decoding
#      the same files to Y'CbCr planes on 2 threads and nothing else              target <= 1.3x
#   3. points from depth on one core: the DepthPoints tool (DepthMap.appendPoints over 256x192
#      maps)                                                             target >= 50 M depth px/s
# Every command runs as a whole process; wall and CPU (user + system) seconds are reported, the
# CPU moving less than the wall time when other work shares the machine.
# pointpaint is built in release into the benchmarks' scratch folder with the tools (one release
# build of the library for all three).
#   Benchmarks/peers/replay_sources_bench.sh        # RUNS=5 SCRATCH=.build-bench POINTPAINT=path
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/peers/bench_setup.sh 5
video_bench pointpaint-video-bench
bin=${POINTPAINT:-$scratch/release/pointpaint}
jpegs="$dir/stray-jpeg"
v1="$dir/v1-jpeg"
[[ -n "${POINTPAINT:-}" ]] || swift build -c release --package-path Benchmarks --scratch-path "$scratch" --product pointpaint >&2
stray_load=$(bench_tool StrayLoad)
depth_points=$(bench_tool DepthPoints)
[[ -f "$stray/odometry.csv" ]] || "$stray_load" --make "$stray" "$video" >&2
if [[ ! -f "$v1/capture.json" ]]; then
  rm -rf "$jpegs" "$v1"
  mkdir -p "$jpegs/rgb"
  ffmpeg -nostdin -loglevel error -i "$video" -q:v 2 -pix_fmt yuvj420p -start_number 0 "$jpegs/rgb/%06d.jpg"
  cp "$stray/odometry.csv" "$stray/camera_matrix.csv" "$jpegs/"
  ln -s "$stray/depth" "$jpegs/depth"
  ln -s "$stray/confidence" "$jpegs/confidence"
  "$bin" import "$jpegs" -o "$v1" --quiet >&2
fi
cc -O2 -o "$dir/jpeg_planes" Benchmarks/peers/jpeg_planes.c -lturbojpeg -lpthread
out="$dir/replay.ply"

python3 - "$runs" "$bin" "$video" "$stray" "$v1" "$dir/jpeg_planes" "$out" <<'PY'
import os, resource, statistics, subprocess, sys, time, glob
runs, bin, video, stray, v1, peer, out = int(sys.argv[1]), *sys.argv[2:]
frames = sorted(glob.glob(os.path.join(v1, "frames", "*.jpg")))
pairs = {
    "HEVC Stray": [("ffmpeg", ["ffmpeg", "-nostdin", "-loglevel", "error", "-threads", "2", "-i", video, "-f", "null", "-"]),
                   ("replay", [bin, "replay", stray, "-o", out, "--quiet"])],
    "JPEG v1": [("libjpeg-turbo", [peer, "2"] + frames),
                ("replay", [bin, "replay", v1, "-o", out, "--quiet"])],
}
def timed(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"{command[0]} failed: {result.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), result.stdout.strip().splitlines()[:1]
for name, commands in pairs.items():
    for _, command in commands: timed(command)   # warm the page cache
    times = {label: [] for label, _ in commands}
    lines = {}
    load = open("/proc/loadavg").read().split()[:3]
    for run in range(runs):
        for label, command in commands:
            wall, cpu, line = timed(command)
            times[label].append((wall, cpu))
            lines[label] = line
    after = open("/proc/loadavg").read().split()[:3]
    print(f"{name} ({runs} runs alternating, load {' '.join(load)} -> {' '.join(after)})")
    for label, values in times.items():
        walls, cpus = [w for w, _ in values], [c for _, c in values]
        print(f"  {label}: wall median {statistics.median(walls):.2f} s (min {min(walls):.2f}), CPU median {statistics.median(cpus):.2f} s  {lines[label][0] if lines[label] else ''}")
    (peer_label, _), (ours, _) = commands
    ratio = lambda i: statistics.median([v[i] for v in times[ours]]) / statistics.median([v[i] for v in times[peer_label]])
    print(f"  replay / {peer_label}: wall {ratio(0):.2f}x, CPU {ratio(1):.2f}x")
PY
echo "points from depth, one core:"
for run in $(seq 1 "$runs"); do "$depth_points" 2000; done
