#!/usr/bin/env python3
"""Sharded replay on a Dask LocalCluster: two workers against one, same session, alternating.

Synthesises a 200-frame 1920x1440 capture (1,000 feature points a frame) once, then runs the
Distributed/ runner (replay --shard on the workers, merge by region, concatenate) with a one-
worker and a two-worker LocalCluster in turn, each worker one thread and each replay --threads 1,
and checks both outputs equal one plain replay byte for byte.
Usage: python3 Benchmarks/peers/dask_replay_bench.py [--runs 3] [--pointpaint .build/release/pointpaint]
"""
import argparse
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Distributed"))

from dask.distributed import Client, LocalCluster  # noqa: E402

from pointpaint_dask import run  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shards", type=int, default=8)
    ap.add_argument("--pointpaint", default=str(ROOT / ".build" / "release" / "pointpaint"))
    ap.add_argument("--dir", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "pointpaint-dask-bench"))
    args = ap.parse_args()
    work = pathlib.Path(args.dir)
    capture = work / "capture"
    if not (capture / "capture.json").exists():
        subprocess.run([args.pointpaint, "synth", "-o", str(capture), "--frames", "200", "--size", "1920x1440",
                        "--points", "1000", "--seed", "7"], check=True)
    reference = work / "one.ply"
    start = time.perf_counter()
    subprocess.run([args.pointpaint, "replay", str(capture), "-o", str(reference), "--quiet", "--threads", "1"], check=True,
                   capture_output=True)
    print(f"plain replay, 1 thread: {time.perf_counter() - start:.2f} s")
    expected = reference.read_bytes()
    clusters = {n: LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None) for n in (1, 2)}
    clients = {n: Client(c) for n, c in clusters.items()}
    times = {1: [], 2: []}
    try:
        for r in range(args.runs):
            for n in (1, 2):
                out = work / f"dask-{n}.ply"
                start = time.perf_counter()
                t = run(str(capture), out, shards=args.shards, regions=n, client=clients[n], binary=args.pointpaint,
                        log=lambda *_: None)
                total = time.perf_counter() - start
                assert out.read_bytes() == expected, "output differs from one replay"
                times[n].append(total)
                print(f"run {r}: {n} worker{'s' if n > 1 else ''}: {total:.2f} s (replay {t['replay']:.2f}, "
                      f"merge {t['merge']:.2f}, concatenate {t['concatenate']:.2f})")
    finally:
        for c in clients.values():
            c.close()
        for c in clusters.values():
            c.close()
    best1, best2 = min(times[1]), min(times[2])
    ratios = [a / b for a, b in zip(times[1], times[2])]
    print(f"best: 1 worker {best1:.2f} s, 2 workers {best2:.2f} s: speed-up {best1 / best2:.2f}x "
          f"(per run {', '.join(f'{x:.2f}' for x in ratios)})")


if __name__ == "__main__":
    main()
