import Foundation

extension CaptureSynthesizer {
    /// Which build of Stray Scanner `writeStray` writes as: the layouts `odometry.csv` and the
    /// depth maps have had.
    public enum StrayBuild: String, Sendable, CaseIterable {
        /// 2026 on: `timestamp, frame, x, y, z, qx, qy, qz, qw, fx, fy, cx, cy,
        /// distortion_center_x, distortion_center_y` (the distortion centre empty), PNG depth.
        case current
        /// February 2022 to 2025: `timestamp, frame, x, y, z, qx, qy, qz, qw`, PNG depth.
        case pngDepth
        /// August 2021 to February 2022: the same header, depth as NumPy `.npy` files.
        case npyDepth
        /// March to August 2021: `x, y, z, qx, qy, qz, qw` (no times, no frame numbers), `.npy` depth.
        case noTimestamps
        /// The last days of February 2021: no header line, `.npy` depth, no confidence maps.
        case noHeader
    }

    /// How `writeStray` stores the colour frames.
    public enum StrayFrames: String, Sendable, CaseIterable {
        /// `rgb/NNNNNN.jpg`, baseline JPEG at quality 95 from the synthesizer's own planes.
        case jpeg
        /// `rgb/NNNNNN.png`, 8-bit sRGB R′G′B′ of the rendered colours, rounded.
        case png
        /// None: the caller adds `rgb.mp4` (the app's own layout), encoded from the planes of
        /// `encode(render(frame:))`, such as with the ffmpeg tool.
        case none
    }

    /// The uptime, in seconds, at which the synthetic recording starts (ARKit's clock).
    package static let strayStartTime = 3605.125

    /// Writes the scene as a Stray Scanner recording: `odometry.csv` (camera-to-world poses
    /// with OpenCV's camera axes — ARKit's rotation times diag(1, −1, −1) — as the quaternion x,
    /// y, z, w and the position, printed as the app prints `Float`s, with the header of `build`),
    /// `camera_matrix.csv` (the last frame's intrinsics, three lines, no final line break),
    /// `depth/NNNNNN.png` (16-bit millimetres at `appDepthSize`) or `.npy`, `confidence/NNNNNN.png`
    /// (0, 1, 2), the colour frames as `frames` says, and `truth.ply`.
    ///
    /// - Returns: the truth of the frames' feature points, as in `truth.ply`.
    @discardableResult
    public func writeStray(to directory: String, build: StrayBuild = .current, frames: StrayFrames = .jpeg) throws -> [TruthPoint] {
        func file(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        var folders = ["depth"]
        if build != .noHeader { folders.append("confidence") }
        if frames != .none { folders.append("rgb") }
        for name in folders { try Self.makeFolder(file(name)) }
        var odometry = switch build {
        case .current: "timestamp, frame, x, y, z, qx, qy, qz, qw, fx, fy, cx, cy, distortion_center_x, distortion_center_y\n"
        case .pngDepth, .npyDepth: "timestamp, frame, x, y, z, qx, qy, qz, qw\n"
        case .noTimestamps: "x, y, z, qx, qy, qz, qw\n"
        case .noHeader: ""
        }
        var lastIntrinsics: CameraIntrinsics?
        let truth = try forEachAppFrame(depthSize: appDepthSize) { frame in
            let name = String(format: "%06d", frame.index)
            odometry += strayOdometryLine(frame.camera, timestamp: Self.strayStartTime + frame.timestamp, frame: name, build: build)
            lastIntrinsics = frame.camera.intrinsics
            switch frames {
            case .jpeg: try AtomicFile.write(frame.jpeg, to: file("rgb/\(name).jpg"))
            case .png:
                let samples = frame.pixels.flatMap { p in [p.x, p.y, p.z].map { UInt8((min(max($0, 0), 1) * 255).rounded()) } }
                try PNGImage(width: options.width, height: options.height, channels: 3, samples: samples).write(to: file("rgb/\(name).png"))
            case .none: break
            }
            if build == .current || build == .pngDepth {
                try Self.writeDepthPNG(frame.millimetres, of: frame.depth, to: file("depth/\(name).png"))
            } else {
                try AtomicFile.write(Self.npyFile(frame.millimetres, rows: frame.depth.height, columns: frame.depth.width), to: file("depth/\(name).npy"))
            }
            if build != .noHeader {
                try Self.writeConfidencePNG(of: frame.depth, codes: [0, 1, 2], to: file("confidence/\(name).png"))
            }
        }
        try AtomicFile.write(Data(odometry.utf8), to: file("odometry.csv"))
        if let k = lastIntrinsics {
            let matrix = "\(Float(k.fx)), 0.0, \(Float(k.cx))\n0.0, \(Float(k.fy)), \(Float(k.cy))\n0.0, 0.0, 1.0"
            try AtomicFile.write(Data(matrix.utf8), to: file("camera_matrix.csv"))
        }
        try TruthFile.write(truth, to: file("truth.ply"))
        return truth
    }

    /// The line of `odometry.csv` for a frame, as the app writes it: `Float`s and the frame
    /// number in six digits, separated by a comma and a space; for the current build the
    /// intrinsics and two empty distortion fields follow.
    package func strayOdometryLine(_ camera: Camera, timestamp: Double, frame: String, build: StrayBuild) -> String {
        let t = camera.transform
        // OpenCV's camera axes: the camera's y and z columns turned round.
        let opencv = Matrix4x4(columns: t.columns.0, -t.columns.1, -t.columns.2, t.columns.3)
        let q = opencv.rotationQuaternion
        let pose = [t[0, 3], t[1, 3], t[2, 3], q.x, q.y, q.z, q.w].map { "\(Float($0))" }
        let k = camera.intrinsics
        switch build {
        case .current:
            let intrinsics = [k.fx, k.fy, k.cx, k.cy].map { "\(Float($0))" }
            return (["\(timestamp)", frame] + pose + intrinsics + ["", ""]).joined(separator: ", ") + "\n"
        case .pngDepth, .npyDepth:
            return (["\(timestamp)", frame] + pose).joined(separator: ", ") + "\n"
        case .noTimestamps, .noHeader:
            return pose.joined(separator: ", ") + "\n"
        }
    }

    /// A NumPy `.npy` file of uint16 millimetres, shape (rows, columns), as the app's cnpy wrote
    /// it: format 1.0, the header padded with spaces to a multiple of 16 bytes.
    package static func npyFile(_ millimetres: [UInt16], rows: Int, columns: Int) -> [UInt8] {
        var dictionary = Array("{'descr': '<u2', 'fortran_order': False, 'shape': (\(rows), \(columns)), }".utf8)
        dictionary += [UInt8](repeating: 0x20, count: 16 - (10 + dictionary.count) % 16)
        dictionary[dictionary.count - 1] = 0x0A
        var out: [UInt8] = [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(dictionary.count & 0xFF), UInt8(dictionary.count >> 8)]
        out += dictionary
        out.reserveCapacity(out.count + 2 * millimetres.count)
        for value in millimetres { out += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        return out
    }
}
