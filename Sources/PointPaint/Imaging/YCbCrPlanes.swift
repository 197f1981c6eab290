/// How much smaller than the luma plane each chroma plane is: the factor by which the chroma
/// planes are subsampled horizontally and vertically.
public enum ChromaSubsampling: String, Sendable, CaseIterable, Hashable {
    /// Half width, half height (JPEG and video from phones, ARKit's NV12).
    case yuv420 = "4:2:0"
    /// Half width, full height.
    case yuv422 = "4:2:2"
    /// Full width, half height (rare; some JPEGs from rotated 4:2:2 sources).
    case yuv440 = "4:4:0"
    /// Full resolution.
    case yuv444 = "4:4:4"

    /// Horizontal factor: luma columns per chroma column.
    public var horizontal: Int { self == .yuv420 || self == .yuv422 ? 2 : 1 }
    /// Vertical factor: luma rows per chroma row.
    public var vertical: Int { self == .yuv420 || self == .yuv440 ? 2 : 1 }

    /// Chroma plane size for a luma plane of `width`×`height` (rounded up, as JPEG and video
    /// decoders do for odd sizes).
    public func chromaSize(width: Int, height: Int) -> (width: Int, height: Int) {
        ((width + horizontal - 1) / horizontal, (height + vertical - 1) / vertical)
    }
}

/// Y′CbCr planes exactly as a decoder delivered them, before any colour conversion: a
/// full-resolution luma plane and two chroma planes at the subsampled size, each tightly packed
/// (row stride = plane width). A greyscale source has chroma planes of neutral 128.
public struct YCbCrPlanes: Sendable, Equatable {
    /// Luma width in pixels.
    public let width: Int
    /// Luma height in pixels.
    public let height: Int
    /// How the chroma planes are subsampled.
    public let subsampling: ChromaSubsampling
    /// `width × height` luma codes, row by row.
    public let luma: [UInt8]
    /// Cb codes, `chromaWidth × chromaHeight`, row by row.
    public let cb: [UInt8]
    /// Cr codes, `chromaWidth × chromaHeight`, row by row.
    public let cr: [UInt8]

    /// Chroma plane width.
    public var chromaWidth: Int { subsampling.chromaSize(width: width, height: height).width }
    /// Chroma plane height.
    public var chromaHeight: Int { subsampling.chromaSize(width: width, height: height).height }

    /// Wraps decoded planes. Traps if a plane's size does not match the geometry: decoders
    /// allocate the planes from the geometry they report.
    public init(width: Int, height: Int, subsampling: ChromaSubsampling, luma: [UInt8], cb: [UInt8], cr: [UInt8]) {
        let chroma = subsampling.chromaSize(width: width, height: height)
        precondition(width > 0 && height > 0, "planes must not be empty")
        precondition(luma.count == width * height, "luma plane does not match \(width)x\(height)")
        precondition(cb.count == chroma.width * chroma.height && cr.count == cb.count,
                     "chroma planes do not match \(chroma.width)x\(chroma.height)")
        self.width = width
        self.height = height
        self.subsampling = subsampling
        self.luma = luma
        self.cb = cb
        self.cr = cr
    }
}
