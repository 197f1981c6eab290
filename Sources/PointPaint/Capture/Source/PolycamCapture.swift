import Foundation

/// Polycam's "raw data" export: `keyframes/` with `images/` (or `corrected_images/`) of
/// `<timestamp>.jpg`, `cameras/` (or `corrected_cameras/`) of `<timestamp>.json`, `depth/` of
/// 16-bit millimetre PNGs and `confidence/` of 8-bit PNGs (0, 127, 255), every file named by
/// its timestamp in microseconds.
///
/// A camera file holds the frame's intrinsics (`fx, fy, cx, cy` for an image of `width` ×
/// `height`) and its pose as `t_00 … t_23`: the top three rows of the camera-to-world matrix,
/// row by row, with ARKit's camera axes and gravity-aligned world — used as stored. The
/// corrected set (Polycam's optimised poses) is preferred when both its folders exist. The
/// export may sit in a single folder of its own (some zips have one).
///
/// Frames are matched by timestamp and sorted numerically. Every camera file is read when the
/// source is made; images and depth maps load per frame.
public struct PolycamCapture: CaptureSource {
    /// What the source was opened from.
    public let path: String
    /// The folder holding `keyframes/`: `path`, or the single folder inside it.
    public let root: String
    /// Always `.polycam`.
    public var format: CaptureFormat { .polycam }
    /// The frames' size (the camera files' `width` × `height`) and JPEG colour description.
    public let imageInfo: CaptureImageInfo
    /// Frames that have an image, a camera and (where the folders exist) a depth and confidence map.
    public var frameCount: Int { frames.entries.count }
    /// What was read and how: the image set, the pose and depth conventions, the blur scores seen.
    public let notes: [CaptureNote]
    /// Polycam's raw data ships no point cloud of its own.
    public var cloudFile: String? { nil }
    /// The counts of images, cameras and depth and confidence maps, when they differ.
    public let countMismatch: String?

    private let frames: SourceFrames

    /// Polycam's confidence codes for low, medium and high.
    static let confidenceCodes: [UInt8] = [0, 127, 255]
    /// The largest camera file read.
    static let maximumCameraFileBytes = 1 << 20

    /// Opens the export at `path`: a folder holding `keyframes/`, or a folder whose only folder
    /// holds it. Reads every camera file and the first frame's image and depth headers.
    /// - Throws: `PointPaintError` naming the file and place: `.missing` folders, files or keys;
    ///   `.malformed` names, numbers, matrices and sizes; `.outOfRange` focal lengths and sizes.
    public init(path: String) throws {
        self.path = path
        var notes: [CaptureNote] = []
        root = try Self.root(of: path, notes: &notes)
        let keyframes = (root as NSString).appendingPathComponent("keyframes")
        func folder(_ name: String) -> String { (keyframes as NSString).appendingPathComponent(name) }

        let (imageFolder, cameraFolder): (String, String)
        if SourceFiles.isFolder(folder("corrected_images")) && SourceFiles.isFolder(folder("corrected_cameras")) {
            (imageFolder, cameraFolder) = (folder("corrected_images"), folder("corrected_cameras"))
            notes.append(.layout("images and cameras: keyframes/corrected_images/ and corrected_cameras/ (Polycam's optimised poses)"))
        } else {
            (imageFolder, cameraFolder) = (folder("images"), folder("cameras"))
            notes.append(.layout("images and cameras: keyframes/images/ and cameras/ (no corrected set: ARKit's poses as tracked)"))
        }
        let images = try Self.timestamped(imageFolder, suffix: ".jpg")
        let cameras = try Self.timestamped(cameraFolder, suffix: ".json")
        let depths = SourceFiles.isFolder(folder("depth")) ? try Self.timestamped(folder("depth"), suffix: ".png") : nil
        let confidences = SourceFiles.isFolder(folder("confidence")) ? try Self.timestamped(folder("confidence"), suffix: ".png") : nil

        var common = Set(images.keys).intersection(cameras.keys)
        if let depths { common.formIntersection(depths.keys) }
        if let confidences { common.formIntersection(confidences.keys) }
        let times = common.sorted()
        let counts = [("images", images.count), ("cameras", cameras.count), ("depth maps", depths?.count), ("confidence maps", confidences?.count)]
            .compactMap { name, count in count.map { (name, $0) } }
        countMismatch = counts.allSatisfy({ $0.1 == times.count }) ? nil
            : "keyframes/ holds " + counts.map { "\($0.1) \($0.0)" }.joined(separator: ", ") + "; \(times.count) frames have all of them"
        guard !times.isEmpty else {
            throw PointPaintError(.missing, file: keyframes, "expected frames with an image and a camera of the same timestamp, found none ("
                                  + counts.map { "\($0.1) \($0.0)" }.joined(separator: ", ") + ")")
        }

        var frames: [SourceFrames.Entry] = []
        frames.reserveCapacity(times.count)
        var size: (width: Int, height: Int)?
        var blur: ClosedRange<Double>?
        for (index, time) in times.enumerated() {
            let cameraPath = (cameraFolder as NSString).appendingPathComponent(cameras[time]!)
            let (camera, frameSize, blurScore) = try Self.camera(cameraPath)
            if let size, size != frameSize {
                throw PointPaintError(.malformed, file: cameraPath, place: .frame(index),
                                      "expected intrinsics for a \(size.width)x\(size.height) image like the first frame's, found \(frameSize.width)x\(frameSize.height)")
            }
            size = frameSize
            if let blurScore { blur = blur.map { min($0.lowerBound, blurScore) ... max($0.upperBound, blurScore) } ?? blurScore ... blurScore }
            frames.append(SourceFrames.Entry(timestamp: Double(time) / 1e6, camera: camera,
                                             image: (imageFolder as NSString).appendingPathComponent(images[time]!),
                                             depth: depths.map { (folder("depth") as NSString).appendingPathComponent($0[time]!) },
                                             confidence: confidences.map { (folder("confidence") as NSString).appendingPathComponent($0[time]!) }))
        }
        let info = try SourceFiles.jpegImageInfo(frames[0].image, frame: 0)
        guard info.width == size!.width, info.height == size!.height else {
            throw PointPaintError(.malformed, file: frames[0].image, place: .frame(0),
                                  "expected a \(size!.width)x\(size!.height) image (the camera file's width and height), found \(info.width)x\(info.height)")
        }
        imageInfo = info
        var depthSize: (width: Int, height: Int)?
        notes.append(.poses("poses: t_00 … t_23, a row-major 3×4 camera-to-world matrix with ARKit camera axes, used as stored"))
        notes.append(.camera("intrinsics: per frame (fx, fy, cx, cy for the camera file's width × height)"))
        notes.append(.timestamps("timestamps: file names in microseconds"))
        if let depthPath = frames[0].depth {
            let depth = try SourceFiles.depthPNGSize(depthPath, frame: 0)
            try SourceFiles.checkRegistered(depth: depth, image: (info.width, info.height), file: depthPath, frame: 0)
            depthSize = depth
            notes.append(.depth("depth: keyframes/depth/, 16-bit millimetres, \(depth.width)x\(depth.height)"
                         + (confidences == nil ? "; no confidence maps" : "; confidence 0, 127, 255 read as low, medium, high")))
            if cameraFolder.hasSuffix("corrected_cameras") {
                notes.append(.depth("depth with corrected images: Polycam does not say whether its depth maps match the raw or the corrected images"))
            }
        } else {
            notes.append(.depth("no depth maps (keyframes/depth/ absent)"))
        }
        if let blur {
            notes.append(.ignored(String(format: "blur_score: %.1f to %.1f (not used; lower is blurrier)", blur.lowerBound, blur.upperBound)))
        }
        self.notes = notes
        self.frames = SourceFrames(frames, imageInfo: info, depthSize: depthSize, confidenceCodes: Self.confidenceCodes, file: root)
    }

    /// The folder holding `keyframes/`: `path`, or its only folder (hidden entries aside).
    private static func root(of path: String, notes: inout [CaptureNote]) throws -> String {
        if SourceFiles.isFolder((path as NSString).appendingPathComponent("keyframes")) { return path }
        let folders = try SourceFiles.names(in: path).filter {
            !$0.hasPrefix(".") && SourceFiles.isFolder((path as NSString).appendingPathComponent($0))
        }
        if folders.count == 1 {
            let inner = (path as NSString).appendingPathComponent(folders[0])
            if SourceFiles.isFolder((inner as NSString).appendingPathComponent("keyframes")) {
                notes.append(.layout("export in its own folder: \(folders[0])/"))
                return inner
            }
        }
        throw PointPaintError(.missing, file: path, "expected a Polycam export: keyframes/ here or in the only folder here, found neither")
    }

    /// The files of a keyframes folder by timestamp: `<microseconds><suffix>` each.
    /// - Throws: `.missing` for an absent folder; `.malformed` for any other file in it (hidden
    ///   files aside) and for two names of the same timestamp.
    private static func timestamped(_ folder: String, suffix: String) throws -> [Int: String] {
        let names = try SourceFiles.names(in: folder).filter { !$0.hasPrefix(".") }
        let files = try SourceFiles.numbered(names, prefix: "", suffix: suffix, in: folder)
        if files.count != names.count, let stray = names.sorted().first(where: { !files.values.contains($0) }) {
            throw PointPaintError(.malformed, file: (folder as NSString).appendingPathComponent(stray),
                                  "expected only files named by their timestamp in microseconds, like 1234567\(suffix)")
        }
        return files
    }

    /// A camera file: the camera, the image size its intrinsics are for, and its blur score.
    private static func camera(_ path: String) throws -> (Camera, (width: Int, height: Int), Double?) {
        let json = try SourceJSON(contentsOf: path, limit: maximumCameraFileBytes).root
        _ = try json.object()
        let k = try CameraIntrinsics(fx: json["fx"].positiveNumber(), fy: json["fy"].positiveNumber(), cx: json["cx"].number(), cy: json["cy"].number())
        let size = try (width: json["width"].positiveInteger(atMost: CaptureManifest.maximumDimension),
                        height: json["height"].positiveInteger(atMost: CaptureManifest.maximumDimension))
        var rows = [[Double]](repeating: [0, 0, 0, 0], count: 3)
        for row in 0 ..< 3 {
            for column in 0 ..< 4 { rows[row][column] = try json["t_\(row)\(column)"].number() }
        }
        let transform = Matrix4x4(columns: SIMD4(rows[0][0], rows[1][0], rows[2][0], 0), SIMD4(rows[0][1], rows[1][1], rows[2][1], 0),
                                  SIMD4(rows[0][2], rows[1][2], rows[2][2], 0), SIMD4(rows[0][3], rows[1][3], rows[2][3], 1))
        guard let camera = Camera(intrinsics: k, transform: transform) else {
            throw PointPaintError(.malformed, file: path, place: .jsonPath("t_00 … t_23"), "expected an invertible camera-to-world matrix, found a singular one")
        }
        let blur = json["blur_score"].exists ? try json["blur_score"].number() : nil
        return (camera, size, blur)
    }

    /// The time and camera of frame `index`.
    public func frameInfo(at index: Int) throws -> CaptureFrameInfo { try frames.info(at: index) }

    /// Frame `index`: its JPEG decoded to Y′CbCr planes, its camera, and its depth map (metres)
    /// with confidence (0, 1, 2) when the export has depth.
    /// - Throws: `PointPaintError` at `.frame(index)` for a missing, corrupt or wrongly sized file.
    public func frame(at index: Int) throws -> CaptureFrame { try frames.frame(at: index) }

    /// The JPEG file of frame `index`, byte for byte.
    public func jpegData(at index: Int) throws -> [UInt8]? { try frames.jpegData(at: index) }
}
