import Foundation
import Testing
@testable import PointPaint

/// Replay over any capture source: points from depth (confidence, distance and stride as asked),
/// feature points where a frame has them, the recording's own cloud; a video decoded in order
/// giving the same cloud on any thread count; a recording whose parts disagree in number refused
/// unless the frames asked for stay within what all of them have.
@Suite struct CaptureReplaySourceTests {
    typealias Truth = CaptureSourceTruth

    static func replay(_ source: any CaptureSource, _ configure: (inout CaptureReplay.Options) -> Void = { _ in })
        throws -> (statistics: CaptureReplay.Statistics, cloud: VoxelCloud) {
        var options = CaptureReplay.Options()
        configure(&options)
        var store = SceneStore(voxelSize: 0.01)
        let statistics = try CaptureReplay(source: source, options: options).run(into: &store)
        return (statistics, store.cloud())
    }

    /// The pixels of the depth maps the synthesizer wrote for `frames` that pass `sampling`.
    static func expectedPoints(_ synth: CaptureSynthesizer, frames: Range<Int>, _ sampling: DepthSampling) -> Int {
        var count = 0
        for index in frames {
            let map = Truth.writtenDepth(synth, frame: index)
            for j in stride(from: 0, to: map.height, by: sampling.stride) {
                for i in stride(from: 0, to: map.width, by: sampling.stride) {
                    let d = map.depth[j * map.width + i]
                    if d > 0, d <= sampling.maximumDepth, map.confidence![j * map.width + i] >= UInt8(sampling.minimumConfidence.rawValue) {
                        count += 1
                    }
                }
            }
        }
        return count
    }

    @Test func pointsFromDepthFollowConfidenceDistanceAndStride() throws {
        let dir = try StrayCaptureTests.jpegFrames.copy()
        let source = try StrayCapture(path: dir.path)
        let synth = StrayCaptureTests.synth
        var samplings: [DepthSampling] = [DepthSampling()]
        var low = DepthSampling()
        low.minimumConfidence = .low
        var near = DepthSampling()
        near.maximumDepth = 2.6
        var sparse = DepthSampling()
        sparse.stride = 3
        samplings += [low, near, sparse]
        var seen: [Int] = []
        for sampling in samplings {
            let (statistics, cloud) = try Self.replay(source) { $0.depth = sampling }
            let expected = Self.expectedPoints(synth, frames: 0 ..< 4, sampling)
            #expect(statistics.frames == 4 && statistics.depthFrames == 4 && statistics.pointsSeen == expected, "\(statistics)")
            #expect(statistics.painted == expected && statistics.behind == 0 && statistics.outside == 0 && cloud.count > 0)
            #expect(statistics.depth.considered == 4 * ((64 + sampling.stride - 1) / sampling.stride) * ((48 + sampling.stride - 1) / sampling.stride))
            seen.append(expected)
        }
        // Each option makes a difference on this scene.
        #expect(seen[1] > seen[0] && seen[2] < seen[0] && seen[3] < seen[0] / 4, "\(seen)")
    }

    @Test func aFramesSamplesAreItsDepthPointsSampledWhereTheyLie() throws {
        let dir = try StrayCaptureTests.jpegFrames.copy()
        let source = try StrayCapture(path: dir.path)
        let replay = try CaptureReplay(source: source)
        let frame = try source.frame(at: 2)
        let samples = replay.samples(of: frame)
        var positions: [SIMD3<Float>] = [], coordinates: [SIMD2<Float>] = []
        try #require(frame.depth).appendPoints(camera: frame.camera, imageWidth: 160, imageHeight: 120, sampling: DepthSampling(),
                                              positions: &positions, coordinates: &coordinates)
        #expect(samples.positions == positions && samples.frame == 2)
        let info = source.imageInfo
        let sampler = CapturedImageSampler(image: frame.image, encoding: info.encoding, siting: info.chromaSiting, primaries: info.primaries,
                                           edgePolicy: .clamp)
        var colours: [SIMD3<Float>] = []
        sampler.sample(coordinates, into: &colours, space: .capture)
        _ = replay.colorPolicy.linearizeBatch(&colours)
        #expect(samples.colors == colours)
    }

    @Test func autoTakesFeaturePointsWhereAFrameHasThemElseDepth() throws {
        let dir = TemporaryDirectory()
        let synth = Truth.synthesizer(frames: 2)
        try synth.write(to: dir.file("v1"), encoding: .nv12)
        let reader = try CaptureReader(path: dir.file("v1"))
        var writer = try CaptureWriter(directory: dir.file("mixed"), imageInfo: reader.imageInfo)
        let size = synth.appDepthSize
        for index in 0 ..< 2 {
            let frame = try reader.frame(at: index)
            // Frame 0: points and depth; frame 1: an empty points file and depth.
            try writer.append(image: frame.image, camera: frame.camera, points: index == 0 ? frame.points : [],
                              depth: synth.renderDepth(frame: index, width: size.width, height: size.height), timestamp: frame.timestamp)
        }
        try writer.finish()
        let mixed = try CaptureReader(path: dir.file("mixed"))
        let featureCount = try #require(try reader.points(at: 0)).count
        let auto = try Self.replay(mixed).statistics
        #expect(auto.depthFrames == 1 && auto.pointsSeen == featureCount + auto.depth.points && auto.depth.points > 1000, "\(auto)")
        let features = try Self.replay(mixed) { $0.points = .features }.statistics
        #expect(features.depthFrames == 0 && features.pointsSeen == featureCount)
        let depth = try Self.replay(mixed) { $0.points = .depth }.statistics
        #expect(depth.depthFrames == 2 && depth.pointsSeen > 2 * 1000)
        // The plain capture has no depth: --points depth paints nothing, auto its feature points.
        #expect(try Self.replay(reader) { $0.points = .depth }.statistics.pointsSeen == 0)
    }

    @Test func theRecordingsOwnCloudIsProjectedIntoEveryFrame() throws {
        let dir = try ScannerAppCaptureTests.everyImage.copy()
        let source = try ScannerAppCapture(path: dir.path)
        let cloudFile = try #require(source.cloudFile)
        let cloud = try PLYFeaturePoints.parse(try FileBytes.read(cloudFile), file: cloudFile)
        let (statistics, voxels) = try Self.replay(source) { $0.points = .cloud }
        #expect(statistics.pointsSeen == cloud.count * source.frameCount && statistics.depthFrames == 0)
        #expect(statistics.painted > cloud.count && voxels.count > 0, "\(statistics)")

        // Stray Scanner ships no cloud of its own.
        let stray = try StrayCaptureTests.jpegFrames.copy()
        Truth.expectError(.missing, at: nil) { _ = try Self.replay(StrayCapture(path: stray.path)) { $0.points = .cloud } }
    }

    @Test func aVideoReplaysTheSameOnAnyThreadCount() throws {
        let dir = try StrayCaptureTests.video.copy()
        let source = try StrayCapture(path: dir.path)
        #expect(source.video != nil)
        let one = try Self.replay(source) { $0.pass.threads = 1 }
        let two = try Self.replay(source) { $0.pass.threads = 2 }
        let three = try Self.replay(source) { $0.pass.threads = 3; $0.pass.frames = 1 ..< 4 }
        #expect(one.statistics.frames == 4 && one.statistics.depthFrames == 4 && one.cloud.count > 1000)
        #expect(one.statistics == two.statistics && one.cloud == two.cloud)
        #expect(three.statistics.frames == 3 && three.statistics.pointsSeen < one.statistics.pointsSeen)
        // The same frames extracted as JPEGs: the same points (their depth maps), other codes.
        let frames = try StrayCaptureTests.jpegFrames.copy()
        let jpeg = try Self.replay(StrayCapture(path: frames.path)) { $0.pass.threads = 2 }
        #expect(jpeg.statistics.pointsSeen == one.statistics.pointsSeen && jpeg.cloud.positions == one.cloud.positions)
    }

    @Test("a depth map cut into bands of rows gives the store, counts and progress of the whole map",
          arguments: [(1, 1), (2, 1), (2, 3), (1, 2)])
    func depthBandsGiveTheWholeMapsStore(threads: Int, stride: Int) throws {
        let dir = try StrayCaptureTests.jpegFrames.copy()
        let source = try StrayCapture(path: dir.path)
        func run(_ piece: Int, policy: AccumulationPolicy) throws -> (CaptureReplay.Statistics, [StoredVoxel], [Int]) {
            var options = CaptureReplay.Options()
            options.pass.threads = threads
            options.depth.stride = stride
            options.depth.minimumConfidence = .low
            options.depthPiecePixels = piece
            let replay = try CaptureReplay(source: source, options: options)
            var store = SceneStore(voxelSize: 0.01, policy: policy)
            var done: [Int] = []
            let statistics = try replay.run(into: &store) { done.append($0.done); return true }
            return (statistics, try StoreFixtures.voxels(store.sortedVoxels(provenance: StoreProvenance(kind: .replay))), done)
        }
        for policy in [AccumulationPolicy.mean, .latest] {
            let whole = try run(1 << 16, policy: policy)
            #expect(whole.0.frames == 4 && whole.0.depthFrames == 4 && whole.0.pointsSeen > 1000 && whole.2 == [1, 2, 3, 4])
            // 64×48 maps: 100 pixels a piece is a few rows; 7 does not divide the 64 columns.
            for piece in [100, 7, 64 / stride] {
                let banded = try run(piece, policy: policy)
                #expect(banded.0 == whole.0 && banded.1 == whole.1 && banded.2 == whole.2, "\(policy) in pieces of \(piece)")
            }
        }
        // The pieces themselves: bands of whole rows (visited by the stride) covering the map once.
        var options = CaptureReplay.Options()
        options.depth.stride = stride
        options.depthPiecePixels = 100
        let frame = try source.frame(at: 0)
        let pieces = try CaptureReplay(source: source, options: options).pieces(of: frame).compactMap { $0 }
        #expect(pieces.count > 2)
        #expect(pieces.first?.lowerBound == 0 && pieces.last?.upperBound == 48 && zip(pieces, pieces.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(pieces.allSatisfy { $0.lowerBound % stride == 0 && ($0.count + stride - 1) / stride * (64 / stride) <= max(100, 64 / stride) })
    }

    @Test("a video's shards are contiguous runs from its keyframes, decoded once in all, merging to the whole")
    func videoShardsAreContiguousAndExact() throws {
        let dir = try StrayCaptureTests.video.copy()
        try FileManager.default.removeItem(atPath: dir.file("rgb.mp4"))
        // A keyframe every 2 frames, B-frames between (lossless HEVC, as the other video tests).
        let codec = StrayCaptureTests.hevc.map { $0.replacingOccurrences(of: "scenecut=0", with: "scenecut=0:keyint=2:min-keyint=2") }
        try StrayCaptureTests.encodeVideo(to: dir.file("rgb.mp4"), codec: codec)
        let source = try StrayCapture(path: dir.path)
        #expect(try source.decodingStarts() == [0, 2])
        func replay(_ configure: (inout CaptureReplay.Options) -> Void) throws -> (indices: [Int], store: SceneStore) {
            var options = CaptureReplay.Options()
            configure(&options)
            let replay = try CaptureReplay(source: source, options: options)
            var store = SceneStore(voxelSize: 0.01)
            try replay.run(into: &store)
            return (replay.frameIndices, store)
        }
        let whole = try replay { _ in }
        for threads in [1, 2] {
            let parts = try (0 ..< 2).map { k in try replay { $0.shard = Shard(index: k, count: 2); $0.pass.threads = threads } }
            #expect(parts.map(\.indices) == [[0, 1], [2, 3]])
            var merged = parts[0].store
            merged.merge(parts[1].store)
            #expect(merged.cloud() == whole.store.cloud(), "\(threads) threads")
        }
        // Frames from the middle start at the keyframe before them: the same samples.
        let middle = try replay { $0.pass.frames = 3 ..< 4 }
        var alone = SceneStore(voxelSize: 0.01)
        let all = try CaptureReplay(source: source, options: CaptureReplay.Options())
        alone.add(points: try all.samples(ofFrame: 3).positions, colors: try all.samples(ofFrame: 3).colors, frame: 3)
        #expect(middle.indices == [3] && middle.store.cloud() == alone.cloud())
    }

    @Test func countsThatDisagreeRefuseAReplayThatNeedsTheMissingFrames() throws {
        let dir = try StrayCaptureTests.jpegFrames.copy()
        try FileManager.default.removeItem(atPath: dir.file("rgb/000003.jpg"))
        let source = try StrayCapture(path: dir.path)
        let mismatch = try #require(source.countMismatch)
        #expect(source.frameCount == 3)
        for frames in [nil, 0 ..< 4, 2 ..< Int.max] as [Range<Int>?] {
            do {
                _ = try Self.replay(source) { $0.pass.frames = frames }
                Issue.record("expected the replay of \(String(describing: frames)) to be refused")
            } catch let error as PointPaintError {
                #expect(error.kind == .malformed && error.file == dir.path && error.description.contains(mismatch), "\(error)")
                #expect(error.message.hasSuffix("replay a range within frames 0 to 2") && !error.description.contains("\n"))
            }
        }
        #expect(try Self.replay(source) { $0.pass.frames = 0 ..< 3 }.statistics.frames == 3)
        #expect(try Self.replay(source) { $0.pass.frames = 1 ..< 2 }.statistics.frames == 1)
    }

    @Test func aFrameThatFailsStopsTheReplayAfterTheFramesBeforeIt() throws {
        let dir = try StrayCaptureTests.jpegFrames.copy()
        try Data("not a jpeg".utf8).write(to: URL(fileURLWithPath: dir.file("rgb/000002.jpg")))
        let source = try StrayCapture(path: dir.path)
        for threads in [1, 2] {
            var options = CaptureReplay.Options()
            options.pass.threads = threads
            var store = SceneStore(voxelSize: 0.01)
            var done: [Int] = []
            let replay = try CaptureReplay(source: source, options: options)
            let error = try #require(throws: PointPaintError.self) {
                try replay.run(into: &store) { progress, _ in
                    done.append(progress.done)
                    return true
                }
            }
            #expect(error.place == .frame(2) && done == [1, 2], "\(threads) threads: \(error), \(done)")
        }
    }
}
