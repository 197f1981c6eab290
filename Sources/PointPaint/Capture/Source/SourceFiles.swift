import Foundation

/// The files phone apps keep frames in, read the same way by every source that has them:
/// numbered file names, JPEG colour frames, and depth maps (16-bit PNGs of integer depths, or
/// float EXRs) with 8-bit confidence PNGs beside them.
///
/// Every error names the file and the frame; a file's size is checked before it is read.
enum SourceFiles {
    /// The largest JPEG frame read: a 48 MP JPEG at the highest quality is about 30 MiB.
    static let maximumJPEGBytes = 64 << 20

    /// The most pixels a recording's colour frame may have: 8192 × 6144, room for the 48 MP
    /// frames (8064 × 6048) of the largest iPhone sensor. A constant PNG or JPEG of 16384 ×
    /// 16384 is under a megabyte on disk and would decode to 1.9 GB of samples and planes.
    static let maximumFramePixels = 8192 * 6144

    /// Refuses a colour frame of more than `maximumFramePixels`, from its header, before
    /// anything is decoded.
    static func checkFramePixels(width: Int, height: Int, file: String, place: PointPaintError.Place) throws {
        guard width <= maximumFramePixels / max(height, 1) else {
            throw PointPaintError(.tooLarge, file: file, place: place,
                                  "expected a colour frame of at most \(maximumFramePixels) pixels (8192x6144), found \(width)x\(height)")
        }
    }

    /// `count` and `noun`, plural unless one: "1 frame", "12 frames".
    static func count(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// The names in `directory` (not its subfolders' contents), or an error naming it.
    static func names(in directory: String) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory)
            throw PointPaintError(exists ? .malformed : .missing, file: directory,
                                  exists && !isDirectory.boolValue ? "expected a folder, found a file"
                                      : exists ? "cannot list the folder" : "expected a folder, found nothing")
        }
    }

    /// Whether `path` is a folder.
    static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The names among `names` that are `prefix`, a decimal number and `suffix` (the suffix
    /// compared without case: `.JPG` is `.jpg`), by their number.
    /// - Throws: `.malformed` when two names carry the same number (`7.jpg` and `007.jpg`), or a
    ///   number has more than 18 digits.
    static func numbered(_ names: [String], prefix: String, suffix: String, in directory: String) throws -> [Int: String] {
        var out: [Int: String] = [:]
        for name in names where name.hasPrefix(prefix) && name.lowercased().hasSuffix(suffix) && name.count > prefix.count + suffix.count {
            let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { continue }
            guard digits.count <= 18, let number = Int(digits) else {
                throw PointPaintError(.malformed, file: (directory as NSString).appendingPathComponent(name),
                                      "expected a number of at most 18 digits in the name, found \(digits.count) digits")
            }
            if let other = out[number] {
                throw PointPaintError(.malformed, file: (directory as NSString).appendingPathComponent(name),
                                      "expected one file numbered \(number), found this one and \(PointPaintError.quote(other))")
            }
            out[number] = name
        }
        return out
    }

    // MARK: - JPEG frames

    /// The image description of a recording's JPEG frames, from the header of one of them: its
    /// size and primaries, with JFIF's encoding (BT.601, full range, centred chroma).
    static func jpegImageInfo(_ path: String, frame: Int) throws -> CaptureImageInfo {
        try jpegImageInfo(bytes: read(path, limit: maximumJPEGBytes, frame: frame, what: "JPEG frame"), file: path, frame: frame)
    }

    /// The image description of a recording's JPEG frames from the bytes of one of them (read
    /// from `file`, which errors name, at `frame`).
    static func jpegImageInfo(bytes: [UInt8], file path: String, frame: Int) throws -> CaptureImageInfo {
        let info: JPEGInfo
        do {
            info = try JPEGDecoder.info(of: bytes, file: path)
        } catch var error as PointPaintError {
            error.place = .frame(frame)
            throw error
        }
        try checkFramePixels(width: info.width, height: info.height, file: path, place: .frame(frame))
        return CaptureImageInfo(width: info.width, height: info.height, range: JPEGInfo.encoding.range, matrix: JPEGInfo.encoding.matrix,
                                primaries: info.primaries, chromaSiting: JPEGInfo.siting)
    }

    /// The JPEG frame at `path`, read and decoded straight to its Y′CbCr planes, with its bytes.
    /// - Throws: `.missing` when the file is absent, the decoder's error for a corrupt file, and
    ///   `.malformed` when its size or primaries are not those of `info` — each at `frame`.
    static func jpegFrame(_ path: String, frame: Int, info: CaptureImageInfo) throws -> (image: YCbCrImage, bytes: [UInt8]) {
        let bytes = try read(path, limit: maximumJPEGBytes, frame: frame, what: "JPEG frame")
        return (try jpegImage(bytes, file: path, frame: frame, info: info), bytes)
    }

    /// The JPEG frame `bytes` (read from `file`, which errors name), decoded straight to its
    /// Y′CbCr planes.
    /// - Throws: the decoder's error for a corrupt file, and `.malformed` when its size or
    ///   primaries are not those of `info` — each at `frame`.
    static func jpegImage(_ bytes: [UInt8], file path: String, frame: Int, info: CaptureImageInfo) throws -> YCbCrImage {
        let decoded: (image: YCbCrImage, info: JPEGInfo)
        do {
            decoded = try JPEGDecoder.decodeImage(bytes, file: path)
        } catch var error as PointPaintError {
            error.place = .frame(frame)
            throw error
        }
        guard decoded.info.width == info.width, decoded.info.height == info.height else {
            throw PointPaintError(.malformed, file: path, place: .frame(frame),
                                  "expected a \(info.width)x\(info.height) image (the capture's size), found \(decoded.info.width)x\(decoded.info.height)")
        }
        guard decoded.info.primaries == info.primaries else {
            throw PointPaintError(.malformed, file: path, place: .frame(frame),
                                  "expected \(info.primaries.rawValue) primaries like the capture's other frames, found \(decoded.info.primaries.rawValue)")
        }
        return decoded.image
    }

    /// The whole file, refusing one larger than `limit`; `.missing` (at `frame`) when absent.
    static func read(_ path: String, limit: Int, frame: Int, what: String) throws -> [UInt8] {
        guard let size = FileBytes.size(of: path) else {
            throw PointPaintError(.missing, file: path, place: .frame(frame), "expected the \(what), found no such file")
        }
        guard size <= limit else {
            throw PointPaintError(.tooLarge, file: path, place: .frame(frame), "expected a \(what) of at most \(limit >> 20) MiB, found \(size) bytes")
        }
        return try FileBytes.read(path, limit: limit)
    }

    // MARK: - Depth maps

    /// The size of the 16-bit greyscale depth PNG at `path`, from its header.
    static func depthPNGSize(_ path: String, frame: Int) throws -> (width: Int, height: Int) {
        let header = try pngHeader(path, frame: frame, what: "depth map")
        try checkDepthFormat(header, path, frame: frame)
        return (header.width, header.height)
    }

    /// Checks that a depth map of `depth` pixels can be registered to an image of `image`
    /// pixels: the same field of view, so the same aspect ratio, within 1 % or within what
    /// rounding each side of a scaled-down grid to whole pixels can make (dw = w·s + e₁,
    /// dh = h·s + e₂ with |e| ≤ 1, so |dw·h − dh·w| ≤ w + h): a 64×48 image's 26×19 map is
    /// registered, its portrait 19×26 is not.
    static func checkRegistered(depth: (width: Int, height: Int), image: (width: Int, height: Int), file: String, frame: Int) throws {
        // A depth sensor sees no finer than its camera: a map of more pixels than the image is a
        // damaged or hostile file (a constant 8192×6144 PNG compresses to kilobytes but decodes
        // to hundreds of megabytes of depth and points).
        guard depth.width <= image.width, depth.height <= image.height else {
            throw PointPaintError(.outOfRange, file: file, place: .frame(frame),
                                  "expected a depth map no larger than the \(image.width)x\(image.height) image it belongs to, found \(depth.width)x\(depth.height)")
        }
        let depthAspect = Double(depth.width) / Double(depth.height), imageAspect = Double(image.width) / Double(image.height)
        let rounding = abs(depth.width * image.height - depth.height * image.width) <= image.width + image.height
        guard rounding || abs(depthAspect / imageAspect - 1) <= 0.01 else {
            throw PointPaintError(.malformed, file: file, place: .frame(frame),
                                  "expected a depth map with the aspect ratio of the \(image.width)x\(image.height) image, found \(depth.width)x\(depth.height)")
        }
    }

    /// Where a frame's confidence map is and what its codes mean: `codes[level]` is the code of
    /// ARKit's level 0, 1, 2 (`[0, 1, 2]` for ARKit's own values, `[0, 127, 255]` for Polycam's).
    struct Confidence {
        /// The 8-bit greyscale PNG.
        var path: String
        /// The code of low, medium and high.
        var codes: [UInt8]
    }

    /// The depth map of a 16-bit greyscale PNG of integer depths, each `metresPerUnit` metres
    /// (0.001: millimetres), with its confidence map when one is given.
    /// - Throws: `.missing` for an absent file; `.unsupported` for a PNG of another kind;
    ///   `.malformed` for a map whose size is not `size`, or a confidence code outside `codes`.
    static func depthPNG(_ path: String, metresPerUnit: Double, confidence: Confidence?, size: (width: Int, height: Int), frame: Int) throws -> DepthMap {
        let header = try pngHeader(path, frame: frame, what: "depth map")
        try checkDepthFormat(header, path, frame: frame)
        try checkSize(header, path, size: size, what: "depth map", frame: frame)
        // Metres first, in a scope of their own, so the decoded PNG is freed before the
        // confidence map is decoded: the peak is the PNG and the metres, not all three.
        let metres: [Float] = try {
            let image = try decodePNG(path, pixels: size.width * size.height, frame: frame)
            try checkDepthFormat(image.header, path, frame: frame)
            try checkSize(image.header, path, size: size, what: "depth map", frame: frame)
            // The literal 0.001 as `DepthMap(millimetres:)` has it, bit for bit.
            if metresPerUnit == 0.001 { return image.image.samples16.map { Float($0) * 0.001 } }
            let scale = Float(metresPerUnit)
            return image.image.samples16.map { Float($0) * scale }
        }()
        let levels = try confidence.map { try confidenceMap($0, size: size, frame: frame) }
        return DepthMap(width: size.width, height: size.height, depth: metres, confidence: levels)
    }

    /// The size of the float OpenEXR depth map at `path` (read whole: OpenEXR's header alone
    /// is not reachable through `EXRImage`).
    static func depthEXRSize(_ path: String, frame: Int) throws -> (width: Int, height: Int) {
        let exr = try readEXR(path, frame: frame)
        return (exr.width, exr.height)
    }

    /// The depth map of a float OpenEXR file in metres, with its confidence map when one is given.
    static func depthEXR(_ path: String, confidence: Confidence?, size: (width: Int, height: Int), frame: Int) throws -> DepthMap {
        let exr = try readEXR(path, frame: frame)
        guard exr.width == size.width, exr.height == size.height else {
            throw PointPaintError(.malformed, file: path, place: .frame(frame), "expected a \(size.width)x\(size.height) depth map, found \(exr.width)x\(exr.height)")
        }
        let levels = try confidence.map { try confidenceMap($0, size: size, frame: frame) }
        return DepthMap(width: size.width, height: size.height, depth: exr.values, confidence: levels)
    }

    /// Confidence levels 0, 1, 2 from an 8-bit greyscale PNG of `codes`.
    static func confidenceMap(_ confidence: Confidence, size: (width: Int, height: Int), frame: Int) throws -> [UInt8] {
        let path = confidence.path
        let header = try pngHeader(path, frame: frame, what: "confidence map")
        guard header.isPlain8BitGrey else {
            throw PointPaintError(.unsupported, file: path, place: .frame(frame), "expected an 8-bit greyscale confidence PNG, found \(header.sourceDescription)")
        }
        try checkSize(header, path, size: size, what: "confidence map (the depth map's size)", frame: frame)
        // The codes become levels in place, once the decoded image around them is gone.
        var out: [UInt8] = try {
            let image = try decodePNG(path, pixels: size.width * size.height, frame: frame)
            try checkSize(image.header, path, size: size, what: "confidence map (the depth map's size)", frame: frame)
            return image.image.samples8
        }()
        var level = [UInt8](repeating: 0xFF, count: 256)
        for (value, code) in confidence.codes.enumerated() { level[Int(code)] = UInt8(value) }
        for i in out.indices {
            let code = out[i], value = level[Int(code)]
            guard value != 0xFF else {
                let codes = confidence.codes.map(String.init).joined(separator: ", ")
                throw PointPaintError(.malformed, file: path, place: .frame(frame),
                                      "expected confidence codes \(codes) (low, medium, high), found \(code) at pixel (\(i % size.width), \(i / size.width))")
            }
            out[i] = value
        }
        return out
    }

    private static func readEXR(_ path: String, frame: Int) throws -> EXRImage {
        guard FileBytes.size(of: path) != nil else {
            throw PointPaintError(.missing, file: path, place: .frame(frame), "expected the depth map, found no such file")
        }
        do {
            return try EXRImage(contentsOf: path)
        } catch var error as PointPaintError {
            error.place = .frame(frame)
            throw error
        }
    }

    /// The header of the PNG at `path` (the `what` of frame `frame`), errors placed at the frame.
    static func pngHeader(_ path: String, frame: Int, what: String) throws -> PNGHeader {
        guard FileBytes.size(of: path) != nil else {
            throw PointPaintError(.missing, file: path, place: .frame(frame), "expected the \(what), found no such file")
        }
        do {
            return try PNGImage.readInfo(path: path)
        } catch var error as PointPaintError {
            error.place = .frame(frame)
            throw error
        }
    }

    private static func decodePNG(_ path: String, pixels: Int, frame: Int) throws -> (image: PNGImage, header: PNGHeader) {
        do {
            return try PNGImage.read(path: path, maximumPixels: pixels)
        } catch var error as PointPaintError {
            error.place = .frame(frame)
            throw error
        }
    }

    private static func checkDepthFormat(_ header: PNGHeader, _ path: String, frame: Int) throws {
        guard header.sourceColorType == .grey, header.sourceBitDepth == 16, !header.sourceHasTransparency else {
            throw PointPaintError(.unsupported, file: path, place: .frame(frame), "expected a 16-bit greyscale PNG of depths, found \(header.sourceDescription)")
        }
    }

    private static func checkSize(_ header: PNGHeader, _ path: String, size: (width: Int, height: Int), what: String, frame: Int) throws {
        guard header.width == size.width, header.height == size.height else {
            throw PointPaintError(.malformed, file: path, place: .frame(frame), "expected a \(size.width)x\(size.height) \(what), found \(header.width)x\(header.height)")
        }
    }
}
