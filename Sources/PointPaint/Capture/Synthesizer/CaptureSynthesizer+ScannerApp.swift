import Foundation

extension CaptureSynthesizer {
    /// The app's clock (`time`, system uptime in seconds) at the first frame of the 3D Scanner App layout.
    package static let scannerAppFirstTime = 5123.25

    /// Writes the scene as 3D Scanner App's "All Data" export, all in `directory`:
    /// `frame_NNNNN.json` for every frame (`cameraPoseARFrame`: 16 numbers, the camera-to-world
    /// matrix row by row with ARKit's axes; `intrinsics`: 9 numbers row by row; `time`;
    /// `frame_index`; `projectionMatrix` and the motion keys the app writes),
    /// `frame_NNNNN.jpg` for every `imageEvery`-th frame (the app keeps fewer images than
    /// frames), landscape pixels with EXIF orientation 6 as the app tags them,
    /// `depth_NNNNN.png` (16-bit millimetres at `appDepthSize`) and `conf_NNNNN.png` (0, 1, 2)
    /// for every frame, `points.ply` (the fused cloud: the truth's surface points and colours),
    /// and `truth.ply`.
    /// - Returns: the truth of the frames' feature points, as in `truth.ply`.
    @discardableResult
    public func writeScannerApp(to directory: String, imageEvery: Int = 1) throws -> [TruthPoint] {
        try Self.makeFolder(directory)
        func file(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        let truth = try forEachAppFrame(depthSize: appDepthSize) { frame in
            let number = String(format: "%05d", frame.index)
            if frame.index % max(imageEvery, 1) == 0 {
                try AtomicFile.write(Self.withEXIFOrientation6(frame.jpeg), to: file("frame_\(number).jpg"))
            }
            try scannerAppFrameJSON(frame).write(to: file("frame_\(number).json"))
            try Self.writeDepthPNG(frame.millimetres, of: frame.depth, to: file("depth_\(number).png"))
            try Self.writeConfidencePNG(of: frame.depth, codes: [0, 1, 2], to: file("conf_\(number).png"))
        }
        try PLYWriter.write(Self.appCloud(truth), to: file("points.ply"))
        try TruthFile.write(truth, to: file("truth.ply"))
        return truth
    }

    /// A frame file of the app's.
    private func scannerAppFrameJSON(_ frame: AppFrame) -> LayoutJSON {
        let k = frame.camera.intrinsics, w = Double(options.width), h = Double(options.height)
        let pose = (0 ..< 4).flatMap { row in (0 ..< 4).map { frame.camera.transform[row, $0] } }
        // An OpenGL projection of the intrinsics (near 1 mm, far 1 km), row by row, as the app
        // stores ARKit's; readers do not use it.
        let (near, far) = (0.001, 1000.0)
        let projection = [2 * k.fx / w, 0, 1 - 2 * k.cx / w, 0,
                          0, 2 * k.fy / h, 2 * k.cy / h - 1, 0,
                          0, 0, -(far + near) / (far - near), -2 * far * near / (far - near),
                          0, 0, -1, 0]
        return .object([
            ("averageAngularVelocity", .number(0.12)),
            ("averageVelocity", .number(0.08)),
            ("cameraPoseARFrame", .numbers(pose)),
            ("exposureDuration", .number(0.01)),
            ("frame_index", .number(Double(frame.index))),
            ("intrinsics", .numbers([k.fx, 0, k.cx, 0, k.fy, k.cy, 0, 0, 1])),
            ("motionQuality", .number(0.9)),
            ("projectionMatrix", .numbers(projection)),
            ("time", .number(Self.scannerAppFirstTime + frame.timestamp)),
        ])
    }

    /// `jpeg` with an EXIF segment that says "rotate 90° clockwise to display" (orientation 6)
    /// right after its start marker, as the app's portrait-held captures carry.
    package static func withEXIFOrientation6(_ jpeg: [UInt8]) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, // big-endian TIFF, first IFD at 8
                             0x00, 0x01, // one entry
                             0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00, // Orientation, SHORT, 1, 6
                             0x00, 0x00, 0x00, 0x00] // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return Array(jpeg[0 ..< 2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg[2...]
    }
}
