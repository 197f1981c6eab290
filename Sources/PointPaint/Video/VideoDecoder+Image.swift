import CFFmpeg

/// A decoded picture kept alive: its own reference to the decoder's buffers, released (back to
/// the decoder's pool) when the last image reading them goes.
final class LibavPicture: @unchecked Sendable {
    /// The picture; read only, never changed after `init`.
    let frame: UnsafeMutablePointer<AVFrame>

    /// Takes over `source`'s reference, leaving `source` blank; nil when no frame can be
    /// allocated.
    init?(moving source: UnsafeMutablePointer<AVFrame>) {
        guard let frame = av_frame_alloc() else { return nil }
        av_frame_move_ref(frame, source)
        self.frame = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&frame)
    }
}

extension VideoDecoder {
    /// The next frame in presentation order whose index `wanted` accepts, as the image the
    /// sampler reads, with its index and time; `nil` after the last. Frames not wanted are
    /// decoded but never copied, as for `next(where:)`.
    ///
    /// The image reads the decoder's own luma plane (and its chroma plane for NV12), which it
    /// keeps alive, so a frame costs one pass over its chroma (interleaving Cb and Cr) instead
    /// of a copy of every plane; the decoder then hands out fresh buffers from its pool for
    /// the frames after it. The image may outlive the decoder.
    ///
    /// - Throws: as `next()`.
    package func nextImage(where wanted: (Int) -> Bool) throws -> (index: Int, time: Double, image: YCbCrImage)? {
        try next(where: wanted) { frame, index, time in
            (index, time, Self.image(of: frame, layout: layout, width: info.width, height: info.height))
        }
    }

    /// The image of a decoded picture, taking over `frame`'s reference: borrowing its planes
    /// where their rows run top-down, each at least a row long (a decoder's always do), else a
    /// copy of them.
    static func image(of frame: UnsafeMutablePointer<AVFrame>, layout: VideoPixelLayout, width: Int, height: Int) -> YCbCrImage {
        let f = frame.pointee
        let chroma = layout.subsampling.chromaSize(width: width, height: height)
        let lumaStride = Int(f.linesize.0)
        let chromaRowsFit: Bool
        switch layout {
        case .nv12: chromaRowsFit = Int(f.linesize.1) >= 2 * chroma.width
        case .planar: chromaRowsFit = Int(f.linesize.1) >= chroma.width && Int(f.linesize.2) >= chroma.width
        }
        guard lumaStride >= width, chromaRowsFit, let picture = LibavPicture(moving: frame) else {
            return YCbCrImage(planes(of: frame, layout: layout, width: width, height: height))
        }
        let p = picture.frame.pointee
        let luma = MappedBytes(borrowing: UnsafeRawPointer(p.data.0!), count: lumaStride * (height - 1) + width, keeper: picture)
        switch layout {
        case .nv12:
            let chromaStride = Int(p.linesize.1)
            let pairs = MappedBytes(borrowing: UnsafeRawPointer(p.data.1!), count: chromaStride * (chroma.height - 1) + 2 * chroma.width,
                                    keeper: picture)
            return YCbCrImage(width: width, height: height, subsampling: .yuv420, luma: luma, lumaStride: lumaStride,
                              chroma: pairs, chromaStride: chromaStride)
        case .planar(let subsampling):
            let row = 2 * chroma.width
            let pairs = MappedBytes(count: row * chroma.height) { out in
                let cb = UnsafePointer(p.data.1!), cr = UnsafePointer(p.data.2!)
                let cbStride = Int(p.linesize.1), crStride = Int(p.linesize.2)
                for y in 0 ..< chroma.height {
                    YCbCrImage.interleave(cb: cb + y * cbStride, cr: cr + y * crStride, count: chroma.width,
                                          into: out.baseAddress! + y * row)
                }
            }
            return YCbCrImage(width: width, height: height, subsampling: subsampling, luma: luma, lumaStride: lumaStride, chroma: pairs)
        }
    }
}
