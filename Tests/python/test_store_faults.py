"""A merge that runs out of room: a full disk (a small tmpfs, root only) or a file-size limit
while `merge` writes a store, a PLY or a LAS file. Whatever the output, the error is one line,
the previous file stays as it was and no temporary is left beside it (a PLY or LAS output is
written from a temporary store next to it, which must go too)."""
import resource
import signal
import subprocess

import numpy as np
import pytest

from conftest import mounted_tmpfs, temporaries, write_random_ply

OUTPUTS = ["out.ppstore", "out.ply", "out.las"]


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
        ply = directory / (name + ".ply")
        write_random_ply(ply, 100_000, rng)
        for size, kind in (("0.002", "big"), ("0.1", "small")):
            out = directory / ("%s-%s.ppstore" % (name, kind))
            subprocess.run([pointpaint_bin, "voxelize", str(ply), "-o", str(out), "--voxel-size", size], check=True,
                           capture_output=True)
            paths.setdefault(kind, []).append(str(out))
    return paths


def merge(bin, inputs, out, **kwargs):
    return subprocess.run([bin, "merge", *inputs, "-o", str(out)], capture_output=True, text=True, **kwargs)


def merged_small(bin, stores, out):
    """Merges the small stores into `out`, which must succeed; returns the bytes written."""
    first = merge(bin, stores["small"], out)
    assert first.returncode == 0, first.stderr
    return out.read_bytes()


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs, mounted for the test (root only)."""
    yield from mounted_tmpfs(tmp_path, "1m")


@pytest.mark.parametrize("name", OUTPUTS)
def test_a_merge_onto_a_full_disk_is_one_line_and_the_previous_file_stays(pointpaint_bin, stores, small_disk, name):
    out = small_disk / name
    previous = merged_small(pointpaint_bin, stores, out)
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
    previous = merged_small(pointpaint_bin, stores, out)

    def limit_file_size():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (512 << 10, 512 << 10))

    done = merge(pointpaint_bin, stores["big"], out, preexec_fn=limit_file_size)
    assert done.returncode == 1, done.stderr
    lines = error_lines(done.stderr)
    assert len(lines) == 1 and "file too large" in lines[0], lines
    assert out.read_bytes() == previous
    assert temporaries(tmp_path) == []
