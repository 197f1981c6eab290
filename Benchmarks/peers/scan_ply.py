#!/usr/bin/env python3
"""Writes a scan-like voxel cloud as a binary PLY, for the viewer's big-cloud screenshot.

A season of captures over a site: a heightfield of rolling ground at 1 cm (one voxel per cell of
a square grid, as a depth-derived cloud holds a surface), blocks standing on it (raised parts of
the heightfield, so the depth steps at their edges), coloured by a ground pattern and the block
colours, plus a handful of stray points tens to hundreds of metres away (as ARKit's feature
points leave). `comment voxel_size 0.01` sets the viewer's box size.

    python3 Benchmarks/peers/scan_ply.py /tmp/scan20m.ply --voxels 20000000
    xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" .build/release/pointpaint view /tmp/scan20m.ply \
        --screenshot /tmp/scan20m.png --strategy points

Needs numpy. Deterministic (fixed seed).
"""
import argparse
import math

import numpy as np


def cloud(voxels, outliers, seed=1):
    rng = np.random.default_rng(seed)
    count = voxels - outliers
    side = math.ceil(math.sqrt(count))
    i = np.arange(count, dtype=np.int64)
    x = ((i % side) - side / 2).astype(np.float32) * np.float32(0.01)
    z = ((i // side) - side / 2).astype(np.float32) * np.float32(0.01)
    ground = 0.8 * np.sin(x * 0.21) * np.cos(z * 0.17) + 0.25 * np.sin(x * 1.1 + z * 0.9)
    # Blocks: a coarse 4 m grid of cells, about a third of them raised 0.5-3 m.
    cell = 4.0
    cx, cz = np.floor(x / cell).astype(np.int64), np.floor(z / cell).astype(np.int64)
    cells = math.ceil(side * 0.01 / cell) + 2
    heights = rng.uniform(0.5, 3.0, size=(cells, cells)) * (rng.random((cells, cells)) < 0.35)
    tints = rng.uniform(0.25, 0.95, size=(cells, cells, 3))
    fx, fz = x / cell - cx, z / cell - cz
    inside = (fx > 0.15) & (fx < 0.85) & (fz > 0.15) & (fz < 0.85)
    ix, iz = cx + cells // 2, cz + cells // 2
    block = np.where(inside, heights[ix, iz], 0.0)
    y = np.round((ground + block) / 0.01) * 0.01
    # Ground: grass-like greens with a 1 m checker; blocks: their own colour.
    checker = ((np.floor(x) + np.floor(z)) % 2).astype(np.float32)
    shade = 0.75 + 0.25 * np.sin(x * 3.1) * np.cos(z * 2.3)
    r = np.where(block > 0, tints[ix, iz, 0], (0.30 + 0.15 * checker) * shade)
    g = np.where(block > 0, tints[ix, iz, 1], (0.55 + 0.10 * checker) * shade)
    b = np.where(block > 0, tints[ix, iz, 2], (0.25 + 0.05 * checker) * shade)
    # Stray points: 30-300 m out in any direction.
    directions = rng.normal(size=(outliers, 3))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    far = directions * rng.uniform(30, 300, size=(outliers, 1))
    positions = np.concatenate([np.stack([x, y, z], axis=1), far]).astype("<f4")
    colors = np.concatenate([np.stack([r, g, b], axis=1), np.full((outliers, 3), 0.9)])
    colors = np.clip(np.round(colors * 255), 0, 255).astype(np.uint8)
    return positions, colors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--voxels", type=int, default=20_000_000)
    parser.add_argument("--outliers", type=int, default=40)
    arguments = parser.parse_args()
    positions, colors = cloud(arguments.voxels, arguments.outliers)
    rows = np.empty(len(positions), dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("r", "u1"), ("g", "u1"), ("b", "u1")])
    rows["x"], rows["y"], rows["z"] = positions[:, 0], positions[:, 1], positions[:, 2]
    rows["r"], rows["g"], rows["b"] = colors[:, 0], colors[:, 1], colors[:, 2]
    header = ("ply\nformat binary_little_endian 1.0\ncomment voxel_size 0.01\n"
              f"element vertex {len(rows)}\nproperty float x\nproperty float y\nproperty float z\n"
              "property uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n")
    with open(arguments.output, "wb") as f:
        f.write(header.encode("ascii"))
        rows.tofile(f)
    print(f"wrote {arguments.output}: {len(rows)} voxels ({arguments.outliers} stray)")


if __name__ == "__main__":
    main()
