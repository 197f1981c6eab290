"""Faults: every writer killed at random moments, signals during a write, a full disk, memory
ceilings, and paths that are not files. Whatever happens, a destination holds nothing, the
previous complete file or the new complete file; no temporary is left beside it (or the next run
removes it); an error is one clear line.

"Random moments" are measured in progress, not time: a writer is killed once it has written a
random share of its output (/proc/PID/io), so no test sleeps or depends on the machine's speed.
Tests that need root (mounting a small tmpfs, a private mount namespace, dropping to another
user) are skipped without it.
"""
import os
import pathlib
import random
import resource
import signal
import stat
import subprocess
import threading

import numpy as np
import pytest

from conftest import mounted_tmpfs, temporaries, write_random_ply

KILLS_PER_WRITER = 4
IS_ROOT = os.geteuid() == 0


# --- helpers -------------------------------------------------------------------------------------

def written_bytes(pid):
    """Bytes the process has written so far (write calls), or None once it is gone."""
    try:
        with open("/proc/%d/io" % pid) as f:
            for line in f:
                if line.startswith("wchar:"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return None


def stop(process):
    """Stops `process` (SIGSTOP) and waits until the kernel says it is stopped; False if it
    ended first."""
    process.send_signal(signal.SIGSTOP)
    stat = pathlib.Path("/proc/%d/stat" % process.pid)
    while True:
        try:
            state = stat.read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError, IndexError):
            return False
        if state in ("T", "t"):
            return True
        if state in ("Z", "X"):
            return False


def default_signals(then=None):
    """A preexec function giving the child the default action for the signals these tests send,
    whatever the test runner inherited (started under nohup, SIGHUP is ignored, and PointPaint
    rightly leaves an ignored signal ignored), then running `then`."""
    def preexec():
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(s, signal.SIG_DFL)
        if then is not None:
            then()
    return preexec


def run_until(command, share_bytes, signum, preexec=None):
    """Starts `command`, waits (polling, no sleep) until it has written `share_bytes` bytes,
    stops it, sends `signum` and lets it go on (`stop`: the signal lands at that point however
    loaded the machine), and returns the finished process. A process that ends first is
    returned as it ended."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=default_signals(preexec))
    while process.poll() is None:
        done = written_bytes(process.pid)
        if done is not None and done >= share_bytes:
            if stop(process):
                process.send_signal(signum)
                process.send_signal(signal.SIGCONT)
            break
    process.wait()
    process.stderr_text = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    return process



def files(directory):
    """Relative path → bytes of every file under `directory`."""
    root = pathlib.Path(directory)
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def one_line(stderr):
    # A replay reports progress after each frame it added ("progress: …", not on a terminal
    # every 2 s), so a frame that fails after others were added follows a progress line.
    lines = [l for l in stderr.splitlines() if l.strip() and not l.startswith(("Usage", "  See", "progress: "))]
    return len(lines) == 1, lines


@pytest.fixture(scope="module")
def cloud_ply(tmp_path_factory):
    """A binary PLY of 200,000 coloured points for voxelize to read."""
    path = tmp_path_factory.mktemp("cloud") / "cloud.ply"
    write_random_ply(path, 200_000, np.random.default_rng(14))
    return path


@pytest.fixture(scope="module")
def noise_png(pointpaint_bin, tmp_path_factory):
    """An incompressible 600×600 RGB PNG (and an identity cube beside it) for `lut apply` to
    grade into a PNG of about 1 MB, and a small Stray Scanner recording (`stray/`) to import."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    side = 600
    pixels = np.random.default_rng(7).integers(0, 256, (side, side * 3), dtype=np.uint8)
    raw = b"".join(b"\0" + row.tobytes() for row in pixels)
    directory = tmp_path_factory.mktemp("noise")
    path = directory / "noise.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))
    subprocess.run([pointpaint_bin, "lut", "identity", "--size", "2", "-o", str(directory / "id.cube")], check=True, capture_output=True)
    # A Stray Scanner recording (JPEG frames, depth maps) for `import` to copy.
    subprocess.run([pointpaint_bin, "synth", "--layout", "stray", "-o", str(directory / "stray"), "--frames", "6",
                    "--size", "320x240"], check=True, capture_output=True)
    return path


def writers(bin, cloud, noise):
    """name → (command writing OUT, command writing a different complete OUT, whether OUT is a
    directory of files). `{out}` stands for the destination."""
    return {
        "ply": (["voxelize", str(cloud), "-o", "{out}", "--voxel-size", "0.002", "--ply", "ascii"],
                ["voxelize", str(cloud), "-o", "{out}", "--voxel-size", "0.1"], False),
        "png": (["lut", "apply", str(noise.parent / "id.cube"), "--to", str(noise), "-o", "{out}"],
                ["lut", "identity", "--size", "4", "-o", "{out}"], False),
        "cube": (["lut", "identity", "--size", "64", "-o", "{out}"],
                 ["lut", "identity", "--size", "3", "-o", "{out}"], False),
        "capture": (["synth", "-o", "{out}", "--frames", "2", "--size", "320x240", "--points", "3000"],
                    ["synth", "-o", "{out}", "--frames", "2", "--size", "320x240", "--points", "3000"], True),
        "store": (["voxelize", str(cloud), "-o", "{out}", "--voxel-size", "0.002"],
                  ["voxelize", str(cloud), "-o", "{out}", "--voxel-size", "0.1"], False),
        "las": (["voxelize", str(cloud), "-o", "{out}", "--voxel-size", "0.002"],
                ["voxelize", str(cloud), "-o", "{out}", "--voxel-size", "0.1"], False),
        "import": (["import", str(noise.parent / "stray"), "-o", "{out}", "--quiet"],
                   ["import", str(noise.parent / "stray"), "-o", "{out}", "--quiet"], True),
    }


EXTENSIONS = {"ply": "out.ply", "png": "out.png", "cube": "out.cube", "capture": "capture",
              "store": "out.ppstore", "las": "out.las", "import": "imported"}


def command(bin, template, out):
    return [bin] + [a.replace("{out}", str(out)) for a in template]


def reference(bin, template, out):
    """Runs `template` to completion into `out` and returns what it wrote."""
    done = subprocess.run(command(bin, template, out), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return files(out) if out.is_dir() else out.read_bytes()


def check_destination(out, allowed, is_directory):
    """The destination is one of `allowed` (None: absent); a capture directory's every file is
    the matching file of a complete run (it is written file by file). Temporaries are checked
    apart."""
    if is_directory:
        present = {k: v for k, v in files(out).items() if ".tmp-" not in k} if out.exists() else {}
        complete = allowed[-1]
        for name, data in present.items():
            assert data == complete.get(name), "%s is not a complete file" % name
        return
    state = out.read_bytes() if out.exists() else None
    assert any(state == a for a in allowed), "the destination is neither absent, the previous nor the new file (%s bytes)" % (
        None if state is None else len(state))


# --- kill tests ----------------------------------------------------------------------------------

@pytest.mark.parametrize("writer", ["ply", "png", "cube", "capture", "store", "las", "import"])
def test_a_writer_killed_at_random_moments_leaves_a_complete_file_or_none(pointpaint_bin, cloud_ply, noise_png, tmp_path, writer):
    template, other, is_directory = writers(pointpaint_bin, cloud_ply, noise_png)[writer]
    rng = random.Random(writer)
    (tmp_path / "reference").mkdir()
    full = reference(pointpaint_bin, template, tmp_path / "reference" / EXTENSIONS[writer])
    total = sum(len(v) for v in full.values()) if is_directory else len(full)
    work = tmp_path / "work"
    work.mkdir()
    out = work / EXTENSIONS[writer]
    previous = None
    hits = 0
    killed = set()
    for round in range(2 * KILLS_PER_WRITER):
        if round == KILLS_PER_WRITER and not is_directory:
            previous = reference(pointpaint_bin, other, out)  # now a different complete file stands there
            assert temporaries(work) == [], "the run after a kill left its temporaries"
        share = int(rng.random() * total)
        process = run_until(command(pointpaint_bin, template, out), share, signal.SIGKILL)
        if process.returncode == -signal.SIGKILL:
            hits += 1
            killed.add(process.pid)
        check_destination(out, [previous, full] if not is_directory else [full], is_directory)
        # Only a kill in the instant between naming a finished file and renaming it over the
        # previous one can leave a temporary (a SIGKILL cannot be caught); it is the killed
        # writer's, and the next run removes it.
        for leftover in temporaries(work):
            assert int(leftover.name.rsplit("-", 2)[1]) in killed, "%s is not a killed writer's" % leftover
    assert hits > 0, "no kill landed before the writer finished"
    # The next complete run writes the whole file and removes what killed runs left.
    assert reference(pointpaint_bin, template, out) == full
    assert temporaries(work) == []


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_a_write_leaves_the_previous_file_and_no_temporary(pointpaint_bin, tmp_path, signum):
    template = ["lut", "identity", "--size", "64", "-o", "{out}"]
    out = tmp_path / "look.cube"
    previous = reference(pointpaint_bin, ["lut", "identity", "--size", "3", "-o", "{out}"], out)
    full_size = 64 ** 3 * 27
    for share in (full_size // 10, full_size // 2, full_size * 9 // 10):
        process = run_until(command(pointpaint_bin, template, out), share, signum)
        assert process.returncode in (-signum, 0), process.stderr_text
        if process.returncode == -signum:
            assert out.read_bytes() == previous
        assert temporaries(tmp_path) == []


def in_fallback_namespace(command_line):
    """`command_line` run where the kernel's unnamed temporaries cannot be reopened (a tmpfs over
    the process's /proc/PID/fd, in a private mount namespace): the writer falls back to named
    temporaries, as on file systems without O_TMPFILE."""
    quoted = " ".join("'%s'" % a.replace("'", "'\\''") for a in command_line)
    return ["unshare", "--mount", "sh", "-c", "mount -t tmpfs none /proc/$$/fd && exec " + quoted]


@pytest.fixture(scope="module")
def fallback_available(tmp_path_factory):
    if not IS_ROOT:
        pytest.skip("a private mount namespace needs root")
    probe = subprocess.run(in_fallback_namespace(["true"]), capture_output=True)
    if probe.returncode != 0:
        pytest.skip("unshare --mount is not available: %s" % probe.stderr.decode(errors="replace"))


def run_until_temporary(command_line, directory, signum, reset=lambda: None, attempts=5):
    """Starts the command and, once a named temporary appears in `directory`, stops it, checks
    the temporary is still there, sends `signum` and lets it go on: the signal then always
    arrives while the temporary exists, however loaded the machine (a signal sent as soon as the
    temporary was seen could arrive after the write had finished). A run whose temporary was
    gone by the time it stopped is run again, after `reset`."""
    for _ in range(attempts):
        process = subprocess.Popen(command_line, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=default_signals())
        seen = False
        while process.poll() is None:
            if temporaries(directory):
                stopped = stop(process)
                if stopped and temporaries(directory):
                    process.send_signal(signum)
                    seen = True
                if stopped:
                    process.send_signal(signal.SIGCONT)
                break
        process.wait()
        process.stderr.close()
        if seen:
            return process, True
        reset()
    return process, False


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_named_temporaries_are_removed_on_a_signal(pointpaint_bin, fallback_available, tmp_path, signum):
    out = tmp_path / "look.cube"
    previous = reference(pointpaint_bin, ["lut", "identity", "--size", "3", "-o", "{out}"], out)
    process, seen = run_until_temporary(in_fallback_namespace([pointpaint_bin, "lut", "identity", "--size", "64", "-o", str(out)]),
                                        tmp_path, signum, reset=lambda: out.write_bytes(previous))
    assert seen, "the write ended before its temporary was seen"
    assert process.returncode == -signum
    assert temporaries(tmp_path) == [], "the signal handler left %s" % temporaries(tmp_path)
    assert out.read_bytes() == previous


def test_a_temporary_left_by_kill_9_is_removed_by_the_next_run(pointpaint_bin, fallback_available, tmp_path):
    out = tmp_path / "look.cube"
    process, seen = run_until_temporary(in_fallback_namespace([pointpaint_bin, "lut", "identity", "--size", "64", "-o", str(out)]),
                                        tmp_path, signal.SIGKILL, reset=lambda: out.unlink(missing_ok=True))
    assert seen and process.returncode == -signal.SIGKILL
    assert len(temporaries(tmp_path)) == 1, "SIGKILL cannot be caught: its temporary stays until the next run"
    assert not out.exists()
    full = reference(pointpaint_bin, ["lut", "identity", "--size", "5", "-o", "{out}"], out)
    assert temporaries(tmp_path) == [] and full.startswith(b"# Written by PointPaint")


# --- disk full -----------------------------------------------------------------------------------

@pytest.fixture
def small_disk(tmp_path):
    """A 512 KiB tmpfs, mounted for the test (root only)."""
    yield from mounted_tmpfs(tmp_path, "512k")


@pytest.mark.parametrize("writer", ["ply", "png", "cube", "capture", "store", "las"])
def test_a_full_disk_is_one_line_and_the_previous_file_stays(pointpaint_bin, cloud_ply, noise_png, small_disk, writer):
    template, other, is_directory = writers(pointpaint_bin, cloud_ply, noise_png)[writer]
    out = small_disk / EXTENSIONS[writer]
    if not is_directory:
        previous = reference(pointpaint_bin, other, out)
    done = subprocess.run(command(pointpaint_bin, template, out), capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    single, lines = one_line(done.stderr)
    assert single and "no space left on device" in lines[0], lines
    assert temporaries(small_disk) == []
    if not is_directory:
        assert out.read_bytes() == previous
        # Nothing of the failed write holds space: the previous file can be written again.
        again = subprocess.run(command(pointpaint_bin, other, out), capture_output=True, text=True)
        assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("writer", ["ply", "png", "cube", "store", "las"])
def test_a_file_size_limit_is_one_line_and_the_previous_file_stays(pointpaint_bin, cloud_ply, noise_png, tmp_path, writer):
    template, other, _ = writers(pointpaint_bin, cloud_ply, noise_png)[writer]
    out = tmp_path / EXTENSIONS[writer]
    previous = reference(pointpaint_bin, other, out)

    def limit_file_size():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (256 << 10, 256 << 10))

    done = subprocess.run(command(pointpaint_bin, template, out), capture_output=True, text=True, preexec_fn=limit_file_size)
    assert done.returncode == 1, done.stderr
    single, lines = one_line(done.stderr)
    assert single and "file too large" in lines[0], lines
    assert out.read_bytes() == previous
    assert temporaries(tmp_path) == []


# --- resource ceilings ---------------------------------------------------------------------------

def png_bytes(width, height, chunks=b"", idat=b"x\x01\x01\x00\x00\xff\xff\x00\x00\x00\x01"):
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunks
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


HOSTILE = {
    # A header alone that asks for a quarter of a gigabyte or more.
    "cube-size-only.cube": b"LUT_3D_SIZE 256\n",
    "png-claims-16384x16384.png": png_bytes(16384, 16384),
    "png-text-claims-1.7GB.png": png_bytes(4, 4)[:33] + b"fuzziTXt",
    "ply-claims-2G-vertices.ply": b"ply\nformat binary_little_endian 1.0\nelement vertex 2000000000\nproperty float x\nend_header\n\0\0\0\0",
    "ply-list-claims-4G-items.ply": b"ply\nformat ascii 1.0\nelement face 1\nproperty list uint int i\nend_header\n4294967295 1 2\n",
}


def hostile_command(name, path, tmp_path):
    """The command that reads the hostile file `name`: a cube as a look, a PNG as the image to
    grade, a PLY for `info`."""
    if name.endswith(".cube"):
        return ["lut", "apply", str(path), "--to", str(tmp_path / "in.png"), "-o", str(tmp_path / "graded.png")]
    if name.endswith(".png"):
        return ["lut", "apply", str(tmp_path / "id.cube"), "--to", str(path), "-o", str(tmp_path / "graded.png")]
    return ["info", str(path)]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_header_fails_in_one_line_under_a_512_MiB_address_space(pointpaint_bin, tmp_path, name):
    subprocess.run([pointpaint_bin, "lut", "identity", "--size", "2", "-o", str(tmp_path / "id.cube")], check=True, capture_output=True)
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))

    done = subprocess.run([pointpaint_bin] + hostile_command(name, path, tmp_path), capture_output=True, text=True, preexec_fn=limit_memory)
    assert done.returncode == 1, "exit %d: %s" % (done.returncode, done.stderr[-500:])
    single, lines = one_line(done.stderr)
    assert single and name in lines[0], lines
    assert "out of memory" not in lines[0] and "allocate" not in lines[0], lines


# --- what stands where a file should be ----------------------------------------------------------

def make_obstacle(kind, path):
    """Puts `kind` at `path`."""
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        os.symlink("/dev/zero", path)
    elif kind == "loop":
        os.symlink(path.name + ".other", path)
        os.symlink(path.name, path.parent / (path.name + ".other"))
    elif kind == "dangling":
        os.symlink("/nonexistent/pointpaint", path)
    elif kind == "unreadable":
        path.write_bytes(b"secret")
        os.chmod(path, 0)


def drop_to_nobody():
    """For a child that must feel file permissions even when the tests run as root."""
    if os.geteuid() == 0:
        os.setgid(65534)
        os.setuid(65534)


OBSTACLES = ["directory", "fifo", "device", "loop", "dangling", "unreadable"]


@pytest.fixture
def open_tmp():
    """A scratch directory another user can enter (pytest's own is private to its user), for
    the tests that drop to `nobody`."""
    import shutil
    import tempfile
    path = pathlib.Path(tempfile.mkdtemp(prefix="pointpaint-faults-", dir="/tmp"))
    os.chmod(path, 0o755)
    yield path
    for p in path.rglob("*"):
        if not p.is_symlink():
            os.chmod(p, 0o755)
    shutil.rmtree(path)


def reader_cases(tmp_path, capture):
    """name → (path to block, command reading it)."""
    cube = tmp_path / "id.cube"
    return {
        "ply": (tmp_path / "x.ply", ["info", str(tmp_path / "x.ply")]),
        "cube-look": (tmp_path / "x.cube", ["lut", "apply", str(tmp_path / "x.cube"), "--to", str(tmp_path / "in.png"), "-o", str(tmp_path / "o.png")]),
        "png-cube": (tmp_path / "x.png", ["lut", "apply", str(tmp_path / "x.png"), "--to", str(tmp_path / "in.png"), "-o", str(tmp_path / "o.png")]),
        "png-image": (tmp_path / "x.png", ["lut", "apply", str(cube), "--to", str(tmp_path / "x.png"), "-o", str(tmp_path / "o.png")]),
        "manifest": (capture / "capture.json", ["info", str(capture)]),
        "frame-image": (capture / "frames" / "000001.nv12", ["replay", str(capture), "-o", str(tmp_path / "o.ply")]),
        "points": (capture / "points" / "000001.xyz", ["replay", str(capture), "-o", str(tmp_path / "o.ply")]),
    }


@pytest.mark.parametrize("obstacle", OBSTACLES)
@pytest.mark.parametrize("reader", ["ply", "cube-look", "png-cube", "png-image", "manifest", "frame-image", "points"])
def test_what_is_not_a_readable_file_is_one_line(pointpaint_bin, open_tmp, reader, obstacle):
    tmp_path = open_tmp
    capture = tmp_path / "capture"
    subprocess.run([pointpaint_bin, "synth", "-o", str(capture), "--frames", "2", "--size", "32x16", "--points", "10"], check=True, capture_output=True)
    subprocess.run([pointpaint_bin, "lut", "identity", "--size", "2", "-o", str(tmp_path / "id.cube")], check=True, capture_output=True)
    subprocess.run([pointpaint_bin, "lut", "identity", "--size", "2", "-o", str(tmp_path / "in.png")], check=True, capture_output=True)
    for p in tmp_path.rglob("*"):
        os.chmod(p, 0o755 if p.is_dir() else 0o644)
    path, args = reader_cases(tmp_path, capture)[reader]
    if path.exists() or path.is_symlink():
        path.unlink()
    make_obstacle(obstacle, path)
    done = subprocess.run([pointpaint_bin] + args, capture_output=True, text=True, timeout=120,
                          preexec_fn=drop_to_nobody if obstacle == "unreadable" else None)
    assert done.returncode == 1, "exit %d: %s" % (done.returncode, done.stderr[-500:])
    single, lines = one_line(done.stderr)
    assert single, lines
    assert path.name in lines[0], lines


@pytest.mark.parametrize("obstacle", ["directory", "missing-directory", "unwritable-directory"])
def test_an_output_that_cannot_be_written_is_one_line(pointpaint_bin, open_tmp, obstacle):
    tmp_path = open_tmp
    out = tmp_path / "out.cube"
    if obstacle == "directory":
        out.mkdir()
    elif obstacle == "missing-directory":
        out = tmp_path / "none" / "out.cube"
    else:
        locked = tmp_path / "locked"
        locked.mkdir()
        os.chmod(locked, 0o555)
        out = locked / "out.cube"
    done = subprocess.run([pointpaint_bin, "lut", "identity", "--size", "2", "-o", str(out)], capture_output=True, text=True,
                          preexec_fn=drop_to_nobody if obstacle == "unwritable-directory" else None)
    assert done.returncode == 1, done.stderr
    single, lines = one_line(done.stderr)
    assert single and str(out) in lines[0], lines
    assert temporaries(tmp_path) == []


def test_devices_and_fifos_are_written_directly_not_replaced(pointpaint_bin, cloud_ply, tmp_path):
    done = subprocess.run([pointpaint_bin, "voxelize", str(cloud_ply), "-o", "/dev/null", "--voxel-size", "0.1"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode), "/dev/null is still the device"
    fifo = tmp_path / "pipe.cube"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    done = subprocess.run([pointpaint_bin, "lut", "identity", "--size", "2", "-o", str(fifo)], capture_output=True, text=True)
    reader.join()
    assert done.returncode == 0, done.stderr
    assert received[0].startswith(b"# Written by PointPaint") and b"LUT_3D_SIZE 2" in received[0]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
