import Foundation
import Testing
@testable import PointPaint

/// Synthesized captures read back bit-exactly: planes, cameras, points.
@Suite struct CaptureRoundTripTests {
    static func options(_ primaries: ColorPrimaries = .srgb, range: YCbCrRange = .full, siting: ChromaSiting = .center,
                        width: Int = 48, height: Int = 32) -> CaptureSynthesizer.Options {
        var o = CaptureSynthesizer.Options(frames: 3, width: width, height: height, pointsPerFrame: 40)
        o.primaries = primaries
        o.range = range
        o.chromaSiting = siting
        o.seed = 7
        return o
    }

    @Test(arguments: CaptureImageEncoding.allCases)
    func synthesizedCaptureRoundTrips(encoding: CaptureImageEncoding) throws {
        let dir = TemporaryDirectory()
        let synth = CaptureSynthesizer(options: Self.options(.displayP3, range: .video, siting: .left, width: 160, height: 120))
        let truth = try synth.write(to: dir.path, encoding: encoding)
        let reader = try CaptureReader(path: dir.path)
        #expect(reader.frameCount == 3)
        #expect(reader.imageInfo == synth.options.imageInfo)
        var truthIndex = 0
        for index in 0 ..< reader.frameCount {
            let frame = try reader.frame(at: index)
            let expected = synth.encode(synth.render(frame: index))
            #expect(frame.image.packedPlanes().luma == expected.packedPlanes().luma)
            #expect(frame.image.packedPlanes().chroma == expected.packedPlanes().chroma)
            #expect(frame.camera == synth.camera(frame: index))
            #expect(frame.timestamp == Double(index) / 30)
            for point in try #require(frame.points) {
                let t = truth[truthIndex]
                #expect(t.frame == index)
                #expect(point.position == t.position)
                #expect(point.id == t.id)
                truthIndex += 1
            }
        }
        #expect(truthIndex == truth.count)
        #expect(truth.count > 60)
    }

    @Test func synthesisIsDeterministicForASeed() throws {
        let a = TemporaryDirectory(), b = TemporaryDirectory()
        let synth = CaptureSynthesizer(options: Self.options())
        try synth.write(to: a.path, encoding: .nv12)
        try synth.write(to: b.path, encoding: .nv12)
        for name in ["capture.json", "truth.ply", "frames/000002.nv12", "points/000001.xyz"] {
            #expect(FileManager.default.contents(atPath: a.file(name)) == FileManager.default.contents(atPath: b.file(name)))
        }
    }

    @Test func manifestTextRoundTripsExactly() throws {
        let synth = CaptureSynthesizer(options: Self.options())
        let camera = synth.camera(frame: 1)
        let manifest = CaptureManifest(image: synth.options.imageInfo, frames: [
            CaptureFrameEntry(timestamp: 0.1 + 0.2, image: .nv12(path: "a b/\"quoted\".nv12", lumaStride: 64, chromaStride: 50),
                              points: "p.xyz", camera: camera),
            CaptureFrameEntry(timestamp: 1e-3 + 1, image: .planes(y: "y.png", cb: "cb.png", cr: "cr.png"), points: "q.ply", camera: camera),
        ])
        let parsed = try CaptureManifest(json: Data(manifest.jsonText().utf8))
        #expect(parsed == manifest)
    }

    @Test func stridesAreHonoured() throws {
        let dir = TemporaryDirectory()
        let synth = CaptureSynthesizer(options: Self.options())
        let image = synth.encode(synth.render(frame: 0))
        let (luma, chroma) = image.packedPlanes()
        let lumaStride = 53, chromaStride = 61 // odd strides with padding bytes
        var bytes = [UInt8](repeating: 0xEE, count: lumaStride * 32 + chromaStride * 16)
        for row in 0 ..< 32 { bytes.replaceSubrange(row * lumaStride ..< row * lumaStride + 48, with: luma[row * 48 ..< row * 48 + 48]) }
        for row in 0 ..< 16 {
            let at = lumaStride * 32 + row * chromaStride
            bytes.replaceSubrange(at ..< at + 48, with: chroma[row * 48 ..< row * 48 + 48])
        }
        try dir.write(Data(bytes), to: "f.nv12")
        try dir.write("0 0 -1 5\n", to: "p.xyz")
        let manifest = CaptureManifest(image: synth.options.imageInfo, frames: [
            CaptureFrameEntry(timestamp: 0, image: .nv12(path: "f.nv12", lumaStride: lumaStride, chromaStride: chromaStride),
                              points: "p.xyz", camera: synth.camera(frame: 0)),
        ])
        try dir.write(manifest.jsonText(), to: "capture.json")
        let frame = try CaptureReader(path: dir.path).frame(at: 0)
        #expect(frame.image.lumaStride == lumaStride)
        #expect(frame.image.chromaStride == chromaStride)
        #expect(frame.image.packedPlanes().luma == luma)
        #expect(frame.image.packedPlanes().chroma == chroma)
        #expect(frame.image.lumaValue(x: 47, y: 31) == luma[31 * 48 + 47])
        #expect(frame.points == [FeaturePoint(position: SIMD3(0, 0, -1), id: 5)])
    }

    @Test func writerRefusesMismatchedFrames() throws {
        let dir = TemporaryDirectory()
        var writer = try CaptureWriter(directory: dir.path, imageInfo: CaptureImageInfo(width: 4, height: 4))
        let image = YCbCrImage(width: 4, height: 4, lumaPlane: .init(repeating: 1, count: 16), chromaPlane: .init(repeating: 128, count: 8))
        try writer.append(image: image, camera: Camera(intrinsics: .init(fx: 1, fy: 1, cx: 2, cy: 2), transform: .identity)!, points: [], timestamp: 1)
        #expect(throws: PointPaintError.self) {
            try writer.append(image: image, camera: Camera(intrinsics: .init(fx: 1, fy: 1, cx: 2, cy: 2), transform: .identity)!, points: [], timestamp: 1)
        }
        let small = YCbCrImage(width: 2, height: 2, lumaPlane: [1, 2, 3, 4], chromaPlane: [128, 128])
        #expect(throws: PointPaintError.self) {
            try writer.append(image: small, camera: Camera(intrinsics: .init(fx: 1, fy: 1, cx: 2, cy: 2), transform: .identity)!, points: [], timestamp: 2)
        }
        // Format v1 stores 4:2:0 only: a 4:4:4 image of the right size is refused, not squeezed.
        let full = YCbCrImage(width: 4, height: 4, subsampling: .yuv444, lumaPlane: .init(repeating: 1, count: 16),
                              chromaPlane: .init(repeating: 128, count: 32))
        let error = try #require(throws: PointPaintError.self) {
            try writer.append(image: full, camera: Camera(intrinsics: .init(fx: 1, fy: 1, cx: 2, cy: 2), transform: .identity)!, points: [], timestamp: 3)
        }
        #expect(error.kind == .unsupported && error.place == .frame(1))
        #expect(writer.frames.count == 1)
    }
}
