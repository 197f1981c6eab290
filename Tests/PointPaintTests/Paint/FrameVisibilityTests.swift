import Testing
@testable import PointPaint

/// The two visibility tests: a depth map (tolerance, nothing confirmed beside a depth edge, no
/// depth means not confirmed) and the splatted z-buffer (a near surface hides what lies behind it).
@Suite struct FrameVisibilityTests {
    @Test func depthAgreesWithinTwoCentimetresOrTwoPercent() {
        let map = DepthMap(width: 4, height: 4, depth: [Float](repeating: 2, count: 16))
        let centre = SIMD2<Float>(0.5, 0.5)
        #expect(map.agrees(depth: 2.03, at: centre))
        #expect(!map.agrees(depth: 2.05, at: centre), "2 % of 2 m is 4 cm")
        let near = DepthMap(width: 4, height: 4, depth: [Float](repeating: 0.5, count: 16))
        #expect(near.agrees(depth: 0.515, at: centre) && !near.agrees(depth: 0.53, at: centre), "2 cm below 1 m")
    }

    @Test func nothingIsConfirmedBesideADepthEdge() {
        // Left half at 1 m, right half at 3 m.
        let depth = (0 ..< 64).map { $0 % 8 < 4 ? Float(1) : 3 }
        let map = DepthMap(width: 8, height: 8, depth: depth)
        // Away from the edge, each side confirms its own depth.
        #expect(map.agrees(depth: 1, at: SIMD2(1.5 / 8, 0.5)) && map.agrees(depth: 3, at: SIMD2(6.5 / 8, 0.5)))
        // Next to it, neither the interpolated depth (about 2 m) nor either side is confirmed: the
        // image there may show the other side.
        for depth: Float in [1, 2, 3] {
            #expect(!map.agrees(depth: depth, at: SIMD2(3.9 / 8, 0.5)) && !map.agrees(depth: depth, at: SIMD2(4.1 / 8, 0.5)))
        }
        // Within one tilted surface, interpolation follows the slope.
        let slope = DepthMap(width: 4, height: 1, depth: [1, 1.01, 1.02, 1.03])
        #expect(slope.agrees(depth: 1.015, at: SIMD2(2 / 4, 0.5)))
        let steep = DepthMap(width: 5, height: 1, depth: [1, 1.1, 1.2, 1.3, 1.4])
        #expect(steep.agrees(depth: 1.2, at: SIMD2(2.5 / 5, 0.5)), "a steep plane is no edge")
    }

    @Test func noDepthConfirmsNothing() {
        let map = DepthMap(width: 2, height: 2, depth: [0, .nan, 1, 1])
        #expect(!map.agrees(depth: 1, at: SIMD2(0.1, 0.1)))
        #expect(!map.agrees(depth: 1, at: SIMD2(0.9, 0.1)))
        #expect(map.agrees(depth: 1, at: SIMD2(0.9, 0.9)))
    }

    @Test func aNearSurfaceHidesWhatLiesBehindIt() {
        // A wall of points at 1 m across the left half of a 100 × 100 image and one at 3 m
        // across the right half, one point at 3 m behind the near wall and one on the far one.
        var coordinates: [SIMD2<Float>] = [], depths: [Float] = []
        for j in 0 ..< 50 {
            for i in 0 ..< 50 {
                coordinates.append(SIMD2(Float(i) / 50 + 0.01, Float(j) / 50 + 0.01))
                depths.append(i < 25 ? 1 : 3)
            }
        }
        let behind = SIMD2<Float>(0.2, 0.5), beside = SIMD2<Float>(0.8, 0.5)
        coordinates += [behind, beside]
        depths += [3, 3]
        let buffer = SplatDepthBuffer(width: 100, height: 100, focalLength: 100, spacing: 0.02, coordinates: coordinates, depths: depths)
        #expect(buffer.accepts(depth: 1, at: SIMD2(0.2, 0.3)))
        #expect(!buffer.accepts(depth: 3, at: behind))
        #expect(buffer.accepts(depth: 3, at: beside))
        #expect(buffer.accepts(depth: 1.05, at: SIMD2(0.2, 0.3)), "within the tolerance of the surface")
        #expect(!buffer.accepts(depth: 1, at: SIMD2(0.505, 0.3)), "on the near wall's silhouette")
        let alone = SplatDepthBuffer(width: 100, height: 100, focalLength: 100, spacing: 0.02, coordinates: [beside], depths: [3])
        #expect(!alone.accepts(depth: 3, at: beside), "against nothing: a silhouette too")
    }
}
