import Foundation
import Testing
@testable import PointPaint

/// nerfstudio folders, written by the synthesizer as `ns-process-data` lays them out, read back
/// against the truth; intrinsics per frame, distortion, applied transforms and depth scales;
/// every kind of damaged `transforms.json` refused with its JSON path.
@Suite struct NerfstudioCaptureTests {
    typealias Truth = CaptureSourceTruth
    static let synth = Truth.synthesizer()

    static let jpegFrames = Truth.Layout { try synth.writeNerfstudio(to: $0) }

    /// A fresh folder of the synthetic scene.
    static func folder(pngFrames: Bool = false) throws -> TemporaryDirectory {
        if !pngFrames { return try jpegFrames.copy() }
        let dir = TemporaryDirectory("nerfstudio")
        try synth.writeNerfstudio(to: dir.path, pngFrames: true)
        return dir
    }

    /// Changes `transforms.json` in `dir`.
    static func edit(_ dir: TemporaryDirectory, _ change: (inout [String: Any], inout [[String: Any]]) -> Void) throws {
        try Truth.editJSON(dir.file("transforms.json")) { object in
            var frames = object["frames"] as! [[String: Any]]
            change(&object, &frames)
            object["frames"] = frames
        }
    }

    @Test func roundTripMatchesTheTruth() throws {
        let dir = try Self.folder()
        #expect(try CaptureFormat.detect(dir.path) == .nerfstudio)
        #expect(try CaptureFormat.detect(dir.file("transforms.json")) == .nerfstudio)
        let source = try NerfstudioCapture(path: dir.path)
        #expect(try NerfstudioCapture(path: dir.file("transforms.json")).frameCount == 4)
        #expect(source.frameCount == 4 && source.countMismatch == nil && source.file == dir.file("transforms.json"))
        #expect(source.cloudFile.map { URL(fileURLWithPath: $0).standardizedFileURL } == URL(fileURLWithPath: dir.file("sparse_pc.ply")).standardizedFileURL)
        #expect(source.imageInfo == CaptureImageInfo(width: 160, height: 120))
        #expect(source.notes.map(\.text).contains("camera model: OPENCV"))
        #expect(source.notes.map(\.text).contains("intrinsics: fl_x, fl_y, cx, cy for w × h, at the top level"))
        #expect(source.notes.map(\.text).contains("depth: 16-bit PNG, 64x48, millimetres (nerfstudio's default scale); no confidence"))
        #expect(!source.notes.contains { $0.text.contains("distortion") }, "zero distortion terms are not noted")
        for index in 0 ..< 4 { #expect(try source.frameInfo(at: index).timestamp == Double(index)) }
        let frames = (0 ..< 4).map { ($0, $0) }
        try Truth.expectFrames(source, frames, of: Self.synth, confidence: false) { dir.file(String(format: "images/frame_%05d.jpg", $0 + 1)) }
        try Truth.expectAccurate(source, frames: frames, synth: Self.synth)
    }

    @Test func pngFramesAreConvertedToYCbCr444() throws {
        let dir = try Self.folder(pngFrames: true)
        let source = try NerfstudioCapture(path: dir.path)
        #expect(source.imageInfo == CaptureImageInfo(width: 160, height: 120))
        #expect(source.notes.contains { $0.text.hasPrefix("4 PNG frames: sRGB R′G′B′ or grey (8 or 16 bits, alpha ignored) converted to Y′CbCr 4:4:4") })
        #expect(try source.jpegData(at: 0) == nil)
        #expect(try source.frameInfo(at: 1).camera == Self.synth.camera(frame: 1))
        // The planes: within the PNG's own rounding and the conversion's of the rendered truth.
        let png = try PNGImage(contentsOf: dir.file("images/frame_00002.png"))
        let planes = YCbCrPlanes(rgb8: png.samples8, width: 160, height: 120, channels: 3)
        var worst = 0.0
        for (i, truth) in Self.synth.render(frame: 1).enumerated() {
            let decoded = YCbCrEncoding.arkit.rgb(y: Double(planes.luma[i]), cb: Double(planes.cb[i]), cr: Double(planes.cr[i]))
            let d = (decoded - SIMD3(min(max(truth.x, 0), 1), min(max(truth.y, 0), 1), min(max(truth.z, 0), 1))) * 255
            worst = max(worst, abs(d.x), abs(d.y), abs(d.z))
        }
        #expect(worst <= 0.5 + 1.39, "\(worst) levels")
        // The frames replay: each loads as those 4:4:4 planes, and colours sampled from them at
        // the points from depth are as close to the surfaces' as the PNG's and the conversion's
        // rounding leave them.
        let frame = try source.frame(at: 1)
        #expect(frame.image.subsampling == .yuv444 && YCbCrPlanes(frame.image) == planes)
        try Truth.expectAccurateRGB(source, frames: (0 ..< 4).map { ($0, $0) }, synth: Self.synth)
    }

    @Test func perFrameIntrinsicsDistortionAndAppliedTransforms() throws {
        let dir = try Self.folder()
        try Self.edit(dir) { object, frames in
            frames[1]["fl_x"] = 100
            frames[1]["cy"] = 61.5
            object["k1"] = 0.01
            frames[2]["p2"] = -0.002
            object["applied_transform"] = [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, -1, 0]]
            object["applied_scale"] = 0.5
            object["integer_depth_scale"] = 0.0005
            object["camera_model"] = "SIMPLE_RADIAL"
        }
        let source = try NerfstudioCapture(path: dir.path)
        let k = try source.frameInfo(at: 1).camera.intrinsics
        #expect(k == CameraIntrinsics(fx: 100, fy: 128, cx: 80, cy: 61.5))
        #expect(try source.frameInfo(at: 0).camera == Self.synth.camera(frame: 0))
        #expect(source.notes.map(\.text).contains("lens distortion not undone: k1 0.01, p2 -0.002"))
        #expect(source.notes.map(\.text).contains("intrinsics: fl_x, fl_y, cx, cy for w × h, per frame where a frame gives them"))
        #expect(source.notes.map(\.text).contains("applied_transform present: the world is nerfstudio's, as saved (not turned back into the original data's)"))
        #expect(source.notes.contains { $0.text.hasPrefix("applied_scale present") })
        #expect(source.notes.map(\.text).contains("depth: 16-bit PNG, 64x48, 0.0005 m a unit (integer_depth_scale); no confidence"))
        let depth = try #require(try source.frame(at: 2).depth)
        let millimetres = CaptureSynthesizer.millimetres(Self.synth.renderDepth(frame: 2, width: 64, height: 48))
        #expect(depth.depth == millimetres.map { Float($0) * Float(0.0005) })
    }

    @Test("instant-ngp and NeRF synthetic files: fields of view, no centre or size, paths without extensions", arguments: [false, true])
    func fieldsOfViewAndPathsWithoutExtensions(pngFrames: Bool) throws {
        let dir = try Self.folder(pngFrames: pngFrames)
        let k = Self.synth.camera(frame: 0).intrinsics
        try Self.edit(dir) { object, frames in
            for key in ["fl_x", "fl_y", "cx", "cy", "w", "h"] { object[key] = nil }
            object["camera_angle_x"] = 2 * atan(160 / (2 * k.fx))
            object["camera_angle_y"] = 2 * atan(120 / (2 * k.fy))
            for i in frames.indices {
                frames[i]["file_path"] = ((frames[i]["file_path"] as! String) as NSString).deletingPathExtension
                frames[i]["rotation"] = 0.0126  // the NeRF synthetic scenes' own field, not read
            }
        }
        try FileManager.default.moveItem(atPath: dir.file("transforms.json"), toPath: dir.file("transforms_train.json"))
        #expect(try CaptureFormat.detect(dir.file("transforms_train.json")) == .nerfstudio)
        let source = try NerfstudioCapture(path: dir.file("transforms_train.json"))
        #expect(source.imageInfo.width == 160 && source.imageInfo.height == 120)
        #expect(source.notes.map(\.text).contains("intrinsics: fl_x, fl_y, cx, cy for w × h, at the top level; an absent cx, cy at the image centre; "
                                      + "fl_x from camera_angle_x; fl_y from camera_angle_y; w × h from the first image"))
        for index in 0 ..< 4 {
            let camera = try source.frameInfo(at: index).camera, truth = Self.synth.camera(frame: index)
            #expect(abs(camera.intrinsics.fx - k.fx) < 1e-9 && abs(camera.intrinsics.fy - k.fy) < 1e-9)
            #expect(camera.intrinsics.cx == 80 && camera.intrinsics.cy == 60 && k.cx == 80 && k.cy == 60)
            #expect(camera.transform == truth.transform)
        }
        let frames = (0 ..< 4).map { ($0, $0) }
        if pngFrames {
            try Truth.expectAccurateRGB(source, frames: frames, synth: Self.synth)
        } else {
            try Truth.expectAccurate(source, frames: frames, synth: Self.synth)
        }
    }

    @Test func badFieldsOfViewAndImagesWithoutExtensions() throws {
        let dir = try Self.folder()
        try Self.edit(dir) { object, _ in
            object["fl_x"] = nil
            object["fl_y"] = nil
        }
        Truth.expectError(.missing, at: .jsonPath("frames[0].fl_x"), file: "transforms.json") { _ = try NerfstudioCapture(path: dir.path) }
        for angle in [0, Double.pi, -0.5] {
            try Self.edit(dir) { object, _ in object["camera_angle_x"] = angle }
            Truth.expectError(.outOfRange, at: .jsonPath("camera_angle_x"), file: "transforms.json") { _ = try NerfstudioCapture(path: dir.path) }
        }
        try Self.edit(dir) { object, frames in
            object["camera_angle_x"] = 1.0
            frames[2]["file_path"] = "images/no_such_frame"
        }
        Truth.expectError(.missing, at: .jsonPath("frames[2].file_path"), file: "transforms.json") { _ = try NerfstudioCapture(path: dir.path) }
        // Without w and h, the first image's header gives the size, within the limit on a side.
        try PNGImage(width: CaptureManifest.maximumDimension + 1, height: 1, channels: 1,
                     samples: [UInt8](repeating: 0, count: CaptureManifest.maximumDimension + 1)).write(to: dir.file("images/wide.png"))
        try Self.edit(dir) { object, frames in
            object["w"] = nil
            object["h"] = nil
            frames[0]["file_path"] = "images/wide"
        }
        Truth.expectError(.outOfRange, at: .frame(0), file: "wide.png") { _ = try NerfstudioCapture(path: dir.path) }
    }

    @Test func instantNGPDepthPathAndFramesWithoutDepth() throws {
        let dir = try Self.folder()
        try Self.edit(dir) { object, frames in
            frames[0]["depth_path"] = frames[0]["depth_file_path"]
            frames[0]["depth_file_path"] = nil
            frames[3]["depth_file_path"] = nil
            object["ply_file_path"] = nil
        }
        let source = try NerfstudioCapture(path: dir.path)
        #expect(source.cloudFile == nil)
        #expect(source.notes.map(\.text).contains("1 frame without a depth map"))
        #expect(try source.frame(at: 0).depth == Truth.writtenDepth(Self.synth, frame: 0, confidence: false))
        #expect(try source.frame(at: 3).depth == nil)
    }

    @Test func unsupportedCameraModelsAndFiles() throws {
        let dir = try Self.folder()
        try Self.edit(dir) { object, _ in object["camera_model"] = "OPENCV_FISHEYE" }
        Truth.expectError(.unsupported, at: .jsonPath("camera_model"), file: "transforms.json") { _ = try NerfstudioCapture(path: dir.path) }
        try Self.edit(dir) { object, frames in
            object["camera_model"] = "PINHOLE"
            frames[1]["file_path"] = "images/frame_00002.gif"
        }
        Truth.expectError(.unsupported, at: .jsonPath("frames[1].file_path")) { _ = try NerfstudioCapture(path: dir.path) }
        try Self.edit(dir) { _, frames in
            frames[1]["file_path"] = "images/frame_00002.jpg"
            frames[2]["depth_file_path"] = "depth/frame_00003.npy"
        }
        Truth.expectError(.unsupported, at: .jsonPath("frames[2].depth_file_path")) { _ = try NerfstudioCapture(path: dir.path) }
        let empty = TemporaryDirectory()
        Truth.expectError(.missing, at: nil, file: "transforms.json") { _ = try NerfstudioCapture(path: empty.path) }
    }

    @Test(arguments: [
        ("transform_matrix", "three rows", "frames[2].transform_matrix", PointPaintError.Kind.malformed),
        ("transform_matrix", "a short row", "frames[2].transform_matrix[1]", .malformed),
        ("transform_matrix", "a string", "frames[2].transform_matrix[1][2]", .malformed),
        ("transform_matrix", "a bottom row 0 0 1 1", "frames[2].transform_matrix", .malformed),
        ("transform_matrix", "a singular rotation", "frames[2].transform_matrix", .malformed),
        ("transform_matrix", "nothing", "frames[2].transform_matrix", .missing),
        ("fl_x", "nothing", "frames[2].fl_x", .missing),
        ("fl_x", "zero", "frames[2].fl_x", .outOfRange),
        ("w", "a fraction", "frames[2].w", .outOfRange),
        ("file_path", "a number", "frames[2].file_path", .malformed),
    ])
    func badFrames(key: String, change: String, path: String, kind: PointPaintError.Kind) throws {
        let dir = try Self.folder()
        try Self.edit(dir) { object, frames in
            var m = frames[2]["transform_matrix"] as! [[Double]]
            switch (key, change) {
            case ("fl_x", "nothing"):
                // Per-frame focal lengths, but not in frame 2.
                for i in [0, 1, 3] { frames[i][key] = object[key] }
                object[key] = nil
            case (_, "nothing"): frames[2][key] = nil
            case (_, "three rows"): frames[2][key] = Array(m.prefix(3))
            case (_, "a short row"): m[1].removeLast(); frames[2][key] = m
            case (_, "a string"): var rows: [[Any]] = m; rows[1][2] = "0.5"; frames[2][key] = rows
            case (_, "a bottom row 0 0 1 1"): m[3] = [0, 0, 1, 1]; frames[2][key] = m
            case (_, "a singular rotation"): m[0] = [0, 0, 0, m[0][3]]; frames[2][key] = m
            case (_, "zero"): frames[2][key] = 0
            case (_, "a fraction"): frames[2][key] = 160.5
            default: frames[2][key] = 7
            }
        }
        Truth.expectError(kind, at: .jsonPath(path), file: "transforms.json") { _ = try NerfstudioCapture(path: dir.path) }
    }

    @Test func nonFiniteNumbersAndUnreadableText() throws {
        let dir = try Self.folder()
        try Truth.replace("\"fl_x\": 128", with: "\"fl_x\": NaN", in: dir.file("transforms.json"))
        Truth.expectError(.malformed, at: .jsonPath("fl_x")) { _ = try NerfstudioCapture(path: dir.path) }
        try Truth.replace("\"fl_x\": NaN", with: "\"fl_x\": 128", in: dir.file("transforms.json"))
        try Self.edit(dir) { _, frames in frames = [] }
        Truth.expectError(.malformed, at: .jsonPath("frames")) { _ = try NerfstudioCapture(path: dir.path) }
        try dir.write("{\"frames\": [}", to: "transforms.json")
        do {
            _ = try NerfstudioCapture(path: dir.path)
            Issue.record("expected an error")
        } catch let error as PointPaintError {
            #expect(error.kind == .malformed && error.place == .byteOffset(12), "\(error)")
        }
    }

    @Test func framesThatDisagreeWithTheFile() throws {
        let dir = try Self.folder()
        // Sizes: the top level against the first image, one frame against the others.
        try Self.edit(dir) { object, _ in object["w"] = 320 }
        Truth.expectError(.malformed, at: .frame(0), file: "frame_00001.jpg") { _ = try NerfstudioCapture(path: dir.path) }
        try Self.edit(dir) { object, frames in
            object["w"] = 160
            frames[1]["h"] = 240
        }
        Truth.expectError(.malformed, at: .jsonPath("frames[1]")) { _ = try NerfstudioCapture(path: dir.path) }
        try Self.edit(dir) { object, frames in
            frames[1]["h"] = nil
            object["ply_file_path"] = "missing.ply"
        }
        Truth.expectError(.missing, at: .jsonPath("ply_file_path")) { _ = try NerfstudioCapture(path: dir.path) }
        try Self.edit(dir) { object, _ in object["ply_file_path"] = "sparse_pc.ply" }

        // Files: missing, corrupt, a depth map of the wrong size.
        try FileManager.default.removeItem(atPath: dir.file("images/frame_00002.jpg"))
        let jpeg = dir.file("images/frame_00003.jpg")
        try Data(try FileBytes.read(jpeg).prefix(300)).write(to: URL(fileURLWithPath: jpeg))
        try PNGImage(width: 48, height: 48, channels: 1, samples16: [UInt16](repeating: 900, count: 48 * 48)).write(to: dir.file("depth/frame_00004.png"))
        let source = try NerfstudioCapture(path: dir.path)
        Truth.expectError(.missing, at: .frame(1), file: "frame_00002.jpg") { _ = try source.frame(at: 1) }
        Truth.expectError(.malformed, at: .frame(2), file: "frame_00003.jpg") { _ = try source.frame(at: 2) }
        Truth.expectError(.malformed, at: .frame(3), file: "frame_00004.png") { _ = try source.frame(at: 3) }
        Truth.expectError(.outOfRange, at: .frame(4)) { _ = try source.frameInfo(at: 4) }
    }
}
