import Foundation

/// Record3D's recordings: the `.r3d` file, a ZIP of `metadata` (JSON), `rgbd/N.jpg`,
/// `rgbd/N.depth` (LZFSE-compressed float32 metres) and `rgbd/N.conf` (LZFSE-compressed uint8
/// 0, 1, 2); and its "EXR + JPG" export, a folder of `metadata.json` (the same keys), `rgb/N.jpg`,
/// `depth/N.exr` (one float channel, metres) and, where present, `conf/N.png` (0, 1, 2).
///
/// Frames are numbered from 0 without padding, and frame N is `poses[N]` (and
/// `frameTimestamps[N]`) with the files numbered N. The images are stored portrait (720 × 960
/// for a LiDAR recording) and `K` (nine numbers, column by column) belongs to them as stored; the
/// depth maps (`dw` × `dh`, 192 × 256) are registered to them in the same orientation. A pose is
/// `[qx, qy, qz, qw, px, py, pz]`, camera-to-world with OpenGL's camera axes, which are ARKit's,
/// in a world that is the first camera's frame (not gravity-aligned): used as stored. Depth is
/// kept as stored, NaN included (no depth there).
///
/// Opening reads the metadata and the first frame's image header (and, for a recording without
/// `dw`/`dh`, its depth map's size); frames load on demand, from several threads at once (the
/// archive serialises its reads; decoding runs in parallel). Every error names the file (an
/// archive entry as `scan.r3d/rgbd/3.depth`) and the place.
public struct Record3DCapture: CaptureSource {
    /// How a recording's frames are stored.
    private enum Storage: Sendable {
        /// A `.r3d` file; `confidence`: whether it has `rgbd/N.conf` entries.
        case archive(ZipArchive, confidence: Bool)
        /// An "EXR + JPG" export folder.
        case export(SourceFrames)
    }

    /// One frame: its number in the file names and the metadata, its time and camera.
    private struct Frame: Sendable {
        var number: Int
        var info: CaptureFrameInfo
    }

    /// The `.r3d` file or the export folder.
    public let path: String
    /// Always `.record3d`.
    public var format: CaptureFormat { .record3d }
    /// The frames' size (`w` × `h`, portrait as stored) and JPEG colour description.
    public let imageInfo: CaptureImageInfo
    /// Frames that have a pose, a timestamp, an image, a depth map and (where the recording has
    /// them) a confidence map.
    public var frameCount: Int { frames.count }
    /// What was read and assumed: the pose convention, the intrinsics, the timestamps, depth.
    public let notes: [CaptureNote]
    /// Record3D ships no point cloud of its own.
    public var cloudFile: String? { nil }
    /// The counts of poses, timestamps, images and depth and confidence maps, when they differ.
    public let countMismatch: String?
    /// The depth maps' width and height (`dw` × `dh`, in the images' orientation).
    public let depthSize: (width: Int, height: Int)

    private let storage: Storage
    private let frames: [Frame]

    /// The largest depth entry read, compressed or decoded: a float32 map of 4096 × 4096.
    static let maximumDepthBytes = 64 << 20

    /// Opens the recording at `path`: a `.r3d` file, or a folder holding the "EXR + JPG" export.
    /// - Throws: `PointPaintError` naming the file (an archive entry as `scan.r3d/metadata`) and
    ///   place: `.missing` entries, files and keys; `.malformed` ZIP directories, JSON, `K`,
    ///   poses (wrong length, non-finite, not a unit quaternion), timestamps that do not
    ///   increase, and images or depth maps of the wrong size; `.tooLarge` entries and streams
    ///   that claim more than they can hold; `.outOfRange` sizes and focal lengths.
    public init(path: String) throws {
        self.path = path
        let parts = try SourceFiles.isFolder(path) ? Parts(export: path) : Parts(archive: path)
        let metadata = try Metadata(SourceJSON(bytes: parts.read(parts.metadata, limit: Metadata.maximumBytes), file: parts.file(parts.metadata)))
        var notes = metadata.notes

        // Frame N needs poses[N], frameTimestamps[N] (when present) and the files numbered N.
        var numbers = Set(parts.images.keys).intersection(parts.depths.keys).filter { $0 < metadata.poses.count }
        if let timestamps = metadata.timestamps { numbers = numbers.filter { $0 < timestamps.count } }
        if let confidences = parts.confidences { numbers.formIntersection(confidences.keys) }
        let sorted = numbers.sorted()
        let counts = ["\(metadata.poses.count) poses"] + (metadata.timestamps.map { ["\($0.count) frameTimestamps"] } ?? [])
        let fileCounts = [SourceFiles.count(parts.images.count, "image"), SourceFiles.count(parts.depths.count, "depth map")]
            + (parts.confidences.map { [SourceFiles.count($0.count, "confidence map")] } ?? [])
        let summary = "metadata lists " + counts.joined(separator: " and ") + "; \(parts.folders) " + fileCounts.joined(separator: ", ")
        let all = [metadata.poses.count, metadata.timestamps?.count, parts.images.count, parts.depths.count, parts.confidences?.count].compactMap { $0 }
        countMismatch = all.allSatisfy { $0 == sorted.count } ? nil : summary + "; \(sorted.count) frames have all of them"
        guard let first = sorted.first else {
            throw PointPaintError(.missing, file: path, "expected frames with a pose, an image and a depth map of the same number, found none (\(summary))")
        }

        // Times and cameras.
        var frames: [Frame] = []
        frames.reserveCapacity(sorted.count)
        for (index, number) in sorted.enumerated() {
            let time = metadata.timestamps?[number] ?? Double(number) / metadata.fps!
            if let last = frames.last, time <= last.info.timestamp {
                throw PointPaintError(.malformed, file: parts.file(parts.metadata), place: .frame(index),
                                      "expected frame \(number)'s time after the previous frame's \(last.info.timestamp) s, found \(time) s")
            }
            guard let camera = Camera(intrinsics: metadata.frameIntrinsics?[number] ?? metadata.intrinsics, transform: metadata.poses[number]) else {
                throw PointPaintError(.malformed, file: parts.file(parts.metadata), place: .jsonPath("poses[\(number)]"), "expected an invertible camera-to-world pose")
            }
            frames.append(Frame(number: number, info: CaptureFrameInfo(timestamp: time, camera: camera)))
        }
        notes.insert(.poses("poses: [qx, qy, qz, qw, px, py, pz] camera-to-world with OpenGL camera axes (ARKit's), used as stored; "
                            + "world: the first camera's frame (not gravity-aligned)"), at: 0)

        // The image: the first frame's JPEG is the metadata's w × h.
        let imageName = parts.images[first]!
        let info = try SourceFiles.jpegImageInfo(bytes: parts.read(imageName, limit: SourceFiles.maximumJPEGBytes, frame: 0, what: "JPEG frame"),
                                                 file: parts.file(imageName), frame: 0)
        guard info.width == metadata.width, info.height == metadata.height else {
            throw PointPaintError(.malformed, file: parts.file(imageName), place: .frame(0),
                                  "expected a \(metadata.width)x\(metadata.height) image (the metadata's w and h), found \(info.width)x\(info.height)")
        }
        imageInfo = info

        // The depth maps' size, registered to the image.
        let depthName = parts.depths[first]!
        let depthSize = try parts.depthSize(depthName, metadata: metadata, notes: &notes)
        try SourceFiles.checkRegistered(depth: depthSize, image: (info.width, info.height), file: parts.file(depthName), frame: 0)
        self.depthSize = depthSize
        let portrait = depthSize.height > depthSize.width ? ", portrait like the image" : ""
        if let archive = parts.archive {
            notes.append(.depth("depth: rgbd/N.depth, LZFSE float32 metres, \(depthSize.width)x\(depthSize.height) (dw × dh\(portrait)); NaN: no depth"))
            notes.append(.depth(parts.confidences == nil ? "no confidence maps (rgbd/N.conf absent): every depth counts as high" : "confidence: rgbd/N.conf, LZFSE uint8 0, 1, 2"))
            storage = .archive(archive, confidence: parts.confidences != nil)
        } else {
            notes.append(.depth("depth: depth/N.exr, float metres, \(depthSize.width)x\(depthSize.height) (dw × dh\(portrait)); NaN: no depth"))
            notes.append(.depth(parts.confidences == nil ? "no confidence maps (conf/ absent): every depth counts as high" : "confidence: conf/N.png, 0, 1, 2"))
            let entries = frames.map { frame in
                SourceFrames.Entry(timestamp: frame.info.timestamp, camera: frame.info.camera, image: parts.images[frame.number]!,
                                   depth: parts.depths[frame.number]!, confidence: parts.confidences?[frame.number])
            }
            storage = .export(SourceFrames(entries, imageInfo: info, depthSize: depthSize, file: path))
        }
        self.frames = frames
        self.notes = notes
    }

    /// The time and camera of frame `index`.
    public func frameInfo(at index: Int) throws -> CaptureFrameInfo { try self[index].info }

    /// Frame `index`: its JPEG decoded to Y′CbCr planes, its camera, and its depth map (metres,
    /// NaN where there is none) with confidence (0, 1, 2) when the recording has it.
    /// - Throws: `PointPaintError` at `.frame(index)` for a missing, corrupt or wrongly sized
    ///   image, depth or confidence map (a truncated or lying LZFSE stream included, its byte
    ///   offset in the message); the archive's own errors at the entry (`.part`).
    public func frame(at index: Int) throws -> CaptureFrame {
        switch storage {
        case .export(let files):
            return try files.frame(at: index)
        case .archive(let archive, let hasConfidence):
            let frame = try self[index]
            let name = "rgbd/\(frame.number)"
            let image = try SourceFiles.jpegImage(archive.read(name + ".jpg", maximumSize: SourceFiles.maximumJPEGBytes),
                                                  file: entryFile(name + ".jpg"), frame: index, info: imageInfo)
            let pixels = depthSize.width * depthSize.height
            let depth = try [Float](unsafeUninitializedCapacity: pixels) { buffer, count in
                try decode(archive, name + ".depth", into: UnsafeMutableRawBufferPointer(buffer), frame: index)
                count = pixels
            }
            var confidence: [UInt8]?
            if hasConfidence {
                let levels = try [UInt8](unsafeUninitializedCapacity: pixels) { buffer, count in
                    try decode(archive, name + ".conf", into: UnsafeMutableRawBufferPointer(buffer), frame: index)
                    count = pixels
                }
                if let bad = levels.firstIndex(where: { $0 > 2 }) {
                    throw PointPaintError(.malformed, file: entryFile(name + ".conf"), place: .frame(index),
                                          "expected confidence 0, 1 or 2, found \(levels[bad]) at pixel (\(bad % depthSize.width), \(bad / depthSize.width))")
                }
                confidence = levels
            }
            #if _endian(big)
            let stored = depth.map { Float(bitPattern: UInt32(littleEndian: $0.bitPattern)) }
            #else
            let stored = depth
            #endif
            return CaptureFrame(index: index, timestamp: frame.info.timestamp, image: image, camera: frame.info.camera, points: nil,
                                depth: DepthMap(width: depthSize.width, height: depthSize.height, depth: stored, confidence: confidence))
        }
    }

    /// The JPEG of frame `index`, byte for byte as recorded.
    public func jpegData(at index: Int) throws -> [UInt8]? {
        switch storage {
        case .export(let files): return try files.jpegData(at: index)
        case .archive(let archive, _): return try archive.read("rgbd/\(self[index].number).jpg", maximumSize: SourceFiles.maximumJPEGBytes)
        }
    }

    /// An archive entry as errors name it: `scan.r3d/rgbd/3.depth`.
    private func entryFile(_ name: String) -> String { path + "/" + name }

    /// Decodes the LZFSE entry `name` into `output`, which has the size the entry must decode to.
    private func decode(_ archive: ZipArchive, _ name: String, into output: UnsafeMutableRawBufferPointer, frame: Int) throws {
        // The raw blocks of an incompressible map add a few bytes; LZFSE blocks never grow it more than this.
        let bytes = try archive.read(name, maximumSize: 2 * output.count + 4096)
        do {
            try bytes.withUnsafeBytes { try LZFSE.decode($0, into: output, file: entryFile(name)) }
        } catch let error as PointPaintError {
            throw Self.atFrame(error, frame)
        }
    }

    /// An LZFSE error moved to `frame`: the frame is the place, the stream's byte offset stays in
    /// the message.
    private static func atFrame(_ error: PointPaintError, _ frame: Int) -> PointPaintError {
        var error = error
        if let place = error.place { error.message = "\(place): \(error.message)" }
        error.place = .frame(frame)
        return error
    }

    /// Frame `index`, or `.outOfRange` naming the frames there are.
    private subscript(index: Int) -> Frame {
        get throws {
            guard frames.indices.contains(index) else {
                throw PointPaintError(.outOfRange, file: path, place: .frame(index), "no such frame: expected 0 to \(frames.count - 1)")
            }
            return frames[index]
        }
    }
}

extension Record3DCapture {
    /// The files of a recording, in its archive or its export folder: where the metadata is,
    /// and the images, depth and confidence maps by frame number (archive entry names, or paths).
    private struct Parts {
        /// The `.r3d` archive; nil for the export.
        var archive: ZipArchive?
        /// The `.r3d` file or the export folder.
        var path: String
        /// The metadata's entry name or path.
        var metadata: String
        var images: [Int: String]
        var depths: [Int: String]
        /// Nil when the recording has none.
        var confidences: [Int: String]?
        /// The folders that hold the frames, with the verb, for the count line: `rgbd/ holds`.
        var folders: String

        init(archive path: String) throws {
            let archive = try ZipArchive(path: path)
            let rgbd = archive.names.filter { $0.hasPrefix("rgbd/") }
            self.archive = archive
            self.path = path
            metadata = "metadata"
            images = try SourceFiles.numbered(rgbd, prefix: "rgbd/", suffix: ".jpg", in: path)
            depths = try SourceFiles.numbered(rgbd, prefix: "rgbd/", suffix: ".depth", in: path)
            let confidences = try SourceFiles.numbered(rgbd, prefix: "rgbd/", suffix: ".conf", in: path)
            self.confidences = confidences.isEmpty ? nil : confidences
            folders = "rgbd/ holds"
        }

        init(export path: String) throws {
            func numbered(_ folder: String, _ suffix: String) throws -> [Int: String] {
                let directory = (path as NSString).appendingPathComponent(folder)
                return try SourceFiles.numbered(SourceFiles.names(in: directory), prefix: "", suffix: suffix, in: directory)
                    .mapValues { (directory as NSString).appendingPathComponent($0) }
            }
            self.path = path
            metadata = (path as NSString).appendingPathComponent("metadata.json")
            images = try numbered("rgb", ".jpg")
            depths = try numbered("depth", ".exr")
            confidences = SourceFiles.isFolder((path as NSString).appendingPathComponent("conf")) ? try numbered("conf", ".png") : nil
            folders = (confidences == nil ? "rgb/ and depth/" : "rgb/, depth/ and conf/") + " hold"
        }

        /// The file errors name for an entry or path.
        func file(_ name: String) -> String { archive == nil ? name : path + "/" + name }

        /// The whole entry or file `name`, refused when larger than `limit` (`.missing` at `frame`,
        /// when given, for a file that is absent).
        func read(_ name: String, limit: Int, frame: Int? = nil, what: String = "metadata") throws -> [UInt8] {
            if let archive { return try archive.read(name, maximumSize: limit) }
            guard let frame else {
                guard FileBytes.size(of: name) != nil else { throw PointPaintError(.missing, file: name, "expected the \(what), found no such file") }
                return try FileBytes.read(name, limit: limit)
            }
            return try SourceFiles.read(name, limit: limit, frame: frame, what: what)
        }

        /// The depth maps' size: `dw` × `dh` as the metadata says, checked against the first depth
        /// map; without them, the first map's own size (an EXR's), or for an archive the grid of
        /// the image's aspect ratio its decoded size fills (else Record3D's LiDAR 192 × 256).
        func depthSize(_ name: String, metadata: Metadata, notes: inout [CaptureNote]) throws -> (width: Int, height: Int) {
            if archive == nil {
                let size = try SourceFiles.depthEXRSize(name, frame: 0)
                if let stated = metadata.depthSize, stated != size {
                    throw PointPaintError(.malformed, file: name, place: .frame(0),
                                          "expected a \(stated.width)x\(stated.height) depth map (the metadata's dw and dh), found \(size.width)x\(size.height)")
                }
                if metadata.depthSize == nil { notes.append(.depth("dw, dh absent: the depth size is the EXR files' own")) }
                return size
            }
            if let stated = metadata.depthSize { return stated }
            let bytes = try read(name, limit: Record3DCapture.maximumDepthBytes, frame: 0, what: "depth map")
            let decoded: Int
            do {
                decoded = try bytes.withUnsafeBytes { try LZFSE.decodedSize(of: $0, file: file(name), maximumSize: Record3DCapture.maximumDepthBytes) }
            } catch let error as PointPaintError {
                throw Record3DCapture.atFrame(error, 0)
            }
            // w/h = dw/dh and dw·dh = pixels: dw = √(pixels · w / h).
            let pixels = decoded / 4
            let width = Int((Double(pixels) * Double(metadata.width) / Double(metadata.height)).squareRoot().rounded())
            if decoded % 4 == 0, width > 0, pixels % width == 0,
               abs(Double(width) / Double(pixels / width) / (Double(metadata.width) / Double(metadata.height)) - 1) <= 0.01 {
                notes.append(.depth("dw, dh absent: \(width)x\(pixels / width) inferred from the first depth map's \(decoded) bytes and the image's aspect ratio"))
                return (width, pixels / width)
            }
            notes.append(.depth("dw, dh absent: assumed Record3D's LiDAR 192x256 (the first depth map's \(decoded) bytes fit no grid of the image's aspect ratio)"))
            return (192, 256)
        }
    }
}
