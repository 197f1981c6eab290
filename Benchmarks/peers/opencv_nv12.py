"""Peer figure for the Sampling benchmarks: OpenCV's cvtColor NV12 → RGBA on one thread, on a
1920×1440 frame of the same size as Benchmarks/Sampling (random bytes: the conversion's speed
does not depend on content).

    pip install opencv-python-headless numpy
    python3 Benchmarks/peers/opencv_nv12.py [--repeat 200]

Prints the best and median wall time of one conversion in milliseconds.
"""
import argparse
import statistics
import time

import cv2
import numpy as np

WIDTH, HEIGHT = 1920, 1440


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(1)
    nv12 = rng.integers(0, 256, (HEIGHT * 3 // 2, WIDTH), dtype=np.uint8)
    out = np.empty((HEIGHT, WIDTH, 4), dtype=np.uint8)
    for _ in range(10):
        cv2.cvtColor(nv12, cv2.COLOR_YUV2RGBA_NV12, dst=out)
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        cv2.cvtColor(nv12, cv2.COLOR_YUV2RGBA_NV12, dst=out)
        times.append(time.perf_counter() - start)
    assert out[..., 3].min() == 255
    print(f"OpenCV {cv2.__version__} cvtColor NV12->RGBA {WIDTH}x{HEIGHT}, 1 thread: "
          f"best {min(times) * 1e3:.3f} ms, median {statistics.median(times) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
