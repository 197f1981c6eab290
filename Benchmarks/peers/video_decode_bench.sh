#!/usr/bin/env bash
# Video decoding beside FFmpeg in the same run: a 300-frame 1920x1440 HEVC file (x265 at about
# 10 Mb/s, a moving testsrc2 pattern at 30 fps, yuv420p, BT.709 tags, as Stray Scanner records),
# decoded to nothing by `ffmpeg -threads 2 -i X -f null -` and to Y′CbCr planes by PointPaint's
# VideoDecoder (2 libavcodec frame threads, the plane copies on the calling thread), both as
# whole processes. Also PointPaint without the copies (--no-copy), to show what they cost.
#   Benchmarks/peers/video_decode_bench.sh        # RUNS=10 SCRATCH=.build-bench
# Target (issue 12): replay of such a capture <= 1.3x ffmpeg; the decoder's own aim <= 1.1x.
# Uses hyperfine when installed (apt install hyperfine), else (or with TIMER=time) an interleaved
# loop of /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/peers/bench_setup.sh 10
video_bench pointpaint-video-bench
bin=$(bench_tool VideoDecode)
"$bin" "$video" 2 >&2   # checks every frame decodes; fills the page cache

ffmpeg_cmd=(ffmpeg -nostdin -loglevel error -threads 2 -i "$video" -f null -)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$dir/times.json" "$dir/times.txt"
if [[ ${TIMER:-} != time ]] && command -v hyperfine > /dev/null; then
  hyperfine -N --warmup 1 --runs "$runs" --export-json "$dir/times.json" \
    -n ffmpeg "${ffmpeg_cmd[*]}" -n pointpaint "$bin $video 2" -n "pointpaint --no-copy" "$bin $video 2 --no-copy" >&2
else
  for _ in $(seq "$runs"); do   # interleaved, so a change in load hits all three alike
    /usr/bin/time -a -o "$dir/times.txt" -f "ffmpeg %e %U %S" "${ffmpeg_cmd[@]}"
    /usr/bin/time -a -o "$dir/times.txt" -f "pointpaint %e %U %S" "$bin" "$video" 2 > /dev/null
    /usr/bin/time -a -o "$dir/times.txt" -f "pointpaint --no-copy %e %U %S" "$bin" "$video" 2 --no-copy > /dev/null
  done
fi
python3 - "$dir" <<'PY'
import collections, json, os, statistics, sys
# Wall seconds per run, and CPU seconds (user + system) per run on average: on a shared machine
# the CPU time moves less with the load than the wall time does.
wall, cpu = collections.defaultdict(list), {}
if os.path.exists(os.path.join(sys.argv[1], "times.json")):
    for r in json.load(open(os.path.join(sys.argv[1], "times.json")))["results"]:
        wall[r["command"]], cpu[r["command"]] = r["times"], r["user"] + r["system"]
else:
    runs = collections.defaultdict(list)
    for line in open(os.path.join(sys.argv[1], "times.txt")):
        words = line.split()
        name, (seconds, user, system) = " ".join(words[:-3]), map(float, words[-3:])
        wall[name].append(seconds)
        runs[name].append(user + system)
    cpu = {name: statistics.mean(values) for name, values in runs.items()}
base = wall["ffmpeg"]
print(f"ffmpeg: median {statistics.median(base):.3f} s, min {min(base):.3f} s, CPU {cpu['ffmpeg']:.2f} s ({len(base)} runs)")
for name in ("pointpaint", "pointpaint --no-copy"):
    t = wall[name]
    print(f"{name}: median {statistics.median(t):.3f} s, min {min(t):.3f} s, CPU {cpu[name]:.2f} s; ratio to ffmpeg: "
          f"median {statistics.median(t) / statistics.median(base):.3f}x, min {min(t) / min(base):.3f}x, "
          f"CPU {cpu[name] / cpu['ffmpeg']:.3f}x")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
