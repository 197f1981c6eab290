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
    /// The image of 4:2:0 planes with even sizes, their chroma interleaved as NV12 holds it.
    /// - Precondition: `planes.subsampling == .yuv420` and even width and height.
    public init(_ planes: YCbCrPlanes) {
        precondition(planes.subsampling == .yuv420 && planes.width % 2 == 0 && planes.height % 2 == 0,
                     "NV12 holds 4:2:0 planes of even size")
        var chroma = [UInt8](repeating: 0, count: planes.cb.count * 2)
        for i in planes.cb.indices {
            chroma[2 * i] = planes.cb[i]
            chroma[2 * i + 1] = planes.cr[i]
        }
        self.init(width: planes.width, height: planes.height, lumaPlane: planes.luma, chromaPlane: chroma)
    }
}
