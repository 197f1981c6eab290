import Foundation
import Testing
@testable import PointPaint

/// Every kind of damaged capture gives one clear error naming the file, the place and what was
/// expected — never a crash, a hang or a huge allocation.
@Suite struct CaptureBadInputTests {
    /// A valid 8×4 capture of one NV12 frame, as JSON text plus files.
    static func validCapture(in dir: TemporaryDirectory, image: String = "\"frames/0.nv12\"", extra: String = "",
                             intrinsics: String = "[4, 4, 4, 2]", transform: String = "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]",
                             width: String = "8", height: String = "4", version: String = "1",
                             format: String = "\"pointpaint.capture\"", points: String = "\"points/0.xyz\"") throws {
        try dir.write(Data(repeating: 100, count: 8 * 4 + 8 * 2), to: "frames/0.nv12")
        try dir.write("# test\n0 0 -1 1\n0.5 0.25 -2 2\n", to: "points/0.xyz")
        try dir.write("""
        {"format": \(format), "version": \(version),
         "image": {"width": \(width), "height": \(height), "range": "full", "matrix": "bt601", "primaries": "srgb"},
         "frames": [{"timestamp": 0, "image": \(image), \(extra) "points": \(points),
                     "camera": {"intrinsics": \(intrinsics), "transform": \(transform)}}]}
        """, to: "capture.json")
    }

    /// Reads the capture and every frame; returns the error text.
    static func failure(_ dir: TemporaryDirectory) -> String? {
        do {
            let reader = try CaptureReader(path: dir.path)
            for i in 0 ..< reader.frameCount { _ = try reader.frame(at: i) }
            return nil
        } catch {
            let text = "\(error)"
            #expect(!text.contains("\n"), "error messages are one line")
            return text
        }
    }

    @Test func validCaptureReads() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir)
        #expect(Self.failure(dir) == nil)
        let frame = try CaptureReader(path: dir.path).frame(at: 0)
        #expect(frame.points.count == 2)
        #expect(frame.points[1] == FeaturePoint(position: SIMD3(0.5, 0.25, -2), id: 2))
    }

    @Test func missingManifest() throws {
        let dir = TemporaryDirectory()
        let message = try #require(Self.failure(dir))
        #expect(message.contains("capture.json"))
        let missing = TemporaryDirectory()
        try FileManager.default.removeItem(atPath: missing.path)
        #expect(try #require(Self.failure(missing)).contains("no such directory"))
    }

    @Test func manifestThatIsNotAFile() throws {
        let dir = TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.file("capture.json"), withIntermediateDirectories: true)
        let message = try #require(Self.failure(dir))
        #expect(message.contains("capture.json: not a regular file: expected the capture's JSON manifest, found a directory"), "\(message)")
    }

    @Test func manifestLargerThanTheLimit() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir)
        // A sparse file: no disk space used, and the reader must refuse it before reading.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.file("capture.json")))
        try handle.truncate(atOffset: UInt64(CaptureReader.maximumManifestBytes + 1))
        try handle.close()
        let message = try #require(Self.failure(dir))
        #expect(message.contains("capture.json: expected a manifest of at most 64 MiB, found 67108865 bytes"), "\(message)")
    }

    @Test func frameIndexOutsideTheCaptureThrows() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir)
        let reader = try CaptureReader(path: dir.path)
        for index in [1, -1, Int.max, Int.min] {
            let attempts: [() throws -> Void] = [{ _ = try reader.frame(at: index) }, { _ = try reader.image(at: index) },
                                                 { _ = try reader.points(at: index) }, { try reader.checkFiles(ofFrame: index) }]
            for attempt in attempts {
                let error = try #require(throws: PointPaintError.self) { try attempt() }
                #expect(error.description.contains("capture.json: frame \(index): no such frame: expected 0 to 0"), "\(error)")
            }
        }
    }

    @Test func symbolicLinksOutOfTheCaptureAreRefused() throws {
        let dir = TemporaryDirectory(), elsewhere = TemporaryDirectory()
        try Self.validCapture(in: dir)
        try elsewhere.write("1 2 3\n", to: "secret.xyz")
        try FileManager.default.removeItem(atPath: dir.file("points/0.xyz"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("points/0.xyz"), withDestinationPath: elsewhere.file("secret.xyz"))
        let message = try #require(Self.failure(dir))
        #expect(message.contains("points/0.xyz: frame 0: expected a file inside the capture directory, found a link to "), "\(message)")
        #expect(message.contains("secret.xyz"))
        // A link to a file inside the capture is fine, and so is a capture reached through a link.
        try dir.write("1 2 3\n", to: "points/real.xyz")
        try FileManager.default.removeItem(atPath: dir.file("points/0.xyz"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("points/0.xyz"), withDestinationPath: "real.xyz")
        #expect(Self.failure(dir) == nil)
        try FileManager.default.createSymbolicLink(atPath: elsewhere.file("link"), withDestinationPath: dir.path)
        #expect(try CaptureReader(path: elsewhere.file("link")).points(at: 0) == [FeaturePoint(position: SIMD3(1, 2, 3))])
    }

    @Test func invalidJSON() throws {
        let dir = TemporaryDirectory()
        try dir.write("{\"format\": \"pointpaint.capture\",\n \"version\": 1,,}", to: "capture.json")
        let message = try #require(Self.failure(dir))
        #expect(message.contains("capture.json"))
        #expect(message.contains("invalid JSON"))
    }

    @Test func deeplyNestedJSONGivesAClearMessage() throws {
        let dir = TemporaryDirectory()
        try dir.write(String(repeating: "[", count: 10000) + String(repeating: "]", count: 10000), to: "capture.json")
        let message = try #require(Self.failure(dir))
        #expect(message.contains("capture.json: invalid JSON: malformed at line 1, column "), "\(message)")
        #expect(message.contains("nested"), "\(message)")
        #expect(!message.contains("value)"), "\(message)")
    }

    @Test func unknownFormatAndVersion() throws {
        let a = TemporaryDirectory()
        try Self.validCapture(in: a, format: "\"something.else\"")
        #expect(try #require(Self.failure(a)).contains("format: expected \"pointpaint.capture\""))
        let b = TemporaryDirectory()
        try Self.validCapture(in: b, version: "2")
        #expect(try #require(Self.failure(b)).contains("unsupported version 2"))
        let c = TemporaryDirectory()
        try Self.validCapture(in: c, version: "\"1\"")
        #expect(try #require(Self.failure(c)).contains("version: expected a number"))
    }

    @Test(arguments: [("7", "4", "image.width"), ("0", "4", "image.width"), ("8", "0", "image.height"), ("8", "-2", "image.height"),
                      ("99999", "4", "image.width"), ("8.5", "4", "image.width")])
    func badDimensions(width: String, height: String, place: String) throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir, width: width, height: height)
        let message = try #require(Self.failure(dir))
        #expect(message.contains(place), "\(message)")
    }

    @Test func frameFileTooShort() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir)
        try dir.write(Data(repeating: 1, count: 40), to: "frames/0.nv12")
        let message = try #require(Self.failure(dir))
        #expect(message.contains("frames/0.nv12"))
        #expect(message.contains("expected 48 bytes"))
        #expect(message.contains("found 40"))
    }

    @Test func strideSmallerThanWidth() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir, extra: "\"lumaStride\": 6,")
        let message = try #require(Self.failure(dir))
        #expect(message.contains("frames[0].lumaStride"))
        #expect(message.contains("found 6"))
    }

    @Test func hugeStrideDoesNotAllocate() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir, extra: "\"chromaStride\": 60000,")
        #expect(try #require(Self.failure(dir)).contains("expected 120032 bytes"))
    }

    @Test func pngPlanesOfWrongSizeOrDepth() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir, image: #"{"y": "y.png", "cb": "cb.png", "cr": "cr.png"}"#)
        try PNGImage(width: 8, height: 4, channels: 1, samples: [UInt8](repeating: 9, count: 32)).write(to: dir.file("y.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 9, count: 8)).write(to: dir.file("cb.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 9, count: 8)).write(to: dir.file("cr.png"))
        #expect(Self.failure(dir) == nil)
        try PNGImage(width: 4, height: 4, channels: 1, samples: [UInt8](repeating: 9, count: 16)).write(to: dir.file("cb.png"))
        let size = try #require(Self.failure(dir))
        #expect(size.contains("cb.png"))
        #expect(size.contains("expected a 4x2 plane, found 4x4"))
        try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 9, count: 8)).write(to: dir.file("cb.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples16: [UInt16](repeating: 9, count: 8)).write(to: dir.file("cr.png"))
        let depth = try #require(Self.failure(dir))
        #expect(depth.contains("cr.png"))
        #expect(depth.contains("expected an 8-bit greyscale PNG, found 16-bit"))
        try PNGImage(width: 4, height: 2, channels: 3, samples: [UInt8](repeating: 9, count: 24)).write(to: dir.file("cr.png"))
        #expect(try #require(Self.failure(dir)).contains("3 channels"))
        try dir.write("not a png at all", to: "cr.png")
        #expect(try #require(Self.failure(dir)).contains("cr.png: cannot read PNG"))
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
        try Self.validCapture(in: dir, image: #"{"y": "y.png", "cb": "cb.png", "cr": "cr.png"}"#)
        try PNGImage(width: 8, height: 4, channels: 1, samples: [UInt8](repeating: 9, count: 32)).write(to: dir.file("y.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 9, count: 8)).write(to: dir.file("cb.png"))
        try PNGFixture.write(PNGFixture.bytes(width: 4, height: 2, bitDepth: bitDepth, colorType: colorType, rows: [row, row], extraChunks: chunks),
                             to: dir.file("cr.png"))
        // The file itself decodes: only the plane check refuses it.
        _ = try PNGImage(contentsOf: dir.file("cr.png"))
        let message = try #require(Self.failure(dir))
        #expect(message.contains("cr.png: frame 0: expected an 8-bit greyscale PNG, found \(found)"), "\(message)")
    }

    @Test func pngPlaneClaimingHugeDimensions() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir, image: #"{"y": "y.png", "cb": "cb.png", "cr": "cr.png"}"#)
        try PNGFixture.write(PNGFixture.bytes(width: 100_000, height: 100_000, bitDepth: 8, colorType: 0, rows: [[1]]), to: dir.file("y.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 9, count: 8)).write(to: dir.file("cb.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 9, count: 8)).write(to: dir.file("cr.png"))
        let message = try #require(Self.failure(dir))
        #expect(message.contains("y.png: frame 0: expected a 8x4 plane, found 100000x100000"), "\(message)")
    }

    @Test func truncatedPNGPlaneFailsWhenTheFrameIsRead() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir, image: #"{"y": "y.png", "cb": "cb.png", "cr": "cr.png"}"#)
        let rows = (0 ..< 4).map { r in (0 ..< 8).map { UInt8(r * 8 + $0) } }
        let whole = PNGFixture.bytes(width: 8, height: 4, bitDepth: 8, colorType: 0, rows: rows)
        try PNGFixture.write(Array(whole.prefix(whole.count - 30)), to: dir.file("y.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 9, count: 8)).write(to: dir.file("cb.png"))
        try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 9, count: 8)).write(to: dir.file("cr.png"))
        // The header is intact, so opening the capture succeeds; reading the frame does not.
        let reader = try CaptureReader(path: dir.path)
        let error = try #require(throws: PointPaintError.self) { try reader.frame(at: 0) }
        #expect(error.description.contains("y.png: frame 0: cannot read PNG: "), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    @Test func singularOrNonFiniteTransform() throws {
        let singular = TemporaryDirectory()
        try Self.validCapture(in: singular, transform: "[0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,1]")
        #expect(try #require(Self.failure(singular)).contains("frames[0].camera.transform: expected an invertible"))
        let infinite = TemporaryDirectory()
        try Self.validCapture(in: infinite, transform: "[1e999,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]")
        let message = try #require(Self.failure(infinite))
        #expect(message.contains("transform") || message.contains("invalid JSON"), "\(message)")
        let short = TemporaryDirectory()
        try Self.validCapture(in: short, transform: "[1,0,0]")
        #expect(try #require(Self.failure(short)).contains("expected an array of 16 numbers"))
        let text = TemporaryDirectory()
        try Self.validCapture(in: text, transform: "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,\"one\"]")
        #expect(try #require(Self.failure(text)).contains("transform[15]: expected a finite number"))
        let lens = TemporaryDirectory()
        try Self.validCapture(in: lens, intrinsics: "[0, 4, 4, 2]")
        #expect(try #require(Self.failure(lens)).contains("positive focal lengths"))
    }

    @Test(arguments: [("nan 0 0\n", "line 1", "finite"), ("0 0 0\n1e999 0 0\n", "line 2", "finite"),
                      ("0 0 -1\n\n# c\n1 2\n", "line 4", "expected \"x y z [id]\""), ("1 2 3 -4\n", "line 1", "unsigned"),
                      ("1 2 3 4 5\n", "line 1", "at most 4 fields"), ("1 2 3 99999999999999999999999\n", "line 1", "64-bit"),
                      ("x y z\n", "line 1", "expected"), ("1-2-3\n", "line 1", "whitespace between the fields"),
                      ("0 0 0\n1 2,3\n", "line 2", "whitespace between the fields"), ("1 2 3-4\n", "line 1", "whitespace between the fields")])
    func badPointLines(text: String, line: String, expected: String) throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir)
        try dir.write(text, to: "points/0.xyz")
        let message = try #require(Self.failure(dir))
        #expect(message.contains("points/0.xyz"))
        #expect(message.contains(line), "\(message)")
        #expect(message.contains(expected), "\(message)")
    }

    @Test func pointFileFormatsAccepted() throws {
        let points = try XYZFormat.parse(Array("# comment\n\n  1 2 3\r\n4\t5 6 18446744073709551615\n-1e-3 +2.5 .5".utf8), file: "p.xyz")
        #expect(points == [FeaturePoint(position: SIMD3(1, 2, 3)), FeaturePoint(position: SIMD3(4, 5, 6), id: .max),
                           FeaturePoint(position: SIMD3(-0.001, 2.5, 0.5))])
        let round = try XYZFormat.parse(Array(XYZFormat.format(points).utf8), file: "p.xyz")
        #expect(round == points)
    }

    @Test func plyPointFilesReadThroughTheReader() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir, points: "\"points/0.ply\"")
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

    @Test func plyPointFileWithANonFiniteVertex() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir, points: "\"points/0.ply\"")
        var bytes = Array("ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n".utf8)
        for value: Float in [0, 0, -1, 1, .infinity, -2] { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
        try dir.write(Data(bytes), to: "points/0.ply")
        let message = try #require(Self.failure(dir))
        #expect(message.contains("points/0.ply: vertex 1: expected finite coordinates"), "\(message)")
    }

    @Test func plyPointFileWithANegativeId() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir, points: "\"points/0.ply\"")
        try dir.write("ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nproperty int id\nend_header\n0 0 -1 3\n1 1 -1 -4\n",
                      to: "points/0.ply")
        let message = try #require(Self.failure(dir))
        #expect(message.contains("points/0.ply: vertex 1: expected an unsigned id, found -4"), "\(message)")
    }

    @Test(arguments: ["\"../outside.nv12\"", "\"frames/../../x.nv12\"", "\"/etc/passwd\""])
    func pathsThatEscape(path: String) throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir, image: path)
        let message = try #require(Self.failure(dir))
        #expect(message.contains("frames[0].image"))
        #expect(message.contains("inside the capture directory"))
        let points = TemporaryDirectory()
        try Self.validCapture(in: points, points: path)
        #expect(try #require(Self.failure(points)).contains("frames[0].points"))
    }

    @Test func missingFrameAndPointFiles() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir)
        try FileManager.default.removeItem(atPath: dir.file("points/0.xyz"))
        #expect(try #require(Self.failure(dir)).contains("points/0.xyz: frame 0: missing"))
        try Self.validCapture(in: dir)
        try FileManager.default.removeItem(atPath: dir.file("frames/0.nv12"))
        #expect(try #require(Self.failure(dir)).contains("frames/0.nv12: frame 0: missing frame image"))
    }

    @Test func timestampsMustIncrease() throws {
        let dir = TemporaryDirectory()
        try Self.validCapture(in: dir)
        let synth = CaptureManifest(image: CaptureImageInfo(width: 8, height: 4), frames: [
            CaptureFrameEntry(timestamp: 1, image: .nv12(path: "frames/0.nv12", lumaStride: 8, chromaStride: 8), points: "points/0.xyz",
                              camera: Camera(intrinsics: .init(fx: 1, fy: 1, cx: 1, cy: 1), transform: .identity)!),
            CaptureFrameEntry(timestamp: 1, image: .nv12(path: "frames/0.nv12", lumaStride: 8, chromaStride: 8), points: "points/0.xyz",
                              camera: Camera(intrinsics: .init(fx: 1, fy: 1, cx: 1, cy: 1), transform: .identity)!),
        ])
        try dir.write(synth.jsonText(), to: "capture.json")
        #expect(try #require(Self.failure(dir)).contains("frames[1].timestamp"))
    }
}
