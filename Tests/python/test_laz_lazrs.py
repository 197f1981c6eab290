"""LAZ read and written, checked both ways against two independent implementations of the LASzip
format: laspy with its lazrs backend, and the laszip Python bindings (LASzip itself).

- every format they compress (0-3 point-wise, 6-8 layered, with NIR for 8), with and without extra
  bytes, the layered ones also with points of all four scanner channels, that they write is read
  bit for bit (`pointpaint convert x.laz -o y.las`, then every record compared);
- every file PointPaint writes (`convert`, and the `-o x.laz` of replay, voxelize, merge and paint)
  they read bit for bit;
- variable-size chunks (lazrs's writer) and LAZ as input of voxelize, info and paint."""
import io
import struct
import subprocess

import laspy
import lazrs
import numpy as np
import plyfile
import pytest
from laspy.vlrs.vlrlist import VLRList

BACKENDS = [laspy.LazBackend.Lazrs, laspy.LazBackend.Laszip]


def run(binary, *args, check=True):
    return subprocess.run([binary, *args], check=check, capture_output=True, text=True)


def cloud(fmt, extra, n, seed, channels=False):
    """`n` points of point format `fmt` with every field varying (returns, classes, GPS time with a
    jump, colour with grey runs, scan angles), two extra-byte dimensions when `extra`, and (formats
    6-8) points of all four scanner channels when `channels`."""
    rng = np.random.default_rng(seed)
    header = laspy.LasHeader(point_format=fmt, version="1.4")
    if extra:
        header.add_extra_dim(laspy.ExtraBytesParams(name="quality", type=np.uint16))
        header.add_extra_dim(laspy.ExtraBytesParams(name="weight", type=np.float64))
    las = laspy.LasData(header)
    las.X = np.cumsum(rng.integers(-1000, 1000, n))
    las.Y = np.cumsum(rng.integers(-300, 1000, n))
    las.Z = rng.integers(-100000, 100000, n)
    las.intensity = rng.integers(0, 65536, n)
    layered = fmt >= 6
    las.return_number = rng.integers(1, 16 if layered else 4, n)
    las.number_of_returns = rng.integers(1, 16 if layered else 6, n)
    las.scan_direction_flag = rng.integers(0, 2, n)
    las.edge_of_flight_line = rng.integers(0, 2, n)
    las.synthetic = rng.integers(0, 2, n)
    las.classification = rng.integers(0, 256 if layered else 32, n)
    if layered:
        las.scan_angle = rng.integers(-30000, 30001, n)
        if channels:
            las.scanner_channel = rng.integers(0, 4, n)
    else:
        las.scan_angle_rank = rng.integers(-90, 91, n)
    las.user_data = rng.integers(0, 256, n)
    las.point_source_id = rng.integers(0, 65536, n)
    if "gps_time" in las.point_format.dimension_names:
        t = np.cumsum(rng.random(n) * 0.001) + 1e5
        t[n // 3: n // 3 + 500] = rng.random(500) * 1e9  # a jump to another sequence and back
        las.gps_time = t
    if "red" in las.point_format.dimension_names:
        las.red = rng.integers(0, 65536, n)
        las.green = np.where(rng.random(n) < 0.5, las.red, rng.integers(0, 65536, n))
        las.blue = rng.integers(0, 256, n)
    if "nir" in las.point_format.dimension_names:
        las.nir = rng.integers(0, 65536, n)
    if extra:
        las.quality = rng.integers(0, 65536, n)
        las.weight = rng.random(n)
    return las


CASES = [(fmt, extra, False) for fmt in (0, 1, 2, 3, 6, 7, 8) for extra in (False, True)] + \
        [(fmt, extra, True) for fmt in (6, 7, 8) for extra in (False, True)]


def case_id(case):
    fmt, extra, channels = case
    return "format%d%s%s" % (fmt, "-extra" if extra else "", "-channels" if channels else "")


@pytest.mark.parametrize("fmt,extra,channels", CASES, ids=[case_id(c) for c in CASES])
@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.name)
def test_reads_their_laz_bit_for_bit(tmp_path, pointpaint_bin, fmt, extra, channels, backend):
    las = cloud(fmt, extra, 60_001, seed=fmt * 10 + extra + 100 * channels, channels=channels)  # two chunks
    las.write(str(tmp_path / "a.laz"), laz_backend=backend)
    out = run(pointpaint_bin, "convert", str(tmp_path / "a.laz"), "-o", str(tmp_path / "b.las")).stdout
    assert "60001 points" in out
    back = laspy.read(str(tmp_path / "b.las"))
    assert back.header.point_format.id == fmt
    assert back.points.array.tobytes() == las.points.array.tobytes()
    assert list(back.point_format.extra_dimension_names) == list(las.point_format.extra_dimension_names)


@pytest.mark.parametrize("fmt,extra,channels", CASES, ids=[case_id(c) for c in CASES])
def test_they_read_our_laz_bit_for_bit(tmp_path, pointpaint_bin, fmt, extra, channels):
    las = cloud(fmt, extra, 60_001, seed=1000 + fmt * 10 + extra + 100 * channels, channels=channels)
    las.write(str(tmp_path / "a.las"))
    run(pointpaint_bin, "convert", str(tmp_path / "a.las"), "-o", str(tmp_path / "b.laz"))
    for backend in BACKENDS:
        back = laspy.read(str(tmp_path / "b.laz"), laz_backend=backend)
        assert back.header.point_format.id == fmt
        assert back.points.array.tobytes() == las.points.array.tobytes(), backend


def test_variable_size_chunks(tmp_path, pointpaint_bin):
    """lazrs's writer with chunks of 30,000, 1,000 and 39,001 points (and the empty chunk it ends
    with): the chunk table then carries each chunk's point count."""
    las = cloud(3, False, 70_001, seed=5)
    las.write(str(tmp_path / "fixed.laz"), laz_backend=laspy.LazBackend.Lazrs)
    raw = (tmp_path / "fixed.laz").read_bytes()
    start = struct.unpack_from("<I", raw, 96)[0]
    at = raw.find(b"laszip encoded") - 2
    vlr = lazrs.LazVlr.new_for_compression(3, 0, True)
    data = bytes(vlr.record_data())
    assert struct.unpack_from("<H", raw, at + 20)[0] == len(data)
    head = bytearray(raw[:start])
    head[at + 54: at + 54 + len(data)] = data
    out = io.BytesIO()
    out.write(bytes(head))
    compressor = lazrs.LasZipCompressor(out, vlr)
    points = las.points.array.tobytes()
    size = las.point_format.size
    for a, b in ((0, 30_000), (30_000, 31_000), (31_000, 70_001)):
        compressor.compress_many(points[a * size: b * size])
        compressor.finish_current_chunk()
    compressor.done()
    (tmp_path / "variable.laz").write_bytes(out.getvalue())
    assert laspy.read(str(tmp_path / "variable.laz")).points.array.tobytes() == points
    run(pointpaint_bin, "convert", str(tmp_path / "variable.laz"), "-o", str(tmp_path / "back.las"))
    assert laspy.read(str(tmp_path / "back.las")).points.array.tobytes() == points


def test_commands_write_laz_they_read(tmp_path, pointpaint_bin, repo_root):
    """replay, voxelize, merge and paint write LAZ whose records are those of the LAS (point
    format 7) the same command writes, bit for bit."""
    capture = str(repo_root / "Captures" / "sample")
    run(pointpaint_bin, "replay", capture, "-o", str(tmp_path / "r.las"), "--quiet")
    run(pointpaint_bin, "replay", capture, "-o", str(tmp_path / "r.laz"), "--quiet")
    run(pointpaint_bin, "replay", capture, "-o", str(tmp_path / "r.ppstore"), "--quiet")
    run(pointpaint_bin, "merge", str(tmp_path / "r.ppstore"), str(tmp_path / "r.ppstore"), "-o", str(tmp_path / "m.laz"))
    run(pointpaint_bin, "merge", str(tmp_path / "r.ppstore"), str(tmp_path / "r.ppstore"), "-o", str(tmp_path / "m.las"))
    run(pointpaint_bin, "voxelize", str(tmp_path / "r.las"), "-o", str(tmp_path / "v.laz"), "--voxel-size", "0.05")
    run(pointpaint_bin, "voxelize", str(tmp_path / "r.las"), "-o", str(tmp_path / "v.las"), "--voxel-size", "0.05")
    run(pointpaint_bin, "paint", str(tmp_path / "v.las"), capture, "-o", str(tmp_path / "p.laz"), "--quiet")
    run(pointpaint_bin, "paint", str(tmp_path / "v.las"), capture, "-o", str(tmp_path / "p.las"), "--quiet")
    for name in ("r", "m", "v", "p"):
        plain = laspy.read(str(tmp_path / f"{name}.las"))
        for backend in BACKENDS:
            packed = laspy.read(str(tmp_path / f"{name}.laz"), laz_backend=backend)
            assert packed.header.point_format.id == plain.header.point_format.id == 7
            assert packed.header.point_count == plain.header.point_count > 0
            assert packed.points.array.tobytes() == plain.points.array.tobytes(), name
            assert np.array_equal(packed.header.scales, plain.header.scales)
            assert np.array_equal(packed.header.offsets, plain.header.offsets)
            assert np.allclose(packed.header.mins, plain.header.mins, rtol=0, atol=0)


def test_laz_input_equals_las_input(tmp_path, pointpaint_bin):
    """voxelize and info read a LAZ file written by LASzip as they read the same points as LAS,
    named by content (a LAZ file called .ply is still LAZ)."""
    las = cloud(2, False, 20_000, seed=9)
    las.header.scales = np.array([0.001, 0.001, 0.001])
    las.write(str(tmp_path / "a.las"))
    las.write(str(tmp_path / "a.laz"), laz_backend=laspy.LazBackend.Laszip)
    (tmp_path / "misnamed.ply").write_bytes((tmp_path / "a.laz").read_bytes())
    for src in ("a.laz", "misnamed.ply"):
        run(pointpaint_bin, "voxelize", str(tmp_path / src), "-o", str(tmp_path / "x.ply"), "--voxel-size", "5")
        run(pointpaint_bin, "voxelize", str(tmp_path / "a.las"), "-o", str(tmp_path / "y.ply"), "--voxel-size", "5")
        x, y = (plyfile.PlyData.read(str(tmp_path / f))["vertex"].data for f in ("x.ply", "y.ply"))
        assert len(x) > 100 and x.tobytes() == y.tobytes()
    info = run(pointpaint_bin, "info", str(tmp_path / "a.laz")).stdout
    assert "20000 points" in info and "LAZ" in info


def test_wave_packets_are_one_line(tmp_path, pointpaint_bin):
    """Point formats with wave packets (4, 5, 9, 10) are not read: one line naming the items, no
    file written."""
    h = laspy.LasHeader(point_format=4, version="1.3")
    las = laspy.LasData(h)
    las.X = np.arange(10)
    las.write(str(tmp_path / "w.laz"), laz_backend=laspy.LazBackend.Lazrs)
    r = run(pointpaint_bin, "convert", str(tmp_path / "w.laz"), "-o", str(tmp_path / "w.las"), check=False)
    assert r.returncode != 0 and not (tmp_path / "w.las").exists()
    assert r.stderr.count("\n") == 1 and "WAVEPACKET13 v2" in r.stderr, r.stderr


def test_convert_keeps_records_and_extended_records(tmp_path, pointpaint_bin):
    """convert LAS -> LAZ -> LAS keeps the variable-length and extended records laspy wrote,
    every point, and the header's scales and offsets."""
    las = cloud(7, True, 1_000, seed=77)
    las.header.vlrs.append(laspy.VLR(user_id="someone", record_id=7, description="a record", record_data=b"payload"))
    las.evlrs = VLRList([laspy.VLR(user_id="other", record_id=9, description="an extended one", record_data=b"x" * 70_000)])
    las.write(str(tmp_path / "a.las"))
    run(pointpaint_bin, "convert", str(tmp_path / "a.las"), "-o", str(tmp_path / "b.laz"))
    run(pointpaint_bin, "convert", str(tmp_path / "b.laz"), "-o", str(tmp_path / "c.las"))
    for name in ("b.laz", "c.las"):
        back = laspy.read(str(tmp_path / name))
        assert back.points.array.tobytes() == las.points.array.tobytes(), name
        assert [(v.user_id, v.record_id, bytes(v.record_data)) for v in back.vlrs if v.user_id == "someone"] == [("someone", 7, b"payload")]
        assert [(v.user_id, v.record_id, len(v.record_data)) for v in back.evlrs] == [("other", 9, 70_000)], name
        assert np.array_equal(back.header.scales, las.header.scales) and np.array_equal(back.header.offsets, las.header.offsets)
