#!/usr/bin/env python3
"""Peak memory of voxelising a 10M-point PLY into about 1M voxels: `pointpaint voxelize` against
Open3D reading the same file, `voxel_down_sample` and writing the result, each in its own fresh
process (peak RSS from wait4). Runs alternate, so both sides see the same machine.

The file is the Scene benchmarks' additive-recurrence sequence (scene_peers.py): float x y z and
uchar red green blue, binary little-endian, 150 MB.
Usage: python3 Benchmarks/peers/voxelize_rss.py [--runs 3] [--pointpaint .build/release/pointpaint]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

from sequence_ply import write_ply


OPEN3D = """
import sys, open3d as o3d
pc = o3d.io.read_point_cloud(sys.argv[1])
down = pc.voxel_down_sample(0.01)
assert o3d.io.write_point_cloud(sys.argv[2], down)
print(len(pc.points), len(down.points))
"""


def peak(command):
    """Runs `command` under GNU time; returns (seconds, peak RSS in MB, stdout). (Not wait4 on a
    child of this process: a forked child starts as a copy of this one, numpy arrays and all, and
    its maximum RSS counts that copy.)"""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "maxrss %M", *command], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{command[0]} failed: {proc.stderr}")
    rss = int(proc.stderr.strip().splitlines()[-1].split()[1])
    return seconds, rss / 1024, proc.stdout.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--points", type=int, default=10_000_000)
    ap.add_argument("--pointpaint", default=".build/release/pointpaint")
    ap.add_argument("--make", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.make:
        write_ply(args.make, args.points)
        return
    tmp = tempfile.mkdtemp(prefix="pointpaint-rss-")
    src = os.path.join(tmp, "in.ply")
    # In a child, so this process stays small while it starts the measured ones.
    subprocess.run([sys.executable, __file__, "--make", src, "--points", str(args.points)], check=True)
    ours, theirs = [], []
    for run in range(args.runs):
        t, rss, out = peak([args.pointpaint, "voxelize", src, "-o", os.path.join(tmp, "ours.ply"), "--voxel-size", "0.01"])
        ours.append((rss, t))
        print(f"run {run}: pointpaint voxelize  {rss:7.1f} MB peak, {t:6.2f} s  [{out}]")
        t, rss, out = peak([sys.executable, "-c", OPEN3D, src, os.path.join(tmp, "open3d.ply")])
        theirs.append((rss, t))
        print(f"run {run}: Open3D read+down+write {rss:7.1f} MB peak, {t:6.2f} s  [{out}]")
    o, p = min(r for r, _ in ours), min(r for r, _ in theirs)
    print(f"peak RSS: pointpaint {min(r for r, _ in ours):.0f}-{max(r for r, _ in ours):.0f} MB, "
          f"Open3D {min(r for r, _ in theirs):.0f}-{max(r for r, _ in theirs):.0f} MB; ratio of the lows {o / p:.2f}x")
    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
