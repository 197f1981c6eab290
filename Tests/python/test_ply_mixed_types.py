"""PLY files with colour channels of mixed types, as plyfile writes them (it takes any numeric type
per property): PointPaint reads each channel by its own type, integers divided by their type's
maximum and floats as they are, so such a file voxelises exactly as the all-float file of those
values does, in either byte order, with alpha and other properties around the channels."""
import subprocess

import numpy as np
import plyfile
import pytest

N = 300
GRID = 2.0 ** -10  # a voxel size whose cell centres are exact in float32


def unit(values):
    """A channel as PointPaint scales it, in float32: 8- and 16-bit codes times the rounded
    reciprocal of their maximum, other integers divided by it, floats as they are."""
    t = values.dtype
    if t == np.uint8 or t == np.uint16:
        return values.astype(np.float32) * np.float32(1 / np.iinfo(t).max)
    if np.issubdtype(t, np.integer):
        return (values.astype(np.float64) / np.iinfo(t).max).astype(np.float32)
    return values.astype(np.float32)


def channel(rng, t):
    if np.issubdtype(np.dtype(t), np.integer):
        return rng.integers(0, np.iinfo(t).max, size=N, endpoint=True).astype(t)
    return rng.random(N).astype(t)


def voxelized_colours(binary, tmp_path, src):
    """The exact float colours `voxelize` writes for `src` on the points' own grid, keeping each
    point's first colour."""
    out = tmp_path / (src.stem + "-out.ply")
    subprocess.run([binary, "voxelize", str(src), "-o", str(out), "--voxel-size", repr(GRID),
                    "--accumulate", "first", "--float-colors", "always"], check=True, capture_output=True)
    v = plyfile.PlyData.read(str(out))["vertex"]
    return np.stack([v["x"], v["y"], v["z"]], axis=1), np.stack([v["red_f"], v["green_f"], v["blue_f"]], axis=1)


@pytest.mark.parametrize("byte_order", ["<", ">"])
@pytest.mark.parametrize("types", [("u1", "u1", "f4"), ("u2", "u2", "u2"), ("f4", "u2", "u1"), ("u1", "f8", "i2")])
def test_mixed_colour_types_read_channel_by_channel(tmp_path, pointpaint_bin, byte_order, types):
    rng = np.random.default_rng(7)
    cells = np.unique(rng.integers(-512, 512, size=(2 * N, 3)), axis=0)[:N]
    cells = cells[rng.permutation(len(cells))]
    points = (cells + 0.5) * GRID
    colours = [channel(rng, t) for t in types]

    mixed = np.empty(N, dtype=[("nx", "f4"), ("x", "f8"), ("y", "f8"), ("z", "f8"), ("red", types[0]),
                               ("green", types[1]), ("blue", types[2]), ("alpha", "u1"), ("confidence", "u2")])
    plain = np.empty(N, dtype=[("x", "f8"), ("y", "f8"), ("z", "f8"), ("red", "f4"), ("green", "f4"), ("blue", "f4")])
    for arr in (mixed, plain):
        arr["x"], arr["y"], arr["z"] = points[:, 0], points[:, 1], points[:, 2]
    for name, values in zip(("red", "green", "blue"), colours):
        mixed[name] = values
        plain[name] = unit(values)
    mixed["nx"], mixed["alpha"], mixed["confidence"] = 1, 255, 7

    a, b = tmp_path / "mixed.ply", tmp_path / "plain.ply"
    plyfile.PlyData([plyfile.PlyElement.describe(mixed, "vertex")], byte_order=byte_order).write(str(a))
    plyfile.PlyData([plyfile.PlyElement.describe(plain, "vertex")], byte_order=byte_order).write(str(b))
    mixed_points, mixed_colours = voxelized_colours(pointpaint_bin, tmp_path, a)
    plain_points, plain_colours = voxelized_colours(pointpaint_bin, tmp_path, b)
    assert len(mixed_points) == N
    assert np.array_equal(mixed_points, plain_points)
    assert np.array_equal(mixed_colours.view(np.uint32), plain_colours.view(np.uint32))
