import Foundation

/// How a writer stores frame images.
public enum CaptureImageEncoding: String, Sendable, CaseIterable {
    /// One raw NV12 file a frame (what ARKit hands over; fastest to read).
    case nv12
    /// Three 8-bit grey PNGs a frame (compact; what the repository's samples use).
    case png
}

/// Writes a capture directory in format version 1. Every file is written atomically (temporary
/// file, then rename), and `capture.json` last, so a reader never sees a manifest naming files
/// that are not complete. The synthesizer, the tests and recorders share this code path.
public struct CaptureWriter {
    /// The capture directory.
    public let directory: String
    /// The image description every appended frame must match.
    public let imageInfo: CaptureImageInfo
    /// How images are stored.
    public let encoding: CaptureImageEncoding
    /// The frames written so far.
    public private(set) var frames: [CaptureFrameEntry] = []

    /// Creates the directory (and `frames/`, `points/` inside it) if needed.
    public init(directory: String, imageInfo: CaptureImageInfo, encoding: CaptureImageEncoding = .nv12) throws {
        self.directory = directory
        self.imageInfo = imageInfo
        self.encoding = encoding
        for sub in ["frames", "points"] {
            try Self.makeDirectory((directory as NSString).appendingPathComponent(sub))
        }
    }

    private func path(_ relative: String) -> String { (directory as NSString).appendingPathComponent(relative) }

    /// Creates `path` and any missing parents, like `mkdir -p`.
    private static func makeDirectory(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw PointPaintError(.malformed, file: path, "expected a directory, found \(FileBytes.typeName(info.st_mode))")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeDirectory(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw PointPaintError.system("cannot create directory", file: path)
        }
    }

    /// Writes one frame's image and points and records it for the manifest.
    /// - Throws: `.unsupported` for an image the format does not store (other than 4:2:0 of even
    ///   size), `.malformed` for one of another size than `imageInfo`'s, `.outOfRange` for a
    ///   timestamp not after the last.
    public mutating func append(image: YCbCrImage, camera: Camera, points: [FeaturePoint], timestamp: Double) throws {
        guard image.isEvenNV12 else {
            throw PointPaintError(.unsupported, file: directory, place: .frame(frames.count),
                                  "expected 4:2:0 chroma and an even width and height (what capture format v1 stores), found \(image.subsampling.rawValue) at \(image.width)x\(image.height)")
        }
        guard image.width == imageInfo.width, image.height == imageInfo.height else {
            throw PointPaintError(.malformed, file: directory, place: .frame(frames.count),
                                  "expected a \(imageInfo.width)x\(imageInfo.height) image, found \(image.width)x\(image.height)")
        }
        if let last = frames.last, timestamp <= last.timestamp {
            throw PointPaintError(.outOfRange, file: directory, place: .frame(frames.count), "expected a timestamp after \(last.timestamp), found \(timestamp)")
        }
        let name = String(format: "%06d", frames.count)
        let source: FrameImageSource
        let (luma, chroma) = image.packedPlanes()
        switch encoding {
        case .nv12:
            let relative = "frames/\(name).nv12"
            try AtomicFile.write(luma + chroma, to: path(relative))
            source = .nv12(path: relative, lumaStride: image.width, chromaStride: image.width)
        case .png:
            let w = image.width / 2, h = image.height / 2
            var cb = [UInt8](repeating: 0, count: w * h), cr = cb
            for i in 0 ..< w * h {
                cb[i] = chroma[2 * i]
                cr[i] = chroma[2 * i + 1]
            }
            let names = ("frames/\(name).y.png", "frames/\(name).cb.png", "frames/\(name).cr.png")
            try PNGImage(width: image.width, height: image.height, channels: 1, samples: luma).write(to: path(names.0), compressionLevel: 9)
            try PNGImage(width: w, height: h, channels: 1, samples: cb).write(to: path(names.1), compressionLevel: 9)
            try PNGImage(width: w, height: h, channels: 1, samples: cr).write(to: path(names.2), compressionLevel: 9)
            source = .planes(y: names.0, cb: names.1, cr: names.2)
        }
        let pointsPath = "points/\(name).xyz"
        try AtomicFile.write(Data(XYZFormat.format(points).utf8), to: path(pointsPath))
        frames.append(CaptureFrameEntry(timestamp: timestamp, image: source, points: pointsPath, camera: camera))
    }

    /// The manifest of the frames written so far.
    public var manifest: CaptureManifest { CaptureManifest(image: imageInfo, frames: frames) }

    /// Writes `capture.json`. Call after the last frame; calling again rewrites it.
    public func finish() throws {
        try AtomicFile.write(Data(manifest.jsonText().utf8), to: path("capture.json"))
    }
}
