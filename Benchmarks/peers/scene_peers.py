#!/usr/bin/env python3
"""Peer figures for Benchmarks/Benchmarks/Scene on the same data.

Prints the best of N runs for:
  - Open3D voxel_down_sample of 10M coloured points (voxel 0.01, unit cube)
  - Open3D write_point_cloud / read_point_cloud of 1M coloured points, binary PLY
  - numpy tofile of the same bytes PointPaint writes (float x y z, uchar r g b), and
    Open3D reading that file

The data is the additive-recurrence sequence the Swift benchmark uses:
frac(0.5 + i*alpha) in float64, rounded to float32; colours from offset 0.25.
Usage: python3 Benchmarks/peers/scene_peers.py [--runs 3] [--pointpaint .build/release/pointpaint]
"""
import argparse
import os
import subprocess
import tempfile
import time

import numpy as np
import open3d as o3d

G = 1.2207440846057596
ALPHA = np.array([1 / G, 1 / G**2, 1 / G**3])


def sequence(n, offset):
    v = offset + np.arange(n, dtype=np.float64)[:, None] * ALPHA
    return (v - np.floor(v)).astype(np.float32)


def best(runs, fn, before=None):
    times = []
    result = None
    for _ in range(runs):
        if before:
            before()
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return min(times), result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pointpaint", help="also time `pointpaint voxelize` end to end on the 10M file")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="pointpaint-peers-")

    n = 10_000_000
    pts, cols = sequence(n, 0.5), sequence(n, 0.25)
    pc = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(pts.astype(np.float64)))
    pc.colors = o3d.utility.Vector3dVector(cols.astype(np.float64))
    t, down = best(args.runs, lambda: pc.voxel_down_sample(0.01))
    print(f"open3d voxel_down_sample 10M -> {len(down.points)} voxels: {t:.3f} s")

    m = 1_000_000
    p1, c1 = pts[:m], np.floor(cols[:m] * 255).astype(np.uint8)
    pc1 = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(p1.astype(np.float64)))
    pc1.colors = o3d.utility.Vector3dVector(c1.astype(np.float64) / 255)
    o3d_file = os.path.join(tmp, "open3d-1M.ply")
    t, _ = best(args.runs, lambda: o3d.io.write_point_cloud(o3d_file, pc1, write_ascii=False))
    print(f"open3d write_point_cloud 1M binary: {t:.4f} s")
    t, r = best(args.runs, lambda: o3d.io.read_point_cloud(o3d_file))
    print(f"open3d read_point_cloud 1M (its own file, double xyz): {t:.4f} s ({len(r.points)} points)")

    rec = np.empty(m, dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("r", "u1"), ("g", "u1"), ("b", "u1")])
    rec["x"], rec["y"], rec["z"] = p1[:, 0], p1[:, 1], p1[:, 2]
    rec["r"], rec["g"], rec["b"] = c1[:, 0], c1[:, 1], c1[:, 2]
    header = (
        "ply\nformat binary_little_endian 1.0\nelement vertex %d\nproperty float x\nproperty float y\n"
        "property float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n" % m
    ).encode()
    raw_file = os.path.join(tmp, "numpy-1M.ply")

    def remove():
        # A new file each time, as the Swift benchmark writes one (replacing an existing file
        # also times the file system freeing the old one).
        if os.path.exists(raw_file):
            os.remove(raw_file)

    def tofile():
        with open(raw_file, "wb") as f:
            f.write(header)
            rec.tofile(f)

    t, _ = best(args.runs, tofile, before=remove)
    print(f"numpy tofile 1M (same bytes as PointPaint, 15 B/vertex): {t:.4f} s")
    t, r = best(args.runs, lambda: o3d.io.read_point_cloud(raw_file))
    print(f"open3d read_point_cloud 1M (float xyz + uchar rgb file): {t:.4f} s ({len(r.points)} points)")

    if args.pointpaint:
        big = os.path.join(tmp, "in-10M.ply")
        rec10 = np.empty(n, dtype=rec.dtype)
        rec10["x"], rec10["y"], rec10["z"] = pts[:, 0], pts[:, 1], pts[:, 2]
        c10 = np.floor(cols * 255).astype(np.uint8)
        rec10["r"], rec10["g"], rec10["b"] = c10[:, 0], c10[:, 1], c10[:, 2]
        with open(big, "wb") as f:
            f.write(header.replace(b"vertex %d" % m, b"vertex %d" % n))
            rec10.tofile(f)
        out = os.path.join(tmp, "out.ply")
        t, res = best(args.runs, lambda: subprocess.run(
            [args.pointpaint, "voxelize", big, "-o", out, "--voxel-size", "0.01"], check=True,
            capture_output=True, text=True))
        print(f"pointpaint voxelize 10M end to end (read+voxelise+write): {t:.3f} s  [{res.stdout.strip()}]")


if __name__ == "__main__":
    main()
