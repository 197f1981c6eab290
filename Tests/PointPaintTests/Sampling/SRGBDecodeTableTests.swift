import Testing
@testable import PointPaint

/// The table decode of the sRGB transfer follows the curve within its bound, and the batch
/// linearisation that uses it agrees with `SampleColorPolicy.linearize`.
@Suite struct SRGBDecodeTableTests {
    @Test func theDecodeTableFollowsTheCurve() {
        var worst: Float = 0, worstRelative: Float = 0, at: Float = 0
        SRGBDecodeTable.coefficients.withUnsafeBufferPointer { table in
            let steps = 1 << 21
            for s in 0 ... steps {
                let v = Float(s) / Float(steps)
                let fast = SRGBDecodeTable.decode(v, table), exact = SRGBTransfer.decode(v)
                worst = max(worst, abs(fast - exact))
                if exact > 0, abs(fast - exact) / exact > worstRelative { worstRelative = abs(fast - exact) / exact; at = v }
                if v <= 0.04045 { #expect(fast == exact, "the linear segment is the same division: \(v)") }
            }
            #expect(SRGBDecodeTable.decode(-0.25, table) == 0 && SRGBDecodeTable.decode(1.5, table) == 1)
            #expect(SRGBDecodeTable.decode(.nan, table).isNaN && SRGBTransfer.decode(ColorMath.clampedToUnit(SIMD3<Float>(.nan, 0, 0))).x.isNaN)
            #expect(SRGBDecodeTable.decode(1, table) == 1)
        }
        #expect(worst <= 2.5e-7 && worstRelative <= 4e-7, "largest difference \(worst), relative \(worstRelative) at \(at)")
        var colours: [SIMD3<Float>] = [SIMD3(0.5, -0.1, 1.2), SIMD3(0.02, 0.7, 0.9)]
        SRGBDecodeTable.linearize(&colours)
        let policy = SampleColorPolicy(primaries: .srgb)
        for (c, original) in zip(colours, [SIMD3<Float>(0.5, -0.1, 1.2), SIMD3(0.02, 0.7, 0.9)]) {
            let d = c - policy.linear(original).color
            #expect(max(abs(d.x), abs(d.y), abs(d.z)) <= 2.5e-7)
        }
    }

    @Test func batchLinearisationTakesTheTableOnlyForUngradedSRGB() {
        // A grid over −0.1…1.1 in each channel.
        let encoded: [SIMD3<Float>] = (0 ..< 4096).map { (i: Int) -> SIMD3<Float> in
            let unit = SIMD3<Float>(Float(i % 64) / 63, Float(i / 64) / 63, Float((i * 37) % 101) / 100)
            return unit * 1.2 - SIMD3(repeating: 0.1)
        }
        for primaries in [ColorPrimaries.srgb, .displayP3] {
            let policy = SampleColorPolicy(primaries: primaries)
            var exact = encoded, quick = encoded
            let outside = policy.linearize(&exact)
            #expect(policy.linearizeBatch(&quick) == outside, "\(primaries)")
            var worst: Float = 0
            for (e, q) in zip(exact, quick) {
                let d = e - q
                worst = max(worst, abs(d.x), abs(d.y), abs(d.z))
            }
            if primaries == .srgb {
                #expect(worst <= 2.5e-7 && worst > 0, "through the table: \(worst)")
            } else {
                #expect(worst == 0 && outside > 0, "wide colour is linearised exactly, counting what lies outside sRGB")
            }
        }
    }
}
