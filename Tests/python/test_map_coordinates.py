"""Clouds in map coordinates (UTM, hundreds of kilometres from the origin), written by laspy and
checked by laspy, plyfile and a float64 reference: voxelised into the cells the exact coordinates
fall in, written with the precision they need (PLY double, LAS steps of at most a sixteenth of
a voxel and 1 mm), and refused in one line when they spread past a store's reach."""
import subprocess

import laspy
import numpy as np
import plyfile

BASE_MM = np.array([500_123_000, 5_400_456_000, 230_000], dtype=np.int64)  # a UTM corner, mm
VOXEL_MM = 50


def run(binary, *args, check=True):
    return subprocess.run([binary, *args], check=check, capture_output=True, text=True)


def utm_cloud(tmp_path, rng, cells=300, spread=400):
    """A LAS 1.4 format 3 file of points at whole millimetres, each at least 5 mm inside its
    5 cm cell (so the float64 reference and any exact reader agree on every cell)."""
    cell = rng.integers(-spread, spread, size=(cells, 3))
    cell = cell[rng.integers(0, cells, size=cells * 5)]  # about five points a cell
    inside = rng.integers(5, VOXEL_MM - 5, size=cell.shape)
    mm = BASE_MM + cell * VOXEL_MM + inside
    colors = rng.integers(0, 256, size=(len(mm), 3))
    header = laspy.LasHeader(point_format=3, version="1.2")
    header.scales = np.array([0.001] * 3)
    header.offsets = (BASE_MM // 1000).astype(np.float64)
    las = laspy.LasData(header)
    las.X, las.Y, las.Z = (mm - BASE_MM // 1000 * 1000).T
    las.red, las.green, las.blue = (colors * 257).T.astype(np.uint16)
    path = tmp_path / "utm.las"
    las.write(str(path))
    return path, mm, colors


def test_utm_cloud_voxelises_into_its_exact_cells(tmp_path, pointpaint_bin):
    rng = np.random.default_rng(28)
    src, mm, colors = utm_cloud(tmp_path, rng)
    out_ply, out_las = tmp_path / "v.ply", tmp_path / "v.las"
    run(pointpaint_bin, "voxelize", str(src), "-o", str(out_ply), "--voxel-size", "0.05")
    run(pointpaint_bin, "voxelize", str(src), "-o", str(out_las), "--voxel-size", "0.05")
    # The reference: cells by integer arithmetic on the millimetres, colours averaged in linear
    # light (float64 sRGB curve).
    cells = np.floor_divide(mm, VOXEL_MM)
    unique, inverse = np.unique(cells, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    c = colors / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    sums = np.zeros((len(unique), 3))
    np.add.at(sums, inverse, linear)
    mean = sums / np.bincount(inverse)[:, None]
    encoded = np.where(mean <= 0.0031308, mean * 12.92, 1.055 * mean ** (1 / 2.4) - 0.055)
    expected = np.floor(np.clip(encoded, 0, 1) * 255 + 0.5)

    v = plyfile.PlyData.read(str(out_ply))["vertex"]
    assert v.data.dtype["x"] == np.float64, "map coordinates need double positions"
    xyz = np.stack([v["x"], v["y"], v["z"]], axis=1)
    got = np.floor(xyz / (VOXEL_MM / 1000)).astype(np.int64)
    order = np.lexsort(got.T[::-1])
    got_sorted = got[order]
    assert np.array_equal(got_sorted, unique), "the same cells as the exact coordinates'"
    centres = (unique + 0.5) * (VOXEL_MM / 1000)
    assert np.abs(xyz[order] - centres).max() <= 0.05 / 16, "centres within a sixteenth of a voxel"
    rgb = np.stack([v["red"], v["green"], v["blue"]], axis=1)[order].astype(np.int64)
    assert np.abs(rgb - expected).max() <= 1 and (rgb == expected).mean() > 0.99

    las = laspy.read(str(out_las))
    h = las.header
    assert (h.scales <= 0.05 / 16 + 1e-15).all() and (h.scales <= 0.001).all()
    # The offset is the lowest cell's corner: the data's minimum, rounded down to the grid.
    assert np.allclose(h.offsets, unique.min(axis=0) * 0.05, rtol=0, atol=1e-6)
    scaled = np.stack([las.x, las.y, las.z], axis=1)
    assert len(scaled) == len(xyz)
    assert np.abs(scaled - xyz).max() < 1e-6, "LAS and PLY agree on every centre"

    info = run(pointpaint_bin, "info", str(out_ply)).stdout
    lo = [float(v) for v in xyz.min(axis=0)]  # Python's shortest digits, as Swift prints them
    assert f"min ({lo[0]!r}, {lo[1]!r}, {lo[2]!r})" in info, info


def test_utm_cloud_paints_from_a_moved_capture(tmp_path, pointpaint_bin, repo_root):
    """The sample's cloud and capture moved to UTM by whole metres paint the colours they paint
    at the origin (after centring, so both runs measure from the cloud's centre)."""
    import json
    import shutil

    truth = plyfile.PlyData.read(str(repo_root / "Captures" / "sample" / "truth.ply"))["vertex"]
    p = np.stack([truth["x"], truth["y"], truth["z"]], axis=1).astype(np.float64)
    shift = -np.round((p.min(axis=0) + p.max(axis=0)) / 2)
    results = []
    for move in [np.zeros(3), np.array([612_345.0, 5_801_234.0, 88.0])]:
        capture = tmp_path / f"cap{len(results)}"
        shutil.copytree(repo_root / "Captures" / "sample", capture)
        manifest = json.loads((capture / "capture.json").read_text())
        for frame in manifest["frames"]:
            for axis in range(3):
                frame["camera"]["transform"][12 + axis] += shift[axis] + move[axis]
            frame.pop("points", None)
        (capture / "capture.json").write_text(json.dumps(manifest))
        cloud = np.empty(len(p), dtype=[("x", "f8"), ("y", "f8"), ("z", "f8")])
        q = p + shift + move
        cloud["x"], cloud["y"], cloud["z"] = q.T
        plyfile.PlyData([plyfile.PlyElement.describe(cloud, "vertex")]).write(str(capture / "cloud.ply"))
        out = capture / "painted.ply"
        run(pointpaint_bin, "paint", str(capture / "cloud.ply"), str(capture), "-o", str(out), "--quiet")
        v = plyfile.PlyData.read(str(out))["vertex"]
        results.append((np.stack([v["x"], v["y"], v["z"]], axis=1).astype(np.float64),
                        np.stack([v["red"], v["green"], v["blue"]], axis=1), move))
    (a, ca, _), (b, cb, move) = results
    assert np.array_equal(ca, cb), "the same colours"
    assert np.abs(b - move - a).max() <= 1e-4, "the same points, moved"


def test_a_cloud_wider_than_the_reach_is_one_error_line(tmp_path, pointpaint_bin):
    rng = np.random.default_rng(3)
    src, _, _ = utm_cloud(tmp_path, rng, cells=50, spread=1_200_000)  # ±60 km at 5 cm
    out = tmp_path / "v.ply"
    result = run(pointpaint_bin, "voxelize", str(src), "-o", str(out), "--voxel-size", "0.05", check=False)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "utm.las" in lines[0] and "±52428.8 m" in lines[0], result.stderr
    assert not out.exists()
