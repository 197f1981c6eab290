import Testing
@testable import PointPaint

/// The luma pyramid against a plane of known slope: bilinear interpolation and 2 × 2 means are
/// exact on a linear ramp, so every level gives the ramp's value at the point asked for and its
/// slope per image pixel (worked out by hand, not by the code under test).
@Suite struct LumaPyramidTests {
    /// A `width` × `height` image whose luma at pixel (x, y) is 4x + 2y.
    static func ramp(width: Int, height: Int) -> YCbCrImage {
        let luma = (0 ..< width * height).map { UInt8((4 * ($0 % width) + 2 * ($0 / width)) % 256) }
        let chroma = [UInt8](repeating: 128, count: 2 * ((width + 1) / 2) * ((height + 1) / 2))
        return YCbCrImage(width: width, height: height, lumaPlane: luma, chromaPlane: chroma)
    }

    @Test func everyLevelGivesTheRampsValueAndSlope() throws {
        let pyramid = LumaPyramid(image: Self.ramp(width: 40, height: 40), count: 3)
        #expect(pyramid.levels.map(\.width) == [40, 20, 10] && pyramid.base == 1)
        // Pixel centres at half-integers: the ramp at image position (u, v) is 4(u − ½) + 2(v − ½).
        for (level, u, v) in [(0, 7.25, 9.75), (1, 12.5, 20.0), (2, 18.0, 21.0), (0, 30.1, 3.3)] {
            let sample = try #require(pyramid.sample(level: level, u: u, v: v), "level \(level) at (\(u), \(v))")
            #expect(abs(sample.value - (4 * (u - 0.5) + 2 * (v - 0.5)) / 255) < 1e-12, "level \(level): \(sample.value * 255)")
            #expect(abs(sample.du - 4.0 / 255) < 1e-12 && abs(sample.dv - 2.0 / 255) < 1e-12, "level \(level): \(sample)")
        }
    }

    @Test func pointsNearTheEdgeAreNotSampled() {
        let pyramid = LumaPyramid(image: Self.ramp(width: 40, height: 40), count: 3)
        // Level 2's pixels span 4 image pixels: within a pixel and a half of its edge (6 image
        // pixels) there is no central difference.
        #expect(pyramid.sample(level: 2, u: 5.9, v: 20) == nil && pyramid.sample(level: 2, u: 6.1, v: 20) != nil)
        #expect(pyramid.sample(level: 0, u: 38.6, v: 20) == nil && pyramid.sample(level: 0, u: 20, v: -1) == nil)
    }

    @Test func aLargeImageIsReducedByAWholeFactorFirst() {
        let pyramid = LumaPyramid(image: Self.ramp(width: 1300, height: 20), count: 3)
        // ⌈1300 / 640⌉ = 3: the finest level is 433 × 6, too small to halve further.
        #expect(pyramid.base == 3 && pyramid.levels.count == 1 && pyramid.levels[0].width == 433 && pyramid.levels[0].height == 6)
        #expect(pyramid.scale(0) == 3 && pyramid.scale(2) == 3)
    }
}
