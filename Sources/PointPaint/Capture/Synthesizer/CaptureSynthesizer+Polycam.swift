import Foundation

extension CaptureSynthesizer {
    /// The first frame's file name in Polycam's layout, a timestamp in microseconds: just below a
    /// power of ten, so the names change length and only a numeric sort keeps them in order.
    package static let polycamFirstMicroseconds = 999_900

    /// The timestamp in microseconds that names frame `index`'s files in Polycam's layout.
    package func polycamMicroseconds(frame index: Int) -> Int {
        Self.polycamFirstMicroseconds + Int((Double(index) / options.frameRate * 1e6).rounded())
    }

    /// The camera of frame `index` as ARKit tracked it before Polycam's pose optimisation: the
    /// true camera moved by a drift that grows along the capture (up to about 1° and 5 cm), so a
    /// reader that takes the raw set where the corrected one exists is caught.
    package func polycamRawCamera(frame index: Int) -> Camera {
        let truth = camera(frame: index)
        let progress = Double(index) / Double(max(options.frameCount - 1, 1))
        let angle = 1.0 * progress * .pi / 180, (c, s) = (cos(angle), sin(angle))
        // A turn about the world's y axis and a shift: drift · transform.
        let drift = Matrix4x4(columns: SIMD4(c, 0, -s, 0), SIMD4(0, 1, 0, 0), SIMD4(s, 0, c, 0),
                              SIMD4(0.03 * progress, 0.01 * progress, -0.04 * progress, 1))
        return Camera(intrinsics: truth.intrinsics, transform: drift * truth.transform)!
    }

    /// Writes the scene as Polycam's "raw data" export: `keyframes/images/<µs>.jpg`,
    /// `keyframes/cameras/<µs>.json` (`fx, fy, cx, cy, width, height, blur_score, t_00 … t_23`: a
    /// row-major 3 × 4 camera-to-world matrix with ARKit's axes, `timestamp`),
    /// `keyframes/depth/<µs>.png` (16-bit millimetres at `appDepthSize`) and
    /// `keyframes/confidence/<µs>.png` (0, 127, 255), and `truth.ply` beside `keyframes/`.
    ///
    /// - Parameters:
    ///   - corrected: also write `corrected_images/` and `corrected_cameras/` with the true
    ///     cameras, and put the drifting ARKit cameras (`polycamRawCamera(frame:)`) in `cameras/`,
    ///     as Polycam does after optimising the poses.
    ///   - topLevelFolder: put everything in this folder inside `directory`, as some Polycam
    ///     zips do.
    /// - Returns: the truth of the frames' feature points, as in `truth.ply`.
    @discardableResult
    public func writePolycam(to directory: String, corrected: Bool = true, topLevelFolder: String? = nil) throws -> [TruthPoint] {
        let root = topLevelFolder.map { (directory as NSString).appendingPathComponent($0) } ?? directory
        let keyframes = (root as NSString).appendingPathComponent("keyframes")
        func folder(_ name: String) -> String { (keyframes as NSString).appendingPathComponent(name) }
        var folders = ["images", "cameras", "depth", "confidence"]
        if corrected { folders += ["corrected_images", "corrected_cameras"] }
        for name in folders { try Self.makeFolder(folder(name)) }
        let truth = try forEachAppFrame(depthSize: appDepthSize) { frame in
            let name = String(polycamMicroseconds(frame: frame.index))
            func file(_ folderName: String, _ suffix: String) -> String { (folder(folderName) as NSString).appendingPathComponent(name + suffix) }
            try AtomicFile.write(frame.jpeg, to: file("images", ".jpg"))
            let blur = 150 + 40 * sin(Double(frame.index))
            try polycamCameraJSON(corrected ? polycamRawCamera(frame: frame.index) : frame.camera, blur: blur, name: name).write(to: file("cameras", ".json"))
            if corrected {
                try AtomicFile.write(frame.jpeg, to: file("corrected_images", ".jpg"))
                try polycamCameraJSON(frame.camera, blur: blur, name: name).write(to: file("corrected_cameras", ".json"))
            }
            try Self.writeDepthPNG(frame.millimetres, of: frame.depth, to: file("depth", ".png"))
            try Self.writeConfidencePNG(of: frame.depth, codes: [0, 127, 255], to: file("confidence", ".png"))
        }
        try TruthFile.write(truth, to: (root as NSString).appendingPathComponent("truth.ply"))
        return truth
    }

    /// A camera file of Polycam's: intrinsics for the image's size, and the pose's top three
    /// rows, row by row.
    private func polycamCameraJSON(_ camera: Camera, blur: Double, name: String) -> LayoutJSON {
        let k = camera.intrinsics
        var members: [(String, LayoutJSON)] = [
            ("cx", .number(k.cx)), ("cy", .number(k.cy)), ("fx", .number(k.fx)), ("fy", .number(k.fy)),
            ("blur_score", .number(blur)), ("width", .number(Double(options.width))), ("height", .number(Double(options.height))),
        ]
        for row in 0 ..< 3 {
            for column in 0 ..< 4 { members.append(("t_\(row)\(column)", .number(camera.transform[row, column]))) }
        }
        members.append(("timestamp", .number(Double(name)!)))
        return .object(members)
    }
}
