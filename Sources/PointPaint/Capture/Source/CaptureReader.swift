import Foundation

/// Reads a capture directory (`capture.json` plus frame, depth and point files).
///
/// The manifest is parsed and validated completely when the reader is made, and by default every
/// file it names is checked (existence, NV12 and raw depth sizes, PNG headers, JPEG file sizes)
/// before any frame is used. Frames load lazily, one at a time: raw NV12 files are
/// memory-mapped, PNG planes and depth maps decoded with libpng, JPEG files decoded straight to
/// their Y′CbCr planes with libjpeg-turbo. A reader is immutable and `Sendable`; several threads
/// may load frames at once.
/// Files that symbolic links place outside the capture directory are refused, and each file is
/// opened by the resolved path that was checked.
public final class CaptureReader: Sendable {
    /// The capture directory.
    public let directory: String
    /// The validated manifest.
    public let manifest: CaptureManifest
    /// The directory with every symbolic link resolved, to keep file reads inside it.
    private let realDirectory: String

    /// The largest point file read, so a corrupt file cannot exhaust memory.
    public static let maximumPointFileBytes = 256 << 20
    /// The largest manifest read: 64 MiB is room for hundreds of thousands of frames.
    public static let maximumManifestBytes = 64 << 20

    /// Opens the capture at `path` (a directory, or its `capture.json`).
    /// - Parameter checkFiles: check every named file's presence and size up front.
    public init(path: String, checkFiles: Bool = true) throws {
        var directory = path
        if path.hasSuffix(".json") {
            directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        }
        let manifestPath = (directory as NSString).appendingPathComponent("capture.json")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PointPaintError(.missing, file: path, "expected a capture directory holding capture.json, found no such directory")
        }
        let bytes = try FileBytes.read(manifestPath, expected: "the capture's JSON manifest", limit: Self.maximumManifestBytes)
        self.directory = directory
        self.realDirectory = Self.realPath(directory) ?? directory
        self.manifest = try CaptureManifest(json: Data(bytes), file: manifestPath)
        if checkFiles { try checkAllFiles() }
    }

    /// Number of frames.
    public var frameCount: Int { manifest.frames.count }

    /// The image description shared by all frames.
    public var imageInfo: CaptureImageInfo { manifest.image }

    /// Absolute (or caller-relative) path of a manifest-relative path.
    public func resolve(_ relative: String) -> String {
        (directory as NSString).appendingPathComponent(relative)
    }

    /// A file of a frame: the path errors name, and the path to open.
    private struct FrameFile {
        /// The path inside the capture, as errors name it.
        var name: String
        /// The same file with every link resolved (checked to lie inside the capture), or `name`
        /// when it does not exist.
        var real: String
        /// The frame it belongs to.
        var frame: Int
    }

    /// `relative` resolved against the capture directory, refusing a file that symbolic links
    /// place outside it. A file that does not exist is left for the caller to report.
    private func file(_ relative: String, frame: Int) throws -> FrameFile {
        let full = resolve(relative)
        guard let target = Self.realPath(full) else { return FrameFile(name: full, real: full, frame: frame) }
        let prefix = realDirectory.hasSuffix("/") ? realDirectory : realDirectory + "/"
        guard target.hasPrefix(prefix) else {
            throw PointPaintError(.malformed, file: full, place: .frame(frame), "expected a file inside the capture directory, found a link to \(target)")
        }
        return FrameFile(name: full, real: target, frame: frame)
    }

    /// The path with every symbolic link, `.` and `..` resolved, or nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The manifest entry of frame `index`, or an error naming the valid range.
    private func entry(_ index: Int) throws -> CaptureFrameEntry {
        guard manifest.frames.indices.contains(index) else {
            let range = manifest.frames.isEmpty ? "the capture holds no frames" : "expected 0 to \(manifest.frames.count - 1)"
            throw PointPaintError(.outOfRange, file: resolve("capture.json"), place: .frame(index), "no such frame: \(range)")
        }
        return manifest.frames[index]
    }

    /// Checks that each frame's files exist and have the sizes the manifest implies, and that
    /// the cloud file, when the manifest names one, is a file inside the capture.
    public func checkAllFiles() throws {
        for index in manifest.frames.indices { try checkFiles(ofFrame: index) }
        if manifest.cloud != nil { _ = try cloudPath() }
    }

    /// The manifest's cloud file, checked to be a regular file inside the capture; nil when the
    /// manifest names none.
    public func cloudPath() throws -> String? {
        guard let cloud = manifest.cloud else { return nil }
        let full = resolve(cloud)
        let prefix = realDirectory.hasSuffix("/") ? realDirectory : realDirectory + "/"
        if let target = Self.realPath(full), !target.hasPrefix(prefix) {
            throw PointPaintError(.malformed, file: full, place: .jsonPath("cloud"), "expected a file inside the capture directory, found a link to \(target)")
        }
        _ = try FileBytes.regularSize(full, place: .jsonPath("cloud"), expected: "the capture's point cloud")
        return full
    }

    /// Checks one frame's files without decoding them.
    /// - Throws: `PointPaintError` naming the valid range when `index` is not a frame of the
    ///   capture, and for any damaged or missing file.
    public func checkFiles(ofFrame index: Int) throws {
        let entry = try entry(index)
        switch entry.image {
        case .nv12(let path, let lumaStride, let chromaStride):
            let image = try file(path, frame: index)
            let size = try FileBytes.regularSize(image.real, name: image.name, place: .frame(index), expected: "the frame image")
            try checkNV12Size(size, image, lumaStride: lumaStride, chromaStride: chromaStride)
        case .planes(let y, let cb, let cr):
            for (plane, size) in zip([y, cb, cr], planeSizes) {
                let plane = try file(plane, frame: index)
                try checkPlane(try pngFile(plane) { try PNGImage.readInfo(path: plane.real) }, plane, size)
            }
        case .jpeg(let path):
            // The header is read when the frame is decoded: reading every JPEG whole here would
            // cost as much as the decode's own read.
            let image = try file(path, frame: index)
            let size = try FileBytes.regularSize(image.real, name: image.name, place: .frame(index), expected: "the JPEG frame")
            guard size <= SourceFiles.maximumJPEGBytes else {
                throw PointPaintError(.tooLarge, file: image.name, place: .frame(index),
                                      "expected a JPEG frame of at most \(SourceFiles.maximumJPEGBytes >> 20) MiB, found \(size) bytes")
            }
        }
        if let depth = entry.depth {
            let map = try file(depth.path, frame: index)
            switch depth.encoding {
            case .millimetres16:
                let size = try relabel(map) { try SourceFiles.depthPNGSize(map.real, frame: index) }
                guard size == (depth.width, depth.height) else {
                    throw PointPaintError(.malformed, file: map.name, place: .frame(index),
                                          "expected a \(depth.width)x\(depth.height) depth map, found \(size.width)x\(size.height)")
                }
            case .metres32:
                let size = try FileBytes.regularSize(map.real, name: map.name, place: .frame(index), expected: "the depth map")
                try checkRawDepthSize(size, map, depth)
            }
            if let confidence = depth.confidence {
                let levels = try file(confidence, frame: index)
                let header = try relabel(levels) { try PNGImage.readInfo(path: levels.real) }
                guard header.isPlain8BitGrey else {
                    throw PointPaintError(.unsupported, file: levels.name, place: .frame(index), "expected an 8-bit greyscale confidence PNG, found \(header.sourceDescription)")
                }
                guard header.width == depth.width, header.height == depth.height else {
                    throw PointPaintError(.malformed, file: levels.name, place: .frame(index),
                                          "expected a \(depth.width)x\(depth.height) confidence map (the depth map's size), found \(header.width)x\(header.height)")
                }
            }
        }
        if let points = entry.points {
            let points = try file(points, frame: index)
            _ = try FileBytes.regularSize(points.real, name: points.name, place: .frame(index), expected: "the feature-point file")
        }
    }

    /// Throws unless a raw float depth file of `size` bytes holds exactly the map's floats.
    private func checkRawDepthSize(_ size: Int, _ map: FrameFile, _ depth: FrameDepthSource) throws {
        let needed = 4 * depth.width * depth.height
        guard size == needed else {
            throw PointPaintError(.malformed, file: map.name, place: .frame(map.frame),
                                  "expected \(needed) bytes for a \(depth.width)x\(depth.height) map of 32-bit floats, found \(size)")
        }
    }

    /// What `read` gives, its errors naming the file by its path inside the capture (rather
    /// than the resolved path it was read from) and its frame.
    private func relabel<R>(_ file: FrameFile, _ read: () throws -> R) throws -> R {
        do {
            return try read()
        } catch var error as PointPaintError {
            if error.file == file.real { error.file = file.name }
            error.place = .frame(file.frame)
            throw error
        }
    }

    /// Throws when an NV12 file of `size` bytes is too short for the image and its strides.
    private func checkNV12Size(_ size: Int, _ image: FrameFile, lumaStride: Int, chromaStride: Int) throws {
        let info = manifest.image
        let needed = YCbCrImage.fileSize(height: info.height, lumaStride: lumaStride, chromaStride: chromaStride)
        guard size >= needed else {
            throw PointPaintError(.malformed, file: image.name, place: .frame(image.frame),
                                  "expected \(needed) bytes for a \(info.width)x\(info.height) NV12 image with strides \(lumaStride)/\(chromaStride), found \(size)")
        }
    }

    /// The sizes of the Y, Cb and Cr planes.
    private var planeSizes: [(width: Int, height: Int)] {
        let info = manifest.image
        return [(info.width, info.height), (info.width / 2, info.height / 2), (info.width / 2, info.height / 2)]
    }

    /// What `read` gives, its errors naming the plane by its path inside the capture and its frame.
    private func pngFile<R>(_ plane: FrameFile, _ read: () throws -> R) throws -> R {
        do {
            return try read()
        } catch var error as PointPaintError {
            error.file = plane.name
            error.place = .frame(plane.frame)
            throw error
        }
    }

    /// A plane must be exactly its size and stored as plain 8-bit greyscale: sub-byte grey,
    /// 16-bit, palette, alpha or transparency would be widened or dropped by decoding and give
    /// different codes from what the recorder wrote.
    private func checkPlane(_ header: PNGHeader, _ plane: FrameFile, _ size: (width: Int, height: Int)) throws {
        guard header.width == size.width, header.height == size.height else {
            throw PointPaintError(.malformed, file: plane.name, place: .frame(plane.frame),
                                  "expected a \(size.width)x\(size.height) plane, found \(header.width)x\(header.height)")
        }
        guard header.isPlain8BitGrey else {
            throw PointPaintError(.unsupported, file: plane.name, place: .frame(plane.frame),
                                  "expected an 8-bit greyscale PNG, found \(header.sourceDescription) (\(header.channels) channel\(header.channels == 1 ? "" : "s") when decoded)")
        }
    }

    /// Loads frame `index` whole: image, camera, feature points (nil when the frame records
    /// none) and depth map (nil when it has none).
    /// - Throws: `PointPaintError` naming the valid range when `index` is not a frame of the
    ///   capture, and for any damaged or missing file.
    public func frame(at index: Int) throws -> CaptureFrame {
        let entry = try entry(index)
        return CaptureFrame(index: index, timestamp: entry.timestamp, image: try image(at: index),
                            camera: entry.camera, points: try points(at: index), depth: try depth(at: index))
    }

    /// The time and camera of frame `index`, without loading its files.
    /// - Throws: `PointPaintError` naming the valid range when `index` is not a frame of the
    ///   capture.
    public func frameInfo(at index: Int) throws -> CaptureFrameInfo {
        let entry = try entry(index)
        return CaptureFrameInfo(timestamp: entry.timestamp, camera: entry.camera)
    }

    /// Loads only the image of frame `index`.
    /// - Throws: `PointPaintError` naming the valid range when `index` is not a frame of the
    ///   capture, and for any damaged or missing file.
    public func image(at index: Int) throws -> YCbCrImage {
        let info = manifest.image
        switch try entry(index).image {
        case .nv12(let path, let lumaStride, let chromaStride):
            let image = try file(path, frame: index)
            // Checked again on the very file mapped: it may have changed since the reader was
            // made, and a short mapping would fault on access.
            let bytes = try MappedBytes(mapping: image.real, file: image.name, place: .frame(index), expected: "the frame image")
            try checkNV12Size(bytes.count, image, lumaStride: lumaStride, chromaStride: chromaStride)
            return YCbCrImage(width: info.width, height: info.height, luma: bytes, lumaOffset: 0, lumaStride: lumaStride,
                             chroma: bytes, chromaOffset: lumaStride * info.height, chromaStride: chromaStride)
        case .planes(let y, let cb, let cr):
            let sizes = planeSizes
            let luma = try readPlane(try file(y, frame: index), sizes[0])
            let cbPlane = try readPlane(try file(cb, frame: index), sizes[1])
            let crPlane = try readPlane(try file(cr, frame: index), sizes[2])
            let chroma = MappedBytes(count: info.width * info.height / 2) { out in
                precondition(out.count == 2 * cbPlane.count && cbPlane.count == crPlane.count, "chroma planes of the checked size")
                for i in 0 ..< cbPlane.count {
                    out[2 * i] = cbPlane[i]
                    out[2 * i + 1] = crPlane[i]
                }
            }
            return YCbCrImage(width: info.width, height: info.height, luma: MappedBytes(copying: luma), chroma: chroma)
        case .jpeg(let path):
            let image = try file(path, frame: index)
            let bytes = try FileBytes.read(image.real, name: image.name, place: .frame(index), expected: "the JPEG frame", limit: SourceFiles.maximumJPEGBytes)
            return try SourceFiles.jpegImage(bytes, file: image.name, frame: index, info: info)
        }
    }

    /// The JPEG file of frame `index` as recorded, or nil when the frame is stored otherwise.
    /// - Throws: `PointPaintError` naming the valid range when `index` is not a frame of the
    ///   capture, and for a missing file.
    public func jpegData(at index: Int) throws -> [UInt8]? {
        guard case .jpeg(let path) = try entry(index).image else { return nil }
        let image = try file(path, frame: index)
        return try FileBytes.read(image.real, name: image.name, place: .frame(index), expected: "the JPEG frame", limit: SourceFiles.maximumJPEGBytes)
    }

    /// Loads only the depth map of frame `index` (metres, with its confidence levels 0, 1, 2
    /// when the frame has a confidence map), or nil when the frame has none.
    /// - Throws: `PointPaintError` naming the valid range when `index` is not a frame of the
    ///   capture, and for any damaged, missing or wrongly sized file.
    public func depth(at index: Int) throws -> DepthMap? {
        guard let depth = try entry(index).depth else { return nil }
        let size = (width: depth.width, height: depth.height)
        let map = try file(depth.path, frame: index)
        let levels = try depth.confidence.map { path in
            let levels = try file(path, frame: index)
            return try relabel(levels) { try SourceFiles.confidenceMap(SourceFiles.Confidence(path: levels.real, codes: [0, 1, 2]), size: size, frame: index) }
        }
        switch depth.encoding {
        case .millimetres16:
            let values = try relabel(map) { try SourceFiles.depthPNG(map.real, metresPerUnit: 0.001, confidence: nil, size: size, frame: index) }
            return DepthMap(width: size.width, height: size.height, depth: values.depth, confidence: levels)
        case .metres32:
            // The size first, so a file longer than the map is refused before it is read.
            try checkRawDepthSize(try FileBytes.regularSize(map.real, name: map.name, place: .frame(index), expected: "the depth map"), map, depth)
            let bytes = try FileBytes.read(map.real, name: map.name, place: .frame(index), expected: "the depth map", limit: 4 * size.width * size.height)
            try checkRawDepthSize(bytes.count, map, depth)
            let count = size.width * size.height
            let values = [Float](unsafeUninitializedCapacity: count) { out, initialized in
                bytes.withUnsafeBytes { raw in
                    for i in 0 ..< count {
                        out[i] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
                    }
                }
                initialized = count
            }
            return DepthMap(width: size.width, height: size.height, depth: values, confidence: levels)
        }
    }

    /// Decodes a plane, checking the header of the very bytes decoded (read once): the file
    /// may have changed since the reader was made.
    private func readPlane(_ plane: FrameFile, _ size: (width: Int, height: Int)) throws -> [UInt8] {
        do {
            let decoded = try pngFile(plane) { try PNGImage.read(path: plane.real, maximumPixels: size.width * size.height) }
            try checkPlane(decoded.header, plane, size)
            return decoded.image.samples8
        } catch let error as PointPaintError where error.kind == .tooLarge {
            // More pixels than the plane has: say which size the file claims.
            try checkPlane(try pngFile(plane) { try PNGImage.readInfo(path: plane.real) }, plane, size)
            throw error
        }
    }

    /// Loads only the feature points of frame `index` (`.xyz`, or `.ply` with vertex x, y, z),
    /// or nil when the frame records none.
    /// - Throws: `PointPaintError` naming the valid range when `index` is not a frame of the
    ///   capture, and for any damaged or missing file.
    public func points(at index: Int) throws -> [FeaturePoint]? {
        guard let relative = try entry(index).points else { return nil }
        let points = try file(relative, frame: index)
        let bytes = try FileBytes.read(points.real, name: points.name, place: .frame(index), expected: "the feature-point file",
                                       limit: Self.maximumPointFileBytes)
        if points.name.lowercased().hasSuffix(".ply") {
            return try PLYFeaturePoints.parse(bytes, file: points.name)
        }
        return try XYZFormat.parse(bytes, file: points.name)
    }
}
