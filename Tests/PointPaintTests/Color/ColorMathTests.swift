import PointPaint
import Testing

/// The one clamp and the one quantiser.
@Suite struct ColorMathTests {
    @Test func clampKeepsTheUnitRangeAndNaN() {
        #expect(ColorMath.clampedToUnit(SIMD3<Double>(-0.2, 0.4, 1.3)) == SIMD3(0, 0.4, 1))
        #expect(ColorMath.clampedToUnit(SIMD3<Float>(-.infinity, 1, .infinity)) == SIMD3(0, 1, 1))
        #expect(ColorMath.clampedToUnit(SIMD3<Float>(.nan, 0.5, 2)).x.isNaN)
    }

    @Test func bytesRoundHalfAwayFromZeroAfterClamping() {
        #expect(ColorMath.byte(Float(0)) == 0 && ColorMath.byte(Float(1)) == 255)
        #expect(ColorMath.byte(-0.3) == 0 && ColorMath.byte(1.7) == 255)
        #expect(ColorMath.byte(Float.nan) == 0 && ColorMath.byte(-Float.infinity) == 0 && ColorMath.byte(Float.infinity) == 255)
        // Exact halves round up: 127.5 → 128, 0.5 → 1.
        #expect(ColorMath.byte(127.5 / 255.0) == 128)
        #expect(ColorMath.bytes(SIMD3<Float>(0.2, -1, 0.9)) == SIMD3(51, 0, 230))
        #expect(ColorMath.code(Float(0.5), as: UInt16.self) == 32768 && ColorMath.code(1.5, as: UInt16.self) == 65535)
    }

    /// Around every half-level boundary, where adding ½ in `Float` and truncating would round up
    /// values just below the half: the code is the exact scaled value rounded half up.
    @Test func quantiserIsExactAtEveryHalf() {
        func check<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) {
            let top = Float(T.max)
            var mismatches = 0
            for k in stride(from: 0, to: Int(T.max), by: T.self == UInt8.self ? 1 : 97) {
                var v = (Float(k) + 0.5) / top
                for _ in 0 ..< 16 { v = v.nextDown }
                for _ in 0 ..< 32 {
                    let scaled = Double(v * top)  // the product the quantiser rounds, exactly
                    if UInt64(ColorMath.code(v, as: T.self)) != UInt64((scaled + 0.5).rounded(.down)) { mismatches += 1 }
                    v = v.nextUp
                }
            }
            #expect(mismatches == 0, "\(T.self): \(mismatches) codes differ from exact rounding")
        }
        check(UInt8.self)
        check(UInt16.self)
    }
}
