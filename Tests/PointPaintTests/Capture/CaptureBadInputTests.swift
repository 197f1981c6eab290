import Foundation
import Testing
@testable import PointPaint

/// Every kind of damaged capture gives one clear error naming the file, the place and what was
/// expected — never a crash, a hang or a huge allocation. Tests check the error's kind, file and
/// place; `manifestWording` and `captureFileWording` check the words once for each family.
@Suite struct CaptureBadInputTests {
    /// The parts of a valid 8×4 capture of one NV12 frame, each replaceable.
    struct Capture: Sendable {
        var image = "\"frames/0.nv12\""
        var extra = ""
        var intrinsics = "[4, 4, 4, 2]"
        var transform = "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]"
        var width = "8", height = "4", version = "1"
        var format = "\"pointpaint.capture\""
        var points = "\"points/0.xyz\""

        /// Writes the capture's files and manifest into `dir`.
        func write(in dir: TemporaryDirectory) throws {
            try dir.write(Data(repeating: 100, count: 8 * 4 + 8 * 2), to: "frames/0.nv12")
            try dir.write("# test\n0 0 -1 1\n0.5 0.25 -2 2\n", to: "points/0.xyz")
            try dir.write("""
            {"format": \(format), "version": \(version),
             "image": {"width": \(width), "height": \(height), "range": "full", "matrix": "bt601", "primaries": "srgb"},
             "frames": [{"timestamp": 0, "image": \(image), \(extra) "points": \(points),
                         "camera": {"intrinsics": \(intrinsics), "transform": \(transform)}}]}
            """, to: "capture.json")
        }
    }

    /// Writes the valid capture into `dir` (other suites build on it).
    static func validCapture(in dir: TemporaryDirectory) throws {
        try Capture().write(in: dir)
    }

    /// The same capture with PNG planes (8×4 luma, 4×2 chroma) instead of an NV12 file.
    static func planeCapture(in dir: TemporaryDirectory) throws {
        try Capture(image: #"{"y": "y.png", "cb": "cb.png", "cr": "cr.png"}"#).write(in: dir)
        try PNGImage(width: 8, height: 4, channels: 1, samples: [UInt8](repeating: 9, count: 32)).write(to: dir.file("y.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 9, count: 8)).write(to: dir.file("cb.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 9, count: 8)).write(to: dir.file("cr.png"))
    }

    /// Reads the capture and every frame; returns the error, or nil when all of it reads.
    static func failure(_ dir: TemporaryDirectory) -> PointPaintError? {
        thrownError {
            let reader = try CaptureReader(path: dir.path)
            for i in 0 ..< reader.frameCount { _ = try reader.frame(at: i) }
        }
    }

    /// The error of `capture` written into a fresh directory.
    static func failure(_ capture: Capture) throws -> PointPaintError {
        let dir = TemporaryDirectory()
        try capture.write(in: dir)
        return try #require(failure(dir))
    }

    @Test func validCaptureReads() throws {
        let dir = TemporaryDirectory()
        try Capture().write(in: dir)
        #expect(Self.failure(dir) == nil)
        let frame = try CaptureReader(path: dir.path).frame(at: 0)
        let points = try #require(frame.points)
        #expect(points.count == 2 && frame.depth == nil)
        #expect(points[1] == FeaturePoint(position: SIMD3(0.5, 0.25, -2), id: 2))
        try Self.planeCapture(in: dir)
        #expect(Self.failure(dir) == nil)
    }

    /// The one wording test of the manifest family.
    @Test func manifestWording() throws {
        let error = try Self.failure(Capture(transform: "[0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,1]"))
        #expect(error.description.hasSuffix("/capture.json: frames[0].camera.transform: expected an invertible camera-to-world matrix, found a singular one"))
    }

    /// The one wording test of the capture-file family.
    @Test func captureFileWording() throws {
        let dir = TemporaryDirectory()
        try Capture().write(in: dir)
        try dir.write(Data(repeating: 1, count: 40), to: "frames/0.nv12")
        #expect(Self.failure(dir)?.description
            == dir.file("frames/0.nv12") + ": frame 0: expected 48 bytes for a 8x4 NV12 image with strides 8/8, found 40")
        try FileManager.default.removeItem(atPath: dir.file("frames/0.nv12"))
        try FileManager.default.createDirectory(atPath: dir.file("frames/0.nv12"), withIntermediateDirectories: false)
        #expect(Self.failure(dir)?.description
            == dir.file("frames/0.nv12") + ": frame 0: expected a regular file (the frame image), found a directory")
    }

    @Test func missingManifestOrDirectory() throws {
        let dir = TemporaryDirectory()
        let error = try #require(Self.failure(dir))
        #expect(error.kind == .missing && error.file == dir.file("capture.json") && error.place == nil)
        let missing = TemporaryDirectory()
        try FileManager.default.removeItem(atPath: missing.path)
        let noDirectory = try #require(Self.failure(missing))
        #expect(noDirectory.kind == .missing && noDirectory.file == missing.path)
    }

    @Test func manifestThatIsNotAFile() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("capture.json"), withIntermediateDirectories: true)
        let error = try #require(Self.failure(dir))
        #expect(error.kind == .missing && error.file == dir.file("capture.json"))
    }

    @Test func manifestLargerThanTheLimit() throws {
        let dir = TemporaryDirectory()
        try Capture().write(in: dir)
        // A sparse file: no disk space used, and the reader must refuse it before reading.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("capture.json")))
        try handle.truncate(atOffset: UInt64(CaptureReader.maximumManifestBytes + 1))
        try handle.close()
        let error = try #require(Self.failure(dir))
        #expect(error.kind == .tooLarge && error.file == dir.file("capture.json"))
    }

    @Test func frameIndexOutsideTheCaptureThrows() throws {
        let dir = TemporaryDirectory()
        try Capture().write(in: dir)
        let reader = try CaptureReader(path: dir.path)
        for index in [1, -1, Int.max, Int.min] {
            let attempts: [() throws -> Void] = [{ _ = try reader.frame(at: index) }, { _ = try reader.image(at: index) },
                                                 { _ = try reader.points(at: index) }, { try reader.checkFiles(ofFrame: index) }]
            for attempt in attempts {
                let error = try #require(throws: PointPaintError.self) { try attempt() }
                #expect(error.kind == .outOfRange && error.place == .frame(index) && error.file?.hasSuffix("capture.json") == true)
            }
        }
    }

    @Test func symbolicLinksOutOfTheCaptureAreRefused() throws {
        let dir = TemporaryDirectory(), elsewhere = TemporaryDirectory()
        try Capture().write(in: dir)
        try elsewhere.write("1 2 3\n", to: "secret.xyz")
        try FileManager.default.removeItem(atPath: dir.file("points/0.xyz"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("points/0.xyz"), withDestinationPath: elsewhere.file("secret.xyz"))
        let error = try #require(Self.failure(dir))
        #expect(error.kind == .malformed && error.place == .frame(0) && error.file == dir.file("points/0.xyz"))
        // A link to a file inside the capture is fine, and so is a capture reached through a link.
        try dir.write("1 2 3\n", to: "points/real.xyz")
        try FileManager.default.removeItem(atPath: dir.file("points/0.xyz"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("points/0.xyz"), withDestinationPath: "real.xyz")
        #expect(Self.failure(dir) == nil)
        try FileManager.default.createSymbolicLink(atPath: elsewhere.file("link"), withDestinationPath: dir.path)
        #expect(try CaptureReader(path: elsewhere.file("link")).points(at: 0) == [FeaturePoint(position: SIMD3(1, 2, 3))])
    }

    @Test(arguments: [
        ("{\"format\": \"pointpaint.capture\",\n \"version\": 1,,}", 2),
        (String(repeating: "[", count: 10000) + String(repeating: "]", count: 10000), 1),
    ])
    func invalidJSONNamesTheLine(text: String, line: Int) throws {
        let dir = TemporaryDirectory()
        try dir.write(text, to: "capture.json")
        let error = try #require(Self.failure(dir))
        #expect(error.kind == .malformed && error.place == .line(line) && error.file == dir.file("capture.json"), "\(error)")
    }

    /// `JSONSerialization` said "Number 1e999 is not representable in Swift." and no place.
    @Test func aNumberNoDoubleCanHoldIsNamedWithItsLine() throws {
        let error = try Self.failure(Capture(transform: "[1,0,0,0, 0,1,0,0, 0,0,1,0,\n 0,0,0,1e999]"))
        #expect(error.kind == .outOfRange && error.place == .line(5), "\(error)")
        #expect(error.message.contains("'1e999'") && !error.message.contains("Swift"), "\(error)")
        let negative = try Self.failure(Capture(intrinsics: "[4, -2e400, 4, 2]"))
        #expect(negative.kind == .outOfRange && negative.place == .line(4), "\(negative)")
    }

    @Test(arguments: [
        (Capture(format: "\"something.else\""), PointPaintError.Kind.unsupported, "format"),
        (Capture(version: "2"), .unsupported, "version"),
        (Capture(version: "\"1\""), .malformed, "version"),
        (Capture(width: "7"), .outOfRange, "image.width"),
        (Capture(width: "0"), .outOfRange, "image.width"),
        (Capture(height: "0"), .outOfRange, "image.height"),
        (Capture(height: "-2"), .outOfRange, "image.height"),
        (Capture(width: "99999"), .outOfRange, "image.width"),
        (Capture(width: "8.5"), .malformed, "image.width"),
        (Capture(extra: "\"lumaStride\": 6,"), .outOfRange, "frames[0].lumaStride"),
        (Capture(transform: "[1,0,0]"), .malformed, "frames[0].camera.transform"),
        (Capture(transform: "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,\"one\"]"), .malformed, "frames[0].camera.transform[15]"),
        (Capture(intrinsics: "[0, 4, 4, 2]"), .outOfRange, "frames[0].camera.intrinsics"),
        (Capture(image: "\"../outside.nv12\""), .malformed, "frames[0].image"),
        (Capture(image: "\"frames/../../x.nv12\""), .malformed, "frames[0].image"),
        (Capture(image: "\"/etc/passwd\""), .malformed, "frames[0].image"),
        (Capture(image: "7"), .malformed, "frames[0].image"),
        (Capture(points: "\"../outside.xyz\""), .malformed, "frames[0].points"),
        (Capture(points: "\"\(String(repeating: "p/", count: 2049))x\""), .tooLarge, "frames[0].points"),
    ])
    func badManifestFields(capture: Capture, kind: PointPaintError.Kind, path: String) throws {
        let error = try Self.failure(capture)
        #expect(error.kind == kind && error.place == .jsonPath(path) && error.file?.hasSuffix("/capture.json") == true, "\(error)")
    }

    @Test func absentFieldsAreMissing() throws {
        let dir = TemporaryDirectory()
        try dir.write(#"{"format": "pointpaint.capture", "version": 1}"#, to: "capture.json")
        let error = try #require(Self.failure(dir))
        #expect(error.kind == .missing && error.place == .jsonPath("image"))
        try Capture().write(in: dir)
        try dir.write(String(contentsOfFile: dir.file("capture.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"range\": \"full\"", with: "\"range\": \"studio\""), to: "capture.json")
        let range = try #require(Self.failure(dir))
        #expect(range.kind == .unsupported && range.place == .jsonPath("image.range"), "\(range)")
    }

    @Test func fileTooShortForItsStrides() throws {
        let dir = TemporaryDirectory()
        try Capture().write(in: dir)
        try dir.write(Data(repeating: 1, count: 40), to: "frames/0.nv12")
        let error = try #require(Self.failure(dir))
        #expect(error.kind == .malformed && error.place == .frame(0) && error.file == dir.file("frames/0.nv12"))
        // A huge stride is refused by the size check, not by allocating.
        let huge = try Self.failure(Capture(extra: "\"chromaStride\": 60000,"))
        #expect(huge.kind == .malformed && huge.place == .frame(0), "\(huge)")
    }

    @Test func pngPlanesOfWrongSizeOrDepth() throws {
        let dir = TemporaryDirectory()
        try Self.planeCapture(in: dir)
        try PNGImage(width: 4, height: 4, channels: 1, samples: [UInt8](repeating: 9, count: 16)).write(to: dir.file("cb.png"))
        let size = try #require(Self.failure(dir))
        #expect(size.kind == .malformed && size.place == .frame(0) && size.file == dir.file("cb.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 9, count: 8)).write(to: dir.file("cb.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples16: [UInt16](repeating: 9, count: 8)).write(to: dir.file("cr.png"))
        let depth = try #require(Self.failure(dir))
        #expect(depth.kind == .unsupported && depth.place == .frame(0) && depth.file == dir.file("cr.png"))
        try dir.write("not a png at all", to: "cr.png")
        let notPNG = try #require(Self.failure(dir))
        #expect(notPNG.kind == .malformed && notPNG.place == .frame(0) && notPNG.file == dir.file("cr.png"))
    }

    /// Planes must be stored as plain 8-bit greyscale: libpng would widen sub-byte grey and
    /// expand palettes and transparency, silently giving codes the recorder never wrote.
    @Test(arguments: [
        (UInt8(1), UInt8(0), [UInt8(0xA0)], [(String, [UInt8])](), "1-bit greyscale"),
        (2, 0, [0xE4], [], "2-bit greyscale"),
        (4, 0, [0x12, 0x34], [], "4-bit greyscale"),
        (16, 0, [0, 9, 0, 9, 0, 9, 0, 9], [], "16-bit greyscale"),
        (8, 2, [UInt8](repeating: 9, count: 12), [], "8-bit RGB"),
        (8, 3, [0, 0, 0, 0], [("PLTE", [9, 9, 9])], "8-bit palette"),
        (8, 4, [UInt8](repeating: 9, count: 8), [], "8-bit greyscale with alpha"),
        (8, 0, [9, 9, 9, 9], [("tRNS", [0, 9])], "8-bit greyscale with transparency"),
    ])
    func pngPlanesNotStoredAs8BitGrey(bitDepth: UInt8, colorType: UInt8, row: [UInt8], chunks: [(String, [UInt8])], found: String) throws {
        let dir = TemporaryDirectory()
        try Self.planeCapture(in: dir)
        try PNGFixture.write(PNGFixture.bytes(width: 4, height: 2, bitDepth: bitDepth, colorType: colorType, rows: [row, row], extraChunks: chunks),
                             to: dir.file("cr.png"))
        // The file itself decodes: only the plane check refuses it.
        _ = try PNGImage(contentsOf: dir.file("cr.png"))
        let error = try #require(Self.failure(dir))
        #expect(error.kind == .unsupported && error.place == .frame(0) && error.file == dir.file("cr.png"))
        #expect(try PNGImage.readInfo(path: dir.file("cr.png")).sourceDescription == found)
    }

    @Test func pngPlaneClaimingHugeDimensions() throws {
        let dir = TemporaryDirectory()
        try Self.planeCapture(in: dir)
        try PNGFixture.write(PNGFixture.bytes(width: 100_000, height: 100_000, bitDepth: 8, colorType: 0, rows: [[1]]), to: dir.file("y.png"))
        let error = try #require(Self.failure(dir))
        #expect(error.kind == .malformed && error.place == .frame(0) && error.file == dir.file("y.png"))
    }

    /// libpng said only "Read Error".
    @Test func truncatedPNGPlaneFailsWhenTheFrameIsRead() throws {
        let dir = TemporaryDirectory()
        try Self.planeCapture(in: dir)
        let rows = (0 ..< 4).map { r in (0 ..< 8).map { UInt8(r * 8 + $0) } }
        let whole = PNGFixture.bytes(width: 8, height: 4, bitDepth: 8, colorType: 0, rows: rows)
        try PNGFixture.write(Array(whole.prefix(whole.count - 30)), to: dir.file("y.png"))
        // The header is intact, so opening the capture succeeds; reading the frame does not.
        let reader = try CaptureReader(path: dir.path)
        let error = try #require(throws: PointPaintError.self) { try reader.frame(at: 0) }
        #expect(error.kind == .malformed && error.place == .frame(0) && error.file == dir.file("y.png"))
        #expect(error.message.contains("truncated") && !error.message.contains("Read Error"), "\(error)")
    }

    /// A directory or FIFO where a frame's file should be was reported as a missing file.
    @Test(arguments: ["frames/0.nv12", "points/0.xyz", "y.png", "cr.png"])
    func somethingOtherThanAFileWhereAFrameFileShouldBe(name: String) throws {
        for other in ["a directory", "a FIFO"] {
            let dir = TemporaryDirectory()
            try Capture().write(in: dir)
            if name.hasSuffix(".png") { try Self.planeCapture(in: dir) }
            try FileManager.default.removeItem(atPath: dir.file(name))
            if other == "a FIFO" {
                try #require(mkfifo(dir.file(name), 0o600) == 0)
            } else {
                try FileManager.default.createDirectory(atPath: dir.file(name), withIntermediateDirectories: false)
            }
            let error = try #require(Self.failure(dir))
            #expect(error.kind == .missing && error.place == .frame(0) && error.file == dir.file(name), "\(error)")
            #expect(error.message.hasSuffix("found \(other)"), "\(error)")
        }
    }

    @Test func missingFrameAndPointFiles() throws {
        for name in ["points/0.xyz", "frames/0.nv12"] {
            let dir = TemporaryDirectory()
            try Capture().write(in: dir)
            try FileManager.default.removeItem(atPath: dir.file(name))
            let error = try #require(Self.failure(dir))
            #expect(error.kind == .missing && error.place == .frame(0) && error.file == dir.file(name))
        }
    }

    @Test func plyPointFilesReadThroughTheReader() throws {
        let dir = TemporaryDirectory()
        try Capture(points: "\"points/0.ply\"").write(in: dir)
        let header = "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nproperty uint id\nend_header\n"
        try dir.write(header + "0 0 -1 7\n0.5 0.25 -2 4294967295\n", to: "points/0.ply")
        #expect(Self.failure(dir) == nil)
        let points = try CaptureReader(path: dir.path).points(at: 0)
        #expect(points == [FeaturePoint(position: SIMD3(0, 0, -1), id: 7), FeaturePoint(position: SIMD3(0.5, 0.25, -2), id: 4_294_967_295)])
        // Without an id property the points have none.
        try dir.write("ply\nformat ascii 1.0\nelement vertex 1\nproperty double x\nproperty double y\nproperty double z\nend_header\n1 2 3\n",
                      to: "points/0.ply")
        #expect(try CaptureReader(path: dir.path).points(at: 0) == [FeaturePoint(position: SIMD3(1, 2, 3))])
    }

    @Test func plyPointFilesWithANonFiniteVertexOrANegativeId() throws {
        let dir = TemporaryDirectory()
        try Capture(points: "\"points/0.ply\"").write(in: dir)
        var bytes = Array("ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n".utf8)
        for value: Float in [0, 0, -1, 1, .infinity, -2] { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
        try dir.write(Data(bytes), to: "points/0.ply")
        let infinite = try #require(Self.failure(dir))
        #expect(infinite.kind == .outOfRange && infinite.place == .element("vertex", 1) && infinite.file == dir.file("points/0.ply"))
        try dir.write("ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nproperty int id\nend_header\n0 0 -1 3\n1 1 -1 -4\n",
                      to: "points/0.ply")
        let negative = try #require(Self.failure(dir))
        #expect(negative.kind == .outOfRange && negative.place == .element("vertex", 1))
        try dir.write("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n0 0\n", to: "points/0.ply")
        let noZ = try #require(Self.failure(dir))
        #expect(noZ.kind == .missing && noZ.place == .part("header"))
    }

    @Test func timestampsMustIncrease() throws {
        let dir = TemporaryDirectory()
        try Capture().write(in: dir)
        let entry = CaptureFrameEntry(timestamp: 1, image: .nv12(path: "frames/0.nv12", lumaStride: 8, chromaStride: 8), points: "points/0.xyz",
                                      camera: Camera(intrinsics: .init(fx: 1, fy: 1, cx: 1, cy: 1), transform: .identity)!)
        try dir.write(CaptureManifest(image: CaptureImageInfo(width: 8, height: 4), frames: [entry, entry]).jsonText(), to: "capture.json")
        let error = try #require(Self.failure(dir))
        #expect(error.kind == .outOfRange && error.place == .jsonPath("frames[1].timestamp"))
    }

    /// A manifest's path reaches the error line as its file name: escapes in it are spelled out.
    @Test func aPathWithEscapesIsShownEscaped() throws {
        let dir = TemporaryDirectory()
        try Capture(points: #""points/\u001b[2J\r.xyz""#).write(in: dir)
        let error = try #require(Self.failure(dir))
        #expect(error.kind == .missing && error.place == .frame(0), "\(error)")
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 } && error.description.contains("\\u{1B}[2J\\r.xyz"))
    }
}
