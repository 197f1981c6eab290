import Foundation

/// 3D Scanner App's (Laan Labs) "All Data" export: one folder of `frame_NNNNN.json` (the
/// frame's pose, intrinsics and time), `frame_NNNNN.jpg`, `depth_NNNNN.png` (16-bit
/// millimetres) or `depth_NNNNN.exr` (float metres), `conf_NNNNN.png` (0, 1, 2) and, in some
/// exports, `points.ply`, the app's fused cloud.
///
/// `cameraPoseARFrame` is ARKit's camera transform as 16 numbers row by row (camera-to-world,
/// ARKit's camera axes), used as stored; exports that hold it column by column are recognised
/// by where the translation sits (and said in `notes`). `intrinsics` is the 3 × 3 matrix row by
/// row, for the JPEG's stored (landscape) pixel grid: the EXIF orientation the app writes is
/// ignored. `time` is the app's clock when it wrote the frame.
///
/// The app records frames faster than images, so most frame files have no JPEG: those frames
/// are skipped and counted in `notes`, as are JPEGs without a frame file. Frames are matched by
/// the number in the file names.
public struct ScannerAppCapture: CaptureSource {
    /// How a file stores its matrix's numbers.
    private enum Order: String {
        case rowMajor = "row by row"
        case columnMajor = "column by column"
    }

    /// The export's folder.
    public let path: String
    /// Always `.scannerApp`.
    public var format: CaptureFormat { .scannerApp }
    /// The JPEGs' size and colour description.
    public let imageInfo: CaptureImageInfo
    /// Frames that have both a frame file and a JPEG.
    public var frameCount: Int { frames.entries.count }
    /// What was read and how: the pose layout found, the frames skipped, depth units.
    public let notes: [CaptureNote]
    /// `points.ply`, when the export has one.
    public let cloudFile: String?

    private let frames: SourceFrames

    /// The largest frame file read.
    static let maximumFrameFileBytes = 1 << 20

    /// Opens the export in the folder `path`, reading every frame file that has a JPEG and the
    /// first frame's image and depth headers.
    /// - Throws: `PointPaintError` naming the file and place: `.missing` files or keys;
    ///   `.malformed` matrices, lengths, non-finite numbers, times that do not increase and
    ///   sizes; `.outOfRange` focal lengths.
    public init(path: String) throws {
        self.path = path
        func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
        let names = try SourceFiles.names(in: path)
        let jsons = try SourceFiles.numbered(names, prefix: "frame_", suffix: ".json", in: path)
        let jpegs = try SourceFiles.numbered(names, prefix: "frame_", suffix: ".jpg", in: path)
        let depthPNGs = try SourceFiles.numbered(names, prefix: "depth_", suffix: ".png", in: path)
        let depthEXRs = try SourceFiles.numbered(names, prefix: "depth_", suffix: ".exr", in: path)
        let confidences = try SourceFiles.numbered(names, prefix: "conf_", suffix: ".png", in: path)
        let numbers = Set(jsons.keys).intersection(jpegs.keys).sorted()
        guard !numbers.isEmpty else {
            throw PointPaintError(.missing, file: path, "expected frame_NNNNN.json files with frame_NNNNN.jpg images of the same number, found \(jsons.count) frame files and \(jpegs.count) JPEGs, none of them paired")
        }
        var notes: [CaptureNote] = []
        var intrinsicsOrders = Set<String>()
        if jsons.count > numbers.count { notes.append(.ignored("skipped " + SourceFiles.count(jsons.count - numbers.count, "frame") + " without an image (frame_NNNNN.json without .jpg)")) }
        if jpegs.count > numbers.count { notes.append(.ignored("skipped " + SourceFiles.count(jpegs.count - numbers.count, "JPEG") + " without a frame_NNNNN.json")) }

        // The pose's order is the capture's: a frame whose translation is zero has the same
        // shape either way, so every frame is read before any pose becomes a matrix.
        var parsed: [(pose: [Double], order: Order?, intrinsics: CameraIntrinsics, time: Double, file: String)] = []
        parsed.reserveCapacity(numbers.count)
        for (index, number) in numbers.enumerated() {
            let jsonPath = file(jsons[number]!)
            let json = try SourceJSON(contentsOf: jsonPath, limit: Self.maximumFrameFileBytes).root
            _ = try json.object()
            let pose = try Self.pose(json["cameraPoseARFrame"])
            if let order = pose.order, let known = parsed.first(where: { $0.order != nil }), order != known.order {
                throw PointPaintError(.malformed, file: jsonPath, place: .jsonPath("cameraPoseARFrame"),
                                      "expected the matrix \(known.order!.rawValue), as in \(PointPaintError.quote((known.file as NSString).lastPathComponent)), found it \(order.rawValue)")
            }
            let (intrinsics, intrinsicsOrder) = try Self.intrinsics(json["intrinsics"], file: jsonPath)
            intrinsicsOrders.insert(intrinsicsOrder.rawValue)
            let time = try json["time"].number()
            if let last = parsed.last, time <= last.time {
                throw PointPaintError(.malformed, file: jsonPath, place: .frame(index),
                                      "expected a time after the previous frame's \(last.time) s, found \(time) s")
            }
            parsed.append((pose.numbers, pose.order, intrinsics, time, jsonPath))
        }
        let order = parsed.first(where: { $0.order != nil })?.order ?? .rowMajor
        let frames = try zip(numbers, parsed).map { number, frame in
            let m = frame.pose
            let transform = Matrix4x4(columnMajor: order == .columnMajor ? m : (0 ..< 16).map { m[($0 % 4) * 4 + $0 / 4] })
            guard let camera = Camera(intrinsics: frame.intrinsics, transform: transform) else {
                throw PointPaintError(.malformed, file: frame.file, place: .jsonPath("cameraPoseARFrame"), "expected an invertible camera-to-world matrix, found a singular one")
            }
            let depth = depthPNGs[number] ?? depthEXRs[number]
            return SourceFrames.Entry(timestamp: frame.time, camera: camera, image: file(jpegs[number]!),
                                      depth: depth.map(file), confidence: depth == nil ? nil : confidences[number].map(file))
        }
        let imageInfo = try SourceFiles.jpegImageInfo(frames[0].image, frame: 0)
        self.imageInfo = imageInfo
        var depthSize: (width: Int, height: Int)?

        notes.append(.poses(order == .rowMajor
            ? "poses: cameraPoseARFrame, camera-to-world row by row with ARKit camera axes, used as stored"
            : "poses: cameraPoseARFrame stored column by column in this export (the translation is in elements 12–14), read as such; ARKit camera axes"))
        notes.append(.camera("intrinsics: per frame, intrinsics 3×3 " + intrinsicsOrders.sorted().joined(separator: " and ")
                     + ", for the stored (landscape) JPEG pixels; EXIF orientation ignored"))
        notes.append(.timestamps("timestamps: time (the app's clock when it wrote the frame)"))

        if let first = frames.firstIndex(where: { $0.depth != nil }) {
            let depthPath = frames[first].depth!
            let size: (width: Int, height: Int)
            if depthPath.lowercased().hasSuffix(".png") {
                size = try SourceFiles.depthPNGSize(depthPath, frame: first)
            } else {
                size = try SourceFiles.depthEXRSize(depthPath, frame: first)
            }
            try SourceFiles.checkRegistered(depth: size, image: (imageInfo.width, imageInfo.height), file: depthPath, frame: first)
            depthSize = size
            let kinds = [(depthPNGs, "depth_NNNNN.png, 16-bit millimetres"), (depthEXRs, "depth_NNNNN.exr, float metres")]
                .filter { !$0.0.isEmpty }.map(\.1).joined(separator: "; ")
            notes.append(.depth("depth: \(kinds), \(size.width)x\(size.height)"))
            let withoutDepth = frames.count(where: { $0.depth == nil })
            if withoutDepth > 0 { notes.append(.depth(SourceFiles.count(withoutDepth, "frame") + " without a depth map")) }
            let withoutConfidence = frames.count(where: { $0.depth != nil && $0.confidence == nil })
            notes.append(.depth(withoutConfidence == 0 ? "confidence: conf_NNNNN.png, 0, 1, 2"
                         : SourceFiles.count(withoutConfidence, "depth map") + " without a confidence map (their depths count as high)"))
        } else {
            notes.append(.depth("no depth maps (the app records them in its low-resolution mode only)"))
        }
        self.notes = notes
        cloudFile = FileBytes.size(of: file("points.ply")) != nil ? file("points.ply") : nil
        self.frames = SourceFrames(frames, imageInfo: imageInfo, depthSize: depthSize, file: path)
    }

    /// The 16 numbers of `cameraPoseARFrame` and the order they are stored in, told by where the
    /// bottom row 0, 0, 0, 1 sits: nil when the translation is zero, where both orders have
    /// the same shape.
    private static func pose(_ node: JSONNode) throws -> (numbers: [Double], order: Order?) {
        let m = try node.numbers(count: 16)
        func zero(_ indices: [Int]) -> Bool { indices.allSatisfy { abs(m[$0]) <= 1e-6 } && abs(m[15] - 1) <= 1e-6 }
        switch (zero([12, 13, 14]), zero([3, 7, 11])) {
        case (true, false): return (m, .rowMajor)
        case (false, true): return (m, .columnMajor)
        case (true, true): return (m, nil)
        case (false, false):
            throw node.failure("a camera-to-world matrix whose last row (stored row by row) or last column (column by column) is 0, 0, 0, 1")
        }
    }

    /// The intrinsics of `intrinsics`: a 3 × 3 matrix row by row (or column by column, told by
    /// where the principal point sits).
    private static func intrinsics(_ node: JSONNode, file: String) throws -> (CameraIntrinsics, Order) {
        let m = try node.numbers(count: 9)
        func zero(_ indices: [Int]) -> Bool { indices.allSatisfy { abs(m[$0]) <= 1e-9 } && abs(m[8] - 1) <= 1e-9 }
        let order: Order
        if zero([3, 6, 7]) {
            order = .rowMajor
        } else if zero([1, 2, 5]) {
            order = .columnMajor
        } else {
            throw node.failure("a 3×3 camera matrix fx, 0, cx, 0, fy, cy, 0, 0, 1 (row by row)")
        }
        let (cx, cy) = order == .rowMajor ? (m[2], m[5]) : (m[6], m[7])
        guard m[0] > 0, m[4] > 0 else {
            throw PointPaintError(.outOfRange, file: file, place: .jsonPath(node.path), "expected positive focal lengths, found fx \(m[0]), fy \(m[4])")
        }
        return (CameraIntrinsics(fx: m[0], fy: m[4], cx: cx, cy: cy), order)
    }

    /// The time and camera of frame `index`.
    public func frameInfo(at index: Int) throws -> CaptureFrameInfo { try frames.info(at: index) }

    /// Frame `index`: its JPEG decoded to Y′CbCr planes, its camera, and its depth map (metres)
    /// with confidence (0, 1, 2) when the frame has them.
    /// - Throws: `PointPaintError` at `.frame(index)` for a missing, corrupt or wrongly sized file.
    public func frame(at index: Int) throws -> CaptureFrame { try frames.frame(at: index) }

    /// The JPEG file of frame `index`, byte for byte (with the app's EXIF segment).
    public func jpegData(at index: Int) throws -> [UInt8]? { try frames.jpegData(at: index) }
}
