import Testing
@testable import PointPaint

/// Weighted accumulation per point and per voxel: the weighted mean and spread, `best`, and
/// `best` without weights refused.
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

    /// Weighted voxels: the observations of every point of a voxel in one weighted mean (and
    /// spread), `best` over all of them; a voxel only unseen points reach keeps their own
    /// colours' mean. Mean ones come as store voxels with Σw and Σw·c² (`best` ones do not).
    @Test func voxelSlotsWeighTheObservationsOfAllTheirPoints() throws {
        let cloud = try PaintCloud(path: "voxels", positions: [SIMD3(0.1, 0.1, 0.1), SIMD3(0.2, 0.2, 0.2), SIMD3(1.5, 0.1, 0.1), SIMD3(2.5, 0.1, 0.1), SIMD3(2.6, 0.1, 0.1)],
                                   colors: [.zero, .zero, .zero, SIMD3(0.2, 0.2, 0.2), SIMD3(0.6, 0.6, 0.6)])
        var mean = PaintAccumulator(cloud: cloud, accumulation: .mean, voxelSize: 1, spread: true, weighted: true)
        var best = PaintAccumulator(cloud: cloud, accumulation: .best, voxelSize: 1, spread: false, weighted: true)
        let frames: [([UInt32], [SIMD3<Float>], [UInt8])] = [([0, 2], [SIMD3(0.2, 0.2, 0.2), SIMD3(0.5, 0.5, 0.5)], [1, 9]),
                                                             ([1], [SIMD3(0.6, 0.6, 0.6)], [3])]
        for (f, (points, colors, weights)) in frames.enumerated() {
            mean.add(points: points, colors: colors, weights: weights, frame: f, cloud: cloud)
            best.add(points: points, colors: colors, weights: weights, frame: f, cloud: cloud)
        }
        var statistics = CloudPainter.Statistics()
        statistics.seen = mean.seenCount
        statistics.unseen = cloud.count - statistics.seen
        let m = mean.result(cloud: cloud, unseen: .keep, statistics: statistics)
        #expect(m.store == nil && m.cloud.voxelSize == 1)
        #expect(m.cloud.positions == [SIMD3(0.5, 0.5, 0.5), SIMD3(1.5, 0.5, 0.5), SIMD3(2.5, 0.5, 0.5)], "centres, in first appearance")
        #expect(m.cloud.counts == [2, 1, 0] && m.painted == [true, true, true])
        let voxel0 = (0.2 * 1 + 0.6 * 3) / 4.0
        #expect(abs(Double(SRGBTransfer.decode(m.cloud.colors[0]).x) - voxel0) < 1e-6)
        let variance = (1 * (0.2 - voxel0) * (0.2 - voxel0) + 3 * (0.6 - voxel0) * (0.6 - voxel0)) / 4
        #expect(abs(Double(try #require(m.colourSD)[0]) - variance.squareRoot()) < 1e-6)
        let own = (Double(SRGBTransfer.decode(Float(0.2))) + Double(SRGBTransfer.decode(Float(0.6)))) / 2
        #expect(abs(Double(SRGBTransfer.decode(m.cloud.colors[2]).x) - own) < 1e-6, "unseen: its points' own colours")
        let stored = try #require(mean.result(cloud: cloud, unseen: .keep, statistics: statistics).storeVoxels)
        #expect(stored.contents == [.weights, .spread])
        #expect(stored.voxels.map(\.count) == [2, 1, 2] && stored.voxels.map(\.weight) == [4, 9, 2], "in Morton order; unseen points weigh 1")
        #expect(stored.voxels.map(\.code) == (0 ..< 3).map { VoxelKey(x: Int32($0), y: 0, z: 0).mortonCode }, "cells x = 0, 1, 2")
        #expect(abs(Double(stored.voxels[0].color(.mean).x) - voxel0) < 1e-6 && abs(Double(stored.voxels[0].colourSD) - variance.squareRoot()) < 1e-6)
        #expect(stored.voxels[0].first == 0 && stored.voxels[0].last == 1, "frames 0 and 1 saw it")
        let b = best.result(cloud: cloud, unseen: .drop, statistics: statistics)
        #expect(b.storeVoxels == nil && !b.hasStore, "best keeps one observation: no store")
        #expect(b.cloud.count == 2 && abs(SRGBTransfer.decode(b.cloud.colors[0]).x - 0.6) < 1e-6, "weight 3 beats weight 1")
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
        #expect(try CloudPainter(cloud: cloud, source: try CloudPainterTests.source(), options: options).weighted, "best voxels: weighted")
        options.accumulate = .mean
        #expect(try CloudPainter(cloud: cloud, source: try CloudPainterTests.source(), options: options).weighted, "mean voxels: a store keeping Σw")
        options.accumulate = .latest
        #expect(try !CloudPainter(cloud: cloud, source: try CloudPainterTests.source(), options: options).weighted, "latest voxels: a plain store")
    }
}
