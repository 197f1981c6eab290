import Testing
@testable import PointPaint

/// Weighted accumulation per point: the weighted mean and spread, `best`, and the refusals of
/// what voxels cannot keep.
@Suite struct PaintAccumulatorTests {
    let cloud = try! PaintCloud(path: "three", positions: [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(2, 0, 0)], colors: nil)

    func result(_ accumulator: PaintAccumulator) -> PaintResult {
        var statistics = CloudPainter.Statistics()
        statistics.seen = accumulator.seenCount
        statistics.unseen = cloud.count - statistics.seen
        return accumulator.result(cloud: cloud, unseen: .keep, statistics: statistics)
    }

    /// Two observations of point 0 weighted 1 and 3: the mean is three quarters of the way to
    /// the second, in linear light (the result is encoded), the spread the weighted one.
    @Test func theMeanAndSpreadAreWeighted() throws {
        var accumulator = PaintAccumulator(count: 3, accumulation: .mean, voxelSize: nil, spread: true)
        accumulator.add(points: [0, 1], colors: [SIMD3(0.2, 0.2, 0.2), SIMD3(0.5, 0.5, 0.5)], weights: [1, 200], frame: 0, cloud: cloud)
        accumulator.add(points: [0], colors: [SIMD3(0.6, 0.6, 0.6)], weights: [3], frame: 1, cloud: cloud)
        let r = result(accumulator)
        let mean = (0.2 * 1 + 0.6 * 3) / 4.0
        #expect(abs(Double(SRGBTransfer.decode(r.cloud.colors[0]).x) - mean) < 1e-6)
        #expect(abs(Double(SRGBTransfer.decode(r.cloud.colors[1]).x) - 0.5) < 1e-6, "one observation: its colour")
        let variance = (1 * (0.2 - mean) * (0.2 - mean) + 3 * (0.6 - mean) * (0.6 - mean)) / 4
        #expect(abs(Double(try #require(r.colourSD)[0]) - variance.squareRoot()) < 1e-6)
        #expect(r.cloud.counts == [2, 1, 0], "views, not weights")
    }

    /// Equal weights give the unweighted mean exactly: the same fixed-point sums, scaled.
    @Test func equalWeightsGiveTheUnweightedMean() {
        var weighted = PaintAccumulator(count: 3, accumulation: .mean, voxelSize: nil)
        var plain = PaintAccumulator(count: 3, accumulation: .mean, voxelSize: nil)
        let frames: [[SIMD3<Float>]] = [[SIMD3(0.1, 0.7, 0.3), SIMD3(0.9, 0.2, 0.4)], [SIMD3(0.35, 0.05, 0.8), SIMD3(0.5, 0.5, 0.5)]]
        for (f, colors) in frames.enumerated() {
            weighted.add(points: [0, 2], colors: colors, weights: [77, 77], frame: f, cloud: cloud)
            plain.add(points: [0, 2], colors: colors, frame: f, cloud: cloud)
        }
        #expect(result(weighted).cloud.colors == result(plain).cloud.colors)
    }

    /// `best` keeps the observation of the greatest weight, the earliest among equals.
    @Test func bestKeepsTheHeaviestObservation() {
        var accumulator = PaintAccumulator(count: 3, accumulation: .best, voxelSize: nil)
        accumulator.add(points: [0, 1], colors: [SIMD3(0.1, 0.1, 0.1), SIMD3(0.2, 0.2, 0.2)], weights: [10, 50], frame: 0, cloud: cloud)
        accumulator.add(points: [0, 1], colors: [SIMD3(0.3, 0.3, 0.3), SIMD3(0.4, 0.4, 0.4)], weights: [90, 50], frame: 1, cloud: cloud)
        accumulator.add(points: [0], colors: [SIMD3(0.5, 0.5, 0.5)], weights: [20], frame: 2, cloud: cloud)
        let colors = result(accumulator).cloud.colors.map { SRGBTransfer.decode($0).x }
        #expect(abs(colors[0] - 0.3) < 1e-6, "weight 90 of frame 1")
        #expect(abs(colors[1] - 0.2) < 1e-6, "equal weights: frame 0's")
    }

    @Test(arguments: [(CloudPainter.Accumulation.best, nil as Bool?), (.mean, true)])
    func weightsAndBestAreRefusedWithVoxels(accumulate: CloudPainter.Accumulation, weighted: Bool?) throws {
        var options = CloudPainter.Options()
        options.voxelSize = 0.1
        options.accumulate = accumulate
        options.weighted = weighted
        let error = try #require(throws: PointPaintError.self) {
            try CloudPainter(cloud: cloud, source: try CloudPainterTests.source(), options: options)
        }
        #expect(error.kind == .unsupported && error.file == "three")
    }

    @Test func bestNeedsWeights() throws {
        var options = CloudPainter.Options()
        options.accumulate = .best
        options.weighted = false
        let error = try #require(throws: PointPaintError.self) {
            try CloudPainter(cloud: cloud, source: try CloudPainterTests.source(), options: options)
        }
        #expect(error.kind == .unsupported)
        options.weighted = nil
        #expect(try CloudPainter(cloud: cloud, source: try CloudPainterTests.source(), options: options).weighted)
        options.voxelSize = 0.1
        options.accumulate = .mean
        #expect(try !CloudPainter(cloud: cloud, source: try CloudPainterTests.source(), options: options).weighted, "voxels: unweighted")
    }
}
