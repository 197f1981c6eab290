"""`pointpaint sample` on a photograph converted to NV12 by ffmpeg, against a numpy float64
decode of the same NV12 bytes written here from the standards and the texel positions of
docs/DESIGN.md, "Texel positions and chroma siting".

Encodings: full-range BT.601 (ARKit's), video-range BT.709 and video-range BT.2020. At a grid
of coordinates (corners and edges included) plus random ones: within 1 level (8-bit scale) for
nearest, 2 levels for bilinear, in the capture's own R′G′B′ (unclamped float output) and as
8-bit sRGB.
"""
import json
import subprocess

import numpy as np
import pytest

from test_frame_ffmpeg import HEIGHT, WIDTH, make_capture, read_nv12, reference_rgb

ENCODINGS = [("bt601", "full"), ("bt709", "video"), ("bt2020", "video")]


@pytest.fixture(scope="module", params=ENCODINGS, ids=lambda e: f"{e[0]}-{e[1]}")
def capture(request, photo, tmp_path_factory):
    matrix, code_range = request.param
    directory = tmp_path_factory.mktemp(f"sample-ffmpeg-{matrix}-{code_range}")
    return make_capture(directory, photo, matrix, code_range), matrix, code_range


def coordinates():
    """A grid over the whole image (edges and corners included) plus random points."""
    s, t = np.meshgrid(np.linspace(0, 1, 33), np.linspace(0, 1, 25))
    grid = np.stack([s.ravel(), t.ravel()], axis=-1)
    rng = np.random.default_rng(7)
    return np.concatenate([grid, rng.random((400, 2))])


def near_a_texel_edge(points):
    """Points within 1/1000 pixel of a luma or chroma texel boundary (inside the image), where
    the sampler's single-precision coordinates may fall in the neighbouring texel."""
    close = np.zeros(len(points), dtype=bool)
    for scale in (1, 2):
        for axis, size in ((0, WIDTH), (1, HEIGHT)):
            p = points[:, axis] * size / scale
            frac = np.abs(p - np.round(p))
            close |= (frac < 1e-3) & (p > 0.5) & (p < size / scale - 0.5)
    return close


def sample_nearest(plane, s, t):
    h, w = plane.shape
    return plane[np.minimum((t * h).astype(int), h - 1), np.minimum((s * w).astype(int), w - 1)]


def sample_bilinear(plane, s, t):
    """Texel position (s·w − 0.5, t·h − 0.5) in this plane, edges clamped (docs/DESIGN.md, "Texel
    positions and chroma siting"). For the half-size chroma planes of centre-sited 4:2:0 this is
    (s·W/2 − 0.5, t·H/2 − 0.5)."""
    h, w = plane.shape
    x, y = s * w - 0.5, t * h - 0.5
    x0, y0 = np.floor(x), np.floor(y)
    ax, ay = x - x0, y - y0
    x0, y0 = x0.astype(int), y0.astype(int)
    xa, xb = np.clip(x0, 0, w - 1), np.clip(x0 + 1, 0, w - 1)
    ya, yb = np.clip(y0, 0, h - 1), np.clip(y0 + 1, 0, h - 1)
    top = plane[ya, xa] * (1 - ax) + plane[ya, xb] * ax
    bottom = plane[yb, xa] * (1 - ax) + plane[yb, xb] * ax
    return top * (1 - ay) + bottom * ay


def run_sample(binary, capture, points, interpolation, space):
    args = [binary, "sample", str(capture), "--json", "--interpolation", interpolation, "--space", space]
    for s, t in points:
        args.append(f"--at={float(s)!r},{float(t)!r}")
    result = subprocess.run(args, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    samples = json.loads(result.stdout)["samples"]
    assert len(samples) == len(points)
    assert not any(sample.get("outside") for sample in samples)
    return samples


@pytest.mark.parametrize("interpolation,tolerance", [("nearest", 1.0), ("bilinear", 2.0)])
def test_sample_matches_float64_decode(pointpaint_bin, capture, interpolation, tolerance):
    directory, matrix, code_range = capture
    points = coordinates()
    if interpolation == "nearest":
        points = points[~near_a_texel_edge(points)]
    y, cb, cr = read_nv12(directory / "frames" / "000000.nv12")
    pick = sample_nearest if interpolation == "nearest" else sample_bilinear
    s, t = points[:, 0], points[:, 1]
    expected = reference_rgb(pick(y, s, t), pick(cb, s, t), pick(cr, s, t), matrix, code_range)

    # The capture's own R′G′B′, unclamped: the decode itself, not hidden by clipping.
    capture_space = run_sample(pointpaint_bin, directory, points, interpolation, "capture")
    ours = np.array([sample["float"] for sample in capture_space]) * 255
    difference = np.abs(ours - expected)
    worst = np.unravel_index(difference.argmax(), difference.shape)
    assert difference.max() <= tolerance, f"max difference {difference.max():.3f} at {points[worst[0]]}, channel {worst[1]}"

    # 8-bit sRGB output (sRGB primaries: the same values, clamped and rounded).
    srgb = run_sample(pointpaint_bin, directory, points, interpolation, "srgb")
    bytes8 = np.array([sample["rgb8"] for sample in srgb], dtype=np.float64)
    assert np.abs(bytes8 - np.clip(expected, 0, 255)).max() <= tolerance

    # The pixel reported is the one the coordinate falls in (away from pixel boundaries, where
    # single precision may pick the neighbour).
    pixels = np.array([sample["pixel"] for sample in srgb])
    clear = ~near_a_texel_edge(points)
    assert (pixels[clear, 0] == np.minimum((s[clear] * WIDTH).astype(int), WIDTH - 1)).all()
    assert (pixels[clear, 1] == np.minimum((t[clear] * HEIGHT).astype(int), HEIGHT - 1)).all()

    # The photo is not trivial where we sampled: wide spread, clamps reached.
    assert bytes8.std() > 30 and bytes8.min() <= 2 and bytes8.max() >= 253


def test_interpolations_differ_on_detail(pointpaint_bin, capture):
    """Between pixel centres on a detailed photo, bilinear and nearest give different colours."""
    directory, _, _ = capture
    points = coordinates()[825:]
    nearest = np.array([s["float"] for s in run_sample(pointpaint_bin, directory, points, "nearest", "capture")])
    bilinear = np.array([s["float"] for s in run_sample(pointpaint_bin, directory, points, "bilinear", "capture")])
    assert np.abs(nearest - bilinear).max() * 255 > 8
