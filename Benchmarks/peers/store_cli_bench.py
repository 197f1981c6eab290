#!/usr/bin/env python3
"""Store files through the command line, alternating in one session (the ordo-one Store target
measures the same in process; this needs only a release `pointpaint`):

- merge against read: four stores of 2.5M points each at 0.01 (the additive-recurrence sequence
  of scene_peers.py, shard k holding points 2.5M·k …; about 1M voxels each, most shared) merged
  into one store, against `info` on the same four (which reads and checksums every chunk);
- LAS against PLY: a store of 1M voxels (1M points at 0.001) written by `merge ONE -o` as binary
  PLY and as LAS (both read the same store; the difference is the writer).

Reports the best of --runs wall times and voxels a second. Usage:
python3 Benchmarks/peers/store_cli_bench.py [--runs 5] [--pointpaint .build/release/pointpaint]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from sequence_ply import write_ply


def timed(command):
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {done.stderr}")
    return time.perf_counter() - start, done.stdout


def voxels(bin, store):
    out = subprocess.run([bin, "info", store], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"(\d+) voxels in ", out).group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pointpaint", default=".build/release/pointpaint")
    args = ap.parse_args()
    bin = os.path.abspath(args.pointpaint)
    tmp = tempfile.mkdtemp(prefix="pointpaint-store-cli-")
    try:
        shards = []
        for k in range(4):
            ply = os.path.join(tmp, f"shard-{k}.ply")
            write_ply(ply, 2_500_000, start=k * 2_500_000)
            store = os.path.join(tmp, f"shard-{k}.ppstore")
            subprocess.run([bin, "voxelize", ply, "-o", store, "--voxel-size", "0.01"], check=True, capture_output=True)
            os.remove(ply)
            shards.append(store)
        read_voxels = sum(voxels(bin, s) for s in shards)
        merged = os.path.join(tmp, "merged.ppstore")
        ply = os.path.join(tmp, "million.ply")
        write_ply(ply, 1_000_000)
        million = os.path.join(tmp, "million.ppstore")
        subprocess.run([bin, "voxelize", ply, "-o", million, "--voxel-size", "0.001"], check=True, capture_output=True)
        os.remove(ply)
        million_voxels = voxels(bin, million)
        times = {"read": [], "merge": [], "ply": [], "las": []}
        for run in range(args.runs):
            times["read"].append(sum(timed([bin, "info", s])[0] for s in shards))
            times["merge"].append(timed([bin, "merge", *shards, "-o", merged])[0])
            times["ply"].append(timed([bin, "merge", million, "-o", os.path.join(tmp, "out.ply")])[0])
            times["las"].append(timed([bin, "merge", million, "-o", os.path.join(tmp, "out.las")])[0])
            print(f"run {run}: " + ", ".join(f"{k} {v[-1]:.3f} s" for k, v in times.items()))
        merged_voxels = voxels(bin, merged)
        best = {k: min(v) for k, v in times.items()}
        print(f"read 4 stores ({read_voxels:,} voxels): {best['read']:.3f} s, {read_voxels / best['read'] / 1e6:.1f} M voxels/s")
        print(f"merge them ({read_voxels:,} in, {merged_voxels:,} out): {best['merge']:.3f} s, "
              f"{read_voxels / best['merge'] / 1e6:.1f} M voxels/s read: {best['read'] / best['merge']:.2f}x of reading")
        print(f"1 store of {million_voxels:,} voxels to binary PLY {best['ply']:.3f} s, to LAS {best['las']:.3f} s: "
              f"LAS {best['las'] / best['ply']:.2f}x PLY")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
