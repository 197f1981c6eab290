import Foundation

extension CaptureSynthesizer {
    /// The synthesizer of the frames Record3D stores, which are portrait. The phone is held
    /// upright, so its landscape camera is turned a quarter turn about its viewing axis: the
    /// image's sides swap (640 × 480 becomes 480 × 640) and keep their focal length in pixels,
    /// and the pose turns with the image, its x axis along the portrait rows again. A synthesizer
    /// whose frames are portrait (or square) already is its own.
    package var record3DPortrait: CaptureSynthesizer {
        guard options.width > options.height else { return self }
        var portrait = self
        portrait.options.width = options.height
        portrait.options.height = options.width
        portrait.options.focalLength = options.focalLength ?? 0.8 * Double(options.width)
        return portrait
    }

    /// Record3D's world: the first camera's frame. Maps the synthesizer's world into it.
    package var record3DWorld: Matrix4x4 { record3DPortrait.camera(frame: 0).transform.inverse! }

    /// The camera of frame `index` as Record3D stores it: the portrait camera, its pose in the
    /// first camera's frame (so frame 0's is the identity).
    package func record3DCamera(frame index: Int) -> Camera {
        let camera = record3DPortrait.camera(frame: index)
        return Camera(intrinsics: camera.intrinsics, transform: record3DWorld * camera.transform)!
    }

    /// The clock reading of the first frame in the synthesized metadata (`frameTimestamps`
    /// count seconds of the phone's uptime, not from 0).
    package static let record3DClockStart = 5234.5

    /// Writes the scene as Record3D's `.r3d` file at `path`: a ZIP of `metadata` (JSON: `w`, `h`,
    /// `K` column by column, `fps`, `dw`, `dh`, `initPose`, `poses` as `[qx, qy, qz, qw, px, py,
    /// pz]` camera-to-world with OpenGL axes relative to the first frame, `frameTimestamps`),
    /// `rgbd/N.jpg` (portrait frames of `record3DPortrait`, quality 95), `rgbd/N.depth` (float32
    /// metres at `appDepthSize` of the portrait frame, NaN where no surface is hit) and
    /// `rgbd/N.conf` (0, 1, 2), both LZFSE streams of raw blocks, and `icon` (the first frame),
    /// N from 0 without padding. `truth.ply` goes beside the file, in the first camera's frame
    /// (the world the poses are in).
    /// - Returns: the truth of the frames' feature points, as in `truth.ply`.
    @discardableResult
    public func writeRecord3D(to path: String) throws -> [TruthPoint] {
        var zip = ZipWriter()
        var icon: [UInt8] = []
        let truth = try writeRecord3DFrames { metadata in
            try zip.add("metadata", Array(metadata.text().utf8), method: .deflate)
        } frame: { frame, depth in
            try zip.add("rgbd/\(frame.index).jpg", frame.jpeg, method: .store)
            // float32, little-endian, row by row.
            try zip.add("rgbd/\(frame.index).depth", LZFSE.encodeRaw(depth.map(\.bitPattern.littleEndian).withUnsafeBytes { Array($0) }), method: .store)
            try zip.add("rgbd/\(frame.index).conf", LZFSE.encodeRaw(frame.depth.confidence!), method: .store)
            if frame.index == 0 { icon = frame.jpeg }
        }
        try zip.add("icon", icon, method: .store)
        try zip.write(to: path)
        try TruthFile.write(truth, to: (FilePaths.parent(of: path) as NSString).appendingPathComponent("truth.ply"))
        return truth
    }

    /// Writes the scene as Record3D's "EXR + JPG" export into `directory`: `metadata.json` (the
    /// `.r3d`'s metadata), `rgb/N.jpg` and `depth/N.exr` (one float channel named `Z`, metres,
    /// NaN where no surface is hit, ZIP-compressed), as `writeRecord3D(to:)` writes the same
    /// frames; no confidence maps (the export has none that is known). `truth.ply` goes into
    /// `directory`, in the first camera's frame.
    /// - Returns: the truth of the frames' feature points, as in `truth.ply`.
    @discardableResult
    public func writeRecord3DExport(to directory: String) throws -> [TruthPoint] {
        func file(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        for folder in ["rgb", "depth"] { try Self.makeFolder(file(folder)) }
        let truth = try writeRecord3DFrames { metadata in
            try metadata.write(to: file("metadata.json"))
        } frame: { frame, depth in
            try AtomicFile.write(frame.jpeg, to: file("rgb/\(frame.index).jpg"))
            try EXRImage(width: frame.depth.width, height: frame.depth.height, channel: "Z", values: depth).write(to: file("depth/\(frame.index).exr"))
        }
        try TruthFile.write(truth, to: file("truth.ply"))
        return truth
    }

    /// Renders the portrait frames, handing the metadata to `metadata` first and then each frame
    /// with its depths as Record3D stores them (NaN for none) to `frame`; returns the truth in
    /// the first camera's frame.
    private func writeRecord3DFrames(metadata: (LayoutJSON) throws -> Void, frame: (AppFrame, [Float]) throws -> Void) throws -> [TruthPoint] {
        let portrait = record3DPortrait
        let depthSize = portrait.appDepthSize
        let k = portrait.camera(frame: 0).intrinsics
        let poses = (0 ..< options.frameCount).map { index -> LayoutJSON in
            let pose = record3DCamera(frame: index).transform
            let q = pose.rotationQuaternion
            return .numbers([q.x, q.y, q.z, q.w, pose[0, 3], pose[1, 3], pose[2, 3]])
        }
        try metadata(.object([
            ("w", .number(Double(portrait.options.width))), ("h", .number(Double(portrait.options.height))),
            ("K", .numbers([k.fx, 0, 0, 0, k.fy, 0, k.cx, k.cy, 1])),
            ("fps", .number(options.frameRate)),
            ("dw", .number(Double(depthSize.width))), ("dh", .number(Double(depthSize.height))),
            ("initPose", .numbers([0, 0, 0, 1, 0, 0, 0])),
            ("poses", .array(poses)),
            ("frameTimestamps", .numbers((0 ..< options.frameCount).map { Self.record3DClockStart + Double($0) / options.frameRate })),
        ]))
        let truth = try portrait.forEachAppFrame(depthSize: depthSize) { appFrame in
            try frame(appFrame, appFrame.depth.depth.map { $0 > 0 ? $0 : .nan })
        }
        let world = record3DWorld
        return truth.map { point in
            var point = point
            point.position = SIMD3<Float>(world.transformPoint(SIMD3<Double>(point.position)))
            point.surfacePoint = SIMD3<Float>(world.transformPoint(SIMD3<Double>(point.surfacePoint)))
            return point
        }
    }
}
