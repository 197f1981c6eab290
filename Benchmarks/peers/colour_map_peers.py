#!/usr/bin/env python3
"""Colour registration against Open3D's colour-map optimisation, in the same run, on a drifted
synthetic recording (issue 29): `pointpaint register --cloud scene.ply` (colour alone, against the
fixed cloud), `pointpaint register` (depth, then colour where depth leaves a frame loose) and
`register --method combined` (depth, then colour always) against Open3D's
`run_rigid_optimizer` (Zhou & Koltun 2014, rigid, 300 iterations), all starting from the same
recorded poses.

Open3D needs a mesh: the scene's boxes, rebuilt from the scene cloud (`synth --scene-cloud`: the
extent of each box's points) and subdivided to edges of about 2.5 cm, and RGB-D images: the
frames' JPEGs, with their depth maps scaled to the image size (nearest). Its camera trajectory
holds the recorded poses in its axes (x right, y down, looking down +z). Its time counts the
optimisation only.

Each side's poses are then used the same way: `pointpaint paint scene.ply --poses`, and the colour
error is the p95, over the scene cloud's flat-textured points, of the largest channel difference
from the true colours (8-bit levels), beside the largest pose error against `truth-poses.json`.

Usage: python3 Benchmarks/peers/colour_map_peers.py [--frames 16] [--size 320x240]
       [--drift 0.025,0.75] [--pointpaint .build/release/pointpaint]
"""
import json
import pathlib
import subprocess
import sys
import time

import numpy as np
import open3d as o3d
from plyfile import PlyData

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from register_peers import drifted_recording, worst  # noqa: E402

# ARKit camera axes (x right, y up, looking down -z) to Open3D's (x right, y down, looking down +z).
FLIP = np.diag([1.0, -1.0, -1.0, 1.0])


def scene_mesh(scene):
    """The scene's boxes as one triangle mesh, each face subdivided to edges of about 2.5 cm."""
    vertex = PlyData.read(str(scene))["vertex"]
    points = np.stack([vertex["x"], vertex["y"], vertex["z"]], axis=1).astype(np.float64)
    boxes = np.asarray(vertex["box"])
    mesh = o3d.geometry.TriangleMesh()
    for box in np.unique(boxes):
        lower, upper = points[boxes == box].min(axis=0), points[boxes == box].max(axis=0)
        size = np.maximum(upper - lower, 1e-3)
        part = o3d.geometry.TriangleMesh.create_box(*size)
        part.translate(lower)
        while np.asarray(part.vertices).shape[0] < 200000:
            edges = np.asarray(part.triangles)
            v = np.asarray(part.vertices)
            longest = max(np.linalg.norm(v[edges[:, a]] - v[edges[:, b]], axis=1).max() for a, b in ((0, 1), (1, 2), (2, 0)))
            if longest < 0.025:
                break
            part = part.subdivide_midpoint(1)
        mesh += part
    mesh.compute_vertex_normals()
    return mesh


def rgbd_images(stray, frames, image_size):
    images = []
    for index in range(frames):
        color = o3d.io.read_image(str(stray / "rgb" / ("%06d.jpg" % index)))
        depth = np.asarray(o3d.io.read_image(str(stray / "depth" / ("%06d.png" % index))))
        h, w = depth.shape
        rows = (np.arange(image_size[1]) * h // image_size[1])[:, None]
        cols = (np.arange(image_size[0]) * w // image_size[0])[None, :]
        depth = o3d.geometry.Image(np.ascontiguousarray(depth[rows, cols]))
        images.append(o3d.geometry.RGBDImage.create_from_color_and_depth(color, depth, depth_scale=1000, depth_trunc=10,
                                                                          convert_rgb_to_intensity=False))
    return images


def trajectory(poses, k, image_size):
    result = o3d.camera.PinholeCameraTrajectory()
    parameters = []
    for pose in poses:
        p = o3d.camera.PinholeCameraParameters()
        p.intrinsic = o3d.camera.PinholeCameraIntrinsic(image_size[0], image_size[1], k[0, 0], k[1, 1], k[0, 2], k[1, 2])
        p.extrinsic = FLIP @ np.linalg.inv(pose)
        parameters.append(p)
    result.parameters = parameters
    return result


def write_poses(path, truth_file, refined):
    frames = [{"index": f["index"], "recorded": f["recorded"], "refined": r.tolist()} for f, r in zip(truth_file["frames"], refined)]
    path.write_text(json.dumps({"format": "pointpaint-poses", "version": 1, "method": "open3d-color-map",
                                "recording": truth_file["recording"], "frames": frames}))


def colour_error(pointpaint, scene, stray, poses, out):
    subprocess.run([pointpaint, "paint", str(scene), str(stray), "-o", str(out), "--quiet"] + (["--poses", str(poses)] if poses else []),
                   check=True, capture_output=True)
    truth, painted = PlyData.read(str(scene))["vertex"], PlyData.read(str(out))["vertex"]
    flat = np.asarray(truth["flat"]) == 1
    a = np.stack([truth[c] for c in ("red", "green", "blue")], axis=1).astype(float)
    b = np.stack([painted[c] for c in ("red", "green", "blue")], axis=1).astype(float)
    return float(np.percentile(np.abs(a - b).max(axis=1)[flat], 95))


def main():
    args, work, stray, truth_file = drifted_recording("pointpaint-colour-map-", ["--scene-cloud", "0.01"])
    scene = stray / "scene.ply"
    recorded = [np.array(f["recorded"]) for f in truth_file["frames"]]
    truth = [np.array(f["refined"]) for f in truth_file["frames"]]
    image_size = tuple(int(v) for v in args.size.split("x"))
    k = np.loadtxt(stray / "camera_matrix.csv", delimiter=",")

    rows = []
    for name, extra in (("pointpaint register --cloud", ["--cloud", str(scene)]),
                        ("pointpaint register (depth, colour where loose)", []),
                        ("pointpaint register --method combined (depth, then colour)", ["--method", "combined"])):
        out = work / ("poses-%d.json" % len(rows))
        start = time.perf_counter()
        subprocess.run([args.pointpaint, "register", str(stray), "-o", str(out)] + extra, check=True, capture_output=True)
        seconds = time.perf_counter() - start
        poses = [np.array(f["refined"]) for f in json.loads(out.read_text())["frames"]]
        rows.append((name, seconds, worst(poses, truth), colour_error(args.pointpaint, scene, stray, out, work / "p.ply")))

    mesh, images = scene_mesh(scene), rgbd_images(stray, args.frames, image_size)
    option = o3d.pipelines.color_map.RigidOptimizerOption(maximum_iteration=300, maximum_allowable_depth=10)
    start = time.perf_counter()
    with o3d.utility.VerbosityContextManager(o3d.utility.VerbosityLevel.Error):
        _, optimised = o3d.pipelines.color_map.run_rigid_optimizer(mesh, images, trajectory(recorded, k, image_size), option)
    seconds = time.perf_counter() - start
    theirs = [np.linalg.inv(p.extrinsic) @ FLIP for p in optimised.parameters]
    write_poses(work / "open3d.json", truth_file, theirs)
    rows.append(("open3d color_map, rigid, 300 it.", seconds, worst(theirs, truth),
                 colour_error(args.pointpaint, scene, stray, work / "open3d.json", work / "p.ply")))

    print(f"recording: {args.frames} frames of {args.size}, drift {args.drift}; mesh of {len(mesh.vertices)} vertices for Open3D")
    print(f"{'recorded poses':58s}          largest error {worst(recorded, truth)[0] * 1000:6.2f} mm {worst(recorded, truth)[1]:.3f}°"
          f"  paint p95 {colour_error(args.pointpaint, scene, stray, None, work / 'p.ply'):5.1f}")
    print(f"{'true poses':58s}                                           paint p95 "
          f"{colour_error(args.pointpaint, scene, stray, stray / 'truth-poses.json', work / 'p.ply'):5.1f}")
    for name, seconds, error, p95 in rows:
        print(f"{name:58s} {seconds:6.2f} s  largest error {error[0] * 1000:6.2f} mm {error[1]:.3f}°  paint p95 {p95:5.1f}")
    theirs_seconds = rows[-1][1]
    print(f"time ratio: --cloud {rows[0][1] / theirs_seconds:.3f}x, depth (colour where loose) {rows[1][1] / theirs_seconds:.3f}x, "
          f"combined {rows[2][1] / theirs_seconds:.3f}x of Open3D's")


if __name__ == "__main__":
    main()
