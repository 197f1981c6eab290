#!/usr/bin/env python3
"""Writes the LZFSE test fixtures: inputs from seeded generators, compressed by pyliblzfse.

pyliblzfse (PyPI) bundles Apple's reference LZFSE encoder, so the streams come from an encoder
independent of PointPaint's decoder. Each fixture is `NAME.lzfse`; `manifest.json` records, per
fixture, the generator and its parameters, the original's size and FNV-1a 64 digest, and the block
magics of the stream. The originals are not stored: the Swift tests (`LZFSEFixtures.swift`) rebuild
them with the same generators (SplitMix64 and IEEE double arithmetic only: + − × ÷ and square
roots, which round the same everywhere), check the digest, and compare the decoded bytes with them.

`plain_tables` rewrites each `bvx2` block of a stream as `bvx1` (the same payload under a header
with plain frequency tables), since the encoder never writes `bvx1`; the reference decoder checks
every rewritten stream.

Usage: python3 Tests/Fixtures/LZFSE/make_fixtures.py [OUTPUT_DIR]   (default: this folder)
Tests/python/test_lzfse.py runs it into a temporary folder and compares the files byte for byte.
"""
import json
import math
import pathlib
import struct
import sys

import liblzfse

MASK = (1 << 64) - 1


class SplitMix64:
    """The generator of Sources/PointPaint/Support/SplitMix64.swift."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def unit(self):
        """A uniform double in [0, 1): the top 53 bits."""
        return (self.next() >> 11) * 2.0**-53


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & MASK
    return h


# MARK: - generators (mirrored in Tests/PointPaintTests/Compression/LZFSEFixtures.swift)


def random_bytes(seed, count):
    """`count` bytes of SplitMix64 output, each word little-endian."""
    rng = SplitMix64(seed)
    out = bytearray()
    while len(out) < count:
        out += rng.next().to_bytes(8, "little")
    return bytes(out[:count])


WORDS = ["depth", "colour", "voxel", "frame", "pose", "camera", "point", "cloud", "luma", "chroma",
         "plane", "metre", "lidar", "scan", "paint", "replay", "sample", "grid", "edge", "noise"]


def text(seed, count):
    """Words from a small vocabulary, separated by spaces, cut to `count` bytes."""
    rng = SplitMix64(seed)
    out = bytearray()
    while len(out) < count:
        out += WORDS[rng.next() % len(WORDS)].encode() + b" "
    return bytes(out[:count])


def depth_values(seed, width, height):
    """A LiDAR-like depth map in metres, row by row, as float32 values: a slanted wall, a floor,
    a box with sharp edges and a sphere; noise of ±0.15 % of the depth; about 1 pixel in 61
    missing (0). Two draws a pixel: the noise, then the hole test."""
    rng = SplitMix64(seed)
    values = []
    for y in range(height):
        for x in range(width):
            d = 3.2 + 0.004 * x - 0.002 * y
            if y >= 120:
                d = min(d, 0.9 + 60.0 / (y - 90))
            if 150 <= x < 215 and 50 <= y < 150:
                d = min(d, 1.8 + 0.003 * (x - 150))
            r2 = 45 * 45 - (x - 80) * (x - 80) - (y - 85) * (y - 85)
            if r2 > 0:
                d = min(d, 1.3 - 0.008 * math.sqrt(r2))
            noise = rng.unit() - 0.5
            d = d + noise * 0.003 * d
            if rng.next() % 61 == 0:
                d = 0.0
            values.append(struct.unpack("<f", struct.pack("<f", d))[0])
    return values


def depth(seed, width, height):
    """`depth_values` as little-endian float32 bytes: what a Record3D `.depth` file holds."""
    return struct.pack(f"<{width * height}f", *depth_values(seed, width, height))


def confidence(seed, width, height):
    """A confidence map (0, 1, 2) for `depth_values`: 0 where depth is missing or beyond 4 m, 1 on
    edges (more than 5 cm from the left or upper neighbour), else 2."""
    values = depth_values(seed, width, height)
    out = bytearray(width * height)
    for y in range(height):
        for x in range(width):
            i = y * width + x
            d = values[i]
            if d == 0.0 or d > 4.0:
                out[i] = 0
            elif (x > 0 and abs(d - values[i - 1]) > 0.05) or (y > 0 and abs(d - values[i - width]) > 0.05):
                out[i] = 1
            else:
                out[i] = 2
    return bytes(out)


def repetitive(seed, pieces):
    """Long runs, short periods (overlapping matches), copies of earlier stretches, a little noise."""
    rng = SplitMix64(seed)
    out = bytearray()
    for _ in range(pieces):
        kind = rng.next() % 4
        if kind == 0:
            value = rng.next() & 255
            out += bytes([value]) * (1 + rng.next() % 3000)
        elif kind == 1:
            period = 1 + rng.next() % 7
            pattern = bytes(rng.next() & 255 for _ in range(period))
            length = 16 + rng.next() % 2000
            out += (pattern * (length // period + 1))[:length]
        elif kind == 2 and out:
            start = rng.next() % len(out)
            length = 4 + rng.next() % 5000
            out += out[start:start + length]
        else:
            out += bytes(rng.next() & 255 for _ in range(1 + rng.next() % 64))
    return bytes(out)


def phrases(seed, dictionary, pieces, copies):
    """A body of `pieces` short slices (4–16 bytes) of a random dictionary, then `copies` more of the
    body, copy k with every 4096th byte set to k: over 1 MiB in several blocks (a block holds at
    most 10,000 matches), with matches reaching back across blocks."""
    rng = SplitMix64(seed)
    words = bytes(rng.next() & 255 for _ in range(dictionary))
    body = bytearray()
    for _ in range(pieces):
        start = rng.next() % (dictionary - 16)
        body += words[start:start + 4 + rng.next() % 13]
    out = bytearray(body)
    for k in range(1, copies + 1):
        copy = bytearray(body)
        for j in range(0, len(copy), 4096):
            copy[j] = k & 255
        out += copy
    return bytes(out)


GENERATORS = {
    "random": random_bytes,
    "text": text,
    "depth": depth,
    "confidence": confidence,
    "repetitive": repetitive,
    "phrases": phrases,
}

# name: (generator, parameters, rewrite as bvx1)
FIXTURES = {
    "empty": ("random", {"seed": 0, "count": 0}, False),
    "tiny": ("text", {"seed": 1, "count": 5}, False),
    "random": ("random", {"seed": 2, "count": 20000}, False),
    "text-100": ("text", {"seed": 3, "count": 100}, False),
    "text-1000": ("text", {"seed": 4, "count": 1000}, False),
    "text-4095": ("text", {"seed": 5, "count": 4095}, False),
    "text-4096": ("text", {"seed": 6, "count": 4096}, False),
    "text-4096-bvx1": ("text", {"seed": 6, "count": 4096}, True),
    "depth": ("depth", {"seed": 7, "width": 256, "height": 192}, False),
    "confidence": ("confidence", {"seed": 7, "width": 256, "height": 192}, False),
    "repetitive": ("repetitive", {"seed": 8, "pieces": 60}, False),
    "repetitive-bvx1": ("repetitive", {"seed": 8, "pieces": 60}, True),
    "phrases": ("phrases", {"seed": 9, "dictionary": 1024, "pieces": 12000, "copies": 9}, False),
}


# MARK: - streams


def blocks(stream):
    """The magics of the stream's blocks, in order."""
    magics = []
    o = 0
    while o < len(stream):
        magic = stream[o:o + 4]
        magics.append(magic.decode())
        if magic == b"bvx$":
            o += 4
        elif magic == b"bvx-":
            o += 8 + struct.unpack_from("<I", stream, o + 4)[0]
        elif magic == b"bvxn":
            o += 12 + struct.unpack_from("<I", stream, o + 8)[0]
        elif magic == b"bvx2":
            v0, v1, v2 = struct.unpack_from("<3Q", stream, o + 8)
            o += (v2 & 0xFFFFFFFF) + (v0 >> 20 & 0xFFFFF) + (v1 >> 40 & 0xFFFFF)
        elif magic == b"bvx1":
            o += 772 + struct.unpack_from("<I", stream, o + 8)[0]
        else:
            raise ValueError(f"unknown block {magic!r} at {o}")
    return magics


def packed_frequencies(data):
    """The 360 frequencies of a bvx2 header's tables: a prefix code read from the low bits up."""
    bits = int.from_bytes(data, "little")
    values = []
    for _ in range(360):
        if bits & 1 == 0:
            value, length = bits >> 1 & 1, 2
        elif bits & 2 == 0:
            value, length = 2 + (bits >> 2 & 1), 3
        elif bits & 4 == 0:
            value, length = 4 + (bits >> 3 & 3), 5
        elif bits & 8 == 0:
            value, length = 8 + (bits >> 4 & 15), 8
        else:
            value, length = 24 + (bits >> 4 & 1023), 14
        values.append(value)
        bits >>= length
    return values


def plain_tables(stream):
    """The stream with every bvx2 block rewritten as bvx1 (770 bytes of fields, 2 of padding)."""
    out = bytearray()
    o = 0
    for magic in blocks(stream):
        if magic != "bvx2":
            if magic == "bvx$":
                size = 4
            elif magic == "bvx-":
                size = 8 + struct.unpack_from("<I", stream, o + 4)[0]
            else:
                size = 12 + struct.unpack_from("<I", stream, o + 8)[0]
            out += stream[o:o + size]
            o += size
            continue
        raw = struct.unpack_from("<I", stream, o + 4)[0]
        v0, v1, v2 = struct.unpack_from("<3Q", stream, o + 8)
        header_size = v2 & 0xFFFFFFFF
        literal_payload, lmd_payload = v0 >> 20 & 0xFFFFF, v1 >> 40 & 0xFFFFF
        header = struct.pack(
            "<4s6Ii4HiHHH", b"bvx1", raw, literal_payload + lmd_payload, v0 & 0xFFFFF, v0 >> 40 & 0xFFFFF,
            literal_payload, lmd_payload, (v0 >> 60 & 7) - 7,
            v1 & 0x3FF, v1 >> 10 & 0x3FF, v1 >> 20 & 0x3FF, v1 >> 30 & 0x3FF,
            (v1 >> 60 & 7) - 7, v2 >> 32 & 0x3FF, v2 >> 42 & 0x3FF, v2 >> 52 & 0x3FF)
        header += struct.pack("<360H", *packed_frequencies(stream[o + 32:o + header_size])) + b"\0\0"
        assert len(header) == 772
        out += header + stream[o + header_size:o + header_size + literal_payload + lmd_payload]
        o += header_size + literal_payload + lmd_payload
    return bytes(out)


def write(folder):
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    manifest = {}
    for name, (generator, parameters, plain) in FIXTURES.items():
        original = GENERATORS[generator](**parameters)
        stream = liblzfse.compress(original)
        if plain:
            stream = plain_tables(stream)
        # The reference decoder (pyliblzfse refuses an empty output as an error).
        assert not original or liblzfse.decompress(stream) == original, name
        (folder / f"{name}.lzfse").write_bytes(stream)
        manifest[name] = {"generator": generator, "parameters": parameters, "size": len(original),
                          "fnv1a64": f"{fnv1a64(original):016x}", "blocks": blocks(stream)}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent
    for name, entry in write(target).items():
        print(f"{name}: {entry['size']} bytes, blocks {' '.join(entry['blocks'])}")
