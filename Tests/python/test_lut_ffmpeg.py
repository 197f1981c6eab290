"""`pointpaint lut apply` with a .cube file against ffmpeg's `lut3d` filter (interp=trilinear) on the
photograph-like image of conftest's `photo`: within 1 level everywhere. ffmpeg truncates its 8-bit output where
PointPaint rounds, so a difference of 1 is expected; anything larger would be a real disagreement
(layout, domain, interpolation)."""
import subprocess

import numpy as np
import pytest

WIDTH, HEIGHT = 320, 240


def write_png(path, rgb):
    h, w, _ = rgb.shape
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{w}x{h}",
                    "-i", "-", "-frames:v", "1", str(path)], input=rgb.astype(np.uint8).tobytes(), check=True)


def read_png(path):
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         check=True, capture_output=True).stdout
    return np.frombuffer(out, dtype=np.uint8).reshape(HEIGHT, WIDTH, 3)


def python_cube(path, size):
    """A .cube written here, independently of PointPaint's writer: a hue-twisting matrix, a gamma
    and a gentle ripple, with a title, comments and an explicit unit domain."""
    axis = np.linspace(0, 1, size)
    b, g, r = np.meshgrid(axis, axis, axis, indexing="ij")  # red fastest in C order
    rgb = np.stack([r, g, b], axis=-1).reshape(-1, 3)
    twist = np.array([[0.85, 0.25, -0.1], [0.1, 0.8, 0.1], [-0.05, 0.3, 0.75]])
    out = np.clip(rgb @ twist.T, 0, 1) ** 0.8 + 0.03 * np.sin(9 * rgb[:, [1, 2, 0]])
    out = np.clip(out, 0, 1)
    with open(path, "w") as f:
        f.write(f'# written by test_lut_ffmpeg.py\nTITLE "twist {size}"\nLUT_3D_SIZE {size}\n')
        f.write("DOMAIN_MIN 0.0 0.0 0.0\nDOMAIN_MAX 1.0 1.0 1.0\n\n")
        for row in out:
            f.write(f"{row[0]:.6f} {row[1]:.6f} {row[2]:.6f}\n")


def compare(pointpaint_bin, directory, photo, cube):
    ours = directory / f"ours-{cube.stem}.png"
    theirs = directory / f"ffmpeg-{cube.stem}.png"
    subprocess.run([pointpaint_bin, "lut", "apply", str(cube), "--to", str(photo), "-o", str(ours)],
                   check=True, capture_output=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(photo), "-vf",
                    f"format=rgb24,lut3d=file='{cube}':interp=trilinear", "-pix_fmt", "rgb24", str(theirs)],
                   check=True)
    a = read_png(ours).astype(int)
    b = read_png(theirs).astype(int)
    original = read_png(photo).astype(int)
    diff = np.abs(a - b)
    # The look changed the picture (so the comparison means something) ...
    assert np.abs(a - original).mean() > 5
    # ... and both tools agree within one level everywhere.
    assert diff.max() <= 1, f"max difference {diff.max()} at {np.unravel_index(diff.argmax(), diff.shape)}"
    return diff


@pytest.mark.parametrize("size", [17, 33, 64])
def test_python_written_cube_matches_ffmpeg(pointpaint_bin, photo, tmp_path, size):
    cube = tmp_path / f"twist{size}.cube"
    python_cube(cube, size)
    compare(pointpaint_bin, tmp_path, photo, cube)


@pytest.mark.parametrize("arguments", [
    ["--look", "cyanotype", "--saturation", "0.4", "--contrast", "0.2"],
    ["--look", "night-vision", "--strength", "0.7", "--temperature=-0.5"],
    ["--look", "noir", "--brightness", "0.3"],
])
def test_pointpaint_made_cube_matches_ffmpeg(pointpaint_bin, photo, tmp_path, arguments):
    cube = tmp_path / f"made-{arguments[1]}.cube"
    subprocess.run([pointpaint_bin, "lut", "make", *arguments, "--size", "33", "-o", str(cube)],
                   check=True, capture_output=True)
    compare(pointpaint_bin, tmp_path, photo, cube)


def test_png_and_cube_forms_grade_alike(pointpaint_bin, photo, tmp_path):
    directory, path = tmp_path, photo
    cube = directory / "twist33.cube"
    python_cube(cube, 33)
    as_png = directory / "twist33.png"
    # Composing with the identity converts the .cube to a 16-bit PNG cube.
    identity = directory / "identity33.png"
    subprocess.run([pointpaint_bin, "lut", "identity", "--size", "33", "-o", str(identity)], check=True, capture_output=True)
    subprocess.run([pointpaint_bin, "lut", "compose", str(identity), str(cube), "-o", str(as_png)],
                   check=True, capture_output=True)
    outputs = []
    for lut in (cube, as_png):
        out = directory / f"graded-{lut.suffix[1:]}.png"
        subprocess.run([pointpaint_bin, "lut", "apply", str(lut), "--to", str(path), "-o", str(out)],
                       check=True, capture_output=True)
        outputs.append(read_png(out).astype(int))
    assert np.abs(outputs[0] - outputs[1]).max() <= 1


@pytest.mark.parametrize("layout, shape", [
    ("strip", (16, 256)),    # height, width: N rows of N² pixels
    ("column", (256, 16)),   # N² rows of N pixels
    ("square", (64, 64)),    # √N·N on each side (the Hald order)
    ("auto", (64, 64)),      # 16 is a perfect square
])
def test_identity_layouts(pointpaint_bin, tmp_path, layout, shape):
    """`lut identity --layout` writes N³ pixels in raster order, red fastest, in the asked shape,
    and each shape reads back as the identity (grading an image with it changes nothing)."""
    path = tmp_path / f"identity-{layout}.png"
    subprocess.run([pointpaint_bin, "lut", "identity", "--size", "16", "--layout", layout, "-o", str(path)],
                   check=True, capture_output=True)
    h, w = shape
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         check=True, capture_output=True).stdout
    pixels = np.frombuffer(raw, dtype=np.uint8).reshape(h, w, 3).reshape(-1, 3)
    axis = np.rint(np.linspace(0, 255, 16)).astype(np.uint8)
    b, g, r = np.meshgrid(axis, axis, axis, indexing="ij")
    assert np.array_equal(pixels, np.stack([r, g, b], axis=-1).reshape(-1, 3))
    image = tmp_path / "ramp.png"
    ramp = np.stack(np.meshgrid(np.arange(WIDTH) % 256, np.arange(HEIGHT) % 256), axis=-1)
    write_png(image, np.concatenate([ramp, (ramp[..., :1] * 3) % 256], axis=-1))
    graded = tmp_path / f"graded-{layout}.png"
    subprocess.run([pointpaint_bin, "lut", "apply", str(path), "--to", str(image), "-o", str(graded)],
                   check=True, capture_output=True)
    assert np.abs(read_png(graded).astype(int) - read_png(image).astype(int)).max() == 0


def test_identity_square_layout_needs_a_square_size(pointpaint_bin, tmp_path):
    result = subprocess.run([pointpaint_bin, "lut", "identity", "--size", "17", "--layout", "square",
                             "-o", str(tmp_path / "x.png")], capture_output=True, text=True)
    assert result.returncode != 0
    assert "perfect square" in result.stderr
    assert not (tmp_path / "x.png").exists()
