import Testing
@testable import PointPaint

/// Painting's shortcuts equal what they replace: the fixed-point rounding exactly, and the plain
/// mean's loop exactly.
@Suite struct PaintKernelsTests {
    @Test func fixedPointCodesRoundAsBefore() {
        func before(_ v: Double) -> Int64 { v.isNaN ? 0 : Int64(max(min(v.rounded(), 9e15), -9e15)) }
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.49999999999999994, -0.49999999999999994,
                                4503599627370495.5, -4503599627370495.5, 4503599627370497, 9e15, 9e15 + 2, -9e15 - 2,
                                1e300, -1e300, .infinity, -.infinity, .nan, 16_777_216.5, 16_777_215.499999]
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 100_000 {
            values.append(Double.random(in: -3e7 ... 3e7, using: &generator))
            values.append(Double(Int.random(in: -1_000_000 ... 1_000_000, using: &generator)) + 0.5)
        }
        for v in values { #expect(PaintAccumulator.code(v, limit: 9e15) == before(v), "\(v)") }
    }

    @Test func colourCodesAreClampedAsAStoreClampsItsSamples() {
        let limit = Int64(1) << 30, squareLimit = Int64(1) << 36
        #expect(PaintAccumulator.fixed(SIMD3(65, -1000, .infinity)) == SIMD3(limit, -limit, limit))
        #expect(PaintAccumulator.fixedSquare(SIMD3(65, -1000, .nan)) == SIMD3(squareLimit, squareLimit, 0))
        #expect(PaintAccumulator.fixed(SIMD3(0.5, -0.25, 63)) == SIMD3(1 << 23, -(1 << 22), 63 << 24))
        #expect(PaintAccumulator.fixedSquare(SIMD3(0.5, -0.25, 63)) == SIMD3(1 << 22, 1 << 20, 3969 << 24))
    }

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
