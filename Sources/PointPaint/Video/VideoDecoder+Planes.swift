import CFFmpeg

/// How a decoded picture's bytes are laid out in an `AVFrame`.
enum VideoPixelLayout: Equatable {
    /// Three planes: Y, Cb, Cr.
    case planar(ChromaSubsampling)
    /// A Y plane and a plane of interleaved Cb, Cr pairs at half width and height.
    case nv12

    /// The chroma subsampling of either layout.
    var subsampling: ChromaSubsampling {
        switch self {
        case .planar(let subsampling): subsampling
        case .nv12: .yuv420
        }
    }
}

extension VideoDecoder {
    /// The layout of an 8-bit Y′CbCr pixel format and whether the format itself says full range
    /// (FFmpeg's `yuvj…` formats). Anything else, 10-bit formats first, is refused in one line.
    static func layout(of format: AVPixelFormat, file: String) throws -> (layout: VideoPixelLayout, fullRange: Bool) {
        switch format {
        case AV_PIX_FMT_YUV420P: return (.planar(.yuv420), false)
        case AV_PIX_FMT_YUVJ420P: return (.planar(.yuv420), true)
        case AV_PIX_FMT_YUV422P: return (.planar(.yuv422), false)
        case AV_PIX_FMT_YUVJ422P: return (.planar(.yuv422), true)
        case AV_PIX_FMT_YUV444P: return (.planar(.yuv444), false)
        case AV_PIX_FMT_YUVJ444P: return (.planar(.yuv444), true)
        case AV_PIX_FMT_NV12: return (.nv12, false)
        default: break
        }
        let name = name(av_get_pix_fmt_name(format))
        if let descriptor = av_pix_fmt_desc_get(format), descriptor.pointee.comp.0.depth > 8 {
            throw PointPaintError(.unsupported, file: file,
                                  "\(descriptor.pointee.comp.0.depth)-bit video (pixel format \(name)) is not supported; "
                                      + "PointPaint reads 8-bit video")
        }
        throw PointPaintError(.unsupported, file: file,
                              "pixel format \(name) is not supported (PointPaint reads 8-bit Y′CbCr 4:2:0, 4:2:2 "
                                  + "and 4:4:4: yuv420p, yuv422p, yuv444p, their yuvj forms, nv12)")
    }

    /// Copies a decoded picture's planes out of `frame`, honouring its row strides.
    /// - Complexity: O(width × height).
    static func planes(of frame: UnsafePointer<AVFrame>, layout: VideoPixelLayout, width: Int, height: Int) -> YCbCrPlanes {
        let f = frame.pointee
        func plane(_ data: UnsafeMutablePointer<UInt8>?, _ stride: Int32) -> StridedPlane {
            StridedPlane(base: UnsafePointer(data!), stride: Int(stride))
        }
        switch layout {
        case .planar(let subsampling):
            return YCbCrPlanes(width: width, height: height, subsampling: subsampling,
                               luma: plane(f.data.0, f.linesize.0), cb: plane(f.data.1, f.linesize.1),
                               cr: plane(f.data.2, f.linesize.2))
        case .nv12:
            return YCbCrPlanes(width: width, height: height, nv12Luma: plane(f.data.0, f.linesize.0),
                               chroma: plane(f.data.1, f.linesize.1))
        }
    }
}
