import Foundation
import Testing
@testable import PointPaint

/// `ExposureGains`: the solve recovers known exposures up to one global factor despite
/// outliers, fixes the median frame at 1, clamps to [1/2, 2]; painting a capture with drifting
/// exposure and white balance comes out within a few levels of the truth after one global gain
/// with `--exposure auto`, and clearly worse without.
@Suite struct ExposureGainsTests {
    @Test func solveRecoversExposuresDespiteOutliers() {
        var random = SplitMix64(seed: 7)
        let exposures: [SIMD3<Float>] = [[1, 1, 1], [0.7, 0.75, 0.8], [1.2, 1.1, 1.0], [0.9, 0.9, 0.95], [0.2, 0.2, 0.2]]
        var point: [Int] = [], frame: [Int] = [], colors: [SIMD3<Float>] = []
        for p in 0 ..< 300 {
            let c = SIMD3<Float>(Float(random.unit()) * 0.5 + 0.05, Float(random.unit()) * 0.5 + 0.05, Float(random.unit()) * 0.5 + 0.05)
            for f in 0 ..< 5 {
                point.append(p)
                frame.append(10 + f)
                // Every 20th observation is something else entirely (an occluder).
                colors.append(p % 20 == f ? SIMD3(0.6, 0.01, 0.6) : c * exposures[f])
            }
        }
        let gains = ExposureGains.solve(frames: Array(10 ..< 15), point: point, frame: frame, colors: colors)
        #expect(gains.points == 300)
        // Gains undo the exposures relative to the median frame (frame 13, exposure 0.9…0.95).
        for f in 0 ..< 4 {
            let corrected = exposures[f] * gains.gain(frame: 10 + f), reference = exposures[3] * gains.gain(frame: 13)
            let d = corrected - reference
            #expect(max(abs(d.x), abs(d.y), abs(d.z)) < 0.01 * reference.max(), "frame \(f): \(gains.gain(frame: 10 + f))")
        }
        #expect(gains.gain(frame: 13) == SIMD3(1, 1, 1), "the median frame is fixed at 1")
        #expect(gains.gain(frame: 14) == SIMD3(2, 2, 2) && gains.clampedFrames == 1, "a frame 4.5x too dark is clamped to 2")
        #expect(gains.gain(frame: 99) == SIMD3(1, 1, 1))
        #expect(gains.summary.contains("1 clamped"), "\(gains.summary)")
    }

    /// The capture's true colours, the painted ones after the least-squares global gain, and
    /// the p95 of the largest channel error in 8-bit levels over flat points seen.
    static func p95AfterGlobalGain(_ result: PaintResult, _ surface: [SyntheticScene.SurfaceSample]) -> Double {
        var pairs: [(painted: SIMD3<Double>, truth: SIMD3<Double>)] = []
        for (i, s) in surface.enumerated() where s.isFlat && result.cloud.counts[i] > 0 {
            pairs.append((SRGBTransfer.decode(SIMD3<Double>(result.cloud.colors[i])), SRGBTransfer.decode(s.color)))
        }
        let num = pairs.reduce(SIMD3<Double>()) { $0 + $1.painted * $1.truth }, den = pairs.reduce(SIMD3<Double>()) { $0 + $1.painted * $1.painted }
        let gain = num / den
        var errors = pairs.map { p in
            let d = (SRGBTransfer.encode(p.painted * gain) - SRGBTransfer.encode(p.truth)) * 255
            return max(abs(d.x), abs(d.y), abs(d.z))
        }
        errors.sort()
        return errors.isEmpty ? .infinity : errors[errors.count * 95 / 100]
    }

    @Test func driftIsEvenedOutByAutoExposure() throws {
        let directory = TemporaryDirectory("paint-exposure")
        var options = CaptureSynthesizer.Options(frames: 12, width: 320, height: 240, pointsPerFrame: 10)
        options.exposureDrift = 0.5
        try CaptureSynthesizer(options: options).write(to: directory.file("cap"), encoding: .nv12)
        let surface = SyntheticScene.standard.surfaceSamples(spacing: 0.04, radius: 0.06, tolerance: 0.04)
        let cloud = try PaintCloud(path: "surface", positions: surface.map { SIMD3<Float>($0.position) }, colors: nil)
        let source = try CaptureFormat.open(directory.file("cap"))
        let drifting = try CloudPainter(cloud: cloud, source: source).run()
        var paint = CloudPainter.Options()
        paint.gains = try CloudPainter(cloud: cloud, source: source).solveExposure()
        let gains = try #require(paint.gains)
        let evened = try CloudPainter(cloud: cloud, source: source, options: paint).run()
        let good = Self.p95AfterGlobalGain(evened, surface), bad = Self.p95AfterGlobalGain(drifting, surface)
        #expect(gains.adjustedFrames >= 10 && gains.clampedFrames == 0, "\(gains.summary)")
        #expect(good <= 8, "p95 \(good) levels with gains")
        #expect(bad >= 2 * good && bad >= 8, "p95 \(bad) levels without, \(good) with")
    }
}
