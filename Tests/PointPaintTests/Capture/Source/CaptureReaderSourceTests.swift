import Foundation
import Testing
@testable import PointPaint

/// A PointPaint capture read as a capture source: the same frames the reader gives, its notes
/// naming what it holds, and replay's frame sequence delivering them in order.
@Suite struct CaptureReaderSourceTests {
    @Test func aV1CaptureIsACaptureSource() throws {
        let dir = TemporaryDirectory()
        let synth = CaptureSourceTruth.synthesizer(frames: 3)
        try synth.write(to: dir.path, encoding: .png)
        let source: any CaptureSource = try CaptureReader(path: dir.path)
        #expect(source.format == .pointpaint && source.path == dir.path && source.frameCount == 3)
        #expect(source.countMismatch == nil && source.cloudFile == nil)
        #expect(source.notes == [
            CaptureNote(.poses, "poses: camera-to-world with ARKit camera axes, intrinsics in pixels of the image, used as stored (format v1)"),
            CaptureNote(.colour, "images: 3 frames as PNG planes"), CaptureNote(.points, "feature points: every frame"),
            CaptureNote(.depth, "depth: none"),
        ])
        let reader = try CaptureReader(path: dir.path)
        let sequence = source.frames([0, 2], threads: 2)
        for index in [0, 2] {
            let frame = try #require(try sequence.next())
            #expect(frame.index == index && frame.depth == nil)
            #expect(frame.points == (try reader.points(at: index)))
            #expect(try source.frameInfo(at: index) == CaptureFrameInfo(timestamp: frame.timestamp, camera: synth.camera(frame: index)))
            #expect(YCbCrPlanes(frame.image) == YCbCrPlanes(synth.encode(synth.render(frame: index))))
            #expect(try source.jpegData(at: index) == nil)
        }
        #expect(try sequence.next() == nil)
        CaptureSourceTruth.expectError(.outOfRange, at: .frame(3)) { _ = try source.frameInfo(at: 3) }
    }

    @Test func notesNameJPEGFramesDepthAndTheCloud() throws {
        let dir = TemporaryDirectory()
        let planes = CaptureDepthAndJPEGTests.planes
        var writer = try CaptureWriter(directory: dir.path, imageInfo: CaptureImageInfo(width: 16, height: 12))
        let camera = CaptureDepthAndJPEGTests.camera
        try writer.append(jpeg: try JPEGEncoder.encode(planes, quality: 90), camera: camera, points: nil,
                          depth: CaptureDepthAndJPEGTests.millimetreMap, timestamp: 0)
        try writer.append(image: YCbCrImage(planes), camera: camera, points: nil, depth: CaptureDepthAndJPEGTests.floatMap, timestamp: 1)
        try dir.write("ply\n", to: "scene.ply")
        try writer.writeCloud(copying: dir.file("scene.ply"))
        try writer.finish()
        let source = try CaptureFormat.open(dir.path)
        #expect(Array(source.notes.dropFirst()) == [
            CaptureNote(.colour, "images: 1 frame as NV12, 1 frame as JPEG (decoded straight to its Y′CbCr planes)"),
            CaptureNote(.points, "feature points: none recorded"),
            CaptureNote(.depth, "depth: 2 of 2 frames (4x3 float32-m, 4x3 uint16-mm); 1 with confidence maps"),
            CaptureNote(.points, "cloud: cloud.ply"),
        ])
        #expect(source.cloudFile == dir.file("cloud.ply"))
        let frame = try source.frame(at: 0)
        #expect(frame.points == nil && frame.depth == CaptureDepthAndJPEGTests.millimetreMap)
    }
}
