import Foundation
import Testing
@testable import PointPaint

/// 3D Scanner App's "All Data" export, written by the synthesizer as the app lays it out (fewer
/// images than frames, EXIF orientation 6), read back against the truth; the column-major pose
/// variant recognised; every kind of damaged export refused with its file and place.
@Suite struct ScannerAppCaptureTests {
    typealias Truth = CaptureSourceTruth
    static let synth = Truth.synthesizer(frames: 5)

    static let everyImage = Truth.Layout { try synth.writeScannerApp(to: $0) }
    static let everyOtherImage = Truth.Layout { try synth.writeScannerApp(to: $0, imageEvery: 2) }

    /// A fresh copy of an export of the synthetic scene with a JPEG for every frame or every other.
    static func export(imageEvery: Int = 1) throws -> TemporaryDirectory {
        try (imageEvery == 1 ? everyImage : everyOtherImage).copy()
    }

    static func name(_ kind: String, _ number: Int, _ suffix: String) -> String { String(format: "\(kind)_%05d\(suffix)", number) }

    @Test func roundTripMatchesTheTruth() throws {
        let dir = try Self.export(imageEvery: 2)
        #expect(try CaptureFormat.detect(dir.path) == .scannerApp)
        let source = try ScannerAppCapture(path: dir.path)
        // Frames 0, 2 and 4 have images; 1 and 3 are skipped and counted.
        #expect(source.frameCount == 3 && source.countMismatch == nil)
        #expect(source.cloudFile == dir.file("points.ply"))
        #expect(source.imageInfo == CaptureImageInfo(width: 160, height: 120))
        #expect(source.notes.map(\.text).contains("skipped 2 frames without an image (frame_NNNNN.json without .jpg)"))
        #expect(source.notes.map(\.text).contains("poses: cameraPoseARFrame, camera-to-world row by row with ARKit camera axes, used as stored"))
        #expect(source.notes.map(\.text).contains("depth: depth_NNNNN.png, 16-bit millimetres, 64x48"))
        let frames = [(0, 0), (1, 2), (2, 4)]
        for (index, truthFrame) in frames {
            #expect(try source.frameInfo(at: index).timestamp == CaptureSynthesizer.scannerAppFirstTime + Double(truthFrame) / 30)
        }
        // The JPEGs carry EXIF orientation 6; the pixels are read as stored.
        let jpeg = try #require(try source.jpegData(at: 0))
        #expect(Array(jpeg[6 ..< 10]) == Array("Exif".utf8))
        try Truth.expectFrames(source, frames, of: Self.synth) { dir.file(Self.name("frame", frames[$0].1, ".jpg")) }
        try Truth.expectAccurate(source, frames: frames, synth: Self.synth)
    }

    @Test func imagesWithoutFrameFilesAndFramesWithoutDepthAreCounted() throws {
        let dir = try Self.export()
        try FileManager.default.removeItem(atPath: dir.file(Self.name("frame", 2, ".json")))
        try FileManager.default.removeItem(atPath: dir.file(Self.name("depth", 3, ".png")))
        try FileManager.default.removeItem(atPath: dir.file(Self.name("conf", 4, ".png")))
        try FileManager.default.removeItem(atPath: dir.file("points.ply"))
        let source = try ScannerAppCapture(path: dir.path)
        #expect(source.frameCount == 4 && source.cloudFile == nil)
        #expect(source.notes.map(\.text).contains("skipped 1 JPEG without a frame_NNNNN.json"))
        #expect(source.notes.map(\.text).contains("1 frame without a depth map"))
        #expect(source.notes.map(\.text).contains("1 depth map without a confidence map (their depths count as high)"))
        // Matched by the number in the names: the third frame is frame_00003.
        #expect(try source.frameInfo(at: 2).camera == Self.synth.camera(frame: 3))
        #expect(try source.frame(at: 2).depth == nil)
        #expect(try source.frame(at: 3).depth == Truth.writtenDepth(Self.synth, frame: 4, confidence: false))
    }

    /// Rewrites every frame file's pose column by column, as one exporter stores it.
    static func transposePoses(in dir: TemporaryDirectory, frames: Range<Int>, zeroTranslation: Int? = nil) throws {
        for number in frames {
            try Truth.editJSON(dir.file(name("frame", number, ".json"))) { object in
                var m = object["cameraPoseARFrame"] as! [Double]
                if number == zeroTranslation { for i in [3, 7, 11] { m[i] = 0 } }
                object["cameraPoseARFrame"] = (0 ..< 16).map { m[($0 % 4) * 4 + $0 / 4] }
            }
        }
    }

    @Test func columnMajorPosesAreRecognised() throws {
        let dir = try Self.export()
        // Frame 0 with a zero translation has the same shape either way: the others decide.
        try Self.transposePoses(in: dir, frames: 0 ..< 5, zeroTranslation: 0)
        let source = try ScannerAppCapture(path: dir.path)
        #expect(source.notes.contains { $0.text.hasPrefix("poses: cameraPoseARFrame stored column by column") })
        for index in 1 ..< 5 {
            let camera = try source.frameInfo(at: index).camera
            let error = zip(camera.transform.columnMajor, Self.synth.camera(frame: index).transform.columnMajor).map { abs($0 - $1) }.max()!
            #expect(error < 1e-12)
        }
        let first = try source.frameInfo(at: 0).camera.transform, truth = Self.synth.camera(frame: 0).transform
        let rotationError = [first.columns.0 - truth.columns.0, first.columns.1 - truth.columns.1, first.columns.2 - truth.columns.2]
            .map { max(abs($0.x), abs($0.y), abs($0.z), abs($0.w)) }.max()!
        #expect(rotationError < 1e-12 && first.columns.3 == SIMD4(0, 0, 0, 1))

        // One file in the other order.
        try Self.transposePoses(in: dir, frames: 3 ..< 4)
        Truth.expectError(.malformed, at: .jsonPath("cameraPoseARFrame"), file: Self.name("frame", 3, ".json")) { _ = try ScannerAppCapture(path: dir.path) }
    }

    @Test func columnMajorIntrinsicsAreRecognised() throws {
        let dir = try Self.export()
        for number in 0 ..< 5 {
            try Truth.replace("\"intrinsics\": [128, 0, 80, 0, 128, 60, 0, 0, 1]", with: "\"intrinsics\": [128, 0, 0, 0, 128, 0, 80, 60, 1]",
                              in: dir.file(Self.name("frame", number, ".json")))
        }
        let source = try ScannerAppCapture(path: dir.path)
        #expect(source.notes.contains { $0.text.hasPrefix("intrinsics: per frame, intrinsics 3×3 column by column") })
        #expect(try source.frameInfo(at: 2).camera == Self.synth.camera(frame: 2))
    }

    @Test func depthFromOpenEXR() throws {
        let dir = try Self.export()
        // The OpenEXR fixture is a 64 × 48 float ramp in metres with one NaN.
        let fixture = RepositoryFile.path("Tests/Fixtures/EXR/z_zip_float.exr")
        try FileManager.default.removeItem(atPath: dir.file(Self.name("depth", 1, ".png")))
        try FileManager.default.copyItem(atPath: fixture, toPath: dir.file(Self.name("depth", 1, ".exr")))
        let source = try ScannerAppCapture(path: dir.path)
        #expect(source.notes.map(\.text).contains("depth: depth_NNNNN.png, 16-bit millimetres; depth_NNNNN.exr, float metres, 64x48"))
        let depth = try #require(try source.frame(at: 1).depth)
        let exr = try EXRImage(contentsOf: fixture)
        #expect(depth.depth.map(\.bitPattern) == exr.values.map(\.bitPattern))
        #expect(depth.confidence == Self.synth.renderDepth(frame: 1, width: 64, height: 48).confidence)
    }

    @Test(arguments: [
        ("\"cameraPoseARFrame\": [", "\"cameraPoseARFrame\": [1, ", PointPaintError.Kind.malformed, "cameraPoseARFrame"),
        ("\"cameraPoseARFrame\": [", "\"cameraPoseARFrame\": [NaN, ", .malformed, "cameraPoseARFrame"),
        ("\"cameraPoseARFrame\"", "\"pose\"", .missing, "cameraPoseARFrame"),
        ("\"intrinsics\": [128, 0, 80, 0, 128, 60, 0, 0, 1]", "\"intrinsics\": [128, 0, 80, 0, 128, 60, 0, 0]", .malformed, "intrinsics"),
        ("\"intrinsics\": [128, 0, 80, 0, 128, 60, 0, 0, 1]", "\"intrinsics\": [128, 0, 80, 0, -128, 60, 0, 0, 1]", .outOfRange, "intrinsics"),
        ("\"intrinsics\": [128, 0, 80, 0, 128, 60, 0, 0, 1]", "\"intrinsics\": [128, 0, 80, 0, 128, 60, 0, 1, 1]", .malformed, "intrinsics"),
        ("\"time\": ", "\"time\": \"soon\", \"t\": ", .malformed, "time"),
        ("\"time\": ", "\"tme\": ", .missing, "time"),
    ])
    func badFrameFiles(old: String, new: String, kind: PointPaintError.Kind, path: String) throws {
        let dir = try Self.export()
        let file = Self.name("frame", 2, ".json")
        try Truth.replace(old, with: new, in: dir.file(file))
        Truth.expectError(kind, at: .jsonPath(path), file: file) { _ = try ScannerAppCapture(path: dir.path) }
    }

    @Test func badPosesAndTimes() throws {
        let dir = try Self.export()
        let file = dir.file(Self.name("frame", 2, ".json"))
        let original = try String(contentsOfFile: file, encoding: .utf8)
        func edit(_ change: @escaping (inout [Double]) -> Void) throws {
            try original.write(toFile: file, atomically: true, encoding: .utf8)
            try Truth.editJSON(file) { object in
                var m = object["cameraPoseARFrame"] as! [Double]
                change(&m)
                object["cameraPoseARFrame"] = m
            }
        }
        // A NaN element names its index.
        try original.replacingOccurrences(of: "\"cameraPoseARFrame\": [", with: "\"cameraPoseARFrame\": [NaN, ")
            .replacingOccurrences(of: ", 1],\n  \"exposureDuration\"", with: "],\n  \"exposureDuration\"").write(toFile: file, atomically: true, encoding: .utf8)
        Truth.expectError(.malformed, at: .jsonPath("cameraPoseARFrame[0]")) { _ = try ScannerAppCapture(path: dir.path) }
        // Neither order: no 0, 0, 0, 1 row or column.
        try edit { $0[15] = 2 }
        Truth.expectError(.malformed, at: .jsonPath("cameraPoseARFrame")) { _ = try ScannerAppCapture(path: dir.path) }
        // A singular rotation.
        try edit { m in for i in [0, 1, 2, 4, 5, 6] { m[i] = 0 } }
        Truth.expectError(.malformed, at: .jsonPath("cameraPoseARFrame"), file: Self.name("frame", 2, ".json")) { _ = try ScannerAppCapture(path: dir.path) }
        // A time that does not increase.
        try original.replacingOccurrences(of: "\"time\": ", with: "\"time\": 1, \"t\": ").write(toFile: file, atomically: true, encoding: .utf8)
        Truth.expectError(.malformed, at: .frame(2), file: Self.name("frame", 2, ".json")) { _ = try ScannerAppCapture(path: dir.path) }
        // No frames at all.
        let empty = TemporaryDirectory()
        Truth.expectError(.missing, at: nil) { _ = try ScannerAppCapture(path: empty.path) }
    }

    @Test func badImagesAndDepthMaps() throws {
        let dir = try Self.export()
        let jpeg = dir.file(Self.name("frame", 1, ".jpg"))
        try Data(try FileBytes.read(jpeg).prefix(500)).write(to: URL(fileURLWithPath: jpeg))
        try PNGImage(width: 32, height: 24, channels: 1, samples16: [UInt16](repeating: 1000, count: 32 * 24)).write(to: dir.file(Self.name("depth", 2, ".png")))
        try PNGImage(width: 64, height: 48, channels: 1, samples: [UInt8](repeating: 3, count: 64 * 48)).write(to: dir.file(Self.name("conf", 3, ".png")))
        try PNGImage(width: 32, height: 24, channels: 1, samples: [UInt8](repeating: 2, count: 32 * 24)).write(to: dir.file(Self.name("conf", 4, ".png")))
        let source = try ScannerAppCapture(path: dir.path)
        Truth.expectError(.malformed, at: .frame(1), file: Self.name("frame", 1, ".jpg")) { _ = try source.frame(at: 1) }
        Truth.expectError(.malformed, at: .frame(2), file: Self.name("depth", 2, ".png")) { _ = try source.frame(at: 2) }
        Truth.expectError(.malformed, at: .frame(3), file: Self.name("conf", 3, ".png")) { _ = try source.frame(at: 3) }
        Truth.expectError(.malformed, at: .frame(4), file: Self.name("conf", 4, ".png")) { _ = try source.frame(at: 4) }
        Truth.expectError(.outOfRange, at: .frame(5)) { _ = try source.frame(at: 5) }
    }
}
