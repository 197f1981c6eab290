"""COPC written by PointPaint (`-o x.copc.laz`), read by two independent readers: laspy's
CopcReader (queries by bounds and by level) and copclib (Hobu's COPC library). Both must return
exactly the points of the LAS file the same replay writes."""
import subprocess

import copclib
import laspy
import numpy as np
import pytest
from laspy import Bounds, CopcReader


def run(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def files(tmp_path_factory, pointpaint_bin, repo_root):
    """The iPhone LiDAR frame replayed from its depth at 1 cm as LAS and as COPC."""
    out = tmp_path_factory.mktemp("copc")
    capture = str(repo_root / "Captures" / "iphone-lidar")
    for name in ("x.las", "x.copc.laz"):
        run(pointpaint_bin, "replay", capture, "--points", "depth", "-o", str(out / name), "--quiet")
    return out


def by_coordinates(records):
    return np.sort(records, order=["X", "Y", "Z"])


def test_laspy_copc_reader_returns_every_point(files):
    las = laspy.read(str(files / "x.las"))
    with CopcReader.open(str(files / "x.copc.laz")) as reader:
        assert reader.header.point_format.id == 7
        everything = reader.query()
        assert len(everything) == len(las.points) > 10_000
        assert by_coordinates(everything.array).tobytes() == by_coordinates(las.points.array).tobytes()
        # Level by level: every point at exactly one level, the levels adding up to the whole.
        levels = [reader.query(level=k) for k in range(12)]
        assert sum(len(points) for points in levels) == len(las.points)
        assert len(levels[0]) > 0 and len(levels[1]) > 0
        joined = np.concatenate([points.array for points in levels if len(points)])
        assert by_coordinates(joined).tobytes() == by_coordinates(las.points.array).tobytes()


@pytest.mark.parametrize("corner", [0, 1, 2, 3])
def test_laspy_copc_bounds_queries_match_numpy(files, corner):
    las = laspy.read(str(files / "x.las"))
    low, high = las.header.mins, las.header.maxs
    middle = (low + high) / 2
    lo = np.where([corner & 1, corner & 2, 0], middle, low)
    hi = np.where([corner & 1, corner & 2, 0], high, middle)
    with CopcReader.open(str(files / "x.copc.laz")) as reader:
        found = reader.query(Bounds(mins=lo, maxs=hi))
    xyz = np.stack([las.x, las.y, las.z], axis=1)
    inside = np.all((xyz >= lo) & (xyz <= hi), axis=1)
    assert len(found) == inside.sum() > 0
    assert by_coordinates(found.array).tobytes() == by_coordinates(las.points.array[inside]).tobytes()


def test_copclib_agrees(files, pointpaint_bin):
    las = laspy.read(str(files / "x.las"))
    reader = copclib.FileReader(str(files / "x.copc.laz"))
    assert reader.copc_config.las_header.point_count == len(las.points)
    nodes = reader.GetAllNodes()
    counts = [len(reader.GetPoints(node)) for node in nodes]
    assert sum(counts) == len(las.points)
    xyz = np.concatenate([np.stack([np.array(p.x), np.array(p.y), np.array(p.z)], axis=1) for p in map(reader.GetPoints, nodes)])
    ours = np.stack([las.x, las.y, las.z], axis=1)
    assert np.array_equal(np.unique(xyz, axis=0), np.unique(ours, axis=0))
    info = run(pointpaint_bin, "info", str(files / "x.copc.laz")).stdout
    assert "COPC: %d octree nodes holding %d points" % (len(nodes), len(las.points)) in info
