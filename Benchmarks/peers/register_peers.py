#!/usr/bin/env python3
"""Geometric pose refinement against Open3D, in the same run, on a drifted synthetic recording
(issue 29): `pointpaint register --method geometric` (all frames solved together) against Open3D's multi-scale
point-to-plane ICP, frame to frame (each frame registered to the previous one's refined cloud,
chained from the first, as Open3D's own reconstruction system does between neighbours), both on
the same depth maps and starting from the same recorded poses. Reports each side's wall time and
its largest pose error against the true poses `synth --pose-drift` writes.

Open3D's clouds: every depth pixel of high confidence (as `register` reads them) unprojected with
the frame's intrinsics scaled to the depth grid (ARKit axes), voxel-downsampled at 4, 2 and 1 cm
with normals estimated at each scale, correspondences within twice the voxel, 30 iterations a
scale. Its time counts the ICP only, not reading the PNGs.

Usage: python3 Benchmarks/peers/register_peers.py [--frames 16] [--size 320x240] [--drift 0.025,0.75]
       [--pointpaint .build/release/pointpaint]
"""
import argparse
import json
import pathlib
import subprocess
import tempfile
import time

import numpy as np
import open3d as o3d


def pose_error(a, b):
    """Metres between the camera centres and degrees between the orientations of two poses."""
    rotation = a[:3, :3].T @ b[:3, :3]
    angle = np.degrees(np.arccos(np.clip((np.trace(rotation) - 1) / 2, -1, 1)))
    return float(np.linalg.norm(a[:3, 3] - b[:3, 3])), float(angle)


def worst(poses, truth):
    errors = [pose_error(poses[k], truth[k]) for k in range(len(truth))]
    return max(e[0] for e in errors), max(e[1] for e in errors)


def frame_cloud(stray, index, k, image_size):
    """Frame `index`'s high-confidence depth pixels as camera-space points (ARKit axes)."""
    depth = np.asarray(o3d.io.read_image(str(stray / "depth" / ("%06d.png" % index))), dtype=np.float64) / 1000
    confidence = np.asarray(o3d.io.read_image(str(stray / "confidence" / ("%06d.png" % index))))
    h, w = depth.shape
    sx, sy = w / image_size[0], h / image_size[1]
    j, i = np.mgrid[0:h, 0:w]
    keep = (depth > 0) & (depth <= 5) & (confidence >= 2)
    d = depth[keep]
    x = ((i[keep] + 0.5) / sx - k[0, 2]) / k[0, 0] * d
    y = -((j[keep] + 0.5) / sy - k[1, 2]) / k[1, 1] * d
    return np.stack([x, y, -d], axis=1)


def open3d_chain(clouds, recorded):
    """Frame-to-frame multi-scale point-to-plane ICP, chained from frame 0."""
    refined = [recorded[0]]
    for k in range(1, len(clouds)):
        source = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(clouds[k]))
        source.transform(recorded[k])
        target = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(clouds[k - 1]))
        target.transform(refined[k - 1])
        correction = np.eye(4)
        for voxel in (0.04, 0.02, 0.01):
            s, t = source.voxel_down_sample(voxel), target.voxel_down_sample(voxel)
            for cloud in (s, t):
                cloud.estimate_normals(o3d.geometry.KDTreeSearchParamHybrid(radius=2 * voxel, max_nn=30))
            result = o3d.pipelines.registration.registration_icp(
                s, t, 2 * voxel, correction, o3d.pipelines.registration.TransformationEstimationPointToPlane(),
                o3d.pipelines.registration.ICPConvergenceCriteria(max_iteration=30))
            correction = result.transformation
        refined.append(correction @ recorded[k])
    return refined


def drifted_recording(prefix, extra=()):
    """Reads the options (--frames, --size, --drift, --pointpaint) and synthesises the drifted Stray
    recording they describe: the options, the scratch folder, the recording and its true poses."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=16)
    ap.add_argument("--size", default="320x240")
    ap.add_argument("--drift", default="0.025,0.75")
    ap.add_argument("--pointpaint", default=".build/release/pointpaint")
    args = ap.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
    stray = work / "stray"
    subprocess.run([args.pointpaint, "synth", "--layout", "stray", "-o", str(stray), "--frames", str(args.frames),
                    "--size", args.size, "--points", "10", "--pose-drift", args.drift, *extra], check=True, capture_output=True)
    return args, work, stray, json.loads((stray / "truth-poses.json").read_text())


def main():
    args, work, stray, truth_file = drifted_recording("pointpaint-register-")
    recorded = [np.array(f["recorded"]) for f in truth_file["frames"]]
    truth = [np.array(f["refined"]) for f in truth_file["frames"]]
    image_size = tuple(int(v) for v in args.size.split("x"))
    k = np.loadtxt(stray / "camera_matrix.csv", delimiter=",")

    start = time.perf_counter()
    done = subprocess.run([args.pointpaint, "register", str(stray), "--method", "geometric", "-o", str(work / "poses.json")], check=True,
                          capture_output=True, text=True)
    ours_time = time.perf_counter() - start
    ours = [np.array(f["refined"]) for f in json.loads((work / "poses.json").read_text())["frames"]]

    clouds = [frame_cloud(stray, index, k, image_size) for index in range(args.frames)]
    start = time.perf_counter()
    theirs = open3d_chain(clouds, recorded)
    theirs_time = time.perf_counter() - start

    before = worst(recorded, truth)
    print(f"recording: {args.frames} frames of {args.size}, drift {args.drift}; recorded poses off by {before[0] * 1000:.2f} mm, {before[1]:.3f}°")
    print(f"pointpaint register   {ours_time:6.2f} s  largest error {worst(ours, truth)[0] * 1000:6.2f} mm {worst(ours, truth)[1]:.3f}°"
          f"  ({done.stdout.strip().splitlines()[0]})")
    print(f"open3d ICP, chained   {theirs_time:6.2f} s  largest error {worst(theirs, truth)[0] * 1000:6.2f} mm {worst(theirs, truth)[1]:.3f}°")
    print(f"time ratio {ours_time / theirs_time:.2f}x")


if __name__ == "__main__":
    main()
