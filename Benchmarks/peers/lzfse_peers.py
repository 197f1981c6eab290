#!/usr/bin/env python3
"""Inputs and peer figures for Benchmarks/Benchmarks/Compression (LZFSE decoding).

  --inputs DIR   writes DIR/mixed-16m.lzfse (one stream from pyliblzfse, Apple's reference
                 encoder) and DIR/mixed-16m.json (its decoded size and FNV-1a 64 digest): 16 MiB of
                 what a Record3D capture and other files hold, from the generators of
                 Tests/Fixtures/LZFSE/make_fixtures.py (depth maps, confidence maps, text, runs
                 and copies, random bytes). The Swift benchmark reads it from $LZFSE_BENCH_INPUTS.
  --time         times the C reference decoder through ctypes ($LZFSE_REFERENCE_LIB, built by
                 peers/build_lzfse_reference.sh) on the depth fixture and, with --inputs, the
                 mixed stream; best of --runs. pyliblzfse.decompress is timed too, for reference
                 only: it sizes its output from the first block and decodes again from the start
                 each time the output doubles, so on multi-block streams it does the work 2-4 times.

Fetches nothing. Usage:
  python3 Benchmarks/peers/lzfse_peers.py --inputs /tmp/lzfse-bench [--time] [--runs 50]
"""
import argparse
import ctypes
import importlib.util
import json
import os
import pathlib
import time

import liblzfse

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests" / "Fixtures" / "LZFSE"
MIXED_SIZE = 16 << 20


def load_generators():
    spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mixed(g):
    """16 MiB cycling through a depth map, its confidence map, 256 KiB of text, runs and copies,
    and 64 KiB of random bytes, each from its own seed."""
    out = bytearray()
    i = 0
    while len(out) < MIXED_SIZE:
        seed = 1000 + i
        out += g.depth(seed, 256, 192)
        out += g.confidence(seed, 256, 192)
        out += g.text(seed, 256 << 10)
        out += g.repetitive(seed, 40)
        out += g.random_bytes(seed, 64 << 10)
        i += 1
    return bytes(out[:MIXED_SIZE])


def best(runs, fn):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inputs", help="folder for the mixed 16 MiB stream")
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--runs", type=int, default=50)
    args = ap.parse_args()
    g = load_generators()

    streams = {"depth": (FIXTURES / "depth.lzfse").read_bytes()}
    if args.inputs:
        folder = pathlib.Path(args.inputs)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "mixed-16m.lzfse"
        if not path.exists():
            data = mixed(g)
            stream = liblzfse.compress(data)
            path.write_bytes(stream)
            (folder / "mixed-16m.json").write_text(json.dumps({"size": len(data), "fnv1a64": f"{g.fnv1a64(data):016x}"}) + "\n")
            print(f"wrote {path}: {len(data)} bytes in {len(stream)}, {len(g.blocks(stream)) - 1} blocks")
        streams["mixed-16m"] = path.read_bytes()
    if not args.time:
        return

    library = os.environ.get("LZFSE_REFERENCE_LIB")
    reference = ctypes.CDLL(library) if library else None
    if reference:
        reference.lzfse_decode_buffer.restype = ctypes.c_size_t
        reference.lzfse_decode_buffer.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p]
        reference.lzfse_decode_scratch_size.restype = ctypes.c_size_t
        scratch = ctypes.create_string_buffer(reference.lzfse_decode_scratch_size())
    for name, stream in streams.items():
        size = len(liblzfse.decompress(stream))
        if reference:
            out = ctypes.create_string_buffer(size)
            n = reference.lzfse_decode_buffer(out, size, stream, len(stream), scratch)
            assert n == size
            t = best(args.runs, lambda: reference.lzfse_decode_buffer(out, size, stream, len(stream), scratch))
            print(f"{name}: C reference (ctypes) {t * 1e3:.3f} ms, {size / t / 1e6:.0f} MB/s of output")
        t = best(max(3, args.runs // 5), lambda: liblzfse.decompress(stream))
        print(f"{name}: pyliblzfse.decompress {t * 1e3:.3f} ms, {size / t / 1e6:.0f} MB/s of output")


if __name__ == "__main__":
    main()
