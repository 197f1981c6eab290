import Foundation
import Testing
@testable import PointPaint

/// Format v1's frames as real recordings keep them: a JPEG file as recorded, a depth map of its
/// own size (16-bit millimetres or raw float metres) with a confidence map, feature points
/// optional, and a scene cloud. Written by `CaptureWriter`, read back exactly by `CaptureReader`;
/// damaged files refused with their kind and place.
@Suite struct CaptureDepthAndJPEGTests {
    typealias Capture = CaptureBadInputTests.Capture

    /// 16×12 planes with a gradient, so a JPEG of them is not flat.
    static let planes: YCbCrPlanes = {
        let w = 16, h = 12
        let luma = (0 ..< w * h).map { UInt8(40 + ($0 % w) * 9 + ($0 / w) * 5) }
        let cb = (0 ..< w * h / 4).map { UInt8(100 + $0 * 2) }, cr = (0 ..< w * h / 4).map { UInt8(160 - $0 * 2) }
        return YCbCrPlanes(width: w, height: h, subsampling: .yuv420, luma: luma, cb: cb, cr: cr)
    }()

    static let camera = Camera(intrinsics: CameraIntrinsics(fx: 14, fy: 14, cx: 8, cy: 6),
                               transform: Matrix4x4(columnMajor: [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0.5, 1.25, -2, 1]))!

    /// A 4×3 depth map of whole millimetres, with confidence 0, 1, 2 and a pixel without depth.
    static let millimetreMap = DepthMap(width: 4, height: 3, millimetres: [0, 1000, 1234, 65535, 1, 2, 3, 4, 5000, 4999, 250, 333],
                                        confidence: [0, 1, 2, 2, 2, 1, 0, 2, 2, 2, 2, 1])
    /// A 4×3 map no 16-bit PNG holds: fractions of a millimetre, NaN, a negative value.
    static let floatMap = DepthMap(width: 4, height: 3, depth: [1.2345, .nan, -1, 0, 2, 3.5, 0.0001, 7, 1, 1, 1, .infinity])

    @Test func jpegFramesDepthMapsAndOptionalPointsRoundTrip() throws {
        let dir = TemporaryDirectory()
        let jpeg = try JPEGEncoder.encode(Self.planes, quality: 90)
        var writer = try CaptureWriter(directory: dir.path, imageInfo: CaptureImageInfo(width: 16, height: 12), encoding: .png)
        let points = [FeaturePoint(position: SIMD3(0.25, -1, 3), id: 9)]
        try writer.append(jpeg: jpeg, camera: Self.camera, points: points, depth: Self.millimetreMap, timestamp: 0.5)
        try writer.append(image: YCbCrImage(Self.planes), camera: Self.camera, points: nil, depth: Self.floatMap, timestamp: 0.75)
        try writer.append(jpeg: jpeg, camera: Self.camera, points: [], depth: nil, timestamp: 1)
        try dir.write("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2 3\n", to: "scene.ply")
        try writer.writeCloud(copying: dir.file("scene.ply"))
        try writer.finish()

        let reader = try CaptureReader(path: dir.path)
        #expect(reader.manifest == writer.manifest)
        #expect(try CaptureManifest(json: Data(reader.manifest.jsonText().utf8)) == reader.manifest)
        let frames = reader.manifest.frames
        #expect(frames[0].image == .jpeg(path: "frames/000000.jpg"))
        #expect(frames[0].depth == FrameDepthSource(path: "depth/000000.png", encoding: .millimetres16, width: 4, height: 3,
                                                    confidence: "confidence/000000.png"))
        #expect(frames[1].depth == FrameDepthSource(path: "depth/000001.f32", encoding: .metres32, width: 4, height: 3))
        #expect(frames[1].points == nil && frames[2].depth == nil)

        // The JPEG as recorded, decoded straight to its planes.
        #expect(try reader.jpegData(at: 0) == jpeg && reader.jpegData(at: 1) == nil)
        #expect(YCbCrPlanes(try reader.image(at: 0)) == (try JPEGDecoder.decode(jpeg, file: nil)).planes)
        #expect(YCbCrPlanes(try reader.image(at: 1)) == Self.planes)

        // Depths come back bit for bit, whichever file holds them.
        #expect(try reader.depth(at: 0) == Self.millimetreMap)
        let floats = try #require(try reader.depth(at: 1))
        #expect(floats.depth.map(\.bitPattern) == Self.floatMap.depth.map(\.bitPattern) && floats.confidence == nil)
        #expect(try reader.depth(at: 2) == nil)

        // Points: recorded, none recorded, recorded but empty.
        #expect(try reader.points(at: 0) == points && reader.points(at: 1) == nil && reader.points(at: 2) == [])
        #expect(try reader.cloudPath() == dir.file("cloud.ply"))
        #expect(try FileBytes.read(dir.file("cloud.ply")) == (try FileBytes.read(dir.file("scene.ply"))))
    }

    @Test func millimetresAreChosenOnlyWhenTheyGiveEveryDepthBack() {
        #expect(CaptureWriter.exactMillimetres(Self.millimetreMap) == [0, 1000, 1234, 65535, 1, 2, 3, 4, 5000, 4999, 250, 333])
        #expect(CaptureWriter.exactMillimetres(Self.floatMap) == nil)
        #expect(CaptureWriter.exactMillimetres(DepthMap(width: 1, height: 1, depth: [1.0005])) == nil)
        #expect(CaptureWriter.exactMillimetres(DepthMap(width: 1, height: 1, depth: [65.536])) == nil)
        #expect(CaptureWriter.exactMillimetres(DepthMap(width: 2, height: 1, depth: [-0.0, 0])) == [0, 0])
    }

    @Test func theWriterRefusesJPEGsTheCaptureCannotHold() throws {
        let dir = TemporaryDirectory()
        let jpeg = try JPEGEncoder.encode(Self.planes, quality: 90)
        var wrongSize = try CaptureWriter(directory: dir.file("a"), imageInfo: CaptureImageInfo(width: 32, height: 12))
        CaptureSourceTruth.expectError(.malformed, at: .frame(0)) {
            try wrongSize.append(jpeg: jpeg, camera: Self.camera, points: nil, timestamp: 0)
        }
        var videoRange = try CaptureWriter(directory: dir.file("b"), imageInfo: CaptureImageInfo(width: 16, height: 12, range: .video))
        CaptureSourceTruth.expectError(.malformed, at: .frame(0)) {
            try videoRange.append(jpeg: jpeg, camera: Self.camera, points: nil, timestamp: 0)
        }
        var fine = try CaptureWriter(directory: dir.file("c"), imageInfo: CaptureImageInfo(width: 16, height: 12))
        CaptureSourceTruth.expectError(.malformed, at: .frame(0)) {
            try fine.append(jpeg: Array(jpeg.prefix(20)), camera: Self.camera, points: nil, timestamp: 0)
        }
        #expect(fine.frames.isEmpty && !FileManager.default.fileExists(atPath: dir.file("c/frames")))
    }

    // MARK: - Damaged manifests and files

    /// A valid 8×4 capture whose one frame carries `depth` (JSON text), with a 4×2 PNG of
    /// millimetres `d.png`, a 4×2 raw float map `d.f32` and a confidence map `c.png` of 0, 1, 2.
    static func depthCapture(in dir: TemporaryDirectory, depth: String) throws {
        try Capture(extra: "\"depth\": \(depth),").write(in: dir)
        try PNGImage(width: 4, height: 2, channels: 1, samples16: [0, 1000, 2000, 3000, 4000, 5000, 6000, 7000]).write(to: dir.file("d.png"))
        try dir.write(Data(repeating: 0, count: 32), to: "d.f32")
        try PNGImage(width: 4, height: 2, channels: 1, samples: [0, 1, 2, 2, 2, 2, 1, 0]).write(to: dir.file("c.png"))
    }

    /// Reads the capture and every frame's image, points and depth map; returns the error, or
    /// nil when all of it reads.
    static func failure(_ dir: TemporaryDirectory) -> PointPaintError? {
        thrownError {
            let reader = try CaptureReader(path: dir.path)
            for i in 0 ..< reader.frameCount {
                _ = try reader.frame(at: i)
                _ = try reader.depth(at: i)
            }
        }
    }

    static let goodDepth = #"{"path": "d.png", "encoding": "uint16-mm", "width": 4, "height": 2, "confidence": "c.png"}"#

    /// The error reading a capture with frame depth `depth` (after `damage`), or nil.
    static func depthFailure(_ depth: String, _ damage: (TemporaryDirectory) throws -> Void = { _ in }) throws -> PointPaintError? {
        let dir = TemporaryDirectory()
        try depthCapture(in: dir, depth: depth)
        try damage(dir)
        return failure(dir)
    }

    @Test func validDepthReads() throws {
        #expect(try Self.depthFailure(Self.goodDepth) == nil)
        #expect(try Self.depthFailure(#"{"path": "d.f32", "encoding": "float32-m", "width": 4, "height": 2}"#) == nil)
    }

    @Test(arguments: [
        (#"{"path": "d.png", "encoding": "uint8", "width": 4, "height": 2}"#, PointPaintError.Kind.unsupported, "frames[0].depth.encoding"),
        (#"{"path": "d.png", "width": 4, "height": 2}"#, .missing, "frames[0].depth.encoding"),
        (#"{"path": "d.png", "encoding": "uint16-mm", "width": 0, "height": 2}"#, .outOfRange, "frames[0].depth.width"),
        (#"{"path": "d.png", "encoding": "uint16-mm", "width": 4, "height": 4}"#, .malformed, "frames[0].depth"),
        (#"{"path": "../d.png", "encoding": "uint16-mm", "width": 4, "height": 2}"#, .malformed, "frames[0].depth.path"),
        (#"{"path": "d.png", "encoding": "uint16-mm", "width": 4, "height": 2, "confidence": 3}"#, .malformed, "frames[0].depth.confidence"),
        (#""d.png""#, .malformed, "frames[0].depth"),
    ])
    func depthEntriesThatAreWrong(depth: String, kind: PointPaintError.Kind, path: String) throws {
        let error = try #require(try Self.depthFailure(depth))
        #expect(error.kind == kind && error.place == .jsonPath(path), "\(error)")
    }

    @Test func depthFilesThatAreWrong() throws {
        let rawDepth = #"{"path": "d.f32", "encoding": "float32-m", "width": 4, "height": 2}"#
        let cases: [(String, PointPaintError.Kind, String, (TemporaryDirectory) throws -> Void)] = [
            (Self.goodDepth, .missing, "d.png", { try FileManager.default.removeItem(atPath: $0.file("d.png")) }),
            (Self.goodDepth, .malformed, "d.png", { try PNGImage(width: 2, height: 1, channels: 1, samples16: [1, 2]).write(to: $0.file("d.png")) }),
            (Self.goodDepth, .unsupported, "d.png", { try PNGImage(width: 4, height: 2, channels: 1, samples: [UInt8](repeating: 1, count: 8)).write(to: $0.file("d.png")) }),
            (Self.goodDepth, .malformed, "c.png", { try PNGImage(width: 2, height: 1, channels: 1, samples: [1, 2]).write(to: $0.file("c.png")) }),
            (Self.goodDepth, .malformed, "c.png", { try PNGImage(width: 4, height: 2, channels: 1, samples: [0, 1, 2, 3, 0, 0, 0, 0]).write(to: $0.file("c.png")) }),
            (Self.goodDepth, .unsupported, "c.png", { try PNGImage(width: 4, height: 2, channels: 1, samples16: [UInt16](repeating: 1, count: 8)).write(to: $0.file("c.png")) }),
            (rawDepth, .malformed, "d.f32", { try $0.write(Data(repeating: 0, count: 31), to: "d.f32") }),
            (rawDepth, .malformed, "d.f32", { try $0.write(Data(repeating: 0, count: 36), to: "d.f32") }),
            (rawDepth, .missing, "d.f32", { try FileManager.default.removeItem(atPath: $0.file("d.f32")) }),
        ]
        for (depth, kind, file, damage) in cases {
            let error = try #require(try Self.depthFailure(depth, damage))
            #expect(error.kind == kind && error.place == .frame(0) && error.file?.hasSuffix("/" + file) == true, "\(error)")
        }
    }

    @Test func jpegFramesThatAreWrong() throws {
        let dir = TemporaryDirectory()
        try Capture(image: #"{"jpeg": "f.jpg"}"#).write(in: dir)
        let planes = YCbCrPlanes(width: 8, height: 4, subsampling: .yuv420, luma: [UInt8](repeating: 90, count: 32),
                                 cb: [UInt8](repeating: 120, count: 8), cr: [UInt8](repeating: 130, count: 8))
        let jpeg = try JPEGEncoder.encode(planes, quality: 95)
        try dir.write(Data(jpeg), to: "f.jpg")
        #expect(Self.failure(dir) == nil)
        let reader = try CaptureReader(path: dir.path)
        #expect(try reader.jpegData(at: 0) == jpeg)

        func expectFailure(_ kind: PointPaintError.Kind, _ place: PointPaintError.Place, sourceLocation: SourceLocation = #_sourceLocation) {
            let error = Self.failure(dir)
            #expect(error?.kind == kind && error?.place == place, "\(String(describing: error))", sourceLocation: sourceLocation)
        }
        try dir.write(Data(jpeg.prefix(jpeg.count / 2)), to: "f.jpg")
        expectFailure(.malformed, .frame(0))
        try dir.write(Data(try JPEGEncoder.encode(YCbCrPlanes(width: 16, height: 4, subsampling: .yuv420, luma: [UInt8](repeating: 90, count: 64),
                                                               cb: [UInt8](repeating: 120, count: 16), cr: [UInt8](repeating: 130, count: 16)))),
                      to: "f.jpg")
        expectFailure(.malformed, .frame(0))
        try FileManager.default.removeItem(atPath: dir.file("f.jpg"))
        expectFailure(.missing, .frame(0))

        // A JPEG frame in a capture that says its Y′CbCr is not JFIF's, or beside planes.
        try dir.write(Data(jpeg), to: "f.jpg")
        try CaptureSourceTruth.replace("\"range\": \"full\"", with: "\"range\": \"video\"", in: dir.file("capture.json"))
        expectFailure(.malformed, .jsonPath("frames[0].image"))
        try Capture(image: #"{"jpeg": "f.jpg", "y": "y.png"}"#).write(in: dir)
        expectFailure(.malformed, .jsonPath("frames[0].image.y"))
        try Capture(image: #"{"jpeg": "f.jpg"}"#, extra: #""lumaStride": 8,"#).write(in: dir)
        expectFailure(.malformed, .jsonPath("frames[0].lumaStride"))
        try Capture(image: #"{"jpeg": 7}"#).write(in: dir)
        expectFailure(.malformed, .jsonPath("frames[0].image.jpeg"))
    }

    @Test func framesWithoutPointsAndACloudOutsideTheCapture() throws {
        let dir = TemporaryDirectory()
        try Capture(extra: #""_": 0,"#).write(in: dir)
        let text = try String(contentsOfFile: dir.file("capture.json"), encoding: .utf8)
        try dir.write(text.replacingOccurrences(of: #""points": "points/0.xyz","#, with: ""), to: "capture.json")
        #expect(Self.failure(dir) == nil)
        #expect(try CaptureReader(path: dir.path).points(at: 0) == nil)

        try CaptureSourceTruth.replace(#""version": 1,"#, with: #""version": 1, "cloud": "cloud.ply","#, in: dir.file("capture.json"))
        let missing = Self.failure(dir)
        #expect(missing?.kind == .missing && missing?.place == .jsonPath("cloud"), "\(String(describing: missing))")
        let outside = TemporaryDirectory()
        try outside.write("ply\n", to: "cloud.ply")
        try FileManager.default.createSymbolicLink(atPath: dir.file("cloud.ply"), withDestinationPath: outside.file("cloud.ply"))
        let escaped = Self.failure(dir)
        #expect(escaped?.kind == .malformed && escaped?.place == .jsonPath("cloud"), "\(String(describing: escaped))")
    }
}
