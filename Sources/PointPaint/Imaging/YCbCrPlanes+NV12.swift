extension YCbCrPlanes {
    /// The planes of a 4:2:0 NV12 image, its interleaved chroma split into Cb and Cr.
    public init(_ image: NV12Image) {
        let (luma, chroma) = image.packedPlanes()
        var cb = [UInt8](repeating: 0, count: chroma.count / 2), cr = cb
        for i in cb.indices {
            cb[i] = chroma[2 * i]
            cr[i] = chroma[2 * i + 1]
        }
        self.init(width: image.width, height: image.height, subsampling: .yuv420, luma: luma, cb: cb, cr: cr)
    }
}

extension NV12Image {
    /// The image of 4:2:0 planes with even sizes, their chroma interleaved as NV12 holds it (the
    /// luma plane is shared, not copied).
    /// - Precondition: `planes.subsampling == .yuv420` and even width and height.
    /// - Complexity: one pass over the chroma planes, into memory that is not cleared first (a
    ///   replay makes one image a frame).
    public init(_ planes: YCbCrPlanes) {
        precondition(planes.subsampling == .yuv420 && planes.width % 2 == 0 && planes.height % 2 == 0,
                     "NV12 holds 4:2:0 planes of even size")
        let count = planes.cb.count
        let chroma = [UInt8](unsafeUninitializedCapacity: 2 * count) { out, initialized in
            planes.cb.withUnsafeBufferPointer { cb in
                planes.cr.withUnsafeBufferPointer { cr in
                    for i in 0 ..< count {
                        out[2 * i] = cb[i]
                        out[2 * i + 1] = cr[i]
                    }
                }
            }
            initialized = 2 * count
        }
        self.init(width: planes.width, height: planes.height, lumaPlane: planes.luma, chromaPlane: chroma)
    }
}
