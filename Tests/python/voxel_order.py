"""The canonical order of clouds written from a store: the Morton (Z-order) code of each voxel's
cell, computed independently of PointPaint's bit tricks (one bit at a time)."""
import numpy as np

BIAS = 1 << 20


def morton_codes(cells):
    """Morton codes of integer cells (N×3, each axis in ±2**20): the biased 21-bit fields
    interleaved x in bit 0, y in bit 1, z in bit 2."""
    biased = np.asarray(cells, dtype=np.int64) + BIAS
    assert (biased >= 0).all() and (biased < 1 << 21).all()
    biased = biased.astype(np.uint64)
    codes = np.zeros(len(biased), dtype=np.uint64)
    for bit in range(21):
        for axis in range(3):
            codes |= ((biased[:, axis] >> np.uint64(bit)) & np.uint64(1)) << np.uint64(3 * bit + axis)
    return codes


def morton_order(cells):
    """Indices that sort `cells` (distinct) into Morton order."""
    return np.argsort(morton_codes(cells), kind="stable")
