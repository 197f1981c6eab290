import Foundation
import Testing
@testable import PointPaint

/// Stray Scanner recordings, written by the synthesizer as the app lays them out (JPEG frames
/// extracted into `rgb/`, or `rgb.mp4` encoded from the synthesizer's own planes by the ffmpeg
/// tool with the app's early first frame), read back against the truth; every build's
/// `odometry.csv` and depth layout; frames matched by number; damaged recordings refused with
/// their file and place.
@Suite struct StrayCaptureTests {
    typealias Truth = CaptureSourceTruth
    static let synth = Truth.synthesizer()
    static let frames = (0 ..< 4).map { ($0, $0) }

    static let jpegFrames = Truth.Layout { try synth.writeStray(to: $0) }
    static let pngDepth = Truth.Layout { try synth.writeStray(to: $0, build: .pngDepth) }
    static let npyDepth = Truth.Layout { try synth.writeStray(to: $0, build: .npyDepth) }
    static let video = Truth.Layout { dir in
        try synth.writeStray(to: dir, frames: .none)
        try encodeVideo(to: dir + "/rgb.mp4")
    }

    /// Lossless HEVC (B-frames included) tagged as the synthesizer's planes are: BT.601 full
    /// range, BT.709 primaries with the sRGB curve, centred chroma.
    static let hevc = ["-c:v", "libx265", "-x265-params", "lossless=1:log-level=error:bframes=2:b-adapt=0:scenecut=0",
                       "-colorspace", "bt470bg", "-color_range", "pc", "-color_primaries", "bt709", "-color_trc", "iec61966-2-1",
                       "-chroma_sample_location", "center"]

    /// Encodes the synthesizer's planes of frames `0 ..< count` to `path` at 30 frames a second,
    /// the first frame presented a frame before time 0 as the app's writer does (an MP4 edit
    /// list starting at the second sample).
    static func encodeVideo(to path: String, count: Int = 4, codec: [String] = hevc) throws {
        let planes = (0 ..< count).map { YCbCrPlanes(synth.encode(synth.render(frame: $0))) }
        try VideoFixture.encode(planes, to: path, ["-output_ts_offset", "-0.0333333"] + codec)
    }

    /// Replaces field `column` of line `line` (from 1) of `odometry.csv` in `dir` with `value`.
    static func editOdometry(_ dir: TemporaryDirectory, line: Int, column: String, to value: String) throws {
        var lines = try String(contentsOfFile: dir.file("odometry.csv"), encoding: .utf8).components(separatedBy: "\n")
        let index = try #require(lines[0].components(separatedBy: ", ").firstIndex(of: column))
        var fields = lines[line - 1].components(separatedBy: ", ")
        fields[index] = value
        lines[line - 1] = fields.joined(separator: ", ")
        try dir.write(lines.joined(separator: "\n"), to: "odometry.csv")
    }

    /// Removes line `line` (from 1) of `odometry.csv` in `dir`.
    static func removeOdometryLine(_ dir: TemporaryDirectory, _ line: Int) throws {
        var lines = try String(contentsOfFile: dir.file("odometry.csv"), encoding: .utf8).components(separatedBy: "\n")
        lines.remove(at: line - 1)
        try dir.write(lines.joined(separator: "\n"), to: "odometry.csv")
    }

    /// Expects `camera` to equal `truth` within 1e-6 (the app writes poses as `Float`s).
    static func expectCamera(_ camera: Camera, equals truth: Camera, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = zip(camera.transform.columnMajor, truth.transform.columnMajor).map { abs($0 - $1) }.max()!
        #expect(camera.intrinsics == truth.intrinsics && error < 1e-6, "pose off by \(error)", sourceLocation: sourceLocation)
    }

    /// Every frame of `indices` that `source.frames` delivers, in order.
    static func load(_ source: StrayCapture, _ indices: [Int], threads: Int = 2) throws -> [CaptureFrame] {
        let sequence = source.frames(indices, threads: threads)
        var out: [CaptureFrame] = []
        while let frame = try sequence.next() { out.append(frame) }
        return out
    }

    // MARK: - Round trips

    @Test func jpegFramesMatchTheTruth() throws {
        let dir = try Self.jpegFrames.copy()
        #expect(try CaptureFormat.detect(dir.path) == .stray)
        let source = try StrayCapture(path: dir.path)
        #expect(source.frameCount == 4 && source.countMismatch == nil && source.cloudFile == nil && source.video == nil)
        #expect(source.imageInfo == CaptureImageInfo(width: 160, height: 120))
        #expect(source.notes.map(\.text).contains("poses: camera-to-world with OpenCV camera axes, turned to ARKit's (R·diag(1, −1, −1)); quaternion x, y, z, w"))
        #expect(source.notes.map(\.text).contains("intrinsics: per frame (fx, fy, cx, cy of odometry.csv)"))
        #expect(source.notes.map(\.text).contains("depth: depth/, 16-bit PNG millimetres, 64x48; confidence 0, 1, 2"))
        for index in 0 ..< 4 {
            #expect(try source.frameInfo(at: index).timestamp == CaptureSynthesizer.strayStartTime + Double(index) / 30)
        }
        try Truth.expectFrames(source, Self.frames, of: Self.synth) { dir.file(String(format: "rgb/%06d.jpg", $0)) }
        try Truth.expectAccurate(source, frames: Self.frames, synth: Self.synth)
        // The parallel loader of extracted frames delivers the same frames.
        let loaded = try Self.load(source, [0, 2, 3])
        #expect(loaded.map(\.index) == [0, 2, 3])
        #expect(try loaded.map { YCbCrPlanes($0.image) } == [0, 2, 3].map { YCbCrPlanes(try source.frame(at: $0).image) })
    }

    @Test func posesAreTheAppsQuaternionTimesATurnAboutX() throws {
        // The app writes q_WA · q_AC, q_AC = (1, 0, 0, 0): ARKit's rotation then 180° about x.
        func hamilton(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
            SIMD4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                  a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
        }
        let camera = Self.synth.camera(frame: 1)
        let line = Self.synth.strayOdometryLine(camera, timestamp: 1, frame: "000001", build: .pngDepth)
        let fields = line.dropLast().components(separatedBy: ", ")
        #expect(fields[0 ..< 2] == ["1.0", "000001"])
        let written = SIMD4(fields[5 ..< 9].map { Double($0)! })
        let expected = hamilton(camera.transform.rotationQuaternion, SIMD4(1, 0, 0, 0))
        let d = written.w * expected.w >= 0 ? written - expected : written + expected
        #expect(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)) < 1e-6, "\(written) against \(expected)")

        // The pose of a camera at ARKit's origin looking down −z, as the app writes it, is the identity.
        let dir = try Self.jpegFrames.copy()
        for (column, value) in zip(["x", "y", "z", "qx", "qy", "qz", "qw"], ["0.0", "0.0", "0.0", "1.0", "0.0", "0.0", "0.0"]) {
            try Self.editOdometry(dir, line: 2, column: column, to: value)
        }
        #expect(try StrayCapture(path: dir.path).frameInfo(at: 0).camera.transform == .identity)
    }

    @Test func hevcVideoWithTheAppsEarlyFirstFrameMatchesTheTruth() throws {
        let dir = try Self.video.copy()
        #expect(try CaptureFormat.detect(dir.path) == .stray)
        let source = try StrayCapture(path: dir.path)
        #expect(source.frameCount == 4 && source.countMismatch == nil && source.video == dir.file("rgb.mp4"))
        // The stream's own description: the synthesizer's encoding, ARKit's.
        #expect(source.imageInfo == CaptureImageInfo(width: 160, height: 120, range: .full, matrix: .bt601, primaries: .srgb, chromaSiting: .center))
        #expect(source.notes.contains { $0.text.hasPrefix("colour: rgb.mp4, hevc 160×120") && $0.text.hasSuffix("every sample read, its edit list ignored (the app's writer presents the first frame before time 0)") })
        // Every frame comes out (a player drops the first), each exactly the synthesizer's planes.
        try Truth.expectFrames(source, Self.frames, of: Self.synth) { _ in nil }
        for index in 0 ..< 4 {
            #expect(try YCbCrPlanes(source.frame(at: index).image) == YCbCrPlanes(Self.synth.encode(Self.synth.render(frame: index))))
        }
        try Truth.expectAccurate(source, frames: Self.frames, synth: Self.synth)

        // The sequential loader: the same frames and depth maps, those not asked for skipped,
        // and an index asked again after a later one decoded anew.
        for indices in [[0, 1, 2, 3], [1, 3], [2, 0], [3]] {
            let loaded = try Self.load(source, indices)
            #expect(loaded.map(\.index) == indices)
            for frame in loaded {
                let alone = try source.frame(at: frame.index)
                #expect(YCbCrPlanes(frame.image) == YCbCrPlanes(alone.image) && frame.depth == alone.depth
                    && frame.camera == alone.camera && frame.timestamp == alone.timestamp)
            }
        }
        #expect(try Self.load(source, [0, 1], threads: 1).count == 2)
        // An index past the frames fails in its turn, after the frames before it.
        let past = source.frames([1, 9, 2], threads: 2)
        #expect(try past.next()?.index == 1)
        Truth.expectError(.outOfRange, at: .frame(9)) { _ = try past.next() }
        #expect(try past.next() == nil)
        // A sequence released before its end stops its threads (nothing to see but no hang).
        let sequence = source.frames([0, 1, 2, 3], threads: 2)
        #expect(try sequence.next()?.index == 0)
    }

    @Test func theStreamsOwnColourDescriptionIsTaken() throws {
        let dir = try Self.video.copy()
        try FileManager.default.removeItem(atPath: dir.file("rgb.mp4"))
        try Self.encodeVideo(to: dir.file("rgb.mp4"), codec: VideoFixture.losslessH264
            + ["-colorspace", "bt709", "-color_range", "tv", "-color_primaries", "smpte432", "-color_trc", "bt709", "-chroma_sample_location", "left"])
        let source = try StrayCapture(path: dir.path)
        #expect(source.imageInfo == CaptureImageInfo(width: 160, height: 120, range: .video, matrix: .bt709, primaries: .displayP3, chromaSiting: .left))
        #expect(source.notes.contains { $0.text.hasPrefix("colour: rgb.mp4, h264 160×120") })
        #expect(try YCbCrPlanes(source.frame(at: 2).image) == YCbCrPlanes(Self.synth.encode(Self.synth.render(frame: 2))))
    }

    // MARK: - Layouts of the app's builds

    @Test func perFrameIntrinsicsAreUsedWhenPresent() throws {
        let dir = try Self.jpegFrames.copy()
        // camera_matrix.csv is only the last frame's: the rows' own columns win.
        try dir.write("256.0, 0.0, 80.0\n0.0, 256.0, 60.0\n0.0, 0.0, 1.0", to: "camera_matrix.csv")
        try Self.editOdometry(dir, line: 4, column: "fx", to: "130.5")
        var source = try StrayCapture(path: dir.path)
        Self.expectCamera(try source.frameInfo(at: 0).camera, equals: Self.synth.camera(frame: 0))
        #expect(try source.frameInfo(at: 2).camera.intrinsics == CameraIntrinsics(fx: 130.5, fy: 128, cx: 80, cy: 60))
        // Without camera_matrix.csv the per-frame columns suffice.
        try FileManager.default.removeItem(atPath: dir.file("camera_matrix.csv"))
        source = try StrayCapture(path: dir.path)
        #expect(source.notes.map(\.text).contains("intrinsics: per frame (fx, fy, cx, cy of odometry.csv); camera_matrix.csv absent"))
        // A distortion centre is noted, not applied.
        try Self.editOdometry(dir, line: 2, column: "distortion_center_x", to: "80.25")
        source = try StrayCapture(path: dir.path)
        #expect(source.notes.map(\.text).contains("lens distortion centre given for 1 frame (distortion_center_x, _y): distortion not undone"))
    }

    @Test func withoutPerFrameColumnsCameraMatrixIsUsed() throws {
        let dir = try Self.pngDepth.copy()
        #expect(try String(contentsOfFile: dir.file("odometry.csv"), encoding: .utf8).hasPrefix("timestamp, frame, x, y, z, qx, qy, qz, qw\n"))
        var source = try StrayCapture(path: dir.path)
        #expect(source.notes.map(\.text).contains("intrinsics: camera_matrix.csv (no per-frame columns)"))
        try Truth.expectFrames(source, Self.frames, of: Self.synth) { dir.file(String(format: "rgb/%06d.jpg", $0)) }
        try dir.write("140.0, 0.0, 81.0\n0.0, 141.0, 59.0\n0.0, 0.0, 1.0", to: "camera_matrix.csv")
        source = try StrayCapture(path: dir.path)
        #expect(try source.frameInfo(at: 3).camera.intrinsics == CameraIntrinsics(fx: 140, fy: 141, cx: 81, cy: 59))
        try FileManager.default.removeItem(atPath: dir.file("camera_matrix.csv"))
        Truth.expectError(.missing, at: nil, file: "camera_matrix.csv") { _ = try StrayCapture(path: dir.path) }
    }

    @Test func npyDepthOfThe2021Builds() throws {
        let dir = try Self.npyDepth.copy()
        let source = try StrayCapture(path: dir.path)
        #expect(source.notes.map(\.text).contains("depth: depth/, NumPy uint16 millimetres, 64x48; confidence 0, 1, 2"))
        try Truth.expectFrames(source, Self.frames, of: Self.synth) { dir.file(String(format: "rgb/%06d.jpg", $0)) }
        try Truth.expectAccurate(source, frames: Self.frames, synth: Self.synth)
        // NumPy's own spacing of the header (padded to 64 bytes) reads the same.
        let npy = try FileBytes.read(dir.file("depth/000001.npy"))
        let headerLength = Int(npy[8]) | Int(npy[9]) << 8
        var dictionary = Array("{'descr': '<u2', 'fortran_order': False, 'shape': (48, 64), }".utf8)
        dictionary += [UInt8](repeating: 0x20, count: 118 - dictionary.count) + [0x0A]
        try Data(npy[0 ..< 8] + [UInt8(dictionary.count), 0] + dictionary + npy[(10 + headerLength)...]).write(to: URL(fileURLWithPath: dir.file("depth/000001.npy")))
        #expect(try source.frame(at: 1).depth == Truth.writtenDepth(Self.synth, frame: 1))
    }

    @Test func odometryWithoutTimesOrHeader() throws {
        var dir = TemporaryDirectory("stray")
        try Self.synth.writeStray(to: dir.path, build: .noTimestamps)
        var source = try StrayCapture(path: dir.path)
        #expect(source.notes.map(\.text).contains("timestamps: none recorded: frame i at i/60 s"))
        #expect(try source.frameInfo(at: 3).timestamp == 0.05)
        try Truth.expectFrames(source, Self.frames, of: Self.synth) { dir.file(String(format: "rgb/%06d.jpg", $0)) }

        dir = TemporaryDirectory("stray")
        try Self.synth.writeStray(to: dir.path, build: .noHeader)
        source = try StrayCapture(path: dir.path)
        #expect(source.notes.contains { $0.text.hasPrefix("odometry.csv without a header (February 2021 build)") })
        #expect(source.notes.map(\.text).contains("depth: depth/, NumPy uint16 millimetres, 64x48; no confidence maps"))
        try Truth.expectFrames(source, Self.frames, of: Self.synth, confidence: false) { dir.file(String(format: "rgb/%06d.jpg", $0)) }
        // Without .npy depth beside it, a file without a header is of a pre-release build.
        try FileManager.default.removeItem(atPath: dir.file("depth"))
        Truth.expectError(.unsupported, at: .line(1), file: "odometry.csv") { _ = try StrayCapture(path: dir.path) }
    }

    @Test func pngFramesAreReadAsTheirRGB() throws {
        let dir = TemporaryDirectory("stray")
        try Self.synth.writeStray(to: dir.path, frames: .png)
        let source = try StrayCapture(path: dir.path)
        #expect(source.imageInfo == CaptureImageInfo(width: 160, height: 120))
        #expect(source.notes.contains { $0.text.hasPrefix("colour: rgb/, PNG frames: sRGB R′G′B′ or grey (8 or 16 bits, alpha ignored) converted to Y′CbCr 4:4:4") })
        #expect(try source.jpegData(at: 0) == nil)
        Self.expectCamera(try source.frameInfo(at: 1).camera, equals: Self.synth.camera(frame: 1))
        // As for nerfstudio's PNG frames: 4:4:4 planes of the PNG's R′G′B′, which replay.
        let png = try PNGImage(contentsOf: dir.file("rgb/000001.png"))
        let frame = try source.frame(at: 1)
        #expect(frame.image.subsampling == .yuv444)
        #expect(YCbCrPlanes(frame.image) == YCbCrPlanes(rgb8: png.samples8, width: 160, height: 120, channels: 3))
        try Truth.expectAccurateRGB(source, frames: Self.frames, synth: Self.synth)
    }

    @Test("PNG frames other programs write with alpha or 16 bits read as their colours", arguments: ["rgba", "rgb48be", "rgba64be"])
    func pngFramesWithAlphaOrSixteenBits(pixelFormat: String) throws {
        let dir = TemporaryDirectory("stray")
        try Self.synth.writeStray(to: dir.path, frames: .png)
        let original = try StrayCapture(path: dir.path).frame(at: 1).image
        let frame = dir.file("rgb/000001.png"), converted = dir.file("converted.png")
        try ExternalTool.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", frame, "-pix_fmt", pixelFormat, converted])
        let sixteen = pixelFormat != "rgba"
        let header = try PNGImage.readInfo(path: converted)
        #expect(header.channels == (pixelFormat.hasPrefix("rgba") ? 4 : 3) && header.bitDepth == (sixteen ? 16 : 8))
        // The colours as ffmpeg's own PNG decoder reads them, alpha dropped.
        let raw = try ExternalTool.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", converted, "-f", "rawvideo",
                                                  "-pix_fmt", sixteen ? "rgb48le" : "rgb24", "-"])
        let colours = sixteen
            ? PNGImage(width: 160, height: 120, channels: 3, samples16: stride(from: 0, to: raw.count, by: 2).map { UInt16(raw[$0]) | UInt16(raw[$0 + 1]) << 8 })
            : PNGImage(width: 160, height: 120, channels: 3, samples: [UInt8](raw))
        try FileManager.default.removeItem(atPath: frame)
        try FileManager.default.moveItem(atPath: converted, toPath: frame)
        let planes = YCbCrPlanes(try StrayCapture(path: dir.path).frame(at: 1).image)
        #expect(planes == YCbCrPlanes(colours))
        // ffmpeg widens 8-bit samples close to v × 257 (not exactly): within a code of the 8-bit frame.
        let before = YCbCrPlanes(original)
        for (a, b) in [(planes.luma, before.luma), (planes.cb, before.cb), (planes.cr, before.cr)] {
            #expect(zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        }
    }

    @Test("a depth map larger than its image is refused from its header, before anything is decoded")
    func depthLargerThanItsImage() throws {
        // A constant 8192×6144 depth PNG and confidence PNG are kilobytes on disk and would
        // decode to hundreds of megabytes (and 50 M points): refused at the header, in one line.
        let dir = try Self.pngDepth.copy()
        try PNGImage(width: 8192, height: 6144, channels: 1, samples16: [UInt16](repeating: 1500, count: 8192 * 6144))
            .write(to: dir.file("depth/000000.png"), compressionLevel: 9)
        try PNGImage(width: 8192, height: 6144, channels: 1, samples: [UInt8](repeating: 2, count: 8192 * 6144))
            .write(to: dir.file("confidence/000000.png"), compressionLevel: 9)
        #expect(FileBytes.size(of: dir.file("depth/000000.png"))! < 1 << 20)
        Truth.expectError(.outOfRange, at: .frame(0), file: "depth/000000.png") { _ = try StrayCapture(path: dir.path) }
        do {
            _ = try StrayCapture(path: dir.path)
        } catch let error as PointPaintError {
            #expect(error.message == "expected a depth map no larger than the 160x120 image it belongs to, found 8192x6144")
        }
        // One pixel wider than the image, in the image's aspect ratio within rounding: refused too.
        try PNGImage(width: 161, height: 120, channels: 1, samples16: [UInt16](repeating: 1500, count: 161 * 120))
            .write(to: dir.file("depth/000000.png"))
        Truth.expectError(.outOfRange, at: .frame(0), file: "depth/000000.png") { _ = try StrayCapture(path: dir.path) }
    }

    // MARK: - Matching by frame number, counts

    @Test func framesMatchByNumberAndMissingDepthIsNoDepth() throws {
        let dir = try Self.jpegFrames.copy()
        try FileManager.default.removeItem(atPath: dir.file("depth/000001.png"))
        try Self.removeOdometryLine(dir, 4)  // frame 2
        let source = try StrayCapture(path: dir.path)
        #expect(source.frameCount == 3)
        #expect(source.countMismatch == "odometry.csv holds 3 rows (frames 0 to 3), rgb/ 4 images; 3 frames have both")
        #expect(source.notes.map(\.text).contains("1 frame without a depth map"))
        #expect(try source.frame(at: 1).depth == nil)
        // The third frame is frame number 3: its pose, image and depth.
        try Truth.expectFrames(source, [(0, 0), (2, 3)], of: Self.synth) { dir.file(String(format: "rgb/%06d.jpg", $0 == 2 ? 3 : $0)) }
        try Truth.expectAccurate(source, frames: [(0, 0), (2, 3)], synth: Self.synth)
    }

    @Test func videoAndOdometryCountsThatDisagree() throws {
        var dir = try Self.video.copy()
        try FileManager.default.removeItem(atPath: dir.file("rgb.mp4"))
        try Self.encodeVideo(to: dir.file("rgb.mp4"), count: 3)
        var source = try StrayCapture(path: dir.path)
        #expect(source.frameCount == 3)
        #expect(source.countMismatch == "odometry.csv holds 4 rows (frames 0 to 3), rgb.mp4 3 frames; 3 frames have both")
        #expect(try Self.load(source, [0, 1, 2]).count == 3)

        dir = try Self.video.copy()
        try Self.removeOdometryLine(dir, 5)  // frame 3
        source = try StrayCapture(path: dir.path)
        #expect(source.frameCount == 3)
        #expect(source.countMismatch == "odometry.csv holds 3 rows (frames 0 to 2), rgb.mp4 4 frames; 3 frames have both")
        try Truth.expectFrames(source, [(2, 2)], of: Self.synth) { _ in nil }
        Truth.expectError(.outOfRange, at: .frame(3)) { _ = try source.frame(at: 3) }
    }

    // MARK: - Bad input

    @Test func csvColumnsAndNumbers() throws {
        var dir = try Self.jpegFrames.copy()
        try Truth.replace(", qw,", with: ", w,", in: dir.file("odometry.csv"))
        Truth.expectError(.missing, at: .line(1), file: "odometry.csv") { _ = try StrayCapture(path: dir.path) }

        dir = try Self.jpegFrames.copy()
        try Self.editOdometry(dir, line: 3, column: "qy", to: "0.5x")
        do {
            _ = try StrayCapture(path: dir.path)
            Issue.record("expected an error")
        } catch let error as PointPaintError {
            #expect(error.kind == .malformed && error.place == .line(3) && error.file == dir.file("odometry.csv"))
            // The one wording check of this family: the column is named.
            #expect(error.message == "column qy: expected a number, found '0.5x'", "\(error)")
        }

        for (column, value) in [("x", ""), ("timestamp", "0x1p3"), ("frame", "2.0"), ("fx", "1e400")] {
            dir = try Self.jpegFrames.copy()
            try Self.editOdometry(dir, line: 4, column: column, to: value)
            Truth.expectError(.malformed, at: .line(4), file: "odometry.csv") { _ = try StrayCapture(path: dir.path) }
        }
        dir = try Self.jpegFrames.copy()
        try Self.editOdometry(dir, line: 4, column: "fy", to: "-128.0")
        Truth.expectError(.outOfRange, at: .line(4), file: "odometry.csv") { _ = try StrayCapture(path: dir.path) }
        // A row short of fields.
        dir = try Self.jpegFrames.copy()
        try Self.editOdometry(dir, line: 2, column: "distortion_center_y", to: "")
        try Truth.replace(", , \n", with: ", \n", in: dir.file("odometry.csv"))
        Truth.expectError(.malformed, at: .line(2), file: "odometry.csv") { _ = try StrayCapture(path: dir.path) }
    }

    @Test func quaternionsThatAreNotRotations() throws {
        var dir = try Self.jpegFrames.copy()
        try Self.editOdometry(dir, line: 3, column: "qw", to: "nan")
        Truth.expectError(.malformed, at: .line(3), file: "odometry.csv") { _ = try StrayCapture(path: dir.path) }

        dir = try Self.jpegFrames.copy()
        // Off unit length by 1 % is refused; by 0.05 % it is normalised.
        let text = try String(contentsOfFile: dir.file("odometry.csv"), encoding: .utf8)
        let fields = text.components(separatedBy: "\n")[2].components(separatedBy: ", ")
        let q = fields[5 ..< 9].map { Double($0)! }
        for (scale, fails) in [(1.01, true), (1.0005, false)] {
            dir = try Self.jpegFrames.copy()
            for (name, value) in zip(["qx", "qy", "qz", "qw"], q) { try Self.editOdometry(dir, line: 3, column: name, to: "\(value * scale)") }
            if fails {
                Truth.expectError(.malformed, at: .line(3), file: "odometry.csv") { _ = try StrayCapture(path: dir.path) }
            } else {
                Self.expectCamera(try StrayCapture(path: dir.path).frameInfo(at: 1).camera, equals: Self.synth.camera(frame: 1))
            }
        }
    }

    @Test func framesAndTimesThatDoNotIncrease() throws {
        var dir = try Self.jpegFrames.copy()
        try Self.editOdometry(dir, line: 4, column: "frame", to: "000001")
        Truth.expectError(.malformed, at: .line(4), file: "odometry.csv") { _ = try StrayCapture(path: dir.path) }
        dir = try Self.jpegFrames.copy()
        try Self.editOdometry(dir, line: 5, column: "timestamp", to: "\(CaptureSynthesizer.strayStartTime)")
        Truth.expectError(.malformed, at: .line(5), file: "odometry.csv") { _ = try StrayCapture(path: dir.path) }
    }

    @Test(arguments: [
        ("128.0, 0.0, 80.0\n0.0, 128.0, 60.0", PointPaintError.Kind.malformed, PointPaintError.Place?.none),
        ("128.0, 0.0, 80.0\n0.0, 128.0, 60.0\n0.0, 0.0, 1.0\n1, 2, 3", .malformed, .line(4)),
        ("128.0, 0.0, 80.0\n0.0, 128.0, sixty\n0.0, 0.0, 1.0", .malformed, .line(2)),
        ("128.0, 0.0, 80.0\n0.0, 128.0, 60.0\n0.0, 1.0, 1.0", .malformed, .line(3)),
        ("128.0, 0.5, 80.0\n0.0, 128.0, 60.0\n0.0, 0.0, 1.0", .unsupported, .line(1)),
        ("0.0, 0.0, 80.0\n0.0, 128.0, 60.0\n0.0, 0.0, 1.0", .outOfRange, .line(1)),
        ("128.0, 0.0, 80.0, 1\n0.0, 128.0, 60.0\n0.0, 0.0, 1.0", .malformed, .line(1)),
        // Intrinsics of an image twice as large (frames scaled down after recording).
        ("256.0, 0.0, 160.0\n0.0, 256.0, 120.0\n0.0, 0.0, 1.0", .malformed, nil),
    ])
    func badCameraMatrices(text: String, kind: PointPaintError.Kind, place: PointPaintError.Place?) throws {
        let dir = try Self.pngDepth.copy()
        try dir.write(text, to: "camera_matrix.csv")
        Truth.expectError(kind, at: place, file: "camera_matrix.csv") { _ = try StrayCapture(path: dir.path) }
    }

    @Test func missingPartsOfTheRecording() throws {
        var dir = try Self.jpegFrames.copy()
        try FileManager.default.removeItem(atPath: dir.file("odometry.csv"))
        Truth.expectError(.missing, at: nil, file: "odometry.csv") { _ = try StrayCapture(path: dir.path) }
        dir = try Self.jpegFrames.copy()
        try FileManager.default.removeItem(atPath: dir.file("rgb"))
        Truth.expectError(.missing, at: nil, file: "rgb.mp4") { _ = try StrayCapture(path: dir.path) }
        Truth.expectError(.missing, at: nil) { _ = try StrayCapture(path: dir.file("nothing")) }
        // Two files of one frame number.
        dir = try Self.jpegFrames.copy()
        try FileManager.default.copyItem(atPath: dir.file("rgb/000001.jpg"), toPath: dir.file("rgb/1.jpg"))
        Truth.expectError(.malformed, at: nil) { _ = try StrayCapture(path: dir.path) }
        // No row has a colour frame.
        dir = try Self.jpegFrames.copy()
        for index in 0 ..< 4 { try FileManager.default.removeItem(atPath: dir.file(String(format: "rgb/%06d.jpg", index))) }
        Truth.expectError(.missing, at: nil, file: "odometry.csv") { _ = try StrayCapture(path: dir.path) }
    }

    @Test func badDepthAndImageFiles() throws {
        let dir = try Self.jpegFrames.copy()
        try PNGImage(width: 32, height: 24, channels: 1, samples16: [UInt16](repeating: 1000, count: 32 * 24)).write(to: dir.file("depth/000001.png"))
        try PNGImage(width: 64, height: 48, channels: 1, samples: [UInt8](repeating: 7, count: 64 * 48)).write(to: dir.file("confidence/000002.png"))
        let jpeg = try FileBytes.read(dir.file("rgb/000003.jpg"))
        try Data(jpeg[0 ..< jpeg.count / 2]).write(to: URL(fileURLWithPath: dir.file("rgb/000003.jpg")))
        let source = try StrayCapture(path: dir.path)
        Truth.expectError(.malformed, at: .frame(1), file: "depth/000001.png") { _ = try source.frame(at: 1) }
        Truth.expectError(.malformed, at: .frame(2), file: "confidence/000002.png") { _ = try source.frame(at: 2) }
        Truth.expectError(.malformed, at: .frame(3), file: "rgb/000003.jpg") { _ = try source.frame(at: 3) }
        // The parallel loader delivers the frame before the first failure, then throws it.
        let sequence = source.frames([0, 1, 2], threads: 2)
        #expect(try sequence.next()?.index == 0)
        Truth.expectError(.malformed, at: .frame(1), file: "depth/000001.png") { _ = try sequence.next() }
        #expect(try sequence.next() == nil)
        // A first depth map of another aspect ratio cannot be registered to the image.
        try PNGImage(width: 64, height: 64, channels: 1, samples16: [UInt16](repeating: 1000, count: 64 * 64)).write(to: dir.file("depth/000000.png"))
        Truth.expectError(.malformed, at: .frame(0), file: "depth/000000.png") { _ = try StrayCapture(path: dir.path) }
        // Depth maps of two kinds.
        try FileManager.default.removeItem(atPath: dir.file("depth/000000.png"))
        try dir.write(Data(CaptureSynthesizer.npyFile([UInt16](repeating: 0, count: 64 * 48), rows: 48, columns: 64)), to: "depth/000000.npy")
        Truth.expectError(.malformed, at: nil) { _ = try StrayCapture(path: dir.path) }
    }

    @Test func badNumPyDepthMaps() throws {
        let dir = try Self.npyDepth.copy()
        let good = try FileBytes.read(dir.file("depth/000001.npy"))
        let header = String(decoding: good[10 ..< 128], as: UTF8.self)
        func damage(_ bytes: [UInt8], _ kind: PointPaintError.Kind, sourceLocation: SourceLocation = #_sourceLocation) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: dir.file("depth/000001.npy")))
            let source = try StrayCapture(path: dir.path)
            Truth.expectError(kind, at: .frame(1), file: "depth/000001.npy", sourceLocation: sourceLocation) { _ = try source.frame(at: 1) }
        }
        func withHeader(_ text: String) -> [UInt8] {
            precondition(text.utf8.count == header.utf8.count)
            return Array(good[0 ..< 10]) + Array(text.utf8) + Array(good[128...])
        }
        try damage(Array(good.dropLast(2)), .malformed)  // truncated
        try damage(good + [0, 0], .malformed)  // longer than its shape
        try damage([0x89] + good.dropFirst(), .malformed)  // not NPY
        try damage(withHeader(header.replacingOccurrences(of: "<u2", with: "<f2")), .unsupported)
        try damage(withHeader(header.replacingOccurrences(of: "False", with: "True ")), .unsupported)
        try damage(withHeader(header.replacingOccurrences(of: "(48, 64)", with: "(64, 48)")), .malformed)  // another shape
        try damage(withHeader(header.replacingOccurrences(of: "'shape'", with: "'shapf'")), .malformed)
        try damage(withHeader(header.replacingOccurrences(of: "(48, 64)", with: "(48; 64)")), .malformed)
        var version = good
        version[6] = 4
        try damage(version, .unsupported)
        // A wrongly sized map of the right length: 96 × 32 holds as many values as 64 × 48.
        try damage(withHeader(header.replacingOccurrences(of: "(48, 64)", with: "(32, 96)")), .malformed)
    }

    @Test func corruptVideos() throws {
        var dir = try Self.video.copy()
        try dir.write(Data(repeating: 0x42, count: 5000), to: "rgb.mp4")
        Truth.expectError(.malformed, at: nil, file: "rgb.mp4") { _ = try StrayCapture(path: dir.path) }

        // Cut short (the index first, so it opens): the frames before the cut are delivered,
        // then the damage, at its frame.
        dir = try Self.video.copy()
        try Self.encodeVideo(to: dir.file("rgb.mp4"), codec: Self.hevc + ["-movflags", "+faststart"])
        let bytes = try FileBytes.read(dir.file("rgb.mp4"))
        try dir.write(Data(bytes.prefix(bytes.count * 6 / 10)), to: "rgb.mp4")
        let source = try StrayCapture(path: dir.path)
        #expect(source.frameCount == 4)
        let sequence = source.frames([0, 1, 2, 3], threads: 2)
        var delivered = 0
        do {
            while let frame = try sequence.next() {
                #expect(YCbCrPlanes(frame.image) == YCbCrPlanes(Self.synth.encode(Self.synth.render(frame: frame.index))))
                delivered += 1
            }
            Issue.record("expected the cut video to fail")
        } catch let error as PointPaintError {
            #expect(error.kind == .malformed && error.file == dir.file("rgb.mp4"), "\(error)")
            #expect(error.place.map { if case .frame = $0 { true } else { false } } == true, "\(error)")
        }
        #expect(delivered < 4)
        #expect(try sequence.next() == nil)
    }
}
