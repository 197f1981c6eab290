import Testing
@testable import PointPaint

/// The one fixed-point conversion gives, bit for bit, the codes of the two it replaced: the
/// store's truncation in `Float` and painting's rounding in `Double`.
@Suite struct FixedPointColorTests {
    /// Odd values: halves, the limits and beyond, infinities, NaN, subnormals.
    static let edges: [Float] = [0, -0.0, 0.5, -0.5, 1.5, -2.5, 64, -64, 65, -65, 63.999996, 1e30, -1e30, .infinity,
                                 -.infinity, .nan, .signalingNaN, .leastNonzeroMagnitude, -.leastNormalMagnitude,
                                 .greatestFiniteMagnitude, 0x1p-24, 0x1.8p-24, -0x1.8p-25, 0x1.fffffep-2]

    @Test func truncationEqualsTheStoresFloatCode() {
        // `SceneStore.Record.fixed` as it was.
        func before(_ v: Float) -> Int64 {
            let scale: Float = 16_777_216, limit: Float = 64 * 16_777_216
            let s = v * scale
            if s >= -limit && s <= limit { return Int64(s) }
            if s > limit { return Int64(limit) }
            if s < -limit { return -Int64(limit) }
            return 0
        }
        var values = Self.edges
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 100_000 {
            values.append(Float.random(in: -70 ... 70, using: &generator))
            values.append(Float.random(in: -1e-6 ... 1e-6, using: &generator))
            values.append(Float(bitPattern: UInt32.random(in: 0 ... .max, using: &generator)))
        }
        for v in values {
            let codes = FixedPointColor.truncated(SIMD3(v, -v, v))
            #expect(codes == SIMD3(before(v), before(-v), before(v)), "\(v)")
        }
    }

    @Test func roundingEqualsLibmRounding() {
        func before(_ v: Double) -> Int64 { v.isNaN ? 0 : Int64(max(min(v.rounded(), 9e15), -9e15)) }
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 0.49999999999999994, -0.49999999999999994,
                                4503599627370495.5, -4503599627370495.5, 4503599627370497, 9e15, 9e15 + 2, -9e15 - 2,
                                1e300, -1e300, .infinity, -.infinity, .nan, 16_777_216.5, 16_777_215.499999]
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 100_000 {
            values.append(Double.random(in: -3e7 ... 3e7, using: &generator))
            values.append(Double(Int.random(in: -1_000_000 ... 1_000_000, using: &generator)) + 0.5)
        }
        for v in values { #expect(FixedPointColor.roundedCode(v, limit: 9e15) == before(v), "\(v)") }
    }

    @Test func colourCodesAreClampedAsAStoreClampsItsSamples() {
        let channel = Double(FixedPointColor.channelLimit)
        #expect(FixedPointColor.scaledLimit == channel * FixedPointColor.scale)
        #expect(FixedPointColor.scaledSquareLimit == channel * channel * FixedPointColor.scale)
        let limit = Int64(1) << 30, squareLimit = Int64(1) << 36
        #expect(FixedPointColor.rounded(SIMD3(65, -1000, .infinity)) == SIMD3(limit, -limit, limit))
        #expect(FixedPointColor.roundedSquare(SIMD3(65, -1000, .nan)) == SIMD3(squareLimit, squareLimit, 0))
        #expect(FixedPointColor.rounded(SIMD3(0.5, -0.25, 63)) == SIMD3(1 << 23, -(1 << 22), 63 << 24))
        #expect(FixedPointColor.roundedSquare(SIMD3(0.5, -0.25, 63)) == SIMD3(1 << 22, 1 << 20, 3969 << 24))
        #expect(FixedPointColor.truncated(SIMD3(65, -1000, .nan)) == SIMD3(limit, -limit, 0))
    }

    @Test func theTwoRoundingsDifferOnlyBelowHalfACode() {
        // A third of a code and two thirds: the store truncates both to 0, painting rounds the second up.
        let third = Float(1.0 / 3.0) / 16_777_216, twoThirds = 2 * third
        #expect(FixedPointColor.truncated(SIMD3(third, twoThirds, -twoThirds)) == SIMD3(0, 0, 0))
        #expect(FixedPointColor.rounded(SIMD3(third, twoThirds, -twoThirds)) == SIMD3(0, 1, -1))
    }
}
