#!/usr/bin/env bash
# Sharded replay of a video recording against a plain replay of it (issue 27): a 300-frame
# 1920x1440 HEVC Stray Scanner recording with a keyframe every 30 frames (a second, as phones
# write them), 256x192 depth a frame. For 1, 2 and 8 shards: the shards' total CPU (user +
# system) against the plain replay's, and the wall time of two workers (the shards run two at a
# time, each worker taking the next shard) against the plain replay's. Targets: total CPU at
# most 1.3x, two workers at most 0.6x. The shards are merged and checked byte for byte against
# the plain replay.
#   Benchmarks/peers/shard_video_bench.sh        # RUNS=3 SCRATCH=.build-bench POINTPAINT=path
set -euo pipefail
cd "$(dirname "$0")/../.."
source Benchmarks/peers/bench_setup.sh 3
video_bench pointpaint-shard-bench keyint=30:min-keyint=30:scenecut=0
bin=${POINTPAINT:-$scratch/release/pointpaint}
[[ -n "${POINTPAINT:-}" ]] || swift build -c release --package-path Benchmarks --scratch-path "$scratch" --product pointpaint >&2
stray_load=$(bench_tool StrayLoad)
[[ -f "$stray/odometry.csv" ]] || "$stray_load" --make "$stray" "$video" >&2

python3 - "$runs" "$bin" "$stray" "$dir" <<'PY'
import os, statistics, subprocess, sys, time, filecmp
runs, bin, stray, dir = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]

def measured(commands, workers):
    """Runs commands on `workers` workers (each takes the next command); wall and CPU seconds."""
    start = time.perf_counter()
    before = os.times()
    pending = list(commands)
    running = []
    while pending or running:
        while pending and len(running) < workers:
            running.append(subprocess.Popen(pending.pop(0), stdout=subprocess.DEVNULL))
        pid, status = os.wait()
        running = [p for p in running if p.pid != pid]
        assert os.waitstatus_to_exitcode(status) == 0, "a replay failed"
    after = os.times()
    return time.perf_counter() - start, (after.children_user - before.children_user) + (after.children_system - before.children_system)

plain = os.path.join(dir, "plain.ply")
rows = {}
for run in range(runs):
    rows.setdefault("plain", []).append(measured([[bin, "replay", stray, "-o", plain, "--quiet"]], 1))
    for n in (1, 2, 8):
        parts = [os.path.join(dir, f"part-{k}-of-{n}.ppstore") for k in range(n)]
        commands = [[bin, "replay", stray, "-o", parts[k], "--shard", f"{k}/{n}", "--quiet"] for k in range(n)]
        rows.setdefault(n, []).append(measured(commands, 2))
        merged = os.path.join(dir, f"merged-{n}.ply")
        subprocess.run([bin, "merge", *parts, "-o", merged], check=True, stdout=subprocess.DEVNULL)
        assert filecmp.cmp(merged, plain, shallow=False), f"{n} shards do not merge to the plain replay"
wall0 = statistics.median(w for w, _ in rows["plain"])
cpu0 = statistics.median(c for _, c in rows["plain"])
print(f"plain replay: {wall0:.2f} s wall, {cpu0:.2f} s CPU (median of {runs})")
for n in (1, 2, 8):
    wall = statistics.median(w for w, _ in rows[n])
    cpu = statistics.median(c for _, c in rows[n])
    print(f"{n} shard{'s' if n > 1 else ''} on 2 workers: {wall:.2f} s wall ({wall / wall0:.2f}x), {cpu:.2f} s CPU in all ({cpu / cpu0:.2f}x); merged = plain")
PY
