"""LZFSE fixtures and the encoder they come from.

PointPaint's LZFSE decoder has no command of its own to call from here (the Record3D reader, which
will decode `.depth` and `.conf` files, is where it meets the command line, and its tests will
decode real-encoder streams end to end). So this file checks the other half of the Swift tests'
claim: that the committed fixtures in Tests/Fixtures/LZFSE are exactly what pyliblzfse (Apple's
reference encoder) writes for the generators' inputs, and that the encoder's streams, over fresh
random inputs, keep every rule the decoder enforces beyond the reference decoder's own checks.
"""
import importlib.util
import os
import pathlib
import random
import struct

import liblzfse
import pytest

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "LZFSE"


def load_generator():
    spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_fixtures = load_generator()


def test_fixtures_are_what_pyliblzfse_writes(tmp_path):
    make_fixtures.write(tmp_path)
    committed = sorted(p.name for p in FIXTURES.iterdir() if p.suffix in (".lzfse", ".json"))
    fresh = sorted(p.name for p in tmp_path.iterdir())
    assert fresh == committed
    for name in fresh:
        assert (tmp_path / name).read_bytes() == (FIXTURES / name).read_bytes(), name


@pytest.mark.parametrize("name", list(make_fixtures.FIXTURES))
def test_fixture_decodes_with_reference_decoder(name):
    generator, parameters, _ = make_fixtures.FIXTURES[name]
    original = make_fixtures.GENERATORS[generator](**parameters)
    stream = (FIXTURES / f"{name}.lzfse").read_bytes()
    if original:  # pyliblzfse reports an empty output as an error
        assert liblzfse.decompress(stream) == original
    assert make_fixtures.blocks(stream)[-1] == "bvx$"



def check_stream(stream, size):
    """Asserts the rules PointPaint's decoder holds the stream to; returns the block magics."""
    o = 0
    total = 0
    magics = []
    while True:
        magic = stream[o:o + 4].decode()
        magics.append(magic)
        if magic == "bvx$":
            assert o + 4 == len(stream)
            break
        decoded = struct.unpack_from("<I", stream, o + 4)[0]
        if magic == "bvx-":
            o += 8 + decoded
        elif magic == "bvxn":
            payload = struct.unpack_from("<I", stream, o + 8)[0]
            body = stream[o + 12:o + 12 + payload]
            assert body[-8:] == b"\x06" + bytes(7)  # ends with the end-of-block opcode
            assert decoded <= 136 * payload
            o += 12 + payload
        elif magic == "bvx2":
            v0, v1, v2 = struct.unpack_from("<3Q", stream, o + 8)
            literals, matches = v0 & 0xFFFFF, v0 >> 40 & 0xFFFFF
            header = v2 & 0xFFFFFFFF
            literal_payload, lmd_payload = v0 >> 20 & 0xFFFFF, v1 >> 40 & 0xFFFFF
            assert 32 <= header <= 662
            assert literals <= 40000 and matches <= 10000 and literals % 4 == 0
            assert decoded <= literals + 2359 * matches
            assert lmd_payload >= 8
            f = make_fixtures.packed_frequencies(stream[o + 32:o + header])
            # Each table adds up exactly to its state count (the decoder's rule; the reference
            # decoder only asks for at most).
            assert [sum(f[:20]), sum(f[20:40]), sum(f[40:104]), sum(f[104:])] == [64, 64, 256, 1024]
            o += header + literal_payload + lmd_payload
        else:
            raise AssertionError(f"unexpected block {magic!r}")
        total += decoded
    assert total == size
    return magics


def fresh_input(rng):
    """One input of a random kind and size from a seeded generator."""
    kind = rng.choice(["random", "text", "repetitive", "depth-rows", "zeros-and-noise"])
    seed = rng.getrandbits(64)
    if kind == "random":
        return make_fixtures.random_bytes(seed, rng.randrange(0, 70000))
    if kind == "text":
        return make_fixtures.text(seed, rng.randrange(0, 200000))
    if kind == "repetitive":
        return make_fixtures.repetitive(seed, rng.randrange(1, 80))
    if kind == "depth-rows":
        return make_fixtures.depth(seed, 256, rng.randrange(1, 40))
    noise = make_fixtures.random_bytes(seed, 4096)
    return b"".join(bytes(rng.randrange(0, 3000)) + noise[:rng.randrange(0, 4096)] for _ in range(20))


def test_fresh_streams_keep_the_decoders_rules():
    seed = int.from_bytes(os.urandom(8), "little")
    rng = random.Random(seed)
    seen = set()
    for trial in range(40):
        data = fresh_input(rng)
        stream = liblzfse.compress(data)
        magics = check_stream(stream, len(data))
        seen.update(magics)
        if data:
            assert liblzfse.decompress(stream) == data, f"seed {seed}, trial {trial}"
    assert seen >= {"bvx2", "bvx$"}, f"seed {seed}"


def test_pointpaints_raw_stream_decodes_with_reference_decoder():
    """PointPaint's own LZFSE writer (raw blocks, LZFSE.encodeRaw; the Swift tests check it writes
    exactly this fixture) gives streams Apple's reference decoder reads."""
    stream = (FIXTURES / "raw" / "raw-1000.lzfse").read_bytes()
    assert make_fixtures.blocks(stream) == ["bvx-", "bvx-", "bvx-", "bvx$"]
    assert liblzfse.decompress(stream) == bytes((37 * i + 11) % 256 for i in range(1000))
