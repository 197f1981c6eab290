"""Store files written by an independent writer of the format (Tests/Fuzz/make_corpus.py's
`store_bytes`, from StoreFile+Format.swift's description, sharing no code with the Swift writer)
read back through `pointpaint`: version 1 plain sums, and version 2 weight sums with sums of
squares. The colours of the PLY that `merge` writes from them are the (weighted) means their sums
say, computed here in float64 and sRGB-encoded by colour-science."""
import sys

import colour
import numpy as np
import plyfile
import pytest

from conftest import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "Tests" / "Fuzz"))
from make_corpus import store_bytes  # noqa: E402

SCALE = float(1 << 24)  # the store's 40.24 fixed point


def voxels(rng, n, weighted):
    """n voxels with codes increasing, 1..9 samples each, weights 1..255 a sample when weighted."""
    out = []
    code = 0
    for _ in range(n):
        code += int(rng.integers(1, 1000))
        count = int(rng.integers(1, 10))
        weights = rng.integers(1, 256, count) if weighted else np.ones(count, dtype=np.int64)
        colours = rng.uniform(-0.1, 1.2, (count, 3))
        fixed = np.round(colours * SCALE).astype(np.int64)
        sums = (fixed * weights[:, None]).sum(axis=0)
        record = (code, *map(int, sums), count, 0, int(rng.integers(0, 5)))
        if weighted:
            squares = (np.round(colours ** 2 * SCALE).astype(np.int64) * weights[:, None]).sum(axis=0)
            record += (int(weights.sum()), *map(int, squares))
        out.append(record)
    return out


@pytest.mark.parametrize("weighted", [False, True])
def test_an_independently_written_store_reads_as_its_sums_say(pointpaint_bin, tmp_path, weighted):
    import subprocess
    rng = np.random.default_rng(7 if weighted else 8)
    records = voxels(rng, 300, weighted)
    path = tmp_path / "in.ppstore"
    path.write_bytes(store_bytes(records, chunk_capacity=64, contents=3 if weighted else 0))
    info = subprocess.run([pointpaint_bin, "info", str(path)], capture_output=True, text=True)
    assert info.returncode == 0, info.stderr
    assert "300 voxels in 5 chunks" in info.stdout
    assert ("voxels keep weight sums and squares" in info.stdout) == weighted
    out = tmp_path / "out.ply"
    run = subprocess.run([pointpaint_bin, "merge", str(path), "-o", str(out), "--float-colors", "always"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    vertex = plyfile.PlyData.read(str(out))["vertex"]
    got = np.stack([vertex["red_f"], vertex["green_f"], vertex["blue_f"]], axis=1).astype(np.float64)
    sums = np.array([r[1:4] for r in records], dtype=np.float64)
    divisor = np.array([r[7] if weighted else r[4] for r in records], dtype=np.float64)
    linear = sums / SCALE / divisor[:, None]
    expected = colour.models.eotf_inverse_sRGB(np.abs(linear)) * np.sign(linear)
    assert len(got) == len(records)
    assert np.abs(got - expected).max() < 2e-6
