import Testing
@testable import PointPaint

/// Painting's shortcuts equal what they replace: the plain mean's loop exactly (the fixed-point
/// rounding: `FixedPointColorTests`).
@Suite struct PaintKernelsTests {
    @Test func thePlainMeanLoopEqualsTheGeneralOne() {
        let cloud = try! PaintCloud(path: "p", positions: (0 ..< 50).map { SIMD3(Float($0), 0, 0) }, colors: nil)
        // The spread sends the same observations through the general loop.
        var plain = PaintAccumulator(count: 50, accumulation: .mean, voxelSize: nil)
        var general = PaintAccumulator(count: 50, accumulation: .mean, voxelSize: nil, spread: true)
        for frame in 0 ..< 7 {
            let points = (0 ..< UInt32(50)).filter { Int($0) % (frame + 2) != 1 }
            let colors = points.map { SIMD3<Float>(Float($0) / 61 + Float(frame) / 13, 0.1 * Float(frame), 1.3) }
            plain.add(points: points, colors: colors, frame: frame, cloud: cloud)
            general.add(points: points, colors: colors, frame: frame, cloud: cloud)
        }
        var statistics = CloudPainter.Statistics()
        statistics.seen = plain.seenCount
        let a = plain.result(cloud: cloud, unseen: .keep, statistics: statistics)
        let b = general.result(cloud: cloud, unseen: .keep, statistics: statistics)
        #expect(a.cloud == b.cloud && a.cloud.counts.contains(7) && a.cloud.counts.contains(6))
    }
}
