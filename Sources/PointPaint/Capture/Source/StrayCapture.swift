import Foundation

/// A Stray Scanner recording: a folder with `odometry.csv` (a row a saved frame: `timestamp,
/// frame, x, y, z, qx, qy, qz, qw`, and per-frame `fx, fy, cx, cy` in builds from 2026),
/// `camera_matrix.csv` (the 3 × 3 intrinsics of the colour image), the colour frames as
/// `rgb.mp4` (HEVC or H.264) or extracted as `rgb/NNNNNN.jpg` (or `.png`), `depth/NNNNNN.png`
/// (16-bit millimetres, 256 × 192; `.npy` in builds before 2022) and `confidence/NNNNNN.png`
/// (0, 1, 2).
///
/// Poses are camera-to-world with OpenCV's camera axes (x right, y down, z forward), turned into
/// ARKit's once when read: R·diag(1, −1, −1). The quaternion is x, y, z, w. Frames, depth maps
/// and poses are matched by the `frame` column: video sample N, `rgb/N`, `depth/N` and
/// `confidence/N` belong to the row whose `frame` is N. A frame without a depth file has no
/// depth map; when the colour frames and the rows disagree in number, the source holds the
/// frames that have both and says so in `countMismatch`.
///
/// `rgb.mp4` is read with its edit list ignored: the app's writer gives its first frame a
/// presentation time before the list's start, which players drop, leaving every frame paired
/// with the next row's pose. Its frames decode in order on a thread of their own during a
/// replay (`frames(_:threads:)`); `frame(at:)` decodes from the start of the video.
public struct StrayCapture: CaptureSource {
    /// The folder.
    public let path: String
    /// Always `.stray`.
    public var format: CaptureFormat { .stray }
    /// The colour frames' size and colour description: the video stream's own, or the JPEG
    /// frames' (BT.601 full range, centred chroma).
    public let imageInfo: CaptureImageInfo
    /// The rows of `odometry.csv` that have a colour frame.
    public var frameCount: Int { frames.entries.count }
    /// What was read and how: layout, pose and intrinsics conventions, depth, frames without depth.
    public let notes: [CaptureNote]
    /// Stray Scanner saves no point cloud of its own.
    public var cloudFile: String? { nil }
    /// The counts of `odometry.csv` rows and colour frames, when they differ.
    public let countMismatch: String?
    /// `rgb.mp4`, when the colour frames are a video; nil for frames extracted into `rgb/`.
    public let video: String?

    /// The frames' times, cameras and files (for a video, `image` is the video: frames come
    /// from the decoder, and only the entries' depth and confidence files are read).
    let frames: SourceFrames
    /// Each frame's number: its `frame` column, so its video sample and its files' number.
    let frameNumbers: [Int]

    /// The largest colour frame accepted on a side: ARKit's largest video format is 4K.
    static let maximumDimension = 8192

    /// Opens the recording in the folder `path`: reads `odometry.csv` and `camera_matrix.csv`
    /// whole, lists `rgb/`, `depth/` and `confidence/`, and reads the video's (or the first
    /// frame's) colour description and the first depth map's header.
    /// - Throws: `PointPaintError` naming the file and place: `.missing` files, folders and
    ///   columns; `.malformed` CSV fields, quaternions, frame numbers and times that do not
    ///   increase, camera matrices and sizes, a video FFmpeg cannot read; `.unsupported` video
    ///   and file kinds; `.outOfRange` focal lengths.
    public init(path: String) throws {
        self.path = path
        func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
        var notes: [CaptureNote] = []
        _ = try SourceFiles.names(in: path)

        // Depth first: a file without a header is read only beside .npy depth maps.
        let depthFiles = try Self.numberedFiles(file("depth"), kinds: [".png", ".npy"])
        let npyDepth = depthFiles.contains { $0.value.lowercased().hasSuffix(".npy") }
        if npyDepth, let png = depthFiles.values.sorted().first(where: { $0.lowercased().hasSuffix(".png") }) {
            throw PointPaintError(.malformed, file: file("depth/" + png), "expected depth maps of one kind, found .npy and .png files together")
        }
        let confidenceFiles = try Self.numberedFiles(file("confidence"), kinds: [".png"])
        let odometry = try Self.readOdometry(file("odometry.csv"), npyDepth: npyDepth)
        notes += odometry.notes

        let cameraMatrix = FileBytes.size(of: file("camera_matrix.csv")) != nil || !odometry.intrinsicsPerFrame
            ? try Self.readCameraMatrix(file("camera_matrix.csv")) : nil

        let colour = try Self.colourFrames(in: path, notes: &notes)
        video = colour.video
        let imageFiles = colour.files

        // Frames: the rows that have a colour frame, matched by number.
        let rows = odometry.rows.filter { row in
            imageFiles.map { $0[row.frame] != nil } ?? colour.count.map { row.frame < $0 } ?? true
        }
        guard let first = rows.first else {
            throw PointPaintError(.missing, file: file("odometry.csv"),
                                  "expected rows whose frame has a colour frame, found none (\(SourceFiles.count(odometry.rows.count, "row")), \(colour.name))")
        }
        if rows.count != odometry.rows.count || (colour.count.map { $0 != rows.count } ?? false) {
            let frameRange = "frames \(odometry.rows.first!.frame) to \(odometry.rows.last!.frame)"
            countMismatch = "odometry.csv holds \(SourceFiles.count(odometry.rows.count, "row")) (\(frameRange)), \(colour.name); "
                + "\(SourceFiles.count(rows.count, "frame")) have both"
        } else {
            countMismatch = nil
        }
        frameNumbers = rows.map(\.frame)

        let imageInfo = try colour.info ?? Self.firstImageInfo(file("rgb/" + imageFiles![first.frame]!), notes: &notes)

        let intrinsicsSource: String
        if odometry.intrinsicsPerFrame {
            intrinsicsSource = "odometry.csv fx, fy, cx, cy (per frame)"
            notes.append(.camera("intrinsics: per frame (fx, fy, cx, cy of odometry.csv)" + (cameraMatrix == nil ? "; camera_matrix.csv absent" : "")))
        } else {
            intrinsicsSource = "camera_matrix.csv"
            notes.append(.camera("intrinsics: camera_matrix.csv (no per-frame columns)"))
        }
        notes.append(.poses("poses: camera-to-world with OpenCV camera axes, turned to ARKit's (R·diag(1, −1, −1)); quaternion x, y, z, w"))
        notes.append(.timestamps(odometry.timestamps ? "timestamps: odometry.csv timestamp (seconds, ARKit's clock)" : "timestamps: none recorded: frame i at i/60 s"))

        var entries: [SourceFrames.Entry] = []
        entries.reserveCapacity(rows.count)
        var withoutDepth = 0, withoutConfidence = 0
        for row in rows {
            let k = row.intrinsics ?? cameraMatrix!
            try Self.checkPrincipalPoint(k, image: imageInfo, file: file(odometry.intrinsicsPerFrame ? "odometry.csv" : "camera_matrix.csv"),
                                         place: odometry.intrinsicsPerFrame ? .line(row.line) : nil, what: intrinsicsSource)
            guard let camera = Camera(intrinsics: k, transform: row.transform) else {
                throw PointPaintError(.malformed, file: file("odometry.csv"), place: .line(row.line), "expected a finite pose, found one that is not")
            }
            let depth = depthFiles[row.frame].map { file("depth/" + $0) }
            let confidence = depth == nil ? nil : confidenceFiles[row.frame].map { file("confidence/" + $0) }
            if depth == nil { withoutDepth += 1 } else if confidence == nil { withoutConfidence += 1 }
            entries.append(SourceFrames.Entry(timestamp: row.timestamp, camera: camera, image: video ?? file("rgb/" + imageFiles![row.frame]!),
                                              depth: depth, confidence: confidence))
        }

        var depthSize: (width: Int, height: Int)?
        if let firstDepth = entries.firstIndex(where: { $0.depth != nil }) {
            let depthPath = entries[firstDepth].depth!
            let size = depthPath.lowercased().hasSuffix(".npy") ? try SourceFiles.depthNPYSize(depthPath, frame: firstDepth)
                : try SourceFiles.depthPNGSize(depthPath, frame: firstDepth)
            try SourceFiles.checkRegistered(depth: size, image: (imageInfo.width, imageInfo.height), file: depthPath, frame: firstDepth)
            depthSize = size
            notes.append(.depth("depth: depth/, " + (npyDepth ? "NumPy uint16" : "16-bit PNG") + " millimetres, \(size.width)x\(size.height)"
                         + (confidenceFiles.isEmpty ? "; no confidence maps" : "; confidence 0, 1, 2")))
            if withoutDepth > 0 { notes.append(.depth(SourceFiles.count(withoutDepth, "frame") + " without a depth map")) }
            if withoutConfidence > 0 && !confidenceFiles.isEmpty {
                notes.append(.depth(SourceFiles.count(withoutConfidence, "depth map") + " without a confidence map (all taken as high)"))
            }
        } else {
            notes.append(.depth("no depth maps" + (SourceFiles.isFolder(file("depth")) ? " for these frames" : " (depth/ absent)")))
        }
        if SourceFiles.isFolder(file("distortion")) { notes.append(.camera("distortion/ lookup tables present: lens distortion not undone")) }
        self.notes = notes
        self.imageInfo = imageInfo
        frames = SourceFrames(entries, imageInfo: imageInfo, depthSize: depthSize, file: path)
    }

    /// The time and camera of frame `index`.
    public func frameInfo(at index: Int) throws -> CaptureFrameInfo { try frames.info(at: index) }

    /// Frame `index`: its colour frame as Y′CbCr planes, its camera, and its depth map (metres)
    /// with confidence (0, 1, 2) when it has one.
    /// - Complexity: for a video, decoding every frame up to this one (without copying their
    ///   planes): use `frames(_:threads:)` for more than a few frames.
    /// - Throws: `PointPaintError` at `.frame(index)` for a missing, corrupt or wrongly sized file,
    ///   the decoder's error for a damaged video.
    public func frame(at index: Int) throws -> CaptureFrame {
        guard let video else { return try frames.frame(at: index) }
        let info = try frames.info(at: index)
        let decoder = try VideoDecoder(path: video, threads: 2, maximumDimension: Self.maximumDimension, ignoreEditList: true)
        let image = try Self.videoImage(decoder, frameNumber: frameNumbers[index], index: index, file: video)
        return CaptureFrame(index: index, timestamp: info.timestamp, image: image, camera: info.camera, points: nil,
                            depth: try frames.depthMap(at: index))
    }

    /// The JPEG file of frame `index`, byte for byte; nil for a video or PNG frame.
    public func jpegData(at index: Int) throws -> [UInt8]? {
        guard video == nil else {
            _ = try frames.info(at: index)
            return nil
        }
        return try frames.jpegData(at: index)
    }

    /// Loads `indices` in order: a video's frames decoded on a thread of their own (libavcodec
    /// frame threads: one more than `threads`, or 1 when `threads` is 1) a few frames ahead of
    /// the caller, the planes of frames not asked for never copied, and depth maps read on
    /// another thread beside it; extracted frames in parallel batches through `frame(at:)` on up
    /// to `threads` threads.
    ///
    /// The extra frame thread keeps the cores busy: a frame thread often waits for its
    /// reference pictures, and the replay's own threads cannot always fill that time (a
    /// 300-frame 1920×1440 HEVC replay on 2 cores: faster with 3 frame threads than with 2 in 7
    /// of 8 alternating runs, medians 0.1–0.35 s apart on a noisy machine; Benchmarks/README.md).
    /// For `rgb.mp4`: the first frame of the capture at or after each keyframe of the video
    /// (`VideoKeyframes`, one pass over its packets); nil for frames in `rgb/`, or a video whose
    /// packets do not allow exact seeking.
    public func decodingStarts() throws -> [Int]? {
        guard let video, let keyframes = try VideoKeyframes.read(path: video, ignoreEditList: true) else { return nil }
        var starts: [Int] = []
        var next = 0
        for key in keyframes.frames {
            // frameNumbers increase: the first frame whose video sample is at or after the key.
            while next < frameNumbers.count, frameNumbers[next] < key { next += 1 }
            if next < frameNumbers.count, starts.last != next { starts.append(next) }
        }
        return starts
    }

    public func frames(_ indices: [Int], threads: Int) -> any CaptureFrameSequence {
        guard let video else { return ParallelFrameLoader(source: self, indices: indices, threads: threads) }
        return StrayVideoFrames(source: self, video: video, indices: indices, decoderThreads: threads <= 1 ? 1 : threads + 1)
    }

    /// Where a recording's colour frames are.
    private struct Colour {
        /// `rgb.mp4`, or nil for frames in `rgb/`.
        var video: String?
        /// The files in `rgb/` by number, for frames extracted from the video.
        var files: [Int: String]?
        /// How many frames there are; nil when the video's container does not say.
        var count: Int?
        /// What holds them, with their count, for `countMismatch`: `rgb.mp4 300 frames`.
        var name: String
        /// The video stream's description; nil for files (read from the first frame used).
        var info: CaptureImageInfo?
    }

    /// The colour frames of the recording at `path`: `rgb.mp4` (opened for its stream's
    /// description, with its edit list ignored), else the numbered files of `rgb/`.
    private static func colourFrames(in path: String, notes: inout [CaptureNote]) throws -> Colour {
        func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
        guard FileBytes.size(of: file("rgb.mp4")) != nil else {
            guard SourceFiles.isFolder(file("rgb")) else {
                throw PointPaintError(.missing, file: file("rgb.mp4"), "expected the colour frames as rgb.mp4 or in rgb/, found neither")
            }
            let files = try numberedFiles(file("rgb"), kinds: [".jpg", ".jpeg", ".png"])
            return Colour(video: nil, files: files, count: files.count, name: "rgb/ " + SourceFiles.count(files.count, "image"), info: nil)
        }
        let video = file("rgb.mp4")
        let stream = try VideoDecoder(path: video, threads: 1, maximumDimension: maximumDimension, ignoreEditList: true).info
        notes.append(.colour("colour: rgb.mp4, \(stream); every sample read, its edit list ignored (the app's writer presents the first frame before time 0)"))
        if SourceFiles.isFolder(file("rgb")) { notes.append(.ignored("rgb/ ignored: rgb.mp4 is the recording")) }
        if stream.frameCount == nil { notes.append(.colour("rgb.mp4 does not list its frame count: every row is taken to have a frame")) }
        let color = stream.color
        return Colour(video: video, files: nil, count: stream.frameCount,
                      name: "rgb.mp4 " + (stream.frameCount.map { SourceFiles.count($0, "frame") } ?? "(frame count not listed)"),
                      info: CaptureImageInfo(width: stream.width, height: stream.height, range: color.range, matrix: color.matrix,
                                             primaries: color.primaries, chromaSiting: color.chromaSiting))
    }

    /// The image description of frames extracted into `rgb/`, from the first one used: a JPEG's
    /// (JFIF's encoding, its primaries), or a PNG's size (converted from sRGB R′G′B′).
    private static func firstImageInfo(_ image: String, notes: inout [CaptureNote]) throws -> CaptureImageInfo {
        guard image.lowercased().hasSuffix(".png") else {
            let info = try SourceFiles.jpegImageInfo(image, frame: 0)
            notes.append(.colour("colour: rgb/, JPEG frames (\(info.width)x\(info.height))"))
            return info
        }
        do {
            let header = try PNGImage.readInfo(path: image)
            try SourceFiles.checkFramePixels(width: header.width, height: header.height, file: image, place: .frame(0))
            notes.append(.colour("colour: rgb/, PNG frames: sRGB R′G′B′ or grey (8 or 16 bits, alpha ignored) converted to Y′CbCr 4:4:4 (BT.601 full range), rounded to the nearest code"))
            return CaptureImageInfo(width: header.width, height: header.height)
        } catch var error as PointPaintError {
            error.place = .frame(0)
            throw error
        }
    }

    /// The files of `folder` named by a number and one of `kinds` (compared without case), by
    /// number; none when the folder does not exist. Hidden files and other names are ignored.
    /// - Throws: `.malformed` for two files of one number (`7.png` and `000007.png`, or
    ///   `000007.jpg` and `000007.png`).
    private static func numberedFiles(_ folder: String, kinds: [String]) throws -> [Int: String] {
        guard SourceFiles.isFolder(folder) else { return [:] }
        let names = try SourceFiles.names(in: folder).filter { !$0.hasPrefix(".") }
        var out: [Int: String] = [:]
        for kind in kinds {
            for (number, name) in try SourceFiles.numbered(names, prefix: "", suffix: kind, in: folder) {
                if let other = out[number] {
                    throw PointPaintError(.malformed, file: (folder as NSString).appendingPathComponent(name),
                                          "expected one file numbered \(number), found this one and \(PointPaintError.quote(other))")
                }
                out[number] = name
            }
        }
        return out
    }

    /// Refuses intrinsics whose principal point is far from the image's middle (more than a
    /// quarter of its size): intrinsics for another image size, as after frames were scaled.
    private static func checkPrincipalPoint(_ k: CameraIntrinsics, image: CaptureImageInfo, file: String, place: PointPaintError.Place?, what: String) throws {
        let w = Double(image.width), h = Double(image.height)
        guard abs(k.cx - w / 2) <= w / 4, abs(k.cy - h / 2) <= h / 4 else {
            throw PointPaintError(.malformed, file: file, place: place,
                                  "expected a principal point near the middle of the \(image.width)x\(image.height) colour frames, found cx \(k.cx), cy \(k.cy) "
                                      + "in \(what): intrinsics for another image size?")
        }
    }
}
