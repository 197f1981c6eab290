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
/// that are not complete. The synthesizer, `pointpaint import`, the tests and recorders share
/// this code path.
///
/// Frames go into `frames/` (NV12 or PNG planes as `encoding` says, or a JPEG file as recorded),
/// feature points into `points/`, depth maps into `depth/` and confidence maps into
/// `confidence/`; each folder is made when its first file is written.
public struct CaptureWriter {
    /// The capture directory.
    public let directory: String
    /// The image description every appended frame must match.
    public let imageInfo: CaptureImageInfo
    /// How images given as planes are stored.
    public let encoding: CaptureImageEncoding
    /// The frames written so far.
    public private(set) var frames: [CaptureFrameEntry] = []
    /// The cloud file written, relative to the directory; nil until `writeCloud(copying:)`.
    public private(set) var cloud: String?

    /// Creates the directory if needed.
    public init(directory: String, imageInfo: CaptureImageInfo, encoding: CaptureImageEncoding = .nv12) throws {
        self.directory = directory
        self.imageInfo = imageInfo
        self.encoding = encoding
        try AtomicFile.makeDirectories(directory)
    }

    private func path(_ relative: String) -> String { (directory as NSString).appendingPathComponent(relative) }

    /// Writes `bytes` to `relative` inside the capture, making its folder first.
    private func write(_ bytes: some DataProtocol, to relative: String) throws {
        try AtomicFile.makeDirectories(FilePaths.parent(of: path(relative)))
        try AtomicFile.write(bytes, to: path(relative))
    }

    /// The name of the next frame's files: its number in six digits.
    private var nextName: String { String(format: "%06d", frames.count) }

    /// Writes one frame's image as planes (`encoding`), its points (nil: none recorded) and
    /// depth map, and records it for the manifest.
    /// - Throws: `.unsupported` for an image the format does not store as planes (other than
    ///   4:2:0 of even size), `.malformed` for one of another size than `imageInfo`'s,
    ///   `.outOfRange` for a timestamp not after the last.
    public mutating func append(image: YCbCrImage, camera: Camera, points: [FeaturePoint]?, depth: DepthMap? = nil, timestamp: Double) throws {
        guard image.isEvenNV12 else {
            throw PointPaintError(.unsupported, file: directory, place: .frame(frames.count),
                                  "expected 4:2:0 chroma and an even width and height (what capture format v1 stores as planes), found \(image.subsampling.rawValue) at \(image.width)x\(image.height)")
        }
        guard image.width == imageInfo.width, image.height == imageInfo.height else {
            throw PointPaintError(.malformed, file: directory, place: .frame(frames.count),
                                  "expected a \(imageInfo.width)x\(imageInfo.height) image, found \(image.width)x\(image.height)")
        }
        try checkTimestamp(timestamp)
        let name = nextName
        let source: FrameImageSource
        switch encoding {
        case .nv12:
            let (luma, chroma) = image.packedPlanes()
            let relative = "frames/\(name).nv12"
            try write(luma + chroma, to: relative)
            source = .nv12(path: relative, lumaStride: image.width, chromaStride: image.width)
        case .png:
            let planes = YCbCrPlanes(image)
            let names = ("frames/\(name).y.png", "frames/\(name).cb.png", "frames/\(name).cr.png")
            try AtomicFile.makeDirectories(path("frames"))
            try PNGImage(width: planes.width, height: planes.height, channels: 1, samples: planes.luma).write(to: path(names.0), compressionLevel: 9)
            try PNGImage(width: planes.chromaWidth, height: planes.chromaHeight, channels: 1, samples: planes.cb).write(to: path(names.1), compressionLevel: 9)
            try PNGImage(width: planes.chromaWidth, height: planes.chromaHeight, channels: 1, samples: planes.cr).write(to: path(names.2), compressionLevel: 9)
            source = .planes(y: names.0, cb: names.1, cr: names.2)
        }
        try appendEntry(image: source, camera: camera, points: points, depth: depth, timestamp: timestamp)
    }

    /// Writes one frame's JPEG file byte for byte, its points (nil: none recorded) and depth
    /// map, and records it for the manifest.
    /// - Throws: `.malformed` when the manifest's image description cannot hold JPEG frames
    ///   (`CaptureManifest.acceptsJPEGFrames`), or the JPEG's size or primaries are not the
    ///   capture's; the decoder's error for data that is no JPEG.
    public mutating func append(jpeg: [UInt8], camera: Camera, points: [FeaturePoint]?, depth: DepthMap? = nil, timestamp: Double) throws {
        guard CaptureManifest(image: imageInfo, frames: []).acceptsJPEGFrames else {
            throw PointPaintError(.malformed, file: directory, place: .frame(frames.count),
                                  "expected a capture of full range, bt601 matrix and center siting for JPEG frames, found \(imageInfo.range.rawValue) range, \(imageInfo.matrix.rawValue) matrix, \(imageInfo.chromaSiting.rawValue) siting")
        }
        let info: JPEGInfo
        do {
            info = try JPEGDecoder.info(of: jpeg, file: directory)
        } catch var error as PointPaintError {
            error.place = .frame(frames.count)
            throw error
        }
        guard info.width == imageInfo.width, info.height == imageInfo.height, info.primaries == imageInfo.primaries else {
            throw PointPaintError(.malformed, file: directory, place: .frame(frames.count),
                                  "expected a \(imageInfo.width)x\(imageInfo.height) JPEG in \(imageInfo.primaries.rawValue) primaries, found \(info.width)x\(info.height) in \(info.primaries.rawValue)")
        }
        try checkTimestamp(timestamp)
        let relative = "frames/\(nextName).jpg"
        try write(jpeg, to: relative)
        try appendEntry(image: .jpeg(path: relative), camera: camera, points: points, depth: depth, timestamp: timestamp)
    }

    private func checkTimestamp(_ timestamp: Double) throws {
        if let last = frames.last, timestamp <= last.timestamp {
            throw PointPaintError(.outOfRange, file: directory, place: .frame(frames.count), "expected a timestamp after \(last.timestamp), found \(timestamp)")
        }
    }

    /// Writes the points and depth of the frame whose image is `image`, and records it.
    private mutating func appendEntry(image: FrameImageSource, camera: Camera, points: [FeaturePoint]?, depth: DepthMap?, timestamp: Double) throws {
        let name = nextName
        var pointsPath: String?
        if let points {
            pointsPath = "points/\(name).xyz"
            try write(Data(XYZFormat.format(points).utf8), to: pointsPath!)
        }
        let depthSource = try depth.map { try writeDepth($0, name: name) }
        frames.append(CaptureFrameEntry(timestamp: timestamp, image: image, points: pointsPath, depth: depthSource, camera: camera))
    }

    /// Writes a depth map and its confidence. The map goes into a 16-bit PNG of millimetres when
    /// that gives back every value exactly (as maps read from such PNGs do), else into raw
    /// 32-bit floats: either way the reader returns the very values written.
    private func writeDepth(_ map: DepthMap, name: String) throws -> FrameDepthSource {
        let relative: String
        let encoding: DepthEncoding
        if let millimetres = Self.exactMillimetres(map) {
            relative = "depth/\(name).png"
            encoding = .millimetres16
            try AtomicFile.makeDirectories(path("depth"))
            try PNGImage(width: map.width, height: map.height, channels: 1, samples16: millimetres).write(to: path(relative))
        } else {
            relative = "depth/\(name).f32"
            encoding = .metres32
            var bytes = [UInt8]()
            bytes.reserveCapacity(4 * map.depth.count)
            for value in map.depth { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
            try write(bytes, to: relative)
        }
        var confidence: String?
        if let levels = map.confidence {
            confidence = "confidence/\(name).png"
            try AtomicFile.makeDirectories(path("confidence"))
            try PNGImage(width: map.width, height: map.height, channels: 1, samples: levels).write(to: path(confidence!))
        }
        return FrameDepthSource(path: relative, encoding: encoding, width: map.width, height: map.height, confidence: confidence)
    }

    /// The map's depths as whole millimetres when reading them back (`DepthMap(width:height:
    /// millimetres:)`) gives exactly these values (zero, of either sign, for no depth); nil when
    /// any value would change.
    static func exactMillimetres(_ map: DepthMap) -> [UInt16]? {
        var out = [UInt16](repeating: 0, count: map.depth.count)
        for (i, d) in map.depth.enumerated() where d != 0 {
            guard d > 0, d.isFinite else { return nil }
            let rounded = (Double(d) * 1000).rounded()
            guard rounded >= 1, rounded <= 65535 else { return nil }
            out[i] = UInt16(rounded)
        }
        let back = DepthMap(width: map.width, height: map.height, millimetres: out)
        for (a, b) in zip(map.depth, back.depth) where a != 0 && a.bitPattern != b.bitPattern { return nil }
        return out
    }

    /// Copies the point cloud at `source` (a PLY file) into the capture as `cloud.ply`, for the
    /// manifest's `cloud`.
    public mutating func writeCloud(copying source: String) throws {
        let relative = "cloud.ply"
        try write(try FileBytes.read(source, expected: "a point cloud"), to: relative)
        cloud = relative
    }

    /// The manifest of the frames written so far.
    public var manifest: CaptureManifest { CaptureManifest(image: imageInfo, frames: frames, cloud: cloud) }

    /// Writes `capture.json`. Call after the last frame; calling again rewrites it.
    public func finish() throws {
        try AtomicFile.write(Data(manifest.jsonText().utf8), to: path("capture.json"))
    }
}
