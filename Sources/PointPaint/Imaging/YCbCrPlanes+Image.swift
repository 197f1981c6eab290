extension YCbCrPlanes {
    /// The planes of an image, its interleaved chroma split into Cb and Cr.
    public init(_ image: YCbCrImage) {
        let (luma, chroma) = image.packedPlanes()
        var cb = [UInt8](repeating: 0, count: chroma.count / 2), cr = cb
        for i in cb.indices {
            cb[i] = chroma[2 * i]
            cr[i] = chroma[2 * i + 1]
        }
        self.init(width: image.width, height: image.height, subsampling: image.subsampling, luma: luma, cb: cb, cr: cr)
    }
}

extension YCbCrImage {
    /// The image of decoded planes, in any subsampling and of any size: the luma plane copied,
    /// the chroma planes interleaved as the semi-planar layout holds them (NV12 for 4:2:0).
    /// - Complexity: one pass over each plane, into memory that is not cleared first (a replay
    ///   makes one image a frame).
    public init(_ planes: YCbCrPlanes) {
        let count = planes.cb.count
        let chroma = MappedBytes(count: 2 * count) { out in
            guard count > 0 else { return }
            planes.cb.withUnsafeBufferPointer { cb in
                planes.cr.withUnsafeBufferPointer { cr in
                    YCbCrImage.interleave(cb: cb.baseAddress!, cr: cr.baseAddress!, count: count, into: out.baseAddress!)
                }
            }
        }
        self.init(width: planes.width, height: planes.height, subsampling: planes.subsampling,
                  luma: MappedBytes(copying: planes.luma), chroma: chroma)
    }

    /// Writes `count` (Cb, Cr) pairs, Cb first, to `out` from `count` samples of each plane.
    @inline(__always)
    static func interleave(cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        // A pair a store (Cb the low byte in memory), which the compiler vectorises.
        UnsafeMutableRawPointer(out).withMemoryRebound(to: UInt16.self, capacity: count) { pair in
            for i in 0 ..< count {
                pair[i] = (UInt16(cb[i]) | UInt16(cr[i]) << 8).littleEndian
            }
        }
    }
}
