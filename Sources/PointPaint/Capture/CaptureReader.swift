import Foundation

/// Reads a capture directory (`capture.json` plus frame and point files).
///
/// The manifest is parsed and validated completely when the reader is made, and by default every
/// file it names is checked (existence, NV12 sizes, PNG plane headers) before any frame is used.
/// Frames load lazily, one at a time: raw NV12 files are memory-mapped, PNG planes decoded with
/// libpng. A reader is immutable and `Sendable`; several threads may load frames at once.
/// Files that symbolic links place outside the capture directory are refused.
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
        var status = stat()
        guard stat(manifestPath, &status) == 0 else {
            if errno == ENOENT {
                throw PointPaintError(.missing, file: manifestPath, "missing: a capture directory must hold capture.json")
            }
            throw PointPaintError.system("cannot read", file: manifestPath)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw PointPaintError(.missing, file: manifestPath,
                                  "not a regular file: expected the capture's JSON manifest, found \(FileBytes.typeName(status.st_mode))")
        }
        guard Int(status.st_size) <= Self.maximumManifestBytes else {
            throw PointPaintError(.tooLarge, file: manifestPath,
                                  "expected a manifest of at most \(Self.maximumManifestBytes >> 20) MiB, found \(status.st_size) bytes")
        }
        let bytes = try FileBytes.read(manifestPath, limit: Self.maximumManifestBytes)
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

    /// `relative` resolved against the capture directory, refusing a file that symbolic links
    /// place outside it. A file that does not exist is left for the caller to report.
    private func resolveInside(_ relative: String, frame: Int) throws -> String {
        let full = resolve(relative)
        guard let target = Self.realPath(full) else { return full }
        let prefix = realDirectory.hasSuffix("/") ? realDirectory : realDirectory + "/"
        guard target.hasPrefix(prefix) else {
            throw PointPaintError(.malformed, file: full, place: .frame(frame), "expected a file inside the capture directory, found a link to \(target)")
        }
        return full
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

    /// Checks that each frame's files exist and have the sizes the manifest implies.
    public func checkAllFiles() throws {
        for index in manifest.frames.indices { try checkFiles(ofFrame: index) }
    }

    /// Checks one frame's files without decoding them.
    /// - Throws: `PointPaintError` naming the valid range when `index` is not a frame of the
    ///   capture, and for any damaged or missing file.
    public func checkFiles(ofFrame index: Int) throws {
        let entry = try entry(index)
        let info = manifest.image
        switch entry.image {
        case .nv12(let path, let lumaStride, let chromaStride):
            let needed = NV12Image.fileSize(height: info.height, lumaStride: lumaStride, chromaStride: chromaStride)
            let full = try resolveInside(path, frame: index)
            let size = try FileBytes.regularSize(full, place: .frame(index), expected: "the frame image")
            guard size >= needed else {
                throw PointPaintError(.malformed, file: full, place: .frame(index),
                                      "expected \(needed) bytes for a \(info.width)x\(info.height) NV12 image with strides \(lumaStride)/\(chromaStride), found \(size)")
            }
        case .planes(let y, let cb, let cr):
            for (plane, w, h) in [(y, info.width, info.height), (cb, info.width / 2, info.height / 2), (cr, info.width / 2, info.height / 2)] {
                try checkPlaneHeader(try resolveInside(plane, frame: index), width: w, height: h, frame: index)
            }
        }
        let points = try resolveInside(entry.points, frame: index)
        _ = try FileBytes.regularSize(points, place: .frame(index), expected: "the feature-point file")
    }

    private func checkPlaneHeader(_ path: String, width: Int, height: Int, frame: Int) throws {
        _ = try FileBytes.regularSize(path, place: .frame(frame), expected: "a PNG plane")
        let header: PNGHeader
        do {
            header = try PNGImage.readInfo(path: path)
        } catch var error as PointPaintError {
            error.place = .frame(frame)
            throw error
        }
        try checkPlane(header, path, width: width, height: height, frame: frame)
    }

    /// A plane must be exactly `width`×`height` and stored as plain 8-bit greyscale: sub-byte
    /// grey, 16-bit, palette, alpha or transparency would be widened or dropped by decoding and
    /// give different codes from what the recorder wrote.
    private func checkPlane(_ header: PNGHeader, _ path: String, width: Int, height: Int, frame: Int) throws {
        guard header.width == width, header.height == height else {
            throw PointPaintError(.malformed, file: path, place: .frame(frame), "expected a \(width)x\(height) plane, found \(header.width)x\(header.height)")
        }
        guard header.isPlain8BitGrey else {
            throw PointPaintError(.unsupported, file: path, place: .frame(frame),
                                  "expected an 8-bit greyscale PNG, found \(header.sourceDescription) (\(header.channels) channel\(header.channels == 1 ? "" : "s") when decoded)")
        }
    }

    /// Loads frame `index`: image, camera and points.
    /// - Throws: `PointPaintError` naming the valid range when `index` is not a frame of the
    ///   capture, and for any damaged or missing file.
    public func frame(at index: Int) throws -> Frame {
        let entry = try entry(index)
        return Frame(index: index, timestamp: entry.timestamp, image: try image(at: index),
                     camera: entry.camera, points: try points(at: index))
    }

    /// Loads only the image of frame `index`.
    /// - Throws: `PointPaintError` naming the valid range when `index` is not a frame of the
    ///   capture, and for any damaged or missing file.
    public func image(at index: Int) throws -> NV12Image {
        let info = manifest.image
        switch try entry(index).image {
        case .nv12(let path, let lumaStride, let chromaStride):
            let full = try resolveInside(path, frame: index)
            let needed = NV12Image.fileSize(height: info.height, lumaStride: lumaStride, chromaStride: chromaStride)
            // Checked again on the very file mapped: it may have changed since the reader was
            // made, and a short mapping would fault on access.
            let bytes = try MappedBytes(mapping: full, place: .frame(index), expected: "the frame image")
            guard bytes.count >= needed else {
                throw PointPaintError(.malformed, file: full, place: .frame(index),
                                      "expected \(needed) bytes for a \(info.width)x\(info.height) NV12 image with strides \(lumaStride)/\(chromaStride), found \(bytes.count)")
            }
            return NV12Image(width: info.width, height: info.height, luma: bytes, lumaOffset: 0, lumaStride: lumaStride,
                             chroma: bytes, chromaOffset: lumaStride * info.height, chromaStride: chromaStride)
        case .planes(let y, let cb, let cr):
            let w = info.width, h = info.height
            let luma = try readPlane(try resolveInside(y, frame: index), width: w, height: h, frame: index)
            let cbPlane = try readPlane(try resolveInside(cb, frame: index), width: w / 2, height: h / 2, frame: index)
            let crPlane = try readPlane(try resolveInside(cr, frame: index), width: w / 2, height: h / 2, frame: index)
            let chroma = MappedBytes(count: w * h / 2) { out in
                precondition(out.count == 2 * cbPlane.count && cbPlane.count == crPlane.count, "chroma planes of the checked size")
                for i in 0 ..< cbPlane.count {
                    out[2 * i] = cbPlane[i]
                    out[2 * i + 1] = crPlane[i]
                }
            }
            return NV12Image(width: w, height: h, luma: MappedBytes(copying: luma), chroma: chroma)
        }
    }

    private func readPlane(_ path: String, width: Int, height: Int, frame: Int) throws -> [UInt8] {
        try checkPlaneHeader(path, width: width, height: height, frame: frame)
        let decoded: (image: PNGImage, header: PNGHeader)
        do {
            decoded = try PNGImage.read(path: path, maximumPixels: width * height)
        } catch var error as PointPaintError {
            error.place = .frame(frame)
            throw error
        }
        // Check the header of the very bytes decoded: the file may have changed since.
        try checkPlane(decoded.header, path, width: width, height: height, frame: frame)
        return decoded.image.samples8
    }

    /// Loads only the feature points of frame `index` (`.xyz`, or `.ply` with vertex x, y, z).
    /// - Throws: `PointPaintError` naming the valid range when `index` is not a frame of the
    ///   capture, and for any damaged or missing file.
    public func points(at index: Int) throws -> [FeaturePoint] {
        let path = try resolveInside(try entry(index).points, frame: index)
        let bytes = try FileBytes.read(path, place: .frame(index), expected: "the feature-point file", limit: Self.maximumPointFileBytes)
        if path.lowercased().hasSuffix(".ply") {
            return try PLYFeaturePoints.parse(bytes, file: path)
        }
        return try XYZFormat.parse(bytes, file: path)
    }
}
