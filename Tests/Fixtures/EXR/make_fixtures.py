#!/usr/bin/env python3
"""Writes the OpenEXR fixtures of EXRImageTests with the OpenEXR project's own Python binding
(`pip install openexr`), an encoder independent of PointPaint's reader. Run from this folder:
    python3 make_fixtures.py
The depth ramp is d(x, y) = 1 + 0.02 x + 0.01 y metres (x, y from the data window's corner),
with NaN at (7, 5): what Record3D's export holds where the sensor saw nothing."""
import numpy as np
import OpenEXR

H, W = 48, 64
y, x = np.mgrid[0:H, 0:W]
depth = (1.0 + 0.02 * x + 0.01 * y).astype(np.float32)
depth[5, 7] = np.nan


def write(name, channels, compression=OpenEXR.ZIP_COMPRESSION, **extra):
    header = {"compression": compression, "type": OpenEXR.scanlineimage}
    header.update(extra)
    with OpenEXR.File(header, channels) as f:
        f.write(name)


write("z_zip_float.exr", {"Z": depth})
write("r_piz_half.exr", {"R": depth.astype(np.float16)}, OpenEXR.PIZ_COMPRESSION)
write("y_none_uint.exr", {"Y": np.where(np.isnan(depth), 0, np.round(depth * 1000)).astype(np.uint32)}, OpenEXR.NO_COMPRESSION)
write("rg_rle_float.exr", {"R": depth, "G": np.zeros_like(depth)}, OpenEXR.RLE_COMPRESSION)
write("only_depthmap.exr", {"depthmap": depth})
write("two_unknown.exr", {"A": depth, "B": depth})
write("offset_window.exr", {"Z": depth}, dataWindow=(np.array([10, 20], np.int32), np.array([10 + W - 1, 20 + H - 1], np.int32)),
      displayWindow=(np.array([0, 0], np.int32), np.array([200, 200], np.int32)))
tiles = OpenEXR.TileDescription()
tiles.xSize, tiles.ySize = 16, 16
with OpenEXR.File({"compression": OpenEXR.ZIP_COMPRESSION, "type": OpenEXR.tiledimage, "tiles": tiles}, {"Z": depth}) as f:
    f.write("tiled.exr")
