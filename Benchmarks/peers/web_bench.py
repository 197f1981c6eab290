#!/usr/bin/env python3
"""`export-web` of a large cloud and its page in headless Chromium (issue 30), in one run:

1. a cloud of POINTS points (default 20,000,000) on the faces of a 4 m box, as a binary PLY;
2. `pointpaint export-web` of it against `pointpaint view --screenshot` of it (the same PLY read,
   then the desktop's octree build and one frame under Xvfb) and against the desktop's octree
   build alone (ViewerBenchmark --ply: opening a window and building the octree of the PLY read
   beforehand), wall clock each, alternating;
3. the page served by `http.server` in Chromium (SwiftShader's WebGL2) at 1280x720: the time from
   navigating to the first complete frame (every node the view asked for loaded and drawn), the
   points drawn against the budget, and the draw time of still frames (the page's own
   measure: the draw calls and a one-pixel read-back).

With --lattice the cloud is ViewerBenchmark's lattice (the unit cube filled with POINTS voxels,
coloured by position), the page is opened at ViewerBenchmark's camera (yaw 30, pitch 25, EDL
on), and ViewerBenchmark's still frames under Xvfb's llvmpipe are timed in the same run: the
desktop's frame against the page's (issue 30: within 2x). Then SwiftShader's floor: the same
number of points (random, 2-pixel squares, the simplest shaders) in one draw call on a blank
page, to show what of the page's frame is its own code and what is the rasteriser's cost a point.

Usage: python3 Benchmarks/peers/web_bench.py [--points 20000000] [--runs 2] [--lattice]
       [--pointpaint .build/release/pointpaint] [--viewer-benchmark PATH]
"""
import argparse
import functools
import http.server
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "python"))
import chromium  # noqa: E402


def box_cloud(path, count, seed=30):
    rng = np.random.default_rng(seed)
    vertex = np.empty(count, dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1")])
    step = 5_000_000
    for start in range(0, count, step):
        n = min(step, count - start)
        p = rng.uniform(-2, 2, size=(n, 3)).astype(np.float32)
        axis = rng.integers(0, 3, size=n)
        p[np.arange(n), axis] = np.where(rng.random(n) < 0.5, -2.0, 2.0)
        part = vertex[start:start + n]
        for i, name in enumerate("xyz"):
            part[name] = p[:, i]
        for i, name in enumerate(("red", "green", "blue")):
            part[name] = ((p[:, i] + 2) / 4 * 255).astype(np.uint8)
    with open(path, "wb") as f:
        f.write(("ply\nformat binary_little_endian 1.0\nelement vertex %d\nproperty float x\nproperty float y\n"
                 "property float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n" % count).encode())
        vertex.tofile(f)


def lattice_cloud(path, count):
    """ViewerBenchmark's lattice: `count` voxels on a cubic lattice filling the unit cube centred
    at the origin, each coloured by its position, boxes of 0.8 lattice steps."""
    side = 1
    while side ** 3 < count:
        side += 1
    step = 1 / side
    i = np.arange(count)
    g = np.stack([i % side, i // side % side, i // (side * side)], 1).astype(np.float32)
    p = (g + 0.5) * step - 0.5
    c = np.clip(np.rint((g + 0.5) * step * 255), 0, 255).astype(np.uint8)
    vertex = np.empty(count, dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("red", "u1"), ("green", "u1"), ("blue", "u1")])
    for k, name in enumerate("xyz"):
        vertex[name] = p[:, k]
    for k, name in enumerate(("red", "green", "blue")):
        vertex[name] = c[:, k]
    with open(path, "wb") as f:
        f.write(("ply\nformat binary_little_endian 1.0\ncomment voxel_size %.9g\nelement vertex %d\nproperty float x\n"
                 "property float y\nproperty float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\n"
                 "end_header\n" % (0.8 * step, count)).encode())
        vertex.tofile(f)


def timed(command):
    start = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, out


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


FLOOR = r"""
(() => {
  const canvas = document.createElement('canvas');
  canvas.width = 1280; canvas.height = 720;
  document.body.appendChild(canvas);
  const gl = canvas.getContext('webgl2', { antialias: false, preserveDrawingBuffer: true, alpha: false });
  const program = gl.createProgram();
  const sources = [[gl.VERTEX_SHADER, `#version 300 es
    layout(location = 0) in vec3 position; layout(location = 1) in vec4 color; out vec3 vColor;
    void main() { gl_Position = vec4(position * 2.0 - 1.0, 1.0); gl_PointSize = 2.0; vColor = color.rgb; }`],
    [gl.FRAGMENT_SHADER, `#version 300 es
    precision highp float; in vec3 vColor; out vec4 fragColor; void main() { fragColor = vec4(vColor, 1.0); }`]];
  for (const [type, source] of sources) {
    const shader = gl.createShader(type); gl.shaderSource(shader, source); gl.compileShader(shader); gl.attachShader(program, shader);
  }
  gl.linkProgram(program); gl.useProgram(program);
  const positions = new Float32Array(3 * COUNT).map(() => Math.random());
  const colours = new Uint8Array(4 * COUNT).map(() => Math.random() * 255);
  const buffer = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
  gl.bufferData(gl.ARRAY_BUFFER, positions.byteLength + colours.byteLength, gl.STATIC_DRAW);
  gl.bufferSubData(gl.ARRAY_BUFFER, 0, positions); gl.bufferSubData(gl.ARRAY_BUFFER, positions.byteLength, colours);
  gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 12, 0);
  gl.enableVertexAttribArray(1); gl.vertexAttribPointer(1, 4, gl.UNSIGNED_BYTE, true, 4, positions.byteLength);
  gl.enable(gl.DEPTH_TEST);
  const pixel = new Uint8Array(4), times = [];
  for (let frame = 0; frame < 8; frame++) {
    const start = performance.now();
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.drawArrays(gl.POINTS, 0, COUNT);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    times.push(performance.now() - start);
  }
  return times.slice(2);
})()
"""


def time_page(url, run, floor):
    """The page at `url` in headless Chromium: its first complete frame, then ten still frames;
    with `floor`, SwiftShader's floor for as many points on a blank page after."""
    page = chromium.Chromium(1280, 720, deadline=120)
    try:
        start = time.perf_counter()
        page.navigate(url)
        status = page.wait_until_complete()
        first = time.perf_counter() - start
        frames = []
        for i in range(10):
            page.evaluate(f"window.pointpaint.setView({{yaw: {25 + 0.01 * (i + 1)}}})")
            status = page.wait_until_complete(after=int(status["frame"]))
            frames.append(float(status["ms"]))
        print(f"page run {run + 1} ({status['raster']} rasteriser): first complete frame {first:.2f} s ({status['text']}, "
              f"{status['loaded']} nodes loaded); still frame draw {np.median(frames):.1f} ms median of 10 ({min(frames):.1f}-{max(frames):.1f})")
        if floor:
            page.navigate("about:blank")
            times = page.evaluate(FLOOR.replace("COUNT", str(int(status["points"]))))
            print(f"SwiftShader's floor: {status['points']} points in one draw, simplest shaders: "
                  f"{np.median(times):.1f} ms median of {len(times)} ({min(times):.1f}-{max(times):.1f})")
    finally:
        page.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--points", type=int, default=20_000_000)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--pointpaint", default=".build/release/pointpaint")
    ap.add_argument("--lattice", action="store_true")
    ap.add_argument("--viewer-benchmark", default=".build-bench/release/ViewerBenchmark")
    args = ap.parse_args()
    scratch = tempfile.mkdtemp(prefix="pointpaint-web-bench-")
    cloud = os.path.join(scratch, "box.ply")
    (lattice_cloud if args.lattice else box_cloud)(cloud, args.points)
    print(f"cloud: {args.points:,} points, {os.path.getsize(cloud) / 1e6:.0f} MB PLY")
    site = os.path.join(scratch, "site")
    for run in range(args.runs):
        export, out = timed([args.pointpaint, "export-web", cloud, "-o", site])
        view, _ = timed(["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", args.pointpaint, "view", cloud, "--screenshot",
                         os.path.join(scratch, "desktop.png"), "--size", "1280x720"])
        # The desktop's octree build of the same PLY alone (read before ViewerBenchmark's clock starts).
        desktop = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", args.viewer_benchmark, str(args.points), "1", "--ply", cloud],
                                 check=True, capture_output=True, text=True).stdout
        build = float(re.search(r"(\d+) ms to open and build the octree", desktop).group(1)) / 1000
        print(f"run {run + 1}: export-web {export:.2f} s ({out.splitlines()[0]}); view --screenshot {view:.2f} s "
              f"({export / view:.2f}x); the desktop's octree build {build:.2f} s ({export / build:.2f}x)")
    sizes = sum(os.path.getsize(os.path.join(site, "cloud", "nodes", n)) for n in os.listdir(os.path.join(site, "cloud", "nodes")))
    print(f"node files: {sizes / args.points:.2f} bytes a point")

    handler = functools.partial(Quiet, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/" + ("#yaw=30&pitch=25&edl=on" if args.lattice else "#yaw=25&pitch=15")
    for run in range(args.runs):
        # The rasteriser the page picks here (its own, on SwiftShader), then WebGL's points.
        for raster in ("auto", "webgl"):
            time_page(url + ("" if raster == "auto" else "&raster=" + raster), run, floor=args.lattice and raster == "webgl")
        if args.lattice:
            out = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", args.viewer_benchmark, str(args.points), "10"],
                                 check=True, capture_output=True, text=True).stdout
            for line in out.splitlines():
                if "still" in line or "octree" in line:
                    print("desktop: " + line)
    server.shutdown()


if __name__ == "__main__":
    main()
