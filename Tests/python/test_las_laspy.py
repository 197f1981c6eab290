"""LAS export checked by an outside reader (laspy, and PDAL where its Python package installs):
LAS 1.4 point format 7, counts and header bounds, every coordinate (exact scaled integers on the
voxel grid) and every colour (16 bits from the exact float colour, not from 8 bits)."""
import subprocess

import laspy
import numpy as np
import plyfile
import pytest


def run(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def replayed(tmp_path_factory, pointpaint_bin, repo_root):
    """The sample capture replayed once as PLY with float colours and once as LAS."""
    out = tmp_path_factory.mktemp("las")
    capture = str(repo_root / "Captures" / "sample")
    run(pointpaint_bin, "replay", capture, "-o", str(out / "x.ply"), "--float-colors", "always", "--quiet")
    run(pointpaint_bin, "replay", capture, "-o", str(out / "x.las"), "--quiet")
    return out


def test_laspy_reads_every_point_and_colour(replayed):
    ply = plyfile.PlyData.read(str(replayed / "x.ply"))["vertex"]
    las = laspy.read(str(replayed / "x.las"))
    h = las.header
    assert (h.version.major, h.version.minor) == (1, 4)
    assert h.point_format.id == 7 and h.point_format.size == 36
    assert h.point_count == len(las.points) == ply.count
    assert h.global_encoding.wkt
    size = np.float32(0.01)
    # A step of a sixteenth of the voxel (1 cm voxels: under 1 mm too).
    assert np.allclose(h.scales, float(size) / 16, rtol=0, atol=0)
    # Coordinates: the voxel centre of cell k is the integer 16(k - k0) + 8 on each axis.
    positions = np.stack([ply["x"], ply["y"], ply["z"]], axis=1)
    cells = np.floor(positions.astype(np.float64) / np.float64(size)).astype(np.int64)
    base = cells.min(axis=0)
    ints = np.stack([las.X, las.Y, las.Z], axis=1).astype(np.int64)
    assert np.array_equal(ints, 16 * (cells - base) + 8)
    assert len(np.unique(ints, axis=0)) == len(ints), "no two voxel centres collide"
    scaled = np.stack([las.x, las.y, las.z], axis=1)
    assert np.abs(scaled - positions).max() < 1e-6
    # Header bounds: exactly those of the scaled coordinates.
    assert np.array_equal(h.mins, scaled.min(axis=0)) and np.array_equal(h.maxs, scaled.max(axis=0))
    # Colours: 16 bits from the exact colour.
    exact = np.stack([ply["red_f"], ply["green_f"], ply["blue_f"]], axis=1).astype(np.float64)
    expected = np.floor(np.clip(exact, 0, 1) * 65535 + 0.5).astype(np.uint16)
    got = np.stack([las.red, las.green, las.blue], axis=1)
    assert np.array_equal(got, expected)
    assert (got % 257 != 0).any(), "not 8-bit codes widened"
    # Every point a single return; the voxel size and comments in PointPaint's records.
    assert (las.return_number == 1).all() and (las.number_of_returns == 1).all()
    records = {(v.user_id, v.record_id): v for v in h.vlrs}
    assert records[("PointPaint", 1)].record_data == b"0.01"
    assert b"replayed 36 frames" in records[("PointPaint", 2)].record_data


def test_info_reads_the_las_file(replayed, pointpaint_bin):
    out = run(pointpaint_bin, "info", str(replayed / "x.las"))
    assert "LAS 1.4, point format 7 (36 bytes a point)" in out
    assert "voxel size: 0.01" in out


def test_pdal_reads_the_las_file(replayed):
    pdal = pytest.importorskip("pdal")
    pipeline = pdal.Reader.las(filename=str(replayed / "x.las")).pipeline()
    count = pipeline.execute()
    assert count == laspy.read(str(replayed / "x.las")).header.point_count


@pytest.mark.parametrize("point_format,eight_bit", [(3, True), (7, False), (2, False)])
def test_laspy_files_read_by_pointpaint(tmp_path, pointpaint_bin, point_format, eight_bit):
    """Points laspy writes (formats 2, 3 and 7; 16-bit colours, or 8-bit values in the 16-bit
    fields as many writers store them), voxelised on their own grid, come back bit for bit."""
    from voxel_order import morton_order

    rng = np.random.default_rng(point_format)
    grid = 2.0 ** -10
    cells = np.unique(rng.integers(-2000, 2000, size=(600, 3)), axis=0)[:400]
    header = laspy.LasHeader(point_format=point_format, version="1.4" if point_format > 5 else "1.2")
    header.scales = np.array([grid / 2] * 3)
    header.offsets = np.zeros(3)
    las = laspy.LasData(header)
    las.X, las.Y, las.Z = (2 * cells + 1).T  # the centres, exactly
    top = 255 if eight_bit else 65535
    colors = rng.integers(0, top + 1, size=(len(cells), 3))
    las.red, las.green, las.blue = colors.T.astype(np.uint16)
    src = tmp_path / "laspy.las"
    las.write(str(src))
    info = run(pointpaint_bin, "info", str(src))
    assert f"point format {point_format}" in info and f"{len(cells)} points" in info
    out = tmp_path / "back.ply"
    run(pointpaint_bin, "voxelize", str(src), "-o", str(out), "--voxel-size", repr(grid), "--accumulate", "first",
        "--float-colors", "always")
    v = plyfile.PlyData.read(str(out))["vertex"]
    order = morton_order(cells)
    centres = ((cells + 0.5) * grid).astype(np.float32)[order]
    assert np.array_equal(np.stack([v["x"], v["y"], v["z"]], axis=1), centres)
    exact = np.stack([v["red_f"], v["green_f"], v["blue_f"]], axis=1)
    assert np.abs(exact - colors[order] / top).max() < 2e-6
