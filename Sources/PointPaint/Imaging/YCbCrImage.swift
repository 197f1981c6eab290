/// A captured Y′CbCr image in semi-planar storage: a full-resolution Y plane and a plane of
/// interleaved Cb, Cr pairs at the chroma size its `subsampling` gives, each with its own row
/// stride.
///
/// 4:2:0 in this storage is NV12, ARKit's bi-planar layout and the raw `.nv12` frame files of
/// the capture format; 4:2:2 is NV16, 4:4:4 NV24, and 4:4:0 the same with half-height chroma.
/// Odd sizes are allowed: the chroma plane then has the rounded-up size (a 5 × 3 image in
/// 4:2:0 has 3 × 2 chroma pairs), as JPEG and video decoders deliver it.
///
/// Both planes may live in one buffer (a raw `.nv12` file) or in separate ones; images decoded
/// into three planes (`YCbCrPlanes`, PNG planes) are interleaved into this layout once, when
/// they are read.
public struct YCbCrImage: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// How the chroma plane is subsampled.
    public let subsampling: ChromaSubsampling
    /// Bytes from one Y row to the next (≥ width).
    public let lumaStride: Int
    /// Bytes from one CbCr row to the next (≥ 2 × `chromaWidth`: a row holds `chromaWidth` pairs).
    public let chromaStride: Int
    /// The Y plane's bytes; its first row starts at `lumaOffset`.
    public let luma: MappedBytes
    /// Offset of the Y plane in `luma`.
    public let lumaOffset: Int
    /// The CbCr plane's bytes (may be the same object as `luma`); first row at `chromaOffset`.
    public let chroma: MappedBytes
    /// Offset of the CbCr plane in `chroma`.
    public let chromaOffset: Int

    /// Chroma plane width in pairs: the width divided by the horizontal factor, rounded up.
    public var chromaWidth: Int { subsampling.chromaSize(width: width, height: height).width }
    /// Chroma plane height in rows: the height divided by the vertical factor, rounded up.
    public var chromaHeight: Int { subsampling.chromaSize(width: width, height: height).height }
    /// Whether this is NV12 of even size, what the 4:2:0 fast paths read (two luma rows and two
    /// columns to every chroma pair).
    var isEvenNV12: Bool { subsampling == .yuv420 && width % 2 == 0 && height % 2 == 0 }

    /// Wraps existing planes. Traps if the geometry does not fit the buffers: readers check
    /// their input first and report problems as errors.
    /// - Parameters:
    ///   - lumaStride: bytes a Y row; `width` when nil.
    ///   - chromaStride: bytes a CbCr row; two a chroma pair (`width` for even 4:2:0) when nil.
    public init(width: Int, height: Int, subsampling: ChromaSubsampling = .yuv420, luma: MappedBytes, lumaOffset: Int = 0,
                lumaStride: Int? = nil, chroma: MappedBytes, chromaOffset: Int = 0, chromaStride: Int? = nil) {
        precondition(width > 0 && height > 0, "width and height must be positive")
        let chromaSize = subsampling.chromaSize(width: width, height: height)
        let chromaRow = 2 * chromaSize.width
        let lumaStride = lumaStride ?? width
        let chromaStride = chromaStride ?? chromaRow
        precondition(lumaStride >= width && chromaStride >= chromaRow, "strides must hold a row")
        precondition(lumaOffset >= 0 && lumaOffset + lumaStride * (height - 1) + width <= luma.count, "luma plane does not fit its buffer")
        precondition(chromaOffset >= 0 && chromaOffset + chromaStride * (chromaSize.height - 1) + chromaRow <= chroma.count,
                     "chroma plane does not fit its buffer")
        self.width = width
        self.height = height
        self.subsampling = subsampling
        self.lumaStride = lumaStride
        self.chromaStride = chromaStride
        self.luma = luma
        self.lumaOffset = lumaOffset
        self.chroma = chroma
        self.chromaOffset = chromaOffset
    }

    /// Builds a tightly packed image from a Y plane of `width × height` bytes and a CbCr plane of
    /// `chromaWidth × chromaHeight` interleaved pairs.
    public init(width: Int, height: Int, subsampling: ChromaSubsampling = .yuv420, lumaPlane: [UInt8], chromaPlane: [UInt8]) {
        self.init(width: width, height: height, subsampling: subsampling, luma: MappedBytes(copying: lumaPlane),
                  chroma: MappedBytes(copying: chromaPlane))
    }

    /// Bytes a file needs to hold both planes with the given strides: `height` Y rows then the
    /// CbCr rows (`height / 2` of them for the capture format's even 4:2:0).
    public static func fileSize(height: Int, subsampling: ChromaSubsampling = .yuv420, lumaStride: Int, chromaStride: Int) -> Int {
        lumaStride * height + chromaStride * subsampling.chromaSize(width: 1, height: height).height
    }

    /// The Y value at pixel (x, y). Checked with a precondition; for tests and reference code.
    public func lumaValue(x: Int, y: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height)
        return luma.withUnsafeBytes { $0[lumaOffset + y * lumaStride + x] }
    }

    /// The (Cb, Cr) pair of chroma texel (x, y), x < `chromaWidth`, y < `chromaHeight`.
    public func chromaValue(x: Int, y: Int) -> (cb: UInt8, cr: UInt8) {
        precondition(x >= 0 && x < chromaWidth && y >= 0 && y < chromaHeight)
        return chroma.withUnsafeBytes {
            let i = chromaOffset + y * chromaStride + 2 * x
            return ($0[i], $0[i + 1])
        }
    }

    /// The packed planes (no stride padding): Y, then the interleaved CbCr pairs.
    public func packedPlanes() -> (luma: [UInt8], chroma: [UInt8]) {
        let chromaRow = 2 * chromaWidth, chromaRows = chromaHeight
        var y = [UInt8](repeating: 0, count: width * height)
        var c = [UInt8](repeating: 0, count: chromaRow * chromaRows)
        luma.withUnsafeBytes { src in
            for row in 0 ..< height {
                let from = lumaOffset + row * lumaStride
                y.withUnsafeMutableBytes { dst in
                    dst.baseAddress!.advanced(by: row * width).copyMemory(from: src.baseAddress!.advanced(by: from), byteCount: width)
                }
            }
        }
        chroma.withUnsafeBytes { src in
            for row in 0 ..< chromaRows {
                let from = chromaOffset + row * chromaStride
                c.withUnsafeMutableBytes { dst in
                    dst.baseAddress!.advanced(by: row * chromaRow).copyMemory(from: src.baseAddress!.advanced(by: from), byteCount: chromaRow)
                }
            }
        }
        return (y, c)
    }
}
