# Sourced by the shell benchmarks after `cd` to the repository: their shared set-up.
#   source Benchmarks/peers/bench_setup.sh [RUNS]
# sets scratch, the benchmarks' build folder ($SCRATCH, default .build-bench), and runs, how many
# times each command is timed ($RUNS, else the argument, else 5).
#   bench_tool PRODUCT               builds the Benchmarks package's PRODUCT in release into
#                                    $scratch and prints the path of the executable
#   video_bench NAME [X265_PARAMS]   sets dir (${TMPDIR:-/tmp}/NAME), stray ($dir/stray) and video
#                                    ($dir/rgb.mp4), encoding the video unless it exists: 300
#                                    frames of 1920x1440 HEVC (x265 at about 10 Mb/s, a moving
#                                    testsrc2 pattern at 30 fps, yuv420p, BT.709 tags, as Stray
#                                    Scanner records). X265_PARAMS are added to x265's
#                                    (keyint=30:… for a keyframe every 30 frames).
scratch=${SCRATCH:-.build-bench}
runs=${RUNS:-${1:-5}}

bench_tool() {
  swift build -c release --package-path Benchmarks --scratch-path "$scratch" --product "$1" >&2
  echo "$(swift build -c release --package-path Benchmarks --scratch-path "$scratch" --show-bin-path)/$1"
}

video_bench() {
  local extra=${2:+:$2}
  dir=${TMPDIR:-/tmp}/$1
  stray="$dir/stray"
  video="$dir/rgb.mp4"
  mkdir -p "$dir"
  [[ -f "$video" ]] && return 0
  echo "encoding $video (300 frames, x265${2:+, $2}; a few minutes on 2 cores)" >&2
  ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc2=size=1920x1440:rate=30" -frames:v 300 \
    -pix_fmt yuv420p -c:v libx265 -preset fast -b:v 10M -x265-params "log-level=error$extra" \
    -color_range tv -colorspace bt709 -color_primaries bt709 -color_trc bt709 -tag:v hvc1 "$dir/encoding.mp4"
  mv "$dir/encoding.mp4" "$video"
}
