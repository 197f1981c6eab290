#!/usr/bin/env python3
"""LAZ throughput of PointPaint's codec against lazrs (laspy's lazrs and lazrs-parallel backends),
end to end and in the same run: decoding a LAZ file into a LAS file, and encoding a LAS file into
a LAZ file, each side reading and writing its own files.

- PointPaint: `pointpaint convert in.laz -o out.las` and `convert in.las -o out.laz`;
- lazrs: `laspy.read(in.laz, laz_backend=…).write(out.las)` and `laspy.read(in.las).write(out.laz,
  laz_backend=…)`.

"Single-threaded" runs both sides under `taskset -c 0` (PointPaint then decodes its chunks on one
core; lazrs's plain backend is single-threaded anyway); "parallel" lets both use every core. Runs
alternate, the best of --runs is reported. The cloud is --points points of --format laid out
as a scanner writes them (scan lines of slowly drifting positions, smooth colour, increasing GPS
time; for point format 7, two scanner channels a line each), with a fixed seed.

Usage: python3 Benchmarks/peers/laz_peers.py [--points 10000000] [--format 7|3] [--runs 3] [--pointpaint .build/release/pointpaint]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import laspy
import numpy as np


def scan(n, fmt, seed=1):
    rng = np.random.default_rng(seed)
    header = laspy.LasHeader(point_format=fmt, version="1.4" if fmt >= 6 else "1.2")
    header.scales = np.array([0.001, 0.001, 0.001])
    header.offsets = np.array([500000.0, 5400000.0, 0.0])
    las = laspy.LasData(header)
    line = np.arange(n) // 2000
    along = np.arange(n) % 2000
    las.X = (along * 25 + rng.integers(-3, 4, n)).astype(np.int32)
    las.Y = (line * 40 + rng.integers(-3, 4, n)).astype(np.int32)
    las.Z = (np.sin(along / 300.0) * 2000 + np.cos(line / 50.0) * 3000 + rng.integers(-20, 21, n)).astype(np.int32)
    las.intensity = (1000 + (along % 97) * 10).astype(np.uint16)
    las.return_number = np.ones(n, np.uint8)
    if fmt >= 6:
        las.scanner_channel = ((np.arange(n) // 2000) % 2).astype(np.uint8)  # two channels, a line each
    las.number_of_returns = np.ones(n, np.uint8)
    las.classification = np.where(las.Z > 0, 2, 1).astype(np.uint8)
    las.gps_time = 1e5 + np.arange(n) * 1e-5
    base = ((np.sin(along / 150.0) + 1) * 20000).astype(np.int64)
    las.red = (base + rng.integers(0, 256, n)).astype(np.uint16)
    las.green = (base // 2 + rng.integers(0, 256, n)).astype(np.uint16)
    las.blue = (base // 3 + rng.integers(0, 256, n)).astype(np.uint16)
    return las


LASPY_DECODE = "import laspy,sys; laspy.read(sys.argv[1], laz_backend=getattr(laspy.LazBackend, sys.argv[3])).write(sys.argv[2])"
LASPY_ENCODE = "import laspy,sys; laspy.read(sys.argv[1]).write(sys.argv[2], laz_backend=getattr(laspy.LazBackend, sys.argv[3]))"


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--points", type=int, default=10_000_000)
    parser.add_argument("--format", type=int, default=7, help="point format: 3 (point-wise) or 7 (layered)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pointpaint", default=".build/release/pointpaint")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src_las, src_laz = os.path.join(tmp, "in.las"), os.path.join(tmp, "in.laz")
        las = scan(args.points, args.format)
        las.write(src_las)
        las.write(src_laz, laz_backend=laspy.LazBackend.Lazrs)
        print("cloud: %d points of format %d, LAS %.1f MB, LAZ %.1f MB" % (args.points, args.format, os.path.getsize(src_las) / 1e6, os.path.getsize(src_laz) / 1e6))
        one = ["taskset", "-c", "0"]
        cases = [
            ("decode, 1 core", one + [args.pointpaint, "convert", src_laz, "-o", os.path.join(tmp, "a.las")],
             one + [sys.executable, "-c", LASPY_DECODE, src_laz, os.path.join(tmp, "b.las"), "Lazrs"]),
            ("decode, every core", [args.pointpaint, "convert", src_laz, "-o", os.path.join(tmp, "a.las")],
             [sys.executable, "-c", LASPY_DECODE, src_laz, os.path.join(tmp, "b.las"), "LazrsParallel"]),
            ("encode, 1 core", one + [args.pointpaint, "convert", src_las, "-o", os.path.join(tmp, "a.laz")],
             one + [sys.executable, "-c", LASPY_ENCODE, src_las, os.path.join(tmp, "b.laz"), "Lazrs"]),
            ("encode, every core", [args.pointpaint, "convert", src_las, "-o", os.path.join(tmp, "a.laz")],
             [sys.executable, "-c", LASPY_ENCODE, src_las, os.path.join(tmp, "b.laz"), "LazrsParallel"]),
        ]
        for name, ours, theirs in cases:
            a, b = [], []
            for _ in range(args.runs):
                a.append(timed(ours))
                b.append(timed(theirs))
            mp = args.points / 1e6
            print("%-20s PointPaint %.2f s (%.1f M points/s)   lazrs %.2f s (%.1f M points/s)   ratio %.2f×"
                  % (name, min(a), mp / min(a), min(b), mp / min(b), min(b) / min(a)))
        same = laspy.read(os.path.join(tmp, "a.las")).points.array.tobytes() == las.points.array.tobytes()
        print("PointPaint's decoded points equal the source: %s" % same)


if __name__ == "__main__":
    main()
