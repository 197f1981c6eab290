"""Shared pytest fixtures and helpers for PointPaint's Python cross-checks."""
import os
import pathlib
import subprocess

import numpy as np
import pytest

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo_root() -> pathlib.Path:
    """The repository root."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def pointpaint_bin() -> str:
    """Path of the pointpaint executable: $POINTPAINT_BIN, default .build/debug/pointpaint."""
    path = pathlib.Path(os.environ.get("POINTPAINT_BIN", REPO_ROOT / ".build" / "debug" / "pointpaint"))
    if not path.is_absolute():
        path = REPO_ROOT / path
    if not path.exists():
        pytest.fail(f"pointpaint binary not found at {path}; build it or set POINTPAINT_BIN")
    return str(path)


@pytest.fixture(scope="session")
def photo(tmp_path_factory):
    """A photo-like test image (PNG), made once for the frame and sample cross-checks."""
    from test_frame_ffmpeg import make_photo

    path = tmp_path_factory.mktemp("photo") / "photo.png"
    make_photo(path)
    return path


def temporaries(directory):
    """Hidden temporaries (`.NAME.tmp-PID-RANDOM`) anywhere under `directory`."""
    return [p for p in pathlib.Path(directory).rglob(".*.tmp-*")]


def mounted_tmpfs(tmp_path, size):
    """A tmpfs of `size` (mount's `size=`, such as "512k") at tmp_path/disk for one test, root
    only: a fixture yields from this, and it is unmounted when the test ends."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs: %s" % done.stderr.decode(errors="replace"))
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


def write_random_ply(path, n, rng):
    """Writes `n` points uniform in the unit cube with random 8-bit colours (from `rng`, a numpy
    Generator) to `path`: binary little-endian PLY, float x y z, uchar red green blue."""
    vertex = np.zeros(n, dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1")])
    for axis in "xyz":
        vertex[axis] = rng.random(n, dtype=np.float32)
    for channel in ("red", "green", "blue"):
        vertex[channel] = rng.integers(0, 256, n, dtype=np.uint8)
    header = ("ply\nformat binary_little_endian 1.0\nelement vertex %d\nproperty float x\nproperty float y\n"
              "property float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n" % n)
    pathlib.Path(path).write_bytes(header.encode() + vertex.tobytes())
