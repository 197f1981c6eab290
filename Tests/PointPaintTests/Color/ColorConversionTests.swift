import Foundation
import PointPaint
import Testing

/// Linear-light matrices derived from the primaries, and conversion to extended sRGB.
@Suite struct ColorConversionTests {
    static let pairs: [(ColorPrimaries, ColorPrimaries)] = ColorPrimaries.allCases.flatMap { a in
        ColorPrimaries.allCases.map { b in (a, b) }
    }

    @Test func srgbToXYZMatchesIEC61966() {
        // IEC 61966-2-1 prints the matrix rounded to 4 decimals.
        let m = ColorPrimaries.srgb.rgbToXYZ
        #expect(isApproximatelyEqual(m.row0, SIMD3(0.4124, 0.3576, 0.1805), tolerance: Tolerance.fourDecimals))
        #expect(isApproximatelyEqual(m.row1, SIMD3(0.2126, 0.7152, 0.0722), tolerance: Tolerance.fourDecimals))
        #expect(isApproximatelyEqual(m.row2, SIMD3(0.0193, 0.1192, 0.9505), tolerance: Tolerance.fourDecimals))
    }

    @Test func displayP3ToSRGBMatchesPublishedMatrix() {
        // The widely published P3-D65 → sRGB linear matrix (e.g. CSS Color 4 worked examples).
        let m = ColorPrimaries.displayP3.matrix(to: .srgb)
        #expect(isApproximatelyEqual(m.row0, SIMD3(1.2249401, -0.2249404, 0.0), tolerance: Tolerance.sevenDecimals))
        #expect(isApproximatelyEqual(m.row1, SIMD3(-0.0420569, 1.0420571, 0.0), tolerance: Tolerance.sevenDecimals))
        #expect(isApproximatelyEqual(m.row2, SIMD3(-0.0196376, -0.0786361, 1.0982735), tolerance: Tolerance.sevenDecimals))
    }

    @Test func bt2020ToSRGBMatchesBT2087() {
        // ITU-R BT.2087 gives the BT.2020 → BT.709 matrix to 4 decimals.
        let m = ColorPrimaries.bt2020.matrix(to: .srgb)
        #expect(isApproximatelyEqual(m.row0, SIMD3(1.6605, -0.5876, -0.0728), tolerance: Tolerance.fourDecimals))
        #expect(isApproximatelyEqual(m.row1, SIMD3(-0.1246, 1.1329, -0.0083), tolerance: Tolerance.fourDecimals))
        #expect(isApproximatelyEqual(m.row2, SIMD3(-0.0182, -0.1006, 1.1187), tolerance: Tolerance.fourDecimals))
    }

    @Test(arguments: pairs)
    func matricesKeepWhiteAndInvert(from: ColorPrimaries, to: ColorPrimaries) throws {
        let there = from.matrix(to: to), back = to.matrix(to: from)
        #expect(isApproximatelyEqual(there * SIMD3(1, 1, 1), SIMD3(1, 1, 1), tolerance: Tolerance.doubleExact))
        let product = back * there
        #expect(isApproximatelyEqual(product.row0, SIMD3(1, 0, 0), tolerance: Tolerance.doubleExact))
        #expect(isApproximatelyEqual(product.row1, SIMD3(0, 1, 0), tolerance: Tolerance.doubleExact))
        #expect(isApproximatelyEqual(product.row2, SIMD3(0, 0, 1), tolerance: Tolerance.doubleExact))
        // Converting through a third space is the same as converting directly.
        for via in ColorPrimaries.allCases {
            let chained = via.matrix(to: to) * from.matrix(to: via)
            let tolerance = 10 * Tolerance.doubleExact  // two products instead of one
            #expect(isApproximatelyEqual(chained.row0, there.row0, tolerance: tolerance))
            #expect(isApproximatelyEqual(chained.row2, there.row2, tolerance: tolerance))
        }
    }

    @Test func srgbRedInDisplayP3() {
        let p3 = ColorPrimaries.displayP3.encoded(fromSRGB: SIMD3(1, 0, 0))
        #expect(isApproximatelyEqual(p3, SIMD3(0.9175, 0.2003, 0.1386), tolerance: Tolerance.fourDecimals))
        // And back to sRGB red.
        let back = ColorPrimaries.displayP3.extendedSRGB(fromEncoded: p3)
        #expect(isApproximatelyEqual(back.encoded, SIMD3(1, 0, 0), tolerance: Tolerance.double))
        #expect(isApproximatelyEqual(back.linear, SIMD3(1, 0, 0), tolerance: Tolerance.double))
    }

    @Test func p3PrimariesLieOutsideSRGBAndGreysInside() {
        let toSRGB = ColorConversion(from: .displayP3)
        for primary in [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 1, 0), SIMD3(0, 1, 1)] {
            let out = toSRGB.encoded(primary)
            #expect(!ColorGamut.isInsideSRGB(out), "P3 \(primary) → \(out)")
            #expect(!ColorGamut.isInsideSRGB(toSRGB.linear(primary)))
        }
        // P3 red in extended sRGB: red above 1, green and blue negative.
        let red = toSRGB.encoded(SIMD3<Double>(1, 0, 0))
        #expect(red.x > 1.09 && red.y < -0.2 && red.z < -0.1)
        for code in 0 ... 255 {
            let grey = SIMD3<Double>(repeating: Double(code) / 255)
            #expect(ColorGamut.isInsideSRGB(toSRGB.encoded(grey)))
            #expect(isApproximatelyEqual(toSRGB.encoded(grey), grey, tolerance: Tolerance.double))
        }
    }

    @Test(arguments: [ColorPrimaries.displayP3, .bt2020])
    func everySRGBColourIsInsideTheWiderSpaceAndRoundTrips(wide: ColorPrimaries) {
        let into = ColorConversion(from: .srgb, to: wide), back = ColorConversion(from: wide, to: .srgb)
        var outside = 0
        for r in stride(from: 0, through: 255, by: 15) {
            for g in stride(from: 0, through: 255, by: 15) {
                for b in stride(from: 0, through: 255, by: 15) {
                    let srgb = SIMD3(Double(r), Double(g), Double(b)) / 255
                    let w = into.encoded(srgb)
                    if !ColorGamut.isInsideSRGB(w) { outside += 1 }  // the wider space's own 0…1 box
                    #expect(isApproximatelyEqual(back.encoded(w), srgb, tolerance: Tolerance.double))
                    #expect(ColorGamut.isInsideSRGB(back.encoded(w)))
                }
            }
        }
        #expect(outside == 0)
    }

    @Test func singlePrecisionAgreesWithDouble() {
        var rng = SplitMix64(seed: 11)
        for source in ColorPrimaries.allCases {
            let c = ColorConversion(from: source)
            for _ in 0 ..< 1000 {
                let v = SIMD3(rng.unit(), rng.unit(), rng.unit())
                let d = c.encoded(v), f = c.encoded(SIMD3<Float>(v))
                #expect(isApproximatelyEqual(SIMD3<Double>(f), d, tolerance: Tolerance.single))
                #expect(isApproximatelyEqual(SIMD3<Double>(c.linear(SIMD3<Float>(v))), c.linear(v), tolerance: Tolerance.single))
            }
        }
    }

    @Test func gamutToleranceIsTiny() {
        #expect(ColorGamut.isInsideSRGB(SIMD3<Double>(0, 0.5, 1)))
        #expect(ColorGamut.isInsideSRGB(SIMD3<Double>(-1e-7, 0.5, 1 + 1e-7)))
        #expect(!ColorGamut.isInsideSRGB(SIMD3<Double>(-0.001, 0.5, 0.5)))
        #expect(!ColorGamut.isInsideSRGB(SIMD3<Double>(0.5, 1.001, 0.5)))
        #expect(!ColorGamut.isInsideSRGB(SIMD3<Float>(0.5, 0.5, -0.001)))
        #expect(ColorGamut.isInsideSRGB(SIMD3<Double>(-0.01, 0.5, 0.5), tolerance: 0.02))
    }

    @Test func matrixInverseAndProduct() throws {
        let m = ColorMatrix(rows: SIMD3(2, 1, 0), SIMD3(0, 3, 1), SIMD3(1, 0, 4))
        let inverse = try #require(m.inverse)
        let p = m * inverse
        #expect(isApproximatelyEqual(p.row0, SIMD3(1, 0, 0), tolerance: Tolerance.doubleExact))
        #expect(isApproximatelyEqual(p.row1, SIMD3(0, 1, 0), tolerance: Tolerance.doubleExact))
        #expect(isApproximatelyEqual(p.row2, SIMD3(0, 0, 1), tolerance: Tolerance.doubleExact))
        #expect(isApproximatelyEqual(m.determinant, 25, tolerance: Tolerance.double))
        #expect(ColorMatrix(rows: SIMD3(1, 2, 3), SIMD3(2, 4, 6), SIMD3(0, 0, 1)).inverse == nil)
        #expect(m.transposed.row0 == SIMD3(2, 0, 1))
    }
}
