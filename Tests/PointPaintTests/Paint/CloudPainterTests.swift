import Foundation
import Testing
@testable import PointPaint

/// `CloudPainter`: samples exactly as replay does, keeps or drops unseen points, does not depend
/// on the thread count, paints into voxels, and refuses a cloud no frame sees.
@Suite struct CloudPainterTests {
    /// A small synthesized capture (PointPaint's own format, no depth maps) and its truth.
    static let capture: (directory: TemporaryDirectory, truth: [CaptureSynthesizer.TruthPoint]) = {
        let directory = TemporaryDirectory("paint-test")
        var options = CaptureSynthesizer.Options(frames: 6, width: 160, height: 120, pointsPerFrame: 150)
        options.positionNoise = 0
        let truth = try! CaptureSynthesizer(options: options).write(to: directory.file("cap"), encoding: .nv12)
        return (directory, truth)
    }()

    static func source() throws -> any CaptureSource { try CaptureFormat.open(capture.directory.file("cap")) }

    static func paint(_ cloud: PaintCloud, _ configure: (inout CloudPainter.Options) -> Void = { _ in }) throws -> PaintResult {
        var options = CloudPainter.Options()
        configure(&options)
        return try CloudPainter(cloud: cloud, source: try source(), options: options).run()
    }

    @Test func oneFrameWithoutVisibilityGivesReplaysSamples() throws {
        let source = try Self.source()
        let frame = try source.frame(at: 2)
        let points = try #require(frame.points)
        let cloud = try PaintCloud(path: "features", positions: points.map(\.position), colors: nil)
        let result = try Self.paint(cloud) {
            $0.pass.frames = 2 ..< 3
            $0.visibility = .off
        }
        let replayed = CaptureReplay.samplesForTesting(source: source, frame: frame)
        #expect(replayed.positions.count == points.count, "every feature point lies in its own frame")
        #expect(result.cloud.count == points.count && result.statistics.observations == points.count)
        for i in replayed.positions.indices {
            let expected = SceneStore.encode(replayed.colors[i])
            let d = result.cloud.colors[i] - expected
            #expect(max(abs(d.x), abs(d.y), abs(d.z)) < 1e-5, "point \(i): \(result.cloud.colors[i]) against replay's \(expected)")
        }
    }

    @Test func unseenPointsAreKeptFlaggedOrDropped() throws {
        let source = try Self.source()
        let points = try #require(try source.frame(at: 0).points).map(\.position)
        // Half the points moved far behind every camera: nothing sees them.
        let moved = points.enumerated().map { $0.offset % 2 == 0 ? $0.element : $0.element + SIMD3(0, 0, 50) }
        let plain = try PaintCloud(path: "plain", positions: moved, colors: nil)
        let kept = try Self.paint(plain)
        #expect(kept.statistics.unseen >= moved.count / 2 && kept.statistics.seen > 0)
        #expect(kept.cloud.count == moved.count && kept.unpaintedCount == kept.statistics.unseen)
        let ply = kept.plyFile()
        #expect(ply[element: "vertex"]?[property: "painted"] != nil)
        let dropped = try Self.paint(plain) { $0.unseen = .drop }
        #expect(dropped.cloud.count == dropped.statistics.seen && dropped.unpaintedCount == 0)
        #expect(dropped.plyFile()[element: "vertex"]?[property: "painted"] == nil)
        let red = [SIMD3<Float>](repeating: SIMD3(1, 0, 0), count: moved.count)
        let coloured = try Self.paint(try PaintCloud(path: "red", positions: moved, colors: red))
        #expect(coloured.unpaintedCount == 0)
        for i in coloured.cloud.counts.indices where coloured.cloud.counts[i] == 0 {
            #expect(coloured.cloud.colors[i] == SIMD3(1, 0, 0), "an unseen point keeps its own colour")
        }
    }

    @Test func resultDoesNotDependOnThreads() throws {
        let cloud = try PaintCloud(path: "truth", positions: Self.capture.truth.map(\.position), colors: nil)
        let one = try Self.paint(cloud) { $0.pass.threads = 1 }
        let three = try Self.paint(cloud) { $0.pass.threads = 3 }
        #expect(one.cloud == three.cloud && one.statistics == three.statistics)
        #expect(one.statistics.zbufferFrames == 6 && one.statistics.hidden > 0, "\(one.statistics)")
    }

    @Test func voxelsCollectThePointsOfTheirCell() throws {
        let cloud = try PaintCloud(path: "truth", positions: Self.capture.truth.map(\.position), colors: nil)
        let voxels = try Self.paint(cloud) { $0.voxelSize = 0.1 }
        let seenOnly = try Self.paint(cloud) {
            $0.voxelSize = 0.1
            $0.unseen = .drop
        }
        let points = try Self.paint(cloud)
        #expect(voxels.cloud.voxelSize == 0.1 && voxels.cloud.count < points.cloud.count / 2)
        #expect(seenOnly.cloud.counts.reduce(0, +) == UInt32(seenOnly.statistics.observations))
        #expect(voxels.statistics.unseen > 0 && voxels.cloud.count > seenOnly.cloud.count, "unseen points keep voxels of their own")
        #expect(voxels.plyFile().comments.contains("voxel_size 0.1"))
    }

    @Test func aCloudNoFrameSeesIsRefused() throws {
        let far = try PaintCloud(path: "far.ply", positions: Self.capture.truth.map { $0.position + SIMD3(0, 0, 1000) }, colors: nil)
        let error = try #require(throws: PointPaintError.self) { try Self.paint(far) }
        #expect(error.kind == .outOfRange && error.file == "far.ply")
        #expect(error.message.contains("different coordinate frames"), "\(error.message)")
    }

    @Test func depthVisibilityNeedsDepthMaps() throws {
        let cloud = try PaintCloud(path: "truth", positions: Self.capture.truth.map(\.position), colors: nil)
        let error = try #require(throws: PointPaintError.self) { try Self.paint(cloud) { $0.visibility = .depth } }
        #expect(error.kind == .missing && error.place == .frame(0))
    }

    @Test func nonFiniteAndEmptyClouds() throws {
        let nan = Float.nan
        let cloud = try PaintCloud(path: "n", positions: [SIMD3(nan, 0, 0), SIMD3(1, 2, 3), SIMD3(0, .infinity, 0)],
                                   colors: [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)])
        #expect(cloud.count == 1 && cloud.nonFinite == 2 && cloud.colors == [SIMD3(0, 1, 0)])
        let empty = try #require(throws: PointPaintError.self) { try PaintCloud(path: "e.ply", positions: [], colors: nil) }
        #expect(empty.kind == .missing && empty.file == "e.ply")
        let allNaN = try #require(throws: PointPaintError.self) { try PaintCloud(path: "a.ply", positions: [SIMD3(nan, nan, nan)], colors: nil) }
        #expect(allNaN.kind == .missing && allNaN.place == .element("vertex", 0))
    }

    @Test func spacingEstimateFollowsTheSampling() throws {
        // A 2 m square sampled every 2 cm and every 5 cm.
        func grid(_ step: Float) throws -> PaintCloud {
            let n = Int(2 / step)
            let positions = (0 ..< n * n).map { SIMD3(Float($0 % n) * step, 0, Float($0 / n) * step) }
            return try PaintCloud(path: "grid", positions: positions, colors: nil)
        }
        let fine = try grid(0.02).estimatedSpacing(), coarse = try grid(0.05).estimatedSpacing()
        #expect(fine > 0.01 && fine < 0.04, "\(fine)")
        #expect(coarse > 0.025 && coarse < 0.1, "\(coarse)")
        let stated = try PaintCloud(path: "v", positions: [SIMD3(0, 0, 0), SIMD3(1, 1, 1)], colors: nil, voxelSize: 0.3)
        #expect(stated.estimatedSpacing() == 0.3)
    }
}

extension CaptureReplay {
    /// Replay's own samples of `frame` (feature points, no grade).
    static func samplesForTesting(source: any CaptureSource, frame: CaptureFrame) -> FrameSamples {
        var options = Options()
        options.points = .features
        return try! CaptureReplay(source: source, options: options).samples(of: frame)
    }
}
