"""A merge that runs out of room: a full disk (a small tmpfs, root only) or a file-size limit
while `merge` writes a store, a PLY or a LAS file. Whatever the output, the error is one line,
the previous file stays as it was and no temporary is left beside it (a PLY or LAS output is
written from a temporary store next to it, which must go too)."""
import os
import pathlib
import resource
import signal
import subprocess

import numpy as np
import pytest

IS_ROOT = os.geteuid() == 0
OUTPUTS = ["out.ppstore", "out.ply", "out.las"]


def temporaries(directory):
    return [p for p in pathlib.Path(directory).rglob(".*.tmp-*")]


def error_lines(stderr):
    return [l for l in stderr.splitlines() if l.strip() and not l.startswith(("Usage", "  See"))]


@pytest.fixture(scope="module")
def stores(pointpaint_bin, tmp_path_factory):
    """Two stores of 100,000 random points each at 0.002 (a few MB, about 200,000 voxels merged)
    and two of the same points at 0.1 (a few hundred voxels, a few kB)."""
    directory = tmp_path_factory.mktemp("stores")
    rng = np.random.default_rng(15)
    paths = {}
    for name in ("a", "b"):
        n = 100_000
        vertex = np.zeros(n, dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1")])
        for axis in "xyz":
            vertex[axis] = rng.random(n, dtype=np.float32)
        for channel in ("red", "green", "blue"):
            vertex[channel] = rng.integers(0, 256, n, dtype=np.uint8)
        ply = directory / (name + ".ply")
        ply.write_bytes(("ply\nformat binary_little_endian 1.0\nelement vertex %d\nproperty float x\nproperty float y\n"
                         "property float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n"
                         % n).encode() + vertex.tobytes())
        for size, kind in (("0.002", "big"), ("0.1", "small")):
            out = directory / ("%s-%s.ppstore" % (name, kind))
            subprocess.run([pointpaint_bin, "voxelize", str(ply), "-o", str(out), "--voxel-size", size], check=True,
                           capture_output=True)
            paths.setdefault(kind, []).append(str(out))
    return paths


def merge(bin, inputs, out, **kwargs):
    return subprocess.run([bin, "merge", *inputs, "-o", str(out)], capture_output=True, text=True, **kwargs)


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs, mounted for the test (root only)."""
    if not IS_ROOT:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs: %s" % done.stderr.decode(errors="replace"))
    yield mount
    subprocess.run(["umount", str(mount)], check=True)


@pytest.mark.parametrize("name", OUTPUTS)
def test_a_merge_onto_a_full_disk_is_one_line_and_the_previous_file_stays(pointpaint_bin, stores, small_disk, name):
    out = small_disk / name
    first = merge(pointpaint_bin, stores["small"], out)
    assert first.returncode == 0, first.stderr
    previous = out.read_bytes()
    done = merge(pointpaint_bin, stores["big"], out)
    assert done.returncode == 1, done.stderr
    lines = error_lines(done.stderr)
    assert len(lines) == 1 and "no space left on device" in lines[0], lines
    assert out.read_bytes() == previous
    assert temporaries(small_disk) == []
    # Nothing of the failed merge holds space: the same small merge fits again.
    again = merge(pointpaint_bin, stores["small"], out)
    assert again.returncode == 0 and out.read_bytes() == previous, again.stderr


@pytest.mark.parametrize("name", OUTPUTS)
def test_a_merge_past_the_file_size_limit_is_one_line_and_the_previous_file_stays(pointpaint_bin, stores, tmp_path, name):
    out = tmp_path / name
    first = merge(pointpaint_bin, stores["small"], out)
    assert first.returncode == 0, first.stderr
    previous = out.read_bytes()

    def limit_file_size():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (512 << 10, 512 << 10))

    done = merge(pointpaint_bin, stores["big"], out, preexec_fn=limit_file_size)
    assert done.returncode == 1, done.stderr
    lines = error_lines(done.stderr)
    assert len(lines) == 1 and "file too large" in lines[0], lines
    assert out.read_bytes() == previous
    assert temporaries(tmp_path) == []
