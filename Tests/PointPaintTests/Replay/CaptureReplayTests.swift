import Foundation
import Testing
@testable import PointPaint

/// Replaying a synthesized capture reproduces the true surface colours of its feature points.
@Suite struct CaptureReplayTests {
    static func synthesize(_ primaries: ColorPrimaries = .srgb, range: YCbCrRange = .full, matrix: YCbCrMatrix = .bt601,
                           siting: ChromaSiting = .center, in dir: TemporaryDirectory) throws -> [CaptureSynthesizer.TruthPoint] {
        var o = CaptureSynthesizer.Options(frames: 6, width: 320, height: 240, pointsPerFrame: 250)
        o.primaries = primaries
        o.range = range
        o.matrix = matrix
        o.chromaSiting = siting
        o.seed = 11
        return try CaptureSynthesizer(options: o).write(to: dir.path, encoding: .nv12)
    }

    /// Per-voxel comparison with the truth (mean of the true linear colours of the points in the
    /// voxel, as the store averages): mean and 95th-percentile error in 8-bit sRGB levels.
    static func colourError(store: SceneStore, truth: [CaptureSynthesizer.TruthPoint]) -> (mean: Double, p95: Double, voxels: Int) {
        var sums: [VoxelKey: (SIMD3<Double>, Int)] = [:]
        for t in truth {
            guard let key = VoxelKey(containing: t.position, voxelSize: store.voxelSize) else { continue }
            let linear = SRGBTransfer.decode(t.extendedSRGB)
            let old = sums[key] ?? (.zero, 0)
            sums[key] = (old.0 + linear, old.1 + 1)
        }
        var errors: [Double] = []
        for (key, (sum, n)) in sums {
            guard let voxel = store.voxel(key) else { continue }
            let want = SRGBTransfer.encode(sum / Double(n)) * 255
            let got = SIMD3<Double>(SRGBTransfer.encode(voxel.color)) * 255
            errors.append(maximumDifference(got, want))
        }
        errors.sort()
        let mean = errors.reduce(0, +) / Double(max(errors.count, 1))
        return (mean, errors.isEmpty ? .infinity : errors[Int(Double(errors.count - 1) * 0.95)], errors.count)
    }

    @Test(arguments: [(YCbCrMatrix.bt601, YCbCrRange.full, ChromaSiting.center), (.bt709, .video, .left), (.bt2020, .full, .left)])
    func replayReproducesTheTrueColours(matrix: YCbCrMatrix, range: YCbCrRange, siting: ChromaSiting) throws {
        let dir = TemporaryDirectory()
        let truth = try Self.synthesize(range: range, matrix: matrix, siting: siting, in: dir)
        var store = SceneStore(voxelSize: 0.02)
        let statistics = try CaptureReplay(source: CaptureReader(path: dir.path)).run(into: &store)
        #expect(statistics.frames == 6)
        #expect(statistics.pointsSeen == truth.count)
        #expect(statistics.painted + statistics.behind + statistics.outside == truth.count)
        #expect(statistics.painted > truth.count * 95 / 100)
        let error = Self.colourError(store: store, truth: truth)
        print("replay colour error \(matrix) \(range) \(siting): mean \(error.mean) levels, p95 \(error.p95) over \(error.voxels) voxels")
        #expect(error.voxels > 500)
        #expect(error.mean < 1.5, "mean error \(error.mean)")
        #expect(error.p95 < 4, "p95 error \(error.p95)")
    }

    @Test func wideColourSurvivesReplay() throws {
        let dir = TemporaryDirectory()
        let truth = try Self.synthesize(.displayP3, in: dir)
        var store = SceneStore(voxelSize: 0.02)
        let statistics = try CaptureReplay(source: CaptureReader(path: dir.path)).run(into: &store)
        let outside = truth.filter { !ColorGamut.isInsideSRGB($0.extendedSRGB) }.count
        #expect(outside > truth.count / 20, "the synthetic P3 scene has colours outside sRGB")
        #expect(statistics.outOfSRGB > outside / 2 && statistics.outOfSRGB < outside * 2, "\(statistics.outOfSRGB) vs \(outside)")
        let cloud = store.cloud()
        #expect(cloud.colors.contains { $0.x > 1.01 || $0.y < -0.01 || $0.z < -0.01 })
        let error = Self.colourError(store: store, truth: truth)
        #expect(error.mean < 1.5, "mean error \(error.mean)")
        #expect(error.p95 < 4, "p95 error \(error.p95)")
    }

    /// One colour policy: every voxel's exact float colour in a replayed Display P3 capture (as
    /// a PLY stores it: the store's encoded extended sRGB) equals what the sampler gives at that
    /// voxel's point in `.extendedSRGB`, including points whose decoded R′G′B′ lies outside the
    /// capture's own gamut (where replay and `sample` used to differ).
    @Test func replayedColoursEqualTheSamplersExtendedSRGB() throws {
        let dir = TemporaryDirectory()
        _ = try Self.synthesize(.displayP3, in: dir)
        let reader = try CaptureReader(path: dir.path)
        let info = reader.imageInfo
        var options = CaptureReplay.Options()
        options.pass.frames = 2 ..< 3
        // `first` keeps each voxel's first sample with all its bits: one point decides a voxel.
        var store = SceneStore(voxelSize: 0.02, policy: .first)
        let statistics = try CaptureReplay(source: reader, options: options).run(into: &store)
        #expect(statistics.outOfSRGB > 0, "the frame has colours outside sRGB")
        let sampler = CapturedImageSampler(image: try reader.image(at: 2), encoding: info.encoding, siting: info.chromaSiting,
                                           primaries: info.primaries)
        let camera = reader.manifest.frames[2].camera
        var expected: [VoxelKey: SIMD3<Float>] = [:]
        var outsideCaptureGamut = 0
        for point in try #require(try reader.points(at: 2)) {
            guard case .visible(let s, let t) = camera.project(SIMD3<Double>(point.position), width: info.width, height: info.height),
                  let key = VoxelKey(containing: point.position, voxelSize: store.voxelSize), expected[key] == nil
            else { continue }
            let at = SIMD2(s, t)
            let colour = try #require(sampler.color(at: at, space: .extendedSRGB))
            expected[key] = colour
            let decoded = try #require(sampler.color(at: at, space: .capture))
            if decoded.min() < 0 || decoded.max() > 1 { outsideCaptureGamut += 1 }
        }
        let cloud = store.cloud()
        #expect(cloud.colors.count == store.count && store.count == expected.count)
        var mismatches = 0
        for i in 0 ..< store.count where expected[store[i].key] != cloud.colors[i] { mismatches += 1 }
        #expect(mismatches == 0, "\(mismatches) of \(store.count) voxels differ from the sampler")
        #expect(outsideCaptureGamut > 0, "some decoded colours lie outside the capture's gamut")
    }

    /// 41 small frames: several batches for every thread count (batches hold threads × 4 frames),
    /// the last one partial, so frames from different batches meet in the same voxels. Every
    /// policy, since `latest` and `first` depend on the order samples reach the store; with and
    /// without exposure gains.
    @Test(arguments: [false, true])
    func resultsAreIdenticalWhateverTheThreadCount(gains: Bool) throws {
        let dir = TemporaryDirectory()
        var o = CaptureSynthesizer.Options(frames: 41, width: 160, height: 120, pointsPerFrame: 100)
        o.seed = 5
        _ = try CaptureSynthesizer(options: o).write(to: dir.path, encoding: .nv12)
        let reader = try CaptureReader(path: dir.path)
        for policy in AccumulationPolicy.allCases {
            var runs: [(voxels: [SceneStore.Voxel], statistics: CaptureReplay.Statistics, samples: Int)] = []
            for threads in [1, 2, 3] {
                var options = CaptureReplay.Options()
                options.pass.threads = threads
                if gains {
                    options.gains = ExposureGains(gains: Dictionary(uniqueKeysWithValues: (0 ..< 41).map { frame in
                        (frame, SIMD3<Float>(0.8 + Float(frame % 5) * 0.1, 1.1, 0.95 - Float(frame % 3) * 0.05))
                    }))
                }
                var store = SceneStore(voxelSize: 0.02, policy: policy)
                let statistics = try CaptureReplay(source: reader, options: options).run(into: &store)
                runs.append(((0 ..< store.count).map { store[$0] }, statistics, store.sampleCount))
            }
            let single = runs[0]
            #expect(single.statistics.frames == 41)
            #expect(single.statistics.painted > 41 * 50, "\(single.statistics)")
            // Voxels painted from frames of different batches, so order matters for latest and first.
            #expect(single.voxels.contains { $0.lastFrame - $0.firstFrame > 12 })
            for (k, run) in runs.enumerated().dropFirst() {
                #expect(run.statistics == single.statistics, "\(policy), \([1, 2, 3][k]) threads")
                #expect(run.samples == single.samples, "\(policy), \([1, 2, 3][k]) threads")
                #expect(run.voxels == single.voxels, "\(policy), \([1, 2, 3][k]) threads")
            }
        }
    }

    @Test func framesRangeAndStride() throws {
        let dir = TemporaryDirectory()
        _ = try Self.synthesize(in: dir)
        var options = CaptureReplay.Options()
        options.pass.frames = 1 ..< 6
        options.pass.every = 2
        let replay = try CaptureReplay(source: CaptureReader(path: dir.path), options: options)
        #expect(replay.frameIndices == [1, 3, 5])
        var store = SceneStore(voxelSize: 0.02)
        var seen: [Int] = []
        let statistics = try replay.run(into: &store) { progress in
            seen.append(progress.done)
            return progress.done < 2
        }
        #expect(seen == [1, 2])
        #expect(statistics.frames == 2)
    }

    @Test func pointsBehindOrOutsideAreCountedNotPainted() throws {
        let dir = TemporaryDirectory()
        try CaptureBadInputTests.validCapture(in: dir)
        // Camera at the origin looking down −z with fx = 4 on an 8×4 image.
        try dir.write("0 0 -1 1\n0 0 1 2\n50 0 -1 3\n0 0 0 4\n", to: "points/0.xyz")
        var store = SceneStore(voxelSize: 0.1)
        let statistics = try CaptureReplay(source: CaptureReader(path: dir.path)).run(into: &store)
        #expect(statistics.painted == 1)
        #expect(statistics.behind == 2)
        #expect(statistics.outside == 1)
        #expect(store.count == 1)
    }

    @Test func aGradeAppliesToEverySample() throws {
        let dir = TemporaryDirectory()
        _ = try Self.synthesize(in: dir)
        let reader = try CaptureReader(path: dir.path)
        var plain = SceneStore(voxelSize: 0.02), graded = SceneStore(voxelSize: 0.02), inverted = SceneStore(voxelSize: 0.02)
        try CaptureReplay(source: reader).run(into: &plain)
        var options = CaptureReplay.Options()
        options.grade = ColorCube(size: 2) { _ in SIMD3(1, 0, 0) }
        try CaptureReplay(source: reader, options: options).run(into: &graded)
        options.grade = ColorCube(size: 17) { SIMD3(1, 1, 1) - $0 }
        try CaptureReplay(source: reader, options: options).run(into: &inverted)
        #expect(graded.count == plain.count)
        for i in 0 ..< graded.count {
            #expect(isApproximatelyEqual(graded[i].color, SIMD3(1, 0, 0), tolerance: 1e-4))
        }
        // Single-sample voxels of the inverting grade hold the inverse of the plain colour.
        var checked = 0
        for i in 0 ..< plain.count where plain[i].count == 1 {
            let a = SRGBTransfer.encode(plain[i].color), b = SRGBTransfer.encode(inverted[i].color)
            #expect(isApproximatelyEqual(a + b, SIMD3(repeating: 1), tolerance: 0.01))
            checked += 1
        }
        #expect(checked > 100)
    }
}
