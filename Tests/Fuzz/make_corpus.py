#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora (Tests/Fuzz/Corpus/TARGET/) from the sample capture, the
test fixtures, small recordings of each phone app's layout made by `pointpaint synth`, and
small hand-made files: every format variant the readers accept, a few they refuse, each small
(a few KB) so mutations stay fast. Deterministic: running it again rewrites the same files.

    POINTPAINT_BIN=.build/debug/pointpaint python3 Tests/Fuzz/make_corpus.py

Needs numpy, Pillow, pyliblzfse, laspy, lazrs and laszip besides the standard library.
"""
import datetime
import io
import json
import os
import pathlib
import shutil
import struct
import subprocess
import tempfile
import zipfile
import zlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "Tests" / "Fuzz" / "Corpus"
SAMPLE = ROOT / "Captures" / "sample"


def put(target, name, data):
    path = CORPUS / target / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())


# --- capture.json -------------------------------------------------------------------------------

def manifests():
    sample = json.loads((SAMPLE / "capture.json").read_text())
    short = dict(sample, frames=sample["frames"][:3])
    put("manifest", "sample-3-frames.json", json.dumps(short, indent=2))
    put("manifest", "sample-1-frame-compact.json", json.dumps(dict(sample, frames=sample["frames"][:1]), separators=(",", ":")))
    frame = sample["frames"][0]
    planes = dict(frame, image={"y": "frames/0.y.png", "cb": "frames/0.cb.png", "cr": "frames/0.cr.png"})
    planes.pop("lumaStride", None)
    planes.pop("chromaStride", None)
    image = {"width": 640, "height": 480, "range": "video", "matrix": "bt709", "primaries": "display-p3", "chromaSiting": "left"}
    put("manifest", "png-planes-video-p3.json", json.dumps(dict(sample, image=image, frames=[planes]), indent=1))
    strided = dict(frame, lumaStride=704, chromaStride=768, points="points/000000.ply")
    put("manifest", "strides-ply-points.json", json.dumps(dict(sample, frames=[strided])))
    put("manifest", "no-frames.json", json.dumps(dict(sample, frames=[])))
    bt2020 = dict(sample["image"], matrix="bt2020", primaries="bt2020")
    put("manifest", "bt2020.json", json.dumps(dict(sample, image=bt2020, frames=sample["frames"][:2])))
    # Refused ones, each a different check.
    put("manifest", "bad-version.json", '{"format": "pointpaint.capture", "version": 2}')
    put("manifest", "bad-number.json", json.dumps(dict(sample, frames=sample["frames"][:1])).replace("1450", "1e999", 1))
    put("manifest", "escapes.json", '{"format": "point\\u0070aint.capture\\n", "version": 1, "image": "\\ud83d\\ude00"}')
    put("manifest", "nested.json", "[" * 40 + "]" * 40)


# --- .xyz ---------------------------------------------------------------------------------------

def xyz_files():
    lines = (SAMPLE / "points" / "000000.xyz").read_text().splitlines()
    put("xyz", "sample-40-points.xyz", "\n".join(lines[:40]) + "\n")
    put("xyz", "comments-blank-no-ids.xyz", "# feature points\n\n1 2 3\n  -0.5\t0.25 1e-3\n# end\n")
    put("xyz", "crlf-bom-ids.xyz", "\ufeff0 0 0 0\r\n1.5 -2.5 3.25 18446744073709551615\r\n")
    put("xyz", "cr-only.xyz", "1 2 3\r4 5 6 7\r")
    put("xyz", "number-forms.xyz", "0x1p-3 +2.5 .5\n-0 1E+2 3.\n1e-45 3.4028235e38 -1.17549435e-38 9\n")
    put("xyz", "no-final-newline.xyz", "1 2 3 4")
    put("xyz", "bad-too-many-fields.xyz", "1 2 3 4 5\n")
    put("xyz", "bad-nan.xyz", "nan 0 0\ninf 1 1\n")


# --- .cube --------------------------------------------------------------------------------------

def cube_rows(n, f=lambda r, g, b: (r, g, b)):
    rows = []
    for b in range(n):
        for g in range(n):
            for r in range(n):
                rows.append("%.6f %.6f %.6f" % f(r / (n - 1), g / (n - 1), b / (n - 1)))
    return "\n".join(rows) + "\n"


def cubes():
    put("cube", "identity-2.cube", "LUT_3D_SIZE 2\n" + cube_rows(2))
    put("cube", "warm-3-title-domain.cube",
        '# a warm look\nTITLE "Warm # 1"\nLUT_3D_SIZE 3\nDOMAIN_MIN 0.0 0.0 0.0\nDOMAIN_MAX 1.0 1.0 1.0\n\n'
        + cube_rows(3, lambda r, g, b: (min(1, r * 1.1), g, b * 0.9)))
    put("cube", "input-range-resolve.cube",
        "TITLE unquoted title\nLUT_3D_INPUT_RANGE -0.1 1.2\nLUT_IN_VIDEO_RANGE\nLUT_3D_SIZE 2\n" + cube_rows(2).replace("\n", "  # row\n"))
    put("cube", "domain-crlf-bom.cube",
        ("\ufeffLUT_3D_SIZE 2\nDOMAIN_MIN 0 -0.5 0\nDOMAIN_MAX 2 1 1\n" + cube_rows(2)).replace("\n", "\r\n"))
    put("cube", "size-4-tabs.cube", "LUT_3D_SIZE\t4\n" + cube_rows(4, lambda r, g, b: (1 - r, 1 - g, 1 - b)).replace(" ", "\t"))
    put("cube", "bad-1d.cube", "LUT_1D_SIZE 4\n0 0 0\n")
    put("cube", "bad-rows-before-size.cube", "0 0 0\nLUT_3D_SIZE 2\n")
    put("cube", "bad-short.cube", "LUT_3D_SIZE 3\n" + cube_rows(2))


# --- PLY ----------------------------------------------------------------------------------------

def ply_header(fmt, elements, comments=("made for fuzzing",), obj_info=()):
    h = "ply\nformat %s 1.0\n" % fmt
    h += "".join("comment %s\n" % c for c in comments)
    h += "".join("obj_info %s\n" % o for o in obj_info)
    for name, count, props in elements:
        h += "element %s %d\n" % (name, count)
        h += "".join("property %s\n" % p for p in props)
    return h + "end_header\n"


COLORED = ["float x", "float y", "float z", "uchar red", "uchar green", "uchar blue"]
CODES = {"char": "b", "uchar": "B", "short": "h", "ushort": "H", "int": "i", "uint": "I", "float": "f", "double": "d",
         "int8": "b", "uint8": "B", "int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "float32": "f", "float64": "d"}


def points(n):
    return [((i * 0.37) % 1.0, (i * 0.11) % 0.7 - 0.3, i * 0.05, (i * 40) % 256, (i * 90) % 256, (i * 15) % 256) for i in range(n)]


def ascii_body(rows):
    return "".join(" ".join(("%g" % v) if isinstance(v, float) else str(v) for v in row) + "\n" for row in rows)


def binary_body(rows, props, big):
    order = ">" if big else "<"
    out = b""
    for row in rows:
        values = list(row)
        for p in props:
            words = p.split()
            if words[0] == "list":
                items = values.pop(0)
                out += struct.pack(order + CODES[words[1]], len(items))
                out += b"".join(struct.pack(order + CODES[words[2]], v) for v in items)
            else:
                out += struct.pack(order + CODES[words[0]], values.pop(0))
    return out


def box_rows(n, edge=0.25):
    rows, faces = [], []
    quads = [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]]
    for k in range(n):
        base = (k * edge, 0.0, -k * edge)
        for c in range(8):
            rows.append((base[0] + edge * (c & 1), base[1] + edge * (c >> 1 & 1), base[2] + edge * (c >> 2 & 1), 200, 100, 50))
        faces += [[8 * k + i for i in q] for q in quads]
    return rows, faces


def ply_files():
    """(name, whole file bytes) of every PLY seed."""
    files = []
    rows = points(12)
    for fmt, big in (("binary_little_endian", False), ("binary_big_endian", True)):
        files.append(("colored-%s.ply" % fmt, ply_header(fmt, [("vertex", 12, COLORED)]).encode() + binary_body(rows, COLORED, big)))
    files.append(("colored-ascii.ply", ply_header("ascii", [("vertex", 12, COLORED)]) + ascii_body(rows)))
    wide = ["double x", "double y", "double z", "float red_f", "float green_f", "float blue_f", "uchar red", "uchar green", "uchar blue"]
    wide_rows = [(x, y, z, r / 255 * 1.2 - 0.1, g / 255, b / 255, r, g, b) for x, y, z, r, g, b in points(6)]
    files.append(("wide-double.ply", ply_header("binary_little_endian", [("vertex", 6, wide)], ("voxel_size 0.05",)).encode()
                  + binary_body(wide_rows, wide, False)))
    every = ["char a", "uchar b", "short c", "ushort d", "int e", "uint f", "float32 x", "float64 y", "int8 g", "uint8 h",
             "int16 i", "uint16 j", "int32 k", "uint32 l", "float z"]
    every_rows = [(-1, 255, -300, 60000, -70000, 4000000000, 1.5, -2.25, 3, 4, 5, 6, 7, 8, 0.5),
                  (127, 0, 32767, 0, 2147483647, 0, -0.0, 1e300, -128, 255, -32768, 65535, -2147483648, 4294967295, 1e-30)]
    for fmt, big in (("binary_big_endian", True), ("binary_little_endian", False)):
        files.append(("every-type-%s.ply" % fmt, ply_header(fmt, [("vertex", 2, every)], obj_info=("scanner x",)).encode()
                      + binary_body(every_rows, every, big)))
    files.append(("every-type-ascii.ply", ply_header("ascii", [("vertex", 2, every)]) + ascii_body(every_rows)))
    boxes, faces = box_rows(2)
    face_prop = ["list uchar int vertex_indices"]
    files.append(("boxes-ascii.ply", ply_header("ascii", [("vertex", 16, COLORED), ("face", 12, face_prop)],
                                                ("geometry boxes", "voxel_size 0.25"))
                  + ascii_body(boxes) + "".join("4 " + " ".join(map(str, f)) + "\n" for f in faces)))
    files.append(("boxes-binary.ply", ply_header("binary_little_endian", [("vertex", 16, COLORED), ("face", 12, face_prop)]).encode()
                  + binary_body(boxes, COLORED, False) + binary_body([(f,) for f in faces], face_prop, False)))
    mesh = ["list uint8 uint32 vertex_index", "uchar flags"]
    files.append(("mesh-lists-extra-element.ply",
                  ply_header("binary_big_endian", [("vertex", 3, ["float x", "float y", "float z"]), ("face", 2, mesh), ("edge", 0, ["int a"])]).encode()
                  + binary_body([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)], ["float x", "float y", "float z"], True)
                  + binary_body([([0, 1, 2], 1), ([], 0)], mesh, True)))
    files.append(("points-with-ids-crlf.ply",
                  (ply_header("ascii", [("vertex", 3, ["float x", "float y", "float z", "uint id"])], ()) + "1 2 3 7\n4 5 6 8\n-1 -2 -3 9\n")
                  .replace("\n", "\r\n")))
    files.append(("cr-header-rgb-float.ply",
                  ply_header("binary_little_endian", [("vertex", 2, ["float x", "float y", "float z", "float r", "float g", "float b"])], ())
                  .replace("\n", "\r").encode() + struct.pack("<12f", 0, 0, 0, 0.5, 0.25, 1, 1, 1, 1, 2, -1, 0.5)))
    truth = (SAMPLE / "truth.ply").read_bytes()
    header_end = truth.index(b"end_header\n") + len(b"end_header\n")
    head = truth[:header_end].replace(b"element vertex 10800", b"element vertex 20")
    files.append(("truth-20.ply", head + truth[header_end:header_end + 20 * 35]))
    return files


def plys():
    for name, data in ply_files():
        data = data if isinstance(data, bytes) else data.encode()
        header = data[:data.index(b"end_header") + len(b"end_header\n")]
        put("ply-header", name, header)
        put("ply-cloud", name, data)
        fmt = data.split(b"\n", 2)[1] if b"\r" not in data[:5] else data.split(b"\r", 2)[1]
        first_two = data.index(fmt) + len(fmt) + 1
        if fmt.startswith(b"format ascii") and data.startswith(b"ply\n"):
            put("ply-ascii", name, data[first_two:])
        elif fmt.startswith(b"format binary") and data.startswith(b"ply\n"):
            put("ply-binary", name, (b"\x01" if b"big" in fmt else b"\x00") + data[first_two:])
    put("ply-header", "bad-no-end.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n")
    put("ply-header", "bom-obj-info.ply", "\ufeffply\nformat ascii 1.0\nobj_info a b\tc\nend_header\n")


# --- PNG ----------------------------------------------------------------------------------------

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, color_type, depth, rows, interlace=False, extra=b"", level=9):
    """A PNG of `rows` (lists of samples; palette indices for type 3) written by hand, so every
    colour type, depth and Adam 7 interlacing can be seeded."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]

    def pack_row(samples):
        if depth == 16:
            return b"".join(struct.pack(">H", s) for s in samples)
        if depth == 8:
            return bytes(samples)
        bits, out, acc, n = depth, [], 0, 0
        for s in samples:
            acc = (acc << bits) | s
            n += bits
            if n == 8:
                out.append(acc)
                acc, n = 0, 0
        if n:
            out.append(acc << (8 - n))
        return bytes(out)

    def scanlines(image_rows, w):
        return b"".join(b"\x00" + pack_row([s for px in r[:w] for s in (px if isinstance(px, tuple) else (px,))]) for r in image_rows)

    if interlace:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        raw = b""
        for x0, y0, dx, dy in passes:
            sub = [[rows[y][x] for x in range(x0, width, dx)] for y in range(y0, height, dy)]
            if sub and sub[0]:
                raw += scanlines(sub, len(sub[0]))
    else:
        raw = scanlines(rows, width)
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 1 if interlace else 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw, level)) + chunk(b"IEND", b"")


def gradient(w, h, f):
    return [[f(x, y) for x in range(w)] for y in range(h)]


def identity_cube_rows(n, width, depth):
    top = (1 << depth) - 1
    entries = [(round(r * top / (n - 1)), round(g * top / (n - 1)), round(b * top / (n - 1)))
               for b in range(n) for g in range(n) for r in range(n)]
    return [entries[i:i + width] for i in range(0, len(entries), width)]


def pngs():
    # Cubes: N³ pixels in raster order.
    put("png-cube", "identity-4-square-8bit.png", png(8, 8, 2, 8, identity_cube_rows(4, 8, 8)))
    put("png-cube", "identity-4-strip-16bit.png", png(16, 4, 2, 16, identity_cube_rows(4, 16, 16)))
    put("png-cube", "identity-3-column-rgba.png", png(3, 9, 6, 8, [[px + (255,) for px in r] for r in identity_cube_rows(3, 3, 8)]))
    put("png-cube", "grey-2-interlaced.png", png(4, 2, 0, 8, gradient(4, 2, lambda x, y: 30 * x + 100 * y), interlace=True))
    put("png-cube", "palette-2.png", png(8, 1, 3, 4, [[i for i in range(8)]], extra=chunk(b"PLTE", bytes(range(24))) + chunk(b"tRNS", b"\x80")))
    put("png-cube", "bad-not-a-cube.png", png(5, 5, 2, 8, gradient(5, 5, lambda x, y: (x, y, 0))))
    # Images to grade: every colour type and depth, interlaced or not, ancillary chunks.
    put("png-image", "rgb8.png", png(7, 5, 2, 8, gradient(7, 5, lambda x, y: (30 * x, 40 * y, 200))))
    put("png-image", "rgba16-interlaced.png", png(9, 9, 6, 16, gradient(9, 9, lambda x, y: (7000 * x, 7000 * y, 65535 - 300 * x, 40000)), interlace=True))
    put("png-image", "grey1.png", png(13, 3, 0, 1, gradient(13, 3, lambda x, y: (x + y) & 1)))
    put("png-image", "grey2-trns.png", png(6, 2, 0, 2, gradient(6, 2, lambda x, y: x % 4), extra=chunk(b"tRNS", b"\x00\x01")))
    put("png-image", "grey-alpha16.png", png(3, 3, 4, 16, gradient(3, 3, lambda x, y: (x * 20000, y * 30000))))
    put("png-image", "palette8-gamma-text.png",
        png(4, 4, 3, 8, gradient(4, 4, lambda x, y: (x + y) % 3),
            extra=chunk(b"gAMA", struct.pack(">I", 45455)) + chunk(b"PLTE", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255]))
            + chunk(b"tEXt", b"Comment\x00made for fuzzing")))
    put("png-image", "rgb8-iccp-phys.png",
        png(2, 2, 2, 8, gradient(2, 2, lambda x, y: (x * 255, y * 255, 0)),
            extra=chunk(b"iCCP", b"p\x00\x00" + zlib.compress(b"\x00" * 128)) + chunk(b"pHYs", struct.pack(">IIB", 2835, 2835, 1))))
    put("png-image", "grey4-interlaced.png", png(10, 7, 0, 4, gradient(10, 7, lambda x, y: (x * y) % 16), interlace=True))
    put("png-image", "truncated.png", png(8, 8, 2, 8, gradient(8, 8, lambda x, y: (x, y, x)))[:-30])
    # Luma planes of an 8×6 frame: the one accepted form, and what is refused.
    luma = gradient(8, 6, lambda x, y: 16 + 25 * x + y)
    put("png-plane", "luma-8x6.png", png(8, 6, 0, 8, luma))
    put("png-plane", "luma-8x6-interlaced.png", png(8, 6, 0, 8, luma, interlace=True, level=0))
    put("png-plane", "luma-8x6-filtered-text.png", png(8, 6, 0, 8, luma, extra=chunk(b"tEXt", b"Software\x00synth")))
    put("png-plane", "bad-16bit.png", png(8, 6, 0, 16, gradient(8, 6, lambda x, y: 256 * x)))
    put("png-plane", "bad-size.png", png(6, 8, 0, 8, gradient(6, 8, lambda x, y: x)))
    put("png-plane", "bad-rgb.png", png(8, 6, 2, 8, gradient(8, 6, lambda x, y: (x, x, x))))


# --- the phone apps' recordings ------------------------------------------------------------------

def synth(layout, out, *extra):
    binary = os.environ.get("POINTPAINT_BIN", str(ROOT / ".build" / "debug" / "pointpaint"))
    subprocess.run([binary, "synth", "-o", str(out), "--layout", layout, "--frames", "2", "--size", "64x48", "--points", "20", *extra],
                   check=True, capture_output=True)


def apps():
    work = pathlib.Path(tempfile.mkdtemp(prefix="pointpaint-corpus-"))
    try:
        for layout in ("stray", "polycam", "scanner-app", "nerfstudio", "record3d"):
            synth(layout, work / layout)
        synth("record3d", work / "capture.r3d")
        stray, r3d = work / "stray", (work / "capture.r3d").read_bytes()
        odometry, matrix = (stray / "odometry.csv").read_bytes(), (stray / "camera_matrix.csv").read_bytes()
        put("stray-csv", "odometry-current.csv", b"\0" + odometry)
        put("stray-csv", "camera-matrix.csv", b"\1" + matrix)
        lines = odometry.decode().splitlines()
        short = [", ".join(l.split(", ")[:9]) for l in lines]
        put("stray-csv", "odometry-2022-crlf.csv", b"\0" + "\r\n".join(short).encode() + b"\r\n")
        put("stray-csv", "odometry-2021-no-header.csv", b"\0" + "\n".join(", ".join(l.split(", ")[2:9]) for l in lines[1:]).encode())
        put("stray-csv", "bad-repeated-column.csv", b"\0" + ("x, x\n1, 2\n").encode())
        put("jpeg", "stray-frame.jpg", (stray / "rgb" / "000000.jpg").read_bytes())
        put("jpeg", "scanner-frame-exif-orientation.jpg", (work / "scanner-app" / "frame_00000.jpg").read_bytes())
        put("r3d", "synth.r3d", r3d)
        put("zip", "synth.r3d", r3d)
        put("r3d", "recompressed-deflate-lzfse.r3d", recompressed_r3d(r3d))
        with zipfile.ZipFile(io.BytesIO(r3d)) as archive:
            put("lzfse", "r3d-depth-raw.lzfse", archive.read("rgbd/0.depth"))
            metadata = archive.read("metadata")
        put("record3d-metadata", "export-metadata.json", (work / "record3d" / "metadata.json").read_bytes())
        put("record3d-metadata", "r3d-metadata.json", metadata)
        meta = json.loads(metadata)
        for key in ("frameTimestamps", "dw", "perFrameIntrinsicCoeffs"):
            put("record3d-metadata", "without-%s.json" % key, json.dumps({k: v for k, v in meta.items() if k != key}))
        put("exr", "record3d-depth.exr", (work / "record3d" / "depth" / "0.exr").read_bytes())
        cameras = sorted((work / "polycam" / "keyframes" / "corrected_cameras").iterdir(), key=lambda p: (len(p.name), p.name))
        put("polycam-camera", "corrected.json", cameras[0].read_bytes())
        raw = sorted((work / "polycam" / "keyframes" / "cameras").iterdir(), key=lambda p: (len(p.name), p.name))
        put("polycam-camera", "raw.json", raw[0].read_bytes())
        put("scanner-frame", "frame.json", (work / "scanner-app" / "frame_00000.json").read_bytes())
        frame = json.loads((work / "scanner-app" / "frame_00000.json").read_bytes())
        put("scanner-frame", "compact.json", json.dumps(frame, separators=(",", ":")))
        transforms = (work / "nerfstudio" / "transforms.json").read_bytes()
        put("nerfstudio", "transforms.json", transforms)
        t = json.loads(transforms)
        t["camera_model"] = "OPENCV"
        t.update({"k1": 0.0, "k2": 0.0, "p1": 0.0, "p2": 0.0})
        put("nerfstudio", "opencv-zero-distortion.json", json.dumps(t))
        # Poses: the harness's own recording (2 frames, no drift), and a drifted one's.
        synth("v1", work / "poses-none", "--pose-drift", "0,0")
        put("poses", "no-drift.json", (work / "poses-none" / "truth-poses.json").read_bytes())
        synth("v1", work / "poses-drift", "--pose-drift", "0.02,0.5")
        drifted = json.loads((work / "poses-drift" / "truth-poses.json").read_bytes())
        put("poses", "drifted.json", json.dumps(drifted))
        drifted["residual"] = {"before": 0.01, "after": 0.001}
        drifted["frames"][1]["residual"] = {"before": 0.012, "after": 0.0011}
        put("poses", "with-residuals-compact.json", json.dumps(drifted, separators=(",", ":")))
    finally:
        shutil.rmtree(work)


def recompressed_r3d(r3d):
    """The .r3d with its maps compressed by liblzfse itself (bvx2/bvxn blocks) and deflated
    entries."""
    import liblzfse
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(r3d)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename.endswith((".depth", ".conf")):
                data = liblzfse.compress(liblzfse.decompress(data))
            target.writestr(info.filename, data)
    return out.getvalue()


def npy_bytes(array=None, version=None, fortran=False):
    import numpy as np
    if array is None:
        array = (np.arange(12, dtype="<u2").reshape(3, 4) * 250)
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, np.asfortranarray(array) if fortran else array, version=version, allow_pickle=False)
    return buffer.getvalue()


def images_and_maps():
    import numpy as np
    from PIL import Image
    rng = np.random.default_rng(3)
    photo = Image.fromarray(rng.integers(0, 256, (24, 32, 3), dtype=np.uint8))
    for name, options in (("baseline-420.jpg", {"quality": 80}), ("progressive.jpg", {"quality": 70, "progressive": True}),
                          ("444.jpg", {"subsampling": 0}), ("422.jpg", {"subsampling": 1}),
                          ("restart-markers.jpg", {"quality": 60, "restart_marker_blocks": 1}),
                          ("icc-profile.jpg", {"icc_profile": b"\0" * 128})):
        buffer = io.BytesIO()
        photo.save(buffer, "JPEG", **options)
        put("jpeg", name, buffer.getvalue())
    grey = io.BytesIO()
    photo.convert("L").save(grey, "JPEG")
    put("jpeg", "grey.jpg", grey.getvalue())
    cmyk = io.BytesIO()
    photo.convert("CMYK").save(cmyk, "JPEG")
    put("jpeg", "cmyk.jpg", cmyk.getvalue())
    for exr in sorted((ROOT / "Tests" / "Fixtures" / "EXR").glob("*.exr")):
        put("exr", exr.name, exr.read_bytes())
    for lz in sorted((ROOT / "Tests" / "Fixtures" / "LZFSE").rglob("*.lzfse")):
        if lz.stat().st_size <= 40000:
            put("lzfse", lz.name, lz.read_bytes())
    put("npy", "depth-v1.npy", npy_bytes())
    put("npy", "depth-v2.npy", npy_bytes(version=(2, 0)))
    put("npy", "depth-v3.npy", npy_bytes(version=(3, 0)))
    put("npy", "bad-fortran.npy", npy_bytes(fortran=True))
    put("npy", "bad-big-endian.npy", npy_bytes(np.arange(6, dtype=">u2").reshape(2, 3)))
    put("npy", "bad-float.npy", npy_bytes(np.zeros((2, 2), dtype="<f4")))
    for name, members, method in (("stored.zip", {"metadata": b"{}", "rgbd/0.depth": b"bvx$"}, zipfile.ZIP_STORED),
                                  ("deflated-comment.zip", {"a": b"x" * 300, "dir/": b""}, zipfile.ZIP_DEFLATED)):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", method) as archive:
            for member, data in members.items():
                archive.writestr(member, data)
            archive.comment = b"made for fuzzing"
        put("zip", name, buffer.getvalue())
    put("zip", "empty.zip", b"PK\x05\x06" + b"\0" * 18)


# --- .ppstore -----------------------------------------------------------------------------------

def crc32c(data, crc=0):
    table = crc32c.table if hasattr(crc32c, "table") else None
    if table is None:
        table = []
        for n in range(256):
            c = n
            for _ in range(8):
                c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
            table.append(c)
        crc32c.table = table
    crc ^= 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def morton_cell(code):
    """The cell (x, y, z) of a Morton code: bits 0, 1, 2 of each triple are x, y, z, each field
    biased by 2^20 (VoxelKey+Morton.swift)."""
    fields = [0, 0, 0]
    for bit in range(21):
        for axis in range(3):
            fields[axis] |= ((code >> (3 * bit + axis)) & 1) << bit
    return tuple(f - (1 << 20) for f in fields)


def store_bytes(voxels, chunk_capacity=2, policy=0, source=b"synth", grade=None, contents=0):
    """A .ppstore file of `voxels` ((code, r, g, b, count, first, last), codes increasing, then
    the weight sum when `contents` has bit 0 and three sums of squares when it has bit 1), laid
    out as StoreFile+Format.swift describes: version 1 when `contents` is 0, else 2."""
    record = "<QqqqIII" + ("Q" if contents & 1 else "") + ("qqq" if contents & 2 else "")
    strings = source + (grade or b"")
    header_bytes = 128 + len(strings) + 4
    chunks = [voxels[i:i + chunk_capacity] for i in range(0, len(voxels), chunk_capacity)]
    body, index = b"", []
    offset = header_bytes
    for chunk in chunks:
        payload = b"".join(struct.pack(record, *v) for v in chunk)
        head = b"PPCK" + struct.pack("<IQQI", len(chunk), chunk[0][0], chunk[-1][0], crc32c(payload))
        head += struct.pack("<I", crc32c(head))
        index.append((offset, chunk[0][0], chunk[-1][0], len(chunk)))
        body += head + payload
        offset += len(head) + len(payload)
    samples_a_chunk = 2  # each entry's sample codes: the codes of its voxels floor(j * n / 2)
    entries = []
    for (o, f, l, n), chunk in zip(index, chunks):
        codes = [chunk[j * n // samples_a_chunk][0] for j in range(samples_a_chunk)]
        entries.append(struct.pack("<QQQII", o, f, l, n, 0) + struct.pack("<%dQ" % samples_a_chunk, *codes))
    index_bytes = b"PPIX" + struct.pack("<IQ", samples_a_chunk, len(chunks)) + b"".join(entries)
    index_bytes += struct.pack("<I", crc32c(index_bytes))
    samples = sum(v[4] for v in voxels)
    cells = [morton_cell(v[0]) for v in voxels] or [(0, 0, 0)]
    low = [min(c[k] for c in cells) for k in range(3)] if voxels else [0, 0, 0]
    high = [max(c[k] for c in cells) for k in range(3)] if voxels else [0, 0, 0]
    fixed = (b"\x89PPS\r\n\x1a\n" + struct.pack("<IIfBBBB", 2 if contents else 1, header_bytes, 0.05, policy, 0, 1, contents)
             + struct.pack("<QQQQQQ", len(voxels), samples, 0, 2, len(chunks), offset)
             + struct.pack("<iiiiii", *low, *high) + struct.pack("<III", chunk_capacity, len(source), len(grade) if grade is not None else 0xFFFFFFFF)
             + b"\0" * 20)
    assert len(fixed) == 128
    header = fixed + strings
    return header + struct.pack("<I", crc32c(header)) + body + index_bytes


def stores():
    voxels = [(code, 1 << 20, 2 << 20, 3 << 20, 2, 0, 1) for code in (1, 8, 9, 64, 300)]
    put("store", "five-voxels.ppstore", store_bytes(voxels))
    put("store", "latest-grade.ppstore", store_bytes(voxels[:3], chunk_capacity=8, policy=1, grade=b"look: warm"))
    put("store", "empty.ppstore", store_bytes([]))
    weighted = [v + (200, 3 << 40, 4 << 40, 5 << 40) for v in voxels]
    put("store", "weighted-spread.ppstore", store_bytes(weighted, chunk_capacity=4, contents=3))


# --- .las ---------------------------------------------------------------------------------------

def las_files():
    """PointPaint's own LAS (format 7, voxel-size record) from the sample, and laspy's files of
    other versions and point formats (with and without colour, extra bytes, a VLR), a few points each."""
    import laspy
    import numpy as np
    bin_ = os.environ.get("POINTPAINT_BIN", str(ROOT / ".build" / "debug" / "pointpaint"))
    with tempfile.TemporaryDirectory() as tmp:
        # Relative names, run in the temporary folder: the LAS comment names its source.
        subprocess.run([bin_, "replay", str(SAMPLE), "-o", "v.ply", "--voxel-size", "0.2", "--frames", "0..1"], check=True, capture_output=True, cwd=tmp)
        subprocess.run([bin_, "voxelize", "v.ply", "-o", "v.las", "--voxel-size", "0.4"], check=True, capture_output=True, cwd=tmp)
        put("las", "pointpaint-voxels.las", pathlib.Path(tmp, "v.las").read_bytes())
        rng = np.random.default_rng(7)
        for version, fmt in (("1.2", 0), ("1.2", 2), ("1.2", 3), ("1.4", 6), ("1.4", 7), ("1.4", 8)):
            header = laspy.LasHeader(point_format=fmt, version=version)
            header.scales = np.array([0.001, 0.001, 0.001])
            header.offsets = np.array([10.0, -5.0, 0.5])
            header.creation_date = datetime.date(2026, 1, 1)  # not today's: the seeds stay the same
            header.generating_software = "laspy"
            if fmt == 3:
                header.add_extra_dim(laspy.ExtraBytesParams(name="quality", type=np.uint16))
            if fmt == 8:
                header.vlrs.append(laspy.VLR(user_id="fuzz", record_id=1, description="made for fuzzing", record_data=b"abc"))
            las = laspy.LasData(header)
            n = 6
            las.x = 10 + rng.random(n)
            las.y = -5 + rng.random(n)
            las.z = 0.5 + rng.random(n)
            if "red" in las.point_format.dimension_names:
                las.red = rng.integers(0, 65536, n)
                las.green = rng.integers(0, 65536, n)
                las.blue = rng.integers(0, 256, n)
            path = os.path.join(tmp, "f.las")
            las.write(path)
            put("las", "laspy-%s-format-%d.las" % (version, fmt), pathlib.Path(path).read_bytes())


def laz_files():
    """LAZ files written by laspy through lazrs and through LASzip (the laszip bindings), point
    formats 0-3 with and without extra bytes and 6-8, a few dozen points each; one of lazrs's
    variable-size chunks (two chunks and the empty one it ends with); PointPaint's own."""
    import laspy
    import lazrs
    import numpy as np
    bin_ = os.environ.get("POINTPAINT_BIN", str(ROOT / ".build" / "debug" / "pointpaint"))
    rng = np.random.default_rng(8)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "f.laz")
        for fmt, extra, backend in ((0, False, "Lazrs"), (1, False, "Laszip"), (2, True, "Lazrs"), (3, False, "Laszip"),
                                    (3, True, "Lazrs"), (6, False, "Lazrs"), (7, False, "Laszip"), (8, True, "Lazrs")):
            header = laspy.LasHeader(point_format=fmt, version="1.4" if fmt >= 6 else "1.2")
            header.scales = np.array([0.001, 0.001, 0.001])
            header.offsets = np.array([10.0, -5.0, 0.5])
            header.creation_date = datetime.date(2026, 1, 1)
            header.generating_software = "laspy"
            if extra:
                header.add_extra_dim(laspy.ExtraBytesParams(name="quality", type=np.uint16))
            las = laspy.LasData(header)
            n = 40
            las.x = 10 + rng.random(n)
            las.y = -5 + rng.random(n)
            las.z = 0.5 + rng.random(n)
            las.intensity = rng.integers(0, 65536, n)
            las.classification = rng.integers(0, 8, n)
            if "gps_time" in las.point_format.dimension_names:
                las.gps_time = 1e5 + np.cumsum(rng.random(n))
            if "red" in las.point_format.dimension_names:
                las.red = rng.integers(0, 65536, n)
                las.green = rng.integers(0, 65536, n)
                las.blue = rng.integers(0, 256, n)
            las.write(path, laz_backend=getattr(laspy.LazBackend, backend))
            put("laz", "%s-format-%d%s.laz" % (backend.lower(), fmt, "-extra" if extra else ""), pathlib.Path(path).read_bytes())
            if fmt == 3 and not extra:
                # The same points in variable-size chunks of 25 and 15.
                raw = pathlib.Path(path).read_bytes()
                start = struct.unpack_from("<I", raw, 96)[0]
                at = raw.find(b"laszip encoded") - 2
                vlr = lazrs.LazVlr.new_for_compression(3, 0, True)
                head = bytearray(raw[:start])
                head[at + 54: at + 54 + len(vlr.record_data())] = bytes(vlr.record_data())
                out = io.BytesIO()
                out.write(bytes(head))
                compressor = lazrs.LasZipCompressor(out, vlr)
                points = las.points.array.tobytes()
                for a, b in ((0, 25), (25, 40)):
                    compressor.compress_many(points[a * 34: b * 34])
                    compressor.finish_current_chunk()
                compressor.done()
                put("laz", "lazrs-format-3-variable-chunks.laz", out.getvalue())
        subprocess.run([bin_, "replay", str(SAMPLE), "-o", "v.laz", "--voxel-size", "0.4", "--frames", "0..1"], check=True, capture_output=True, cwd=tmp)
        put("laz", "pointpaint-voxels.laz", pathlib.Path(tmp, "v.laz").read_bytes())
        # COPC: PointPaint's own, 300 voxels of one frame (two levels, three nodes) and a handful
        # of coarse ones (one node).
        for name, size, frames in (("levels", "0.01", "0..0"), ("one-node", "0.4", "0..1")):
            subprocess.run([bin_, "replay", str(SAMPLE), "-o", "c.copc.laz", "--voxel-size", size, "--frames", frames], check=True,
                           capture_output=True, cwd=tmp)
            put("copc", "pointpaint-%s.copc.laz" % name, pathlib.Path(tmp, "c.copc.laz").read_bytes())


def main():
    for target in ("manifest", "xyz", "cube", "ply-header", "ply-ascii", "ply-binary", "ply-cloud", "png-cube", "png-image", "png-plane",
                   "jpeg", "exr", "lzfse", "zip", "npy", "store", "las", "laz", "copc", "stray-csv", "r3d", "record3d-metadata", "polycam-camera",
                   "scanner-frame", "nerfstudio", "poses"):
        shutil.rmtree(CORPUS / target, ignore_errors=True)
    manifests()
    xyz_files()
    cubes()
    plys()
    pngs()
    apps()
    images_and_maps()
    stores()
    las_files()
    laz_files()
    total = sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file())
    print("corpus: %d files, %d bytes" % (sum(1 for p in CORPUS.rglob("*") if p.is_file()), total))


if __name__ == "__main__":
    main()
