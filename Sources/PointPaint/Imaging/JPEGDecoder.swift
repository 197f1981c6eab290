import CTurboJPEG

/// What a JPEG holds, read from its header without decoding the image.
public struct JPEGInfo: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// How the chroma planes are subsampled; nil for a greyscale JPEG.
    public var subsampling: ChromaSubsampling?
    /// The primaries its embedded ICC profile names, or sRGB when it embeds none.
    public var primaries: ColorPrimaries
    /// Whether the primaries came from an embedded ICC profile (rather than being assumed).
    public var hasColourProfile: Bool

    /// The Y′CbCr encoding of every JPEG PointPaint reads: JFIF's BT.601 matrix at full range
    /// (ITU-T T.871), whatever its primaries.
    public static let encoding = YCbCrEncoding(matrix: .bt601, range: .full)
    /// JFIF's chroma siting: centred between the luma samples it covers.
    public static let siting = ChromaSiting.center
}

/// Decodes JPEG files straight to their Y′CbCr planes with libjpeg-turbo: the codes the encoder
/// stored, after the inverse DCT (the accurate integer one) and before any upsampling or colour
/// conversion, so sampling them is as exact as sampling a raw NV12 frame.
///
/// Y′CbCr JPEGs in 4:2:0, 4:2:2, 4:4:0 and 4:4:4 are read, and greyscale ones (with neutral chroma
/// planes); CMYK, YCCK, RGB-without-transform and 4:1:1 JPEGs are refused. Corrupt data is an
/// error, never a grey tail: libjpeg-turbo's warnings stop the decode. The embedded ICC profile, if
/// any, names the primaries (sRGB, Display P3 or BT.2020; another profile is refused). EXIF
/// orientation is ignored: cameras' intrinsics describe the stored pixel grid.
public enum JPEGDecoder {
    /// The largest image decoded unless a caller asks for more: 8192 × 8192 pixels (a 48 MP
    /// phone photo is 8064 × 6048).
    public static let defaultMaximumPixels = 8192 * 8192

    /// Reads the header of the JPEG in `bytes`: size, subsampling and primaries.
    /// - Parameter file: names the file in errors.
    public static func info(of bytes: [UInt8], file: String?) throws -> JPEGInfo {
        let handle = try Handle(file: file)
        return try handle.header(bytes, file: file)
    }

    /// Decodes the JPEG in `bytes` to its Y′CbCr planes, refusing an image larger than
    /// `maximumPixels` before allocating anything for it.
    /// - Complexity: O(width × height).
    public static func decode(_ bytes: [UInt8], file: String?, maximumPixels: Int = defaultMaximumPixels) throws -> (planes: YCbCrPlanes, info: JPEGInfo) {
        let handle = try Handle(file: file)
        let info = try handle.header(bytes, file: file, maximumPixels: maximumPixels)
        return (try handle.planes(bytes, info: info, file: file), info)
    }

    /// Decodes the JPEG in `bytes` straight into the semi-planar image a capture frame holds,
    /// refusing an image larger than `maximumPixels` before allocating anything for it. The
    /// same codes as `YCbCrImage(decode(…).planes)`, with fewer copies: when the decoder's planes
    /// have the image's own size (any even 4:2:0 image, and most others), the Y plane is decoded
    /// into the image's own memory and only the chroma planes pass through scratch memory,
    /// to be interleaved.
    /// - Complexity: O(width × height).
    public static func decodeImage(_ bytes: [UInt8], file: String?, maximumPixels: Int = defaultMaximumPixels) throws -> (image: YCbCrImage, info: JPEGInfo) {
        let handle = try Handle(file: file)
        let info = try handle.header(bytes, file: file, maximumPixels: maximumPixels)
        return (try handle.image(bytes, info: info, file: file), info)
    }

    /// A TurboJPEG decompressor, destroyed with its owner. One per call: they are cheap next to
    /// a decode, and a handle must not be shared between threads.
    private final class Handle {
        let raw: tjhandle

        init(file: String?) throws {
            guard let raw = tjInitDecompress() else {
                throw PointPaintError(.io(errno: 0), file: file, "cannot start the JPEG decoder: \(String(cString: tjGetErrorStr2(nil)))")
            }
            self.raw = raw
        }

        deinit { tjDestroy(raw) }

        var errorText: String { String(cString: tjGetErrorStr2(raw)) }

        func header(_ bytes: [UInt8], file: String?) throws -> JPEGInfo {
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
            let status = bytes.withUnsafeBufferPointer { b in
                tjDecompressHeader3(raw, b.baseAddress, UInt(b.count), &width, &height, &subsampling, &colourspace)
            }
            guard status == 0 else {
                throw PointPaintError(.malformed, file: file, "expected a JPEG image, found data libjpeg-turbo cannot read (\(errorText.lowercasedFirst))")
            }
            guard width > 0, height > 0 else {
                throw PointPaintError(.malformed, file: file, place: .part("header"), "expected a positive image size, found \(width)x\(height)")
            }
            let planes: ChromaSubsampling?
            switch (Int(colourspace), Int(subsampling)) {
            case (Int(TJCS_GRAY.rawValue), _): planes = nil
            case (Int(TJCS_YCbCr.rawValue), Int(TJSAMP_420.rawValue)): planes = .yuv420
            case (Int(TJCS_YCbCr.rawValue), Int(TJSAMP_422.rawValue)): planes = .yuv422
            case (Int(TJCS_YCbCr.rawValue), Int(TJSAMP_440.rawValue)): planes = .yuv440
            case (Int(TJCS_YCbCr.rawValue), Int(TJSAMP_444.rawValue)): planes = .yuv444
            case (Int(TJCS_YCbCr.rawValue), _):
                throw PointPaintError(.unsupported, file: file, place: .part("header"),
                                      "expected 4:2:0, 4:2:2, 4:4:0 or 4:4:4 chroma, found \(Self.subsamplingName(subsampling))")
            default:
                throw PointPaintError(.unsupported, file: file, place: .part("header"),
                                      "expected a Y′CbCr or greyscale JPEG, found one stored as \(Self.colourspaceName(colourspace))")
            }
            let profile = try ICCProfile.primaries(inJPEG: bytes, file: file)
            return JPEGInfo(width: Int(width), height: Int(height), subsampling: planes,
                            primaries: profile ?? .srgb, hasColourProfile: profile != nil)
        }

        /// `header`, refusing an image of more than `maximumPixels` before anything is allocated
        /// for it.
        func header(_ bytes: [UInt8], file: String?, maximumPixels: Int) throws -> JPEGInfo {
            let info = try header(bytes, file: file)
            guard info.width <= maximumPixels / info.height else {
                throw PointPaintError(.tooLarge, file: file, place: .part("header"),
                                      "expected at most \(maximumPixels) pixels, found a \(info.width)x\(info.height) image")
            }
            return info
        }

        func planes(_ bytes: [UInt8], info: JPEGInfo, file: String?) throws -> YCbCrPlanes {
            let w = info.width, h = info.height
            let layout = info.subsampling ?? .yuv420
            let chroma = layout.chromaSize(width: w, height: h)
            // TurboJPEG pads the luma plane to whole chroma samples (a 35-pixel-wide 4:2:0 image
            // decodes 36 luma columns): decode at its plane sizes, then keep the image's own.
            let samp = info.subsampling.map(Self.turboSubsampling) ?? Int32(TJSAMP_GRAY.rawValue)
            let lumaPlane = (width: Int(tjPlaneWidth(0, Int32(w), samp)), height: Int(tjPlaneHeight(0, Int32(h), samp)))
            let chromaPlane = info.subsampling == nil ? (width: 0, height: 0)
                : (width: Int(tjPlaneWidth(1, Int32(w), samp)), height: Int(tjPlaneHeight(1, Int32(h), samp)))
            guard lumaPlane.width >= w, lumaPlane.height >= h, info.subsampling == nil
                    || (chromaPlane.width >= chroma.width && chromaPlane.height >= chroma.height) else {
                throw PointPaintError(.malformed, file: file, place: .part("header"),
                                      "expected planes of at least \(w)x\(h), but the decoder lays out \(lumaPlane.width)x\(lumaPlane.height)")
            }
            var luma = [UInt8](repeating: 0, count: lumaPlane.width * lumaPlane.height)
            var cb = [UInt8](repeating: 128, count: max(chromaPlane.width * chromaPlane.height, chroma.width * chroma.height))
            var cr = cb
            let flags = TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
            let status = luma.withUnsafeMutableBufferPointer { y in
                cb.withUnsafeMutableBufferPointer { u in
                    cr.withUnsafeMutableBufferPointer { v in
                        bytes.withUnsafeBufferPointer { source -> Int32 in
                            var planes: [UnsafeMutablePointer<UInt8>?] = info.subsampling == nil
                                ? [y.baseAddress, nil, nil] : [y.baseAddress, u.baseAddress, v.baseAddress]
                            var strides = [Int32(lumaPlane.width), Int32(chromaPlane.width), Int32(chromaPlane.width)]
                            return tjDecompressToYUVPlanes(raw, source.baseAddress, UInt(source.count), &planes,
                                                           Int32(w), &strides, Int32(h), Int32(flags))
                        }
                    }
                }
            }
            guard status == 0 else {
                throw PointPaintError(.malformed, file: file, "expected complete JPEG data, but libjpeg-turbo stopped: \(errorText.lowercasedFirst)")
            }
            if info.subsampling == nil {
                cb.removeLast(cb.count - chroma.width * chroma.height)
                cr.removeLast(cr.count - chroma.width * chroma.height)
            } else {
                cb = Self.cropped(cb, stride: chromaPlane.width, to: chroma)
                cr = Self.cropped(cr, stride: chromaPlane.width, to: chroma)
            }
            return YCbCrPlanes(width: w, height: h, subsampling: layout,
                               luma: Self.cropped(luma, stride: lumaPlane.width, to: (w, h)), cb: cb, cr: cr)
        }

        /// The image of `bytes`: luma decoded in place and chroma interleaved from scratch planes
        /// when the decoder lays out planes of the image's own size; through `planes` otherwise
        /// (greyscale, or padded planes to crop).
        func image(_ bytes: [UInt8], info: JPEGInfo, file: String?) throws -> YCbCrImage {
            let w = info.width, h = info.height
            guard let layout = info.subsampling else { return YCbCrImage(try planes(bytes, info: info, file: file)) }
            let chroma = layout.chromaSize(width: w, height: h)
            let samp = Self.turboSubsampling(layout)
            guard Int(tjPlaneWidth(0, Int32(w), samp)) == w, Int(tjPlaneHeight(0, Int32(h), samp)) == h,
                  Int(tjPlaneWidth(1, Int32(w), samp)) == chroma.width, Int(tjPlaneHeight(1, Int32(h), samp)) == chroma.height else {
                return YCbCrImage(try planes(bytes, info: info, file: file))
            }
            let chromaCount = chroma.width * chroma.height
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * chromaCount)
            defer { scratch.deallocate() }
            let flags = TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
            // A successful decode writes every sample of the three planes.
            let luma = try MappedBytes(count: w * h) { y in
                let status = bytes.withUnsafeBufferPointer { source -> Int32 in
                    var planes: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, scratch, scratch + chromaCount]
                    var strides = [Int32(w), Int32(chroma.width), Int32(chroma.width)]
                    return tjDecompressToYUVPlanes(raw, source.baseAddress, UInt(source.count), &planes,
                                                   Int32(w), &strides, Int32(h), Int32(flags))
                }
                guard status == 0 else {
                    throw PointPaintError(.malformed, file: file, "expected complete JPEG data, but libjpeg-turbo stopped: \(errorText.lowercasedFirst)")
                }
            }
            let pairs = MappedBytes(count: 2 * chromaCount) { out in
                YCbCrImage.interleave(cb: scratch, cr: scratch + chromaCount, count: chromaCount, into: out.baseAddress!)
            }
            return YCbCrImage(width: w, height: h, subsampling: layout, luma: luma, chroma: pairs)
        }

        /// The top-left `size` of a plane laid out with `stride`; the plane itself when nothing is cut.
        static func cropped(_ plane: [UInt8], stride: Int, to size: (width: Int, height: Int)) -> [UInt8] {
            guard stride != size.width || plane.count != size.width * size.height else { return plane }
            var out = [UInt8]()
            out.reserveCapacity(size.width * size.height)
            for row in 0 ..< size.height { out += plane[row * stride ..< row * stride + size.width] }
            return out
        }

        static func turboSubsampling(_ layout: ChromaSubsampling) -> Int32 {
            switch layout {
            case .yuv420: Int32(TJSAMP_420.rawValue)
            case .yuv422: Int32(TJSAMP_422.rawValue)
            case .yuv440: Int32(TJSAMP_440.rawValue)
            case .yuv444: Int32(TJSAMP_444.rawValue)
            }
        }

        static func subsamplingName(_ value: Int32) -> String {
            value == Int32(TJSAMP_411.rawValue) ? "4:1:1" : "an unknown subsampling (\(value))"
        }

        static func colourspaceName(_ value: Int32) -> String {
            switch Int(value) {
            case Int(TJCS_RGB.rawValue): "RGB (no Y′CbCr transform)"
            case Int(TJCS_CMYK.rawValue): "CMYK"
            case Int(TJCS_YCCK.rawValue): "YCCK"
            default: "an unknown colour space (\(value))"
            }
        }
    }
}
