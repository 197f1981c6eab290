"""Replaying the sample capture reproduces the true colours in its truth.ply.

Both files are read with plyfile (an independent PLY reader) and the truth is voxelised here in
numpy, averaging in linear light as PointPaint documents, so nothing of PointPaint's own reading
or accumulation code checks itself.
"""
import subprocess

import numpy as np
import plyfile

from test_ply_interop import srgb_decode, srgb_encode


def test_sample_capture_replays_to_its_truth(pointpaint_bin, repo_root, tmp_path):
    voxel = 0.02
    out = tmp_path / "sample.ply"
    run = subprocess.run([pointpaint_bin, "replay", str(repo_root / "Captures/sample"), "-o", str(out),
                          "--voxel-size", str(voxel), "--quiet"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "replayed 36 frames" in run.stdout

    truth = plyfile.PlyData.read(str(repo_root / "Captures/sample/truth.ply"))["vertex"]
    cloud = plyfile.PlyData.read(str(out))["vertex"]
    positions = np.stack([truth["x"], truth["y"], truth["z"]], axis=1).astype(np.float32)
    keys = np.floor(positions / np.float32(voxel)).astype(np.int64)
    linear = srgb_decode(np.stack([truth["red_f"], truth["green_f"], truth["blue_f"]], axis=1).astype(np.float64))
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    sums = np.zeros((len(unique), 3))
    np.add.at(sums, inverse, linear)
    counts = np.bincount(inverse)
    expected = srgb_encode(sums / counts[:, None]) * 255

    centres = np.stack([cloud["x"], cloud["y"], cloud["z"]], axis=1)
    cloud_keys = np.floor(centres / voxel).astype(np.int64)
    got = np.stack([cloud["red"], cloud["green"], cloud["blue"]], axis=1).astype(np.float64)
    assert len(cloud_keys) == len(unique), "one voxel per occupied truth cell"
    order = np.lexsort(cloud_keys.T[::-1])
    truth_order = np.lexsort(unique.T[::-1])
    assert np.array_equal(cloud_keys[order], unique[truth_order])
    error = np.abs(got[order] - expected[truth_order]).max(axis=1)
    mean, p95 = error.mean(), np.percentile(error, 95)
    print(f"sample replay vs truth over {len(error)} voxels: mean {mean:.2f}, p95 {p95:.2f} levels (8-bit sRGB)")
    assert mean < 1.5
    assert p95 < 4


def test_a_recording_without_points_says_what_to_do(pointpaint_bin, tmp_path):
    """A nerfstudio folder without depth maps (a NeRF dataset) replays to an empty cloud, with a
    note on standard error naming the reason and the remedy: its own cloud when it ships one,
    else `pointpaint paint`."""
    import json

    capture = tmp_path / "nerf"
    made = subprocess.run([pointpaint_bin, "synth", "-o", str(capture), "--layout", "nerfstudio", "--frames", "2",
                           "--size", "160x120"], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    transforms = capture / "transforms.json"
    data = json.loads(transforms.read_text())
    for frame in data["frames"]:
        del frame["depth_file_path"]
    transforms.write_text(json.dumps(data))

    def replay(*extra):
        run = subprocess.run([pointpaint_bin, "replay", str(capture), "-o", str(tmp_path / "out.ply"), "--quiet", *extra],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        return run

    run = replay()
    assert "0 points seen" in run.stdout and "wrote 0 voxels" in run.stdout
    assert "nothing to colour: no frame has feature points or a depth map; --points cloud replays the recording's own cloud" in run.stderr
    assert len(plyfile.PlyData.read(str(tmp_path / "out.ply"))["vertex"]) == 0
    run = replay("--points", "cloud")
    assert "nothing to colour" not in run.stderr and "wrote 0 voxels" not in run.stdout

    del data["ply_file_path"]
    transforms.write_text(json.dumps(data))
    run = replay("--points", "depth")
    assert "nothing to colour: no frame has a depth map (--points depth); pointpaint paint CLOUD CAPTURE" in run.stderr


def test_depth_maps_whose_pixels_all_fall_outside_the_limits_say_so(pointpaint_bin, tmp_path):
    """Depth maps that were read but gave no point (every pixel beyond --max-depth) are not
    reported as missing: the note names the limits to change."""
    capture = tmp_path / "stray"
    made = subprocess.run([pointpaint_bin, "synth", "-o", str(capture), "--layout", "stray", "--frames", "2",
                           "--size", "160x120"], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    run = subprocess.run([pointpaint_bin, "replay", str(capture), "-o", str(tmp_path / "out.ply"), "--quiet",
                          "--max-depth", "0.001"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "0 points seen" in run.stdout
    assert "nothing to colour: no depth pixel made a point (" in run.stderr
    assert "beyond --max-depth); lower --min-confidence or raise --max-depth" in run.stderr
    assert "no frame has" not in run.stderr
