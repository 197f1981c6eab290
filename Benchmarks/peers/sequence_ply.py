"""The benchmarks' test cloud: the additive-recurrence (R3) sequence of scene_peers.py, points
evenly spread over the unit cube, written as a binary little-endian PLY of float x y z and uchar
red green blue (15 bytes a point)."""
import numpy as np

G = 1.2207440846057596
ALPHA = np.array([1 / G, 1 / G**2, 1 / G**3])


def sequence(n, offset, start=0, dtype=np.float32):
    """Points start … start + n − 1 of the sequence shifted by `offset`, in [0, 1)³."""
    v = offset + np.arange(start, start + n, dtype=np.float64)[:, None] * ALPHA
    return (v - np.floor(v)).astype(dtype)


def write_ply(path, n, start=0):
    """Writes points start … start + n − 1: positions from offset 0.5, colours from offset 0.25."""
    rec = np.empty(n, dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1")])
    pts, cols = sequence(n, 0.5, start), np.floor(sequence(n, 0.25, start, np.float64) * 255).astype(np.uint8)
    for i, a in enumerate("xyz"):
        rec[a] = pts[:, i]
    for i, a in enumerate(("red", "green", "blue")):
        rec[a] = cols[:, i]
    header = ("ply\nformat binary_little_endian 1.0\nelement vertex %d\nproperty float x\nproperty float y\n"
              "property float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n" % n)
    with open(path, "wb") as f:
        f.write(header.encode())
        rec.tofile(f)
