import Foundation

extension CaptureSynthesizer {
    /// Writes the scene as a nerfstudio folder, as `ns-process-data` lays one out:
    /// `transforms.json` (`camera_model` OPENCV with zero distortion, `fl_x, fl_y, cx, cy, w, h`
    /// at the top level; `frames` in capture order, each with `file_path`, `transform_matrix`
    /// — the camera-to-world matrix as four rows, OpenGL camera axes, which are ARKit's — and
    /// `depth_file_path`; `ply_file_path`), `images/frame_NNNNN.jpg` numbered from 1,
    /// `depth/frame_NNNNN.png` (16-bit millimetres at `appDepthSize`), `sparse_pc.ply` (the
    /// truth's surface points and colours) and `truth.ply`.
    ///
    /// - Parameter pngFrames: store the frames as 8-bit sRGB PNGs of the rendered colours
    ///   (rounded), `images/frame_NNNNN.png`, instead of JPEGs.
    /// - Returns: the truth of the frames' feature points, as in `truth.ply`.
    @discardableResult
    public func writeNerfstudio(to directory: String, pngFrames: Bool = false) throws -> [TruthPoint] {
        for name in ["images", "depth"] { try Self.makeFolder((directory as NSString).appendingPathComponent(name)) }
        func file(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        var frames: [LayoutJSON] = []
        let truth = try forEachAppFrame(depthSize: appDepthSize) { frame in
            let name = String(format: "frame_%05d", frame.index + 1)
            let image = "images/\(name)." + (pngFrames ? "png" : "jpg")
            if pngFrames {
                let samples = frame.pixels.flatMap { p in [p.x, p.y, p.z].map { UInt8((min(max($0, 0), 1) * 255).rounded()) } }
                try PNGImage(width: options.width, height: options.height, channels: 3, samples: samples).write(to: file(image))
            } else {
                try AtomicFile.write(frame.jpeg, to: file(image))
            }
            try Self.writeDepthPNG(frame.millimetres, of: frame.depth, to: file("depth/\(name).png"))
            let rows = (0 ..< 4).map { row in LayoutJSON.numbers((0 ..< 4).map { frame.camera.transform[row, $0] }) }
            frames.append(.object([("file_path", .string(image)), ("transform_matrix", .array(rows)),
                                   ("depth_file_path", .string("depth/\(name).png"))]))
        }
        let k = camera(frame: 0).intrinsics
        let transforms = LayoutJSON.object([
            ("w", .number(Double(options.width))), ("h", .number(Double(options.height))),
            ("fl_x", .number(k.fx)), ("fl_y", .number(k.fy)), ("cx", .number(k.cx)), ("cy", .number(k.cy)),
            ("k1", .number(0)), ("k2", .number(0)), ("p1", .number(0)), ("p2", .number(0)),
            ("camera_model", .string("OPENCV")),
            ("frames", .array(frames)),
            ("ply_file_path", .string("sparse_pc.ply")),
        ])
        try PLYWriter.write(Self.appCloud(truth), to: file("sparse_pc.ply"))
        try transforms.write(to: file("transforms.json"))
        try TruthFile.write(truth, to: file("truth.ply"))
        return truth
    }
}
