import CTurboJPEG

/// Encodes Y′CbCr planes straight to a baseline JFIF JPEG with libjpeg-turbo (no RGB step), as
/// phone apps store their frames: the synthesizer's app layouts and tests use it.
package enum JPEGEncoder {
    /// A JPEG of `planes` at `quality` (1–100), with their own chroma subsampling. The planes'
    /// codes must be full-range BT.601, as JFIF defines them.
    package static func encode(_ planes: YCbCrPlanes, quality: Int = 92) throws -> [UInt8] {
        guard let handle = tjInitCompress() else {
            throw PointPaintError(.io(errno: 0), "cannot start the JPEG encoder: \(String(cString: tjGetErrorStr2(nil)))")
        }
        defer { tjDestroy(handle) }
        let subsampling: TJSAMP = switch planes.subsampling {
        case .yuv420: TJSAMP_420
        case .yuv422: TJSAMP_422
        case .yuv440: TJSAMP_440
        case .yuv444: TJSAMP_444
        }
        // TurboJPEG pads the luma plane to whole chroma samples: give it planes of its own sizes.
        let samp = Int32(subsampling.rawValue)
        let w = Int32(planes.width), h = Int32(planes.height)
        let lumaWidth = Int(tjPlaneWidth(0, w, samp)), lumaHeight = Int(tjPlaneHeight(0, h, samp))
        let chromaWidth = Int(tjPlaneWidth(1, w, samp)), chromaHeight = Int(tjPlaneHeight(1, h, samp))
        let luma = padded(planes.luma, width: planes.width, height: planes.height, to: (lumaWidth, lumaHeight))
        let cb = padded(planes.cb, width: planes.chromaWidth, height: planes.chromaHeight, to: (chromaWidth, chromaHeight))
        let cr = padded(planes.cr, width: planes.chromaWidth, height: planes.chromaHeight, to: (chromaWidth, chromaHeight))
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = luma.withUnsafeBufferPointer { y in
            cb.withUnsafeBufferPointer { u in
                cr.withUnsafeBufferPointer { v in
                    var sources: [UnsafePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress]
                    var strides = [Int32(lumaWidth), Int32(chromaWidth), Int32(chromaWidth)]
                    return tjCompressFromYUVPlanes(handle, &sources, w, &strides, h, samp, &output, &size,
                                                   Int32(min(max(quality, 1), 100)), TJFLAG_ACCURATEDCT)
                }
            }
        }
        defer { tjFree(output) }
        guard status == 0, let output else {
            throw PointPaintError(.io(errno: 0), "cannot encode a JPEG: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// `plane` (width × height) grown to `size` by repeating its last column and row.
    private static func padded(_ plane: [UInt8], width: Int, height: Int, to size: (width: Int, height: Int)) -> [UInt8] {
        guard size.width != width || size.height != height else { return plane }
        var out = [UInt8](repeating: 0, count: size.width * size.height)
        for row in 0 ..< size.height {
            let source = min(row, height - 1) * width
            for col in 0 ..< size.width { out[row * size.width + col] = plane[source + min(col, width - 1)] }
        }
        return out
    }
}
