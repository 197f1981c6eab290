/// A bi-planar 4:2:0 Y′CbCr image as ARKit delivers it: a full-resolution Y plane and a
/// half-resolution plane of interleaved Cb, Cr pairs, each with its own row stride.
///
/// Both planes may live in one buffer (a raw `.nv12` file) or in separate ones; an image made
/// from three PNG planes is interleaved into this layout once, when it is read.
public struct YCbCrImage: Sendable {
    /// Width in pixels (even).
    public let width: Int
    /// Height in pixels (even).
    public let height: Int
    /// Bytes from one Y row to the next (≥ width).
    public let lumaStride: Int
    /// Bytes from one CbCr row to the next (≥ width, since a row holds width/2 pairs).
    public let chromaStride: Int
    /// The Y plane's bytes; its first row starts at `lumaOffset`.
    public let luma: MappedBytes
    /// Offset of the Y plane in `luma`.
    public let lumaOffset: Int
    /// The CbCr plane's bytes (may be the same object as `luma`); first row at `chromaOffset`.
    public let chroma: MappedBytes
    /// Offset of the CbCr plane in `chroma`.
    public let chromaOffset: Int

    /// Chroma plane width in pairs.
    public var chromaWidth: Int { width / 2 }
    /// Chroma plane height in rows.
    public var chromaHeight: Int { height / 2 }

    /// Wraps existing planes. Traps if the geometry does not fit the buffers: readers check
    /// their input first and report problems as errors.
    public init(width: Int, height: Int, luma: MappedBytes, lumaOffset: Int = 0, lumaStride: Int? = nil,
                chroma: MappedBytes, chromaOffset: Int = 0, chromaStride: Int? = nil) {
        let lumaStride = lumaStride ?? width
        let chromaStride = chromaStride ?? width
        precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "width and height must be even and positive")
        precondition(lumaStride >= width && chromaStride >= width, "strides must be at least the width")
        precondition(lumaOffset >= 0 && lumaOffset + lumaStride * (height - 1) + width <= luma.count, "luma plane does not fit its buffer")
        precondition(chromaOffset >= 0 && chromaOffset + chromaStride * (height / 2 - 1) + width <= chroma.count,
                     "chroma plane does not fit its buffer")
        self.width = width
        self.height = height
        self.lumaStride = lumaStride
        self.chromaStride = chromaStride
        self.luma = luma
        self.lumaOffset = lumaOffset
        self.chroma = chroma
        self.chromaOffset = chromaOffset
    }

    /// Builds a tightly packed image (strides = width) from a Y plane of `width*height` bytes and
    /// a CbCr plane of `width*height/2` interleaved bytes.
    public init(width: Int, height: Int, lumaPlane: [UInt8], chromaPlane: [UInt8]) {
        self.init(width: width, height: height, luma: MappedBytes(copying: lumaPlane), chroma: MappedBytes(copying: chromaPlane))
    }

    /// Bytes a file needs to hold both planes with the given strides:
    /// `height` Y rows then `height/2` CbCr rows.
    public static func fileSize(height: Int, lumaStride: Int, chromaStride: Int) -> Int {
        lumaStride * height + chromaStride * (height / 2)
    }

    /// The Y value at pixel (x, y). Checked with a precondition; for tests and reference code.
    public func lumaValue(x: Int, y: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height)
        return luma.withUnsafeBytes { $0[lumaOffset + y * lumaStride + x] }
    }

    /// The (Cb, Cr) pair of chroma texel (x, y), x < width/2, y < height/2.
    public func chromaValue(x: Int, y: Int) -> (cb: UInt8, cr: UInt8) {
        precondition(x >= 0 && x < chromaWidth && y >= 0 && y < chromaHeight)
        return chroma.withUnsafeBytes {
            let i = chromaOffset + y * chromaStride + 2 * x
            return ($0[i], $0[i + 1])
        }
    }

    /// The packed planes (no stride padding): Y then interleaved CbCr.
    public func packedPlanes() -> (luma: [UInt8], chroma: [UInt8]) {
        var y = [UInt8](repeating: 0, count: width * height)
        var c = [UInt8](repeating: 0, count: width * height / 2)
        luma.withUnsafeBytes { src in
            for row in 0 ..< height {
                let from = lumaOffset + row * lumaStride
                y.withUnsafeMutableBytes { dst in
                    dst.baseAddress!.advanced(by: row * width).copyMemory(from: src.baseAddress!.advanced(by: from), byteCount: width)
                }
            }
        }
        chroma.withUnsafeBytes { src in
            for row in 0 ..< height / 2 {
                let from = chromaOffset + row * chromaStride
                c.withUnsafeMutableBytes { dst in
                    dst.baseAddress!.advanced(by: row * width).copyMemory(from: src.baseAddress!.advanced(by: from), byteCount: width)
                }
            }
        }
        return (y, c)
    }
}
