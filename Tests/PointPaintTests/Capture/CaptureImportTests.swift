import Foundation
import Testing
@testable import PointPaint

/// `CaptureImport` writes every kind of recording as a PointPaint capture holding the very same
/// frames: JPEG files byte for byte, other images as their decoded planes, depth maps bit for
/// bit, cameras, times and points as the source gave them, and its cloud — so both replay to the
/// same cloud.
@Suite struct CaptureImportTests {
    typealias Truth = CaptureSourceTruth

    /// Expects `copy` (the imported capture) to hold exactly `source`'s frames, and both to
    /// replay to the same cloud with the same counts.
    static func expectSame(_ source: any CaptureSource, _ copy: CaptureReader, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(copy.frameCount == source.frameCount && copy.imageInfo == source.imageInfo, sourceLocation: sourceLocation)
        for index in 0 ..< source.frameCount {
            let a = try source.frame(at: index), b = try copy.frame(at: index)
            #expect(a.timestamp == b.timestamp && a.camera == b.camera && a.points == b.points, sourceLocation: sourceLocation)
            #expect(YCbCrPlanes(a.image) == YCbCrPlanes(b.image), "frame \(index)", sourceLocation: sourceLocation)
            #expect(a.depth?.depth.map(\.bitPattern) == b.depth?.depth.map(\.bitPattern) && a.depth?.confidence == b.depth?.confidence,
                    "frame \(index)", sourceLocation: sourceLocation)
            #expect(try source.jpegData(at: index) == copy.jpegData(at: index), sourceLocation: sourceLocation)
        }
        var stores: [SceneStore] = []
        var statistics: [CaptureReplay.Statistics] = []
        for replayed in [source, copy] as [any CaptureSource] {
            var store = SceneStore(voxelSize: 0.01)
            statistics.append(try CaptureReplay(source: replayed).run(into: &store))
            stores.append(store)
        }
        #expect(statistics[0] == statistics[1] && statistics[0].painted > 0, sourceLocation: sourceLocation)
        #expect(stores[0].cloud() == stores[1].cloud(), sourceLocation: sourceLocation)
    }

    static let layouts: [(String, Truth.Layout, @Sendable (String) throws -> any CaptureSource)] = [
        ("stray JPEG", StrayCaptureTests.jpegFrames, { try StrayCapture(path: $0) }),
        ("stray HEVC", StrayCaptureTests.video, { try StrayCapture(path: $0) }),
        ("record3d .r3d", Record3DCaptureTests.archive, { try Record3DCapture(path: $0 + "/scan.r3d") }),
        ("record3d export", Record3DCaptureTests.export, { try Record3DCapture(path: $0) }),
        ("polycam", Truth.Layout { try PolycamCaptureTests.synth.writePolycam(to: $0) }, { try PolycamCapture(path: $0) }),
        ("scanner app", ScannerAppCaptureTests.everyImage, { try ScannerAppCapture(path: $0) }),
        ("nerfstudio", Truth.Layout { try Truth.synthesizer().writeNerfstudio(to: $0) }, { try NerfstudioCapture(path: $0) }),
        ("v1", Truth.Layout { try Truth.synthesizer().write(to: $0, encoding: .nv12) }, { try CaptureReader(path: $0) }),
    ]

    @Test(arguments: 0 ..< layouts.count)
    func anImportHoldsTheSameFrames(layout: Int) throws {
        let (name, written, open) = Self.layouts[layout]
        let dir = try written.copy()
        let source = try open(dir.path)
        let out = TemporaryDirectory("import")
        var seen: [Int] = []
        let counts = try CaptureImport.write(source, to: out.file("v1"), threads: 2) { seen.append($0) }
        #expect(counts.frames == source.frameCount && seen == Array(1 ... source.frameCount), "\(name)")
        let copy = try CaptureReader(path: out.file("v1"))
        try Self.expectSame(source, copy)
        let jpeg = try (0 ..< source.frameCount).count { try source.jpegData(at: $0) != nil }
        #expect(counts.jpegFrames == jpeg && counts.planeFrames == source.frameCount - jpeg, "\(name): \(counts)")
        #expect(counts.cloud == (source.cloudFile != nil) && (copy.cloudFile != nil) == counts.cloud, "\(name)")
        if let cloud = source.cloudFile, let copied = copy.cloudFile {
            #expect(try FileBytes.read(cloud) == FileBytes.read(copied))
        }
        // Record3D's float metres stay floats; the apps' millimetres stay millimetres.
        let floats = name.hasPrefix("record3d")
        #expect(counts.floatDepthMaps == (floats ? source.frameCount : 0) && counts.millimetreDepthMaps == (floats || name == "v1" ? 0 : source.frameCount),
                "\(name): \(counts)")
    }

    @Test func anImportGoesOnlyIntoANewOrEmptyFolder() throws {
        let dir = try StrayCaptureTests.jpegFrames.copy()
        let source = try StrayCapture(path: dir.path)
        let out = TemporaryDirectory("import")
        try out.write("x", to: "old.txt")
        Truth.expectError(.malformed, at: nil) { try CaptureImport.write(source, to: out.path) }
        Truth.expectError(.malformed, at: nil) { try CaptureImport.write(source, to: out.file("old.txt")) }
        try FileManager.default.createDirectory(atPath: out.file("empty"), withIntermediateDirectories: false)
        #expect(try CaptureImport.write(source, to: out.file("empty")).frames == 4)
    }
}
