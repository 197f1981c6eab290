"""PointPaint's colour conversions against the colour-science package (`colour`).

The matrices come from `pointpaint lut matrix`, the conversions from `pointpaint lut convert`
(values fed on standard input, printed with full precision), so OUR code is what is checked,
over whole grids of inputs, including values outside 0…1 (extended sRGB, mirrored curve)."""
import itertools
import subprocess
import warnings

import numpy as np
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import colour

SPACES = {"srgb": "sRGB", "display-p3": "Display P3", "bt2020": "ITU-R BT.2020"}


def derived(name):
    """The colour-science space with its RGB↔XYZ matrices derived from primaries and white,
    as PointPaint's are (colour's sRGB otherwise uses the 4-decimal published matrix)."""
    space = colour.RGB_COLOURSPACES[SPACES[name]].copy()
    space.use_derived_matrix_RGB_to_XYZ = True
    space.use_derived_matrix_XYZ_to_RGB = True
    return space


def reference_matrix(source, destination):
    return colour.matrix_RGB_to_RGB(derived(source), derived(destination), chromatic_adaptation_transform=None)


def mirrored(f, v):
    """colour's sRGB curve extended to negative values by mirroring, as Apple's extended sRGB."""
    return np.sign(v) * f(np.abs(v))


def decode(v):
    return mirrored(lambda a: colour.cctf_decoding(a, function="sRGB"), v)


def encode(v):
    return mirrored(lambda a: colour.cctf_encoding(a, function="sRGB"), v)


def run_matrix(pointpaint_bin, source, destination):
    out = subprocess.run([pointpaint_bin, "lut", "matrix", "--from", source, "--to", destination],
                         check=True, capture_output=True, text=True).stdout
    return np.array([[float(x) for x in line.split()] for line in out.strip().splitlines()])


def run_convert(pointpaint_bin, values, source, destination, input="encoded", output="encoded"):
    text = "\n".join(f"{r!r} {g!r} {b!r}" for r, g, b in values) + "\n"
    out = subprocess.run([pointpaint_bin, "lut", "convert", "--from", source, "--to", destination,
                          "--input", input, "--output", output],
                         input=text, check=True, capture_output=True, text=True).stdout
    result = np.array([[float(x) for x in line.split()] for line in out.strip().splitlines()])
    assert result.shape == (len(values), 3)
    return result


def grid(low, high, steps):
    axis = np.linspace(low, high, steps)
    return np.array(list(itertools.product(axis, axis, axis)))


@pytest.mark.parametrize("source,destination", list(itertools.permutations(SPACES, 2)))
def test_matrices_match_colour_science(pointpaint_bin, source, destination):
    ours = run_matrix(pointpaint_bin, source, destination)
    np.testing.assert_allclose(ours, reference_matrix(source, destination), rtol=0, atol=1e-12)


def test_srgb_matrix_matches_the_published_one(pointpaint_bin):
    # colour's own sRGB space carries IEC 61966-2-1's rounded matrix: agree to its 4 decimals.
    published = colour.RGB_COLOURSPACES["sRGB"].matrix_XYZ_to_RGB @ colour.RGB_COLOURSPACES["Display P3"].matrix_RGB_to_XYZ
    np.testing.assert_allclose(run_matrix(pointpaint_bin, "display-p3", "srgb"), published, atol=3e-4)


def test_transfer_functions_match_colour_science(pointpaint_bin):
    # Every 8-bit code and a fine grid, decoded (encoded sRGB → linear sRGB) and encoded back.
    codes = np.concatenate([np.arange(256) / 255, np.linspace(0, 1, 4097)])
    values = np.stack([codes, codes[::-1], np.roll(codes, 7)], axis=1)
    linear = run_convert(pointpaint_bin, values, "srgb", "srgb", output="linear")
    np.testing.assert_allclose(linear, colour.cctf_decoding(values, function="sRGB"), rtol=1e-12, atol=1e-15)
    encoded = run_convert(pointpaint_bin, values, "srgb", "srgb", input="linear", output="encoded")
    np.testing.assert_allclose(encoded, colour.cctf_encoding(values, function="sRGB"), rtol=1e-12, atol=1e-15)
    # Display P3's curve is the sRGB one in colour-science too.
    p3 = colour.RGB_COLOURSPACES["Display P3"]
    np.testing.assert_allclose(linear, p3.cctf_decoding(values), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("source,destination", [("display-p3", "srgb"), ("srgb", "display-p3"),
                                                ("bt2020", "srgb"), ("srgb", "bt2020")])
def test_conversions_over_extended_range(pointpaint_bin, source, destination):
    # Encoded inputs from -0.25 to 1.25: in gamut, out of gamut and extended values alike.
    values = grid(-0.25, 1.25, 21)
    ours = run_convert(pointpaint_bin, values, source, destination)
    linear = decode(values) @ reference_matrix(source, destination).T
    np.testing.assert_allclose(ours, encode(linear), rtol=1e-11, atol=1e-12)
    ours_linear = run_convert(pointpaint_bin, values, source, destination, output="linear")
    np.testing.assert_allclose(ours_linear, linear, rtol=1e-11, atol=1e-12)


def test_in_range_conversion_matches_colour_RGB_to_RGB(pointpaint_bin):
    # For inputs in 0…1 colour's own end-to-end conversion (no mirroring needed) agrees too.
    values = grid(0, 1, 17)
    ours_linear = run_convert(pointpaint_bin, values, "display-p3", "srgb", output="linear")
    reference = colour.RGB_to_RGB(values, derived("display-p3"), derived("srgb"), chromatic_adaptation_transform=None,
                                  apply_cctf_decoding=True, apply_cctf_encoding=False)
    np.testing.assert_allclose(ours_linear, reference, rtol=1e-11, atol=1e-12)


def test_srgb_red_in_display_p3(pointpaint_bin):
    (p3,) = run_convert(pointpaint_bin, [(1.0, 0.0, 0.0)], "srgb", "display-p3")
    np.testing.assert_allclose(p3, [0.9175, 0.2003, 0.1386], atol=1e-4)
    reference = colour.RGB_to_RGB([1.0, 0.0, 0.0], derived("srgb"), derived("display-p3"),
                                  chromatic_adaptation_transform=None, apply_cctf_decoding=True,
                                  apply_cctf_encoding=True)
    np.testing.assert_allclose(p3, reference, atol=1e-12)
