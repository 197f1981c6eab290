"""`pointpaint frame` on a photograph converted to NV12 by ffmpeg (full-range BT.601, as ARKit
delivers, and video-range BT.709), against a numpy float64 decode of the same NV12 bytes
written from the standards (T.871 / BT.601 / BT.709: Kr, Kb per standard). Nearest and bilinear
chroma, within 1 level everywhere.

The NV12 file is wrapped in a minimal version-1 capture (docs/DESIGN.md, "Capture manifest,
version 1"; field by field in Captures/README.md): identity camera, one frame, an empty
feature-point file. The helpers here (photo, NV12 encoding, capture,
reference decode) are shared with test_sample_ffmpeg.py.
"""
import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

WIDTH, HEIGHT = 320, 240
REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

# Kr, Kb of each matrix (BT.601, BT.709, BT.2020 non-constant luminance).
WEIGHTS = {"bt601": (0.299, 0.114), "bt709": (0.2126, 0.0722), "bt2020": (0.2627, 0.0593)}
# ffmpeg's names for the matrix (-colorspace) and range (-color_range) tags.
FFMPEG_COLORSPACE = {"bt601": "bt470bg", "bt709": "bt709", "bt2020": "bt2020nc"}
FFMPEG_RANGE = {"full": ("full", "pc"), "video": ("tv", "tv")}
ENCODINGS = [("bt601", "full"), ("bt709", "video")]


def _binary():
    path = pathlib.Path(os.environ.get("POINTPAINT_BIN", REPO_ROOT / ".build" / "debug" / "pointpaint"))
    return path if path.is_absolute() else REPO_ROOT / path


@pytest.fixture(scope="module")
def binary(request):
    """The conftest's `pointpaint_bin` fixture when there is one, else $POINTPAINT_BIN."""
    try:
        return request.getfixturevalue("pointpaint_bin")
    except pytest.FixtureLookupError:
        path = _binary()
        if not path.exists():
            pytest.fail(f"pointpaint binary not found at {path}; build it or set POINTPAINT_BIN")
        return str(path)


def make_photo(path, width=WIDTH, height=HEIGHT):
    """A photograph-like PNG: ffmpeg's mandelbrot and testsrc2 blended with gradients and sensor
    noise, with saturated corners so decodes reach the clamps."""
    sources = []
    for source in [f"mandelbrot=size={width}x{height}", f"testsrc2=size={width}x{height}"]:
        raw = subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", source, "-frames:v", "1",
                              "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], check=True, capture_output=True).stdout
        sources.append(np.frombuffer(raw, dtype=np.uint8).reshape(height, width, 3).astype(np.float64))
    rng = np.random.default_rng(42)
    yy, xx = np.mgrid[0:height, 0:width] / np.array([height, width]).reshape(2, 1, 1)
    sky = np.stack([60 + 120 * xx, 110 + 90 * yy, 230 - 150 * yy], axis=-1)
    photo = 0.45 * sources[0] + 0.35 * sources[1] + 0.2 * sky + rng.normal(0, 6, (height, width, 3))
    photo[:24, :24] = [255, 0, 0]
    photo[-24:, -24:] = [0, 0, 255]
    photo[:24, -24:] = [0, 255, 0]
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{width}x{height}",
                    "-i", "-", "-frames:v", "1", str(path)],
                   input=np.clip(photo, 0, 255).round().astype(np.uint8).tobytes(), check=True)


def make_capture(directory, png, matrix, code_range, width=WIDTH, height=HEIGHT):
    """Converts `png` with ffmpeg to NV12 in `matrix` and `code_range` and wraps it as a
    one-frame capture in `directory` (manifest written here, from the format in docs/DESIGN.md,
    "Capture manifest, version 1")."""
    (directory / "frames").mkdir(parents=True)
    (directory / "points").mkdir()
    nv12 = directory / "frames" / "000000.nv12"
    scale_range, tag_range = FFMPEG_RANGE[code_range]
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(png),
                    "-vf", f"scale=out_color_matrix={matrix}:out_range={scale_range},format=nv12",
                    "-color_range", tag_range, "-colorspace", FFMPEG_COLORSPACE[matrix], "-f", "rawvideo", str(nv12)],
                   check=True)
    assert nv12.stat().st_size == width * height * 3 // 2
    (directory / "points" / "000000.xyz").write_text("# no feature points\n")
    manifest = {
        "format": "pointpaint.capture",
        "version": 1,
        "image": {"width": width, "height": height, "range": code_range, "matrix": matrix, "primaries": "srgb",
                  "chromaSiting": "center"},
        "frames": [{
            "timestamp": 0.0,
            "image": "frames/000000.nv12",
            "points": "points/000000.xyz",
            "camera": {"intrinsics": [300.0, 300.0, width / 2, height / 2],
                       "transform": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]},
        }],
    }
    (directory / "capture.json").write_text(json.dumps(manifest, indent=2))
    return directory


@pytest.fixture(scope="module", params=ENCODINGS, ids=lambda e: f"{e[0]}-{e[1]}")
def capture(request, photo, tmp_path_factory):
    matrix, code_range = request.param
    directory = tmp_path_factory.mktemp(f"frame-ffmpeg-{matrix}-{code_range}")
    return make_capture(directory, photo, matrix, code_range)


def read_nv12(path, width=WIDTH, height=HEIGHT):
    data = np.fromfile(path, dtype=np.uint8)
    y = data[:width * height].reshape(height, width).astype(np.float64)
    c = data[width * height:].reshape(height // 2, width // 2, 2).astype(np.float64)
    return y, c[..., 0], c[..., 1]


def upsample_nearest(plane):
    return np.repeat(np.repeat(plane, 2, axis=0), 2, axis=1)


def upsample_bilinear(plane):
    """Chroma texel position (i + 0.5)/2 − 0.5 on each axis (centre siting), edges clamped."""
    ch, cw = plane.shape

    def axis(n_out, n_in):
        p = (np.arange(n_out) + 0.5) / 2 - 0.5
        i0 = np.floor(p)
        a = p - i0
        i0 = i0.astype(int)
        return np.clip(i0, 0, n_in - 1), np.clip(i0 + 1, 0, n_in - 1), a

    y0, y1, ay = axis(2 * ch, ch)
    x0, x1, ax = axis(2 * cw, cw)
    top = plane[y0][:, x0] * (1 - ax) + plane[y0][:, x1] * ax
    bottom = plane[y1][:, x0] * (1 - ax) + plane[y1][:, x1] * ax
    return top * (1 - ay[:, None]) + bottom * ay[:, None]


def reference_rgb(y, cb, cr, matrix="bt601", code_range="full"):
    """R′G′B′ on a 0…255 scale, unclamped, from the standard: E′Y, E′Pb, E′Pr normalised for the
    range, R and B from the colour differences, G from the luma equation."""
    kr, kb = WEIGHTS[matrix]
    if code_range == "full":
        ey, pb, pr = y / 255, (cb - 128) / 255, (cr - 128) / 255
    else:
        ey, pb, pr = (y - 16) / 219, (cb - 128) / 224, (cr - 128) / 224
    r = ey + 2 * (1 - kr) * pr
    b = ey + 2 * (1 - kb) * pb
    g = (ey - kr * r - kb * b) / (1 - kr - kb)
    return np.stack([r, g, b], axis=-1) * 255


def manifest_encoding(capture):
    image = json.loads((capture / "capture.json").read_text())["image"]
    return image["matrix"], image["range"]


def read_png(path):
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         check=True, capture_output=True).stdout
    return np.frombuffer(out, dtype=np.uint8).reshape(HEIGHT, WIDTH, 3).astype(np.float64)


@pytest.mark.parametrize("interpolation", ["nearest", "bilinear"])
def test_frame_matches_float64_decode(binary, capture, tmp_path, interpolation):
    out = tmp_path / f"frame-{interpolation}.png"
    subprocess.run([binary, "frame", str(capture), "--index", "0", "-o", str(out), "--interpolation", interpolation],
                   check=True, capture_output=True)
    ours = read_png(out)
    y, cb, cr = read_nv12(capture / "frames" / "000000.nv12")
    up = upsample_nearest if interpolation == "nearest" else upsample_bilinear
    matrix, code_range = manifest_encoding(capture)
    expected = np.clip(reference_rgb(y, up(cb), up(cr), matrix, code_range), 0, 255)
    difference = np.abs(ours - expected)
    # Rounded output against the exact value: at most half a level from rounding plus the fast
    # path's fixed-point error; 1 level is the contract.
    assert difference.max() <= 1.0, f"max difference {difference.max():.3f} at {np.unravel_index(difference.argmax(), difference.shape)}"
    # Nearly every sample is the correctly rounded value. Video range scales Y by 255/219, which
    # the fast fixed-point path carries less exactly (about 97% exact on this photo, measured).
    exact = (np.abs(ours - np.round(expected)) == 0).mean()
    assert exact > (0.98 if code_range == "full" else 0.95), f"only {exact:.4f} exactly rounded"
    # The photo is not trivial: it spans the range and reaches the clamps.
    assert ours.min() <= 2 and ours.max() >= 253 and ours.std() > 30


def test_nearest_shares_chroma_per_block(binary, capture, tmp_path):
    """Nearest and bilinear differ (the photo has chroma detail), and nearest is what a 2×2
    block decode gives: every pixel of a block decodes with the block's own chroma sample."""
    near, bil = tmp_path / "n.png", tmp_path / "b.png"
    for path, mode in [(near, "nearest"), (bil, "bilinear")]:
        subprocess.run([binary, "frame", str(capture), "--index", "0", "-o", str(path), "--interpolation", mode],
                       check=True, capture_output=True)
    assert np.abs(read_png(near) - read_png(bil)).max() > 8
