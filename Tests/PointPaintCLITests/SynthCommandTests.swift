import Foundation
import Testing
import PointPaint

/// `synth --layout`: every app layout is written as the app records it, so the capture sources
/// recognise and open it, with depth on every frame and poses that are not the identity.
@Suite struct SynthCommandTests {
    /// The layouts, the name `-o` gets and the format detection must find.
    static let layouts: [(layout: String, name: String, format: CaptureFormat)] = [
        ("stray", "stray", .stray), ("record3d", "scan.r3d", .record3d), ("record3d", "export", .record3d),
        ("polycam", "polycam", .polycam), ("scanner-app", "scanner", .scannerApp), ("nerfstudio", "nerf", .nerfstudio),
    ]

    @Test(arguments: 0 ..< layouts.count)
    func appLayoutsOpenAsTheirFormat(_ which: Int) throws {
        let (layout, name, format) = Self.layouts[which]
        let dir = temporaryDirectory()
        let path = dir + "/" + name
        let result = try Tool.run(["synth", "--layout", layout, "-o", path, "--frames", "3", "--size", "64x48", "--seed", "5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote \(path): 3 frames of 64x48"), "\(result.stdout)")
        #expect(try CaptureFormat.detect(path) == format)
        let source = try format.open(path)
        #expect(source.frameCount == 3)
        #expect(source.countMismatch == nil)
        let last = try source.frame(at: 2)
        #expect(last.depth != nil)
        let first = try source.frameInfo(at: 0).camera.transform, moved = last.camera.transform
        let travelled = moved.columns.3 - first.columns.3
        #expect((travelled * travelled).sum() > 1e-4, "the poses of an arc differ")
    }

    @Test func encodingBelongsToTheV1LayoutOnly() throws {
        let dir = temporaryDirectory()
        let result = try Tool.run(["synth", "--layout", "stray", "--encoding", "png", "-o", dir + "/s", "--frames", "1"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--encoding applies to the v1 layout only"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/s"))
    }

    @Test func appLayoutsRefuseColourOptionsAJPEGCannotHold() throws {
        let dir = temporaryDirectory()
        let result = try Tool.run(["synth", "--layout", "polycam", "--range", "video", "-o", dir + "/p", "--frames", "1"])
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("expected BT.601 full-range"), "\(result.stderr)")
    }

    @Test func occludersDriftAndASceneCloud() throws {
        let dir = temporaryDirectory()
        let result = try Tool.run(["synth", "-o", dir + "/cap", "--frames", "2", "--size", "64x48", "--occluders",
                                   "--exposure-drift", "0.5", "--scene-cloud", "0.1"])
        #expect(result.status == 0, "\(result.stderr)")
        let scene = try PLYReader.read(path: dir + "/cap/scene.ply")
        let vertex = try #require(scene[element: "vertex"])
        #expect(vertex.count == SyntheticScene.occluded.surfaceSamples(spacing: 0.1).count)
        #expect(vertex[property: "flat"] != nil && vertex[property: "box"] != nil && vertex[property: "red_f"] != nil)
        let bad = try Tool.run(["synth", "-o", dir + "/bad", "--exposure-drift", "2"])
        #expect(bad.status != 0 && bad.stderr.contains("--exposure-drift"), "\(bad.stderr)")
    }
}
