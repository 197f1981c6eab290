#!/usr/bin/env python3
"""Sharded replay on a Dask cluster: map (replay --shard K/N on every worker), reduce (merge
--region R/M in parallel), then one final merge of the disjoint regions into the output.

Every step runs the `pointpaint` binary, which must be on each worker's PATH (or named with
--binary); the capture and the work directory must be on storage every worker sees at the same
path (the capture's path is recorded in the output, so it must be spelled the same everywhere).
The result is byte-identical to one `pointpaint replay CAPTURE -o OUTPUT` with the same options,
whatever the number of shards and regions.

    python3 Distributed/pointpaint_dask.py CAPTURE -o cloud.ply --shards 64 \
        --scheduler tcp://scheduler:8786 --workdir /shared/tmp/job1 -- --voxel-size 0.01

Without --scheduler it starts a LocalCluster of --workers processes, one thread each.
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from dask.distributed import Client, LocalCluster


def _command(binary, *args):
    """A pointpaint invocation as a Dask task: subprocess.run pickles by reference, so workers
    need nothing from this file."""
    return [binary, *map(str, args)]


def _check(result):
    """Raises with pointpaint's one-line error when a step failed."""
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(result.args)}: {result.stderr.strip() or 'exit status ' + str(result.returncode)}")
    return result


def _run_all(client, step, commands):
    """Runs every command as a task on `client`'s cluster, raising with the first failure's
    line; returns the seconds they took together. Each task gets a key of its own (`step`, its
    index, this process and the time), so a rerun is never taken for one Dask has cached."""
    start = time.perf_counter()
    futures = [client.submit(subprocess.run, command, capture_output=True, text=True, pure=False,
                             key=f"{step}-{k}-of-{len(commands)}-{os.getpid()}-{time.time_ns()}")
               for k, command in enumerate(commands)]
    for result in client.gather(futures):
        _check(result)
    return time.perf_counter() - start


def run(capture, output, *, shards, regions=None, client=None, binary="pointpaint", workdir=None,
        replay_args=(), output_args=(), threads_per_shard=1, keep=False, log=print):
    """Replays `capture` into `output` (.ply, .las or .ppstore) as `shards` shards merged in
    `regions` regions (default: the cluster's thread count) on `client`'s cluster.

    Returns a dict of timings (seconds) and counts. Intermediate stores go to `workdir` (a
    temporary directory beside the output by default), removed afterwards unless `keep`.
    """
    if shards < 1:
        raise ValueError("shards must be at least 1")
    output = pathlib.Path(output).resolve()
    own_workdir = workdir is None
    work = pathlib.Path(workdir or tempfile.mkdtemp(prefix=".pointpaint-dask-", dir=output.parent)).resolve()
    work.mkdir(parents=True, exist_ok=True)
    if regions is None:
        regions = max(1, sum(client.nthreads().values()))
    timings = {"shards": shards, "regions": regions}
    try:
        # Map: one replay a shard.
        parts = [work / f"part-{k:05d}-of-{shards:05d}.ppstore" for k in range(shards)]
        timings["replay"] = _run_all(client, "replay", [
            _command(binary, "replay", capture, "--shard", f"{k}/{shards}", "-o", parts[k], "--quiet",
                     "--threads", threads_per_shard, *replay_args)
            for k in range(shards)])
        log(f"replayed {shards} shards in {timings['replay']:.2f} s")

        # Reduce: one merge a region, every region from all the parts.
        region_files = [work / f"region-{r:05d}-of-{regions:05d}.ppstore" for r in range(regions)]
        timings["merge"] = _run_all(client, "merge", [
            _command(binary, "merge", *parts, "--region", f"{r}/{regions}", "-o", region_files[r])
            for r in range(regions)])
        log(f"merged {regions} regions in {timings['merge']:.2f} s")

        # Concatenate: the regions hold disjoint runs of codes, so this merge combines no cell.
        start = time.perf_counter()
        _check(subprocess.run(_command(binary, "merge", *region_files, "-o", output, *output_args),
                              capture_output=True, text=True))
        timings["concatenate"] = time.perf_counter() - start
        log(f"wrote {output} in {timings['concatenate']:.2f} s")
        return timings
    finally:
        if not keep:
            if own_workdir:
                shutil.rmtree(work, ignore_errors=True)
            else:
                for f in work.glob("*.ppstore"):
                    f.unlink(missing_ok=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     usage="%(prog)s CAPTURE -o OUTPUT [options] [-- replay options]")
    parser.add_argument("capture", help="capture directory, on storage every worker sees")
    parser.add_argument("-o", "--output", required=True, help="output .ply, .las or .ppstore")
    parser.add_argument("--shards", type=int, default=None, help="replay shards (default: 4 per worker thread)")
    parser.add_argument("--regions", type=int, default=None, help="merge regions (default: one per worker thread)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler (default: start a LocalCluster)")
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes (default 2)")
    parser.add_argument("--binary", default=shutil.which("pointpaint") or "pointpaint",
                        help="the pointpaint executable on the workers (default: pointpaint on PATH)")
    parser.add_argument("--workdir", help="shared directory for the intermediate stores (default: beside the output)")
    parser.add_argument("--threads-per-shard", type=int, default=1, help="--threads of each replay (default 1)")
    parser.add_argument("--output-arg", action="append", default=[],
                        help="an option for the final write, e.g. --output-arg=--float-colors --output-arg=always")
    parser.add_argument("--keep", action="store_true", help="keep the intermediate stores")
    args, replay_args = parser.parse_known_args(argv)
    if replay_args[:1] == ["--"]:
        replay_args = replay_args[1:]
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        threads = sum(client.nthreads().values())
        shards = args.shards or 4 * threads
        run(args.capture, args.output, shards=shards, regions=args.regions, client=client, binary=args.binary,
            workdir=args.workdir, replay_args=replay_args, output_args=args.output_arg,
            threads_per_shard=args.threads_per_shard, keep=args.keep)
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
