import Foundation
import Testing
@testable import PointPaint

/// Polycam's raw data, written by the synthesizer as Polycam lays it out, read back against the
/// truth; and every kind of damaged export refused with its file and place.
@Suite struct PolycamCaptureTests {
    typealias Truth = CaptureSourceTruth
    static let synth = Truth.synthesizer()

    static let corrected = Truth.Layout { try synth.writePolycam(to: $0) }
    static let uncorrected = Truth.Layout { try synth.writePolycam(to: $0, corrected: false) }

    /// A fresh copy of an export of the synthetic scene.
    static func export(corrected: Bool = true) throws -> TemporaryDirectory {
        try (corrected ? Self.corrected : Self.uncorrected).copy()
    }

    /// The name of frame `index`'s files, without the extension.
    static func name(_ index: Int) -> String { String(synth.polycamMicroseconds(frame: index)) }

    @Test func roundTripMatchesTheTruth() throws {
        let dir = try Self.export()
        #expect(try CaptureFormat.detect(dir.path) == .polycam)
        let source = try PolycamCapture(path: dir.path)
        #expect(source.frameCount == 4 && source.countMismatch == nil && source.cloudFile == nil)
        #expect(source.imageInfo == CaptureImageInfo(width: 160, height: 120))
        #expect(source.notes.contains { $0.text.hasPrefix("images and cameras: keyframes/corrected_images/") })
        #expect(source.notes.map(\.text).contains("depth: keyframes/depth/, 16-bit millimetres, 64x48; confidence 0, 127, 255 read as low, medium, high"))
        #expect(source.notes.contains { $0.text.hasPrefix("blur_score: ") })
        for index in 0 ..< 4 {
            // File names are microseconds, sorted as numbers (999900 before 1033333).
            let info = try source.frameInfo(at: index)
            #expect(info.timestamp == Double(Self.synth.polycamMicroseconds(frame: index)) / 1e6)
            #expect(abs(info.timestamp - (0.9999 + Double(index) / 30)) < 1e-6)
        }
        try Truth.expectFrames(source, (0 ..< 4).map { ($0, $0) }, of: Self.synth) { dir.file("keyframes/corrected_images/\(Self.name($0)).jpg") }
        try Truth.expectAccurate(source, frames: (0 ..< 4).map { ($0, $0) }, synth: Self.synth)
    }

    @Test func withoutTheCorrectedSetTheRawPosesAreRead() throws {
        let dir = try Self.export()
        for name in ["corrected_images", "corrected_cameras"] { try FileManager.default.removeItem(atPath: dir.file("keyframes/\(name)")) }
        let source = try PolycamCapture(path: dir.path)
        #expect(source.notes.contains { $0.text.hasPrefix("images and cameras: keyframes/images/ and cameras/ (no corrected set") })
        for index in 0 ..< 4 {
            #expect(try source.frameInfo(at: index).camera == Self.synth.polycamRawCamera(frame: index))
        }
        // The raw poses drift, so the corrected set is what matched the truth above.
        #expect(try source.frameInfo(at: 3).camera != Self.synth.camera(frame: 3))
    }

    @Test func anExportInItsOwnFolderIsFound() throws {
        let dir = TemporaryDirectory("polycam")
        try Self.synth.writePolycam(to: dir.path, corrected: false, topLevelFolder: "Scan 2024-05-01")
        #expect(try CaptureFormat.detect(dir.path) == .polycam)
        let source = try PolycamCapture(path: dir.path)
        #expect(source.root == dir.file("Scan 2024-05-01"))
        #expect(source.notes.map(\.text).contains("export in its own folder: Scan 2024-05-01/"))
        #expect(source.frameCount == 4)
        // Two folders: neither is taken.
        try FileManager.default.createDirectory(atPath: dir.file("other"), withIntermediateDirectories: true)
        Truth.expectError(.missing, at: nil) { _ = try PolycamCapture(path: dir.path) }
    }

    @Test func aFrameWithoutItsCameraIsACountMismatch() throws {
        let dir = try Self.export(corrected: false)
        try FileManager.default.removeItem(atPath: dir.file("keyframes/cameras/\(Self.name(2)).json"))
        let source = try PolycamCapture(path: dir.path)
        #expect(source.frameCount == 3)
        #expect(source.countMismatch == "keyframes/ holds 4 images, 3 cameras, 4 depth maps, 4 confidence maps; 3 frames have all of them")
        // Frames are matched by timestamp: the third frame is the fourth file.
        #expect(try source.frameInfo(at: 2).camera == Self.synth.camera(frame: 3))
    }

    @Test func missingFoldersAndStrayFiles() throws {
        let empty = TemporaryDirectory()
        Truth.expectError(.missing, at: nil) { _ = try PolycamCapture(path: empty.path) }
        var dir = try Self.export(corrected: false)
        try FileManager.default.removeItem(atPath: dir.file("keyframes/cameras"))
        Truth.expectError(.missing, at: nil, file: "keyframes/cameras") { _ = try PolycamCapture(path: dir.path) }

        dir = try Self.export(corrected: false)
        try dir.write("", to: "keyframes/images/notes.txt")
        Truth.expectError(.malformed, at: nil, file: "notes.txt") { _ = try PolycamCapture(path: dir.path) }

        dir = try Self.export(corrected: false)
        try FileManager.default.copyItem(atPath: dir.file("keyframes/images/\(Self.name(1)).jpg"), toPath: dir.file("keyframes/images/0\(Self.name(1)).jpg"))
        Truth.expectError(.malformed, at: nil) { _ = try PolycamCapture(path: dir.path) }

        dir = try Self.export(corrected: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.file("keyframes/cameras")) {
            try FileManager.default.removeItem(atPath: dir.file("keyframes/cameras/\(name)"))
        }
        Truth.expectError(.missing, at: nil, file: "keyframes") { _ = try PolycamCapture(path: dir.path) }
    }

    @Test(arguments: [
        ("\"fx\": 128", "\"f\": 128", PointPaintError.Kind.missing, "fx"),
        ("\"fx\": 128", "\"fx\": NaN", .malformed, "fx"),
        ("\"fx\": 128", "\"fx\": -128", .outOfRange, "fx"),
        ("\"width\": 160", "\"width\": 160.5", .outOfRange, "width"),
        ("\"cy\": 60", "\"cy\": \"60\"", .malformed, "cy"),
        ("\"t_03\": ", "\"t_3\": ", .missing, "t_03"),
        ("\"t_12\": ", "\"t_12\": Infinity, \"x\": ", .malformed, "t_12"),
    ])
    func badCameraFiles(old: String, new: String, kind: PointPaintError.Kind, path: String) throws {
        let dir = try Self.export(corrected: false)
        let file = "keyframes/cameras/\(Self.name(1)).json"
        try Truth.replace(old, with: new, in: dir.file(file))
        Truth.expectError(kind, at: .jsonPath(path), file: file) { _ = try PolycamCapture(path: dir.path) }
    }

    @Test func singularPoseAndUnreadableJSON() throws {
        var dir = try Self.export(corrected: false)
        let file = "keyframes/cameras/\(Self.name(1)).json"
        try Truth.editJSON(dir.file(file)) { object in
            for row in 0 ..< 3 { object["t_\(row)0"] = 0; object["t_\(row)1"] = 0 }
        }
        Truth.expectError(.malformed, at: .jsonPath("t_00 … t_23"), file: file) { _ = try PolycamCapture(path: dir.path) }

        dir = try Self.export(corrected: false)
        try dir.write("{\"fx\": 128,\n \"fy\": }", to: file)
        do {
            _ = try PolycamCapture(path: dir.path)
            Issue.record("expected an error")
        } catch let error as PointPaintError {
            #expect(error.kind == .malformed && error.file?.hasSuffix(file) == true)
            guard case .byteOffset(let offset) = error.place else { Issue.record("expected a byte offset: \(error)"); return }
            #expect(offset >= 18 && offset <= 21, "\(error)")
            // The one wording check of this family.
            #expect(error.message.hasPrefix("expected JSON, found text that does not parse"), "\(error)")
        }
    }

    @Test func framesThatDisagreeWithTheCapture() throws {
        var dir = try Self.export(corrected: false)
        // A camera file for another image size.
        try Truth.replace("\"width\": 160", with: "\"width\": 320", in: dir.file("keyframes/cameras/\(Self.name(2)).json"))
        Truth.expectError(.malformed, at: .frame(2)) { _ = try PolycamCapture(path: dir.path) }
        // Camera files and the first image disagree.
        for index in [0, 1, 3] {
            try Truth.replace("\"width\": 160", with: "\"width\": 320", in: dir.file("keyframes/cameras/\(Self.name(index)).json"))
        }
        Truth.expectError(.malformed, at: .frame(0), file: ".jpg") { _ = try PolycamCapture(path: dir.path) }

        // An image of another size, a corrupt image, a missing image.
        dir = try Self.export(corrected: false)
        let small = YCbCrPlanes(width: 80, height: 60, subsampling: .yuv420, luma: [UInt8](repeating: 90, count: 80 * 60),
                                cb: [UInt8](repeating: 128, count: 40 * 30), cr: [UInt8](repeating: 128, count: 40 * 30))
        try Data(try JPEGEncoder.encode(small)).write(to: URL(fileURLWithPath: dir.file("keyframes/images/\(Self.name(1)).jpg")))
        let jpeg2 = dir.file("keyframes/images/\(Self.name(2)).jpg")
        let bytes = try FileBytes.read(jpeg2)
        try Data(bytes[0 ..< bytes.count / 2]).write(to: URL(fileURLWithPath: jpeg2))
        let source = try PolycamCapture(path: dir.path)
        Truth.expectError(.malformed, at: .frame(1), file: "\(Self.name(1)).jpg") { _ = try source.frame(at: 1) }
        Truth.expectError(.malformed, at: .frame(2), file: "\(Self.name(2)).jpg") { _ = try source.frame(at: 2) }
        try FileManager.default.removeItem(atPath: jpeg2)
        Truth.expectError(.missing, at: .frame(2), file: "\(Self.name(2)).jpg") { _ = try source.jpegData(at: 2) }
        Truth.expectError(.outOfRange, at: .frame(4)) { _ = try source.frame(at: 4) }
        Truth.expectError(.outOfRange, at: .frame(-1)) { _ = try source.frameInfo(at: -1) }
    }

    @Test func badDepthAndConfidenceMaps() throws {
        let dir = try Self.export(corrected: false)
        func depth(_ index: Int) -> String { dir.file("keyframes/depth/\(Self.name(index)).png") }
        try PNGImage(width: 32, height: 24, channels: 1, samples16: [UInt16](repeating: 1000, count: 32 * 24)).write(to: depth(1))
        try PNGImage(width: 64, height: 48, channels: 1, samples: [UInt8](repeating: 10, count: 64 * 48)).write(to: depth(2))
        try PNGImage(width: 64, height: 48, channels: 1, samples: [UInt8](repeating: 1, count: 64 * 48))
            .write(to: dir.file("keyframes/confidence/\(Self.name(3)).png"))
        let source = try PolycamCapture(path: dir.path)
        Truth.expectError(.malformed, at: .frame(1), file: "\(Self.name(1)).png") { _ = try source.frame(at: 1) }
        Truth.expectError(.unsupported, at: .frame(2), file: "\(Self.name(2)).png") { _ = try source.frame(at: 2) }
        Truth.expectError(.malformed, at: .frame(3), file: "confidence/\(Self.name(3)).png") { _ = try source.frame(at: 3) }
        // A first depth map that cannot be registered to the image (another aspect ratio).
        try PNGImage(width: 64, height: 64, channels: 1, samples16: [UInt16](repeating: 1000, count: 64 * 64)).write(to: depth(0))
        Truth.expectError(.malformed, at: .frame(0), file: "\(Self.name(0)).png") { _ = try PolycamCapture(path: dir.path) }
    }
}
