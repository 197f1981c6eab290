import PointPaint
import Testing

/// The colour policy of a decoded sample: clamp to the capture's gamut, convert, grade.
@Suite struct SampleColorPolicyTests {
    /// Display P3 R′G′B′ a little outside the capture's own gamut, as 4:2:0 decoding gives at edges.
    static let outsideP3 = SIMD3<Float>(1.04, -0.03, 0.4)

    @Test func convertingSpacesClampToTheCapturesGamutFirst() {
        let policy = SampleColorPolicy(primaries: .displayP3)
        let inGamut = SIMD3<Float>(1, 0, 0.4)
        let toSRGB = ColorConversion(from: .displayP3, to: .srgb)
        #expect(policy.color(Self.outsideP3, in: .extendedSRGB) == toSRGB.encoded(inGamut))
        #expect(policy.color(Self.outsideP3, in: .linear) == toSRGB.linear(inGamut))
        #expect(policy.color(Self.outsideP3, in: .srgb) == ColorMath.clampedToUnit(toSRGB.encoded(inGamut)))
        #expect(policy.color(Self.outsideP3, in: .displayP3) == inGamut)
        // The decode itself is shown as it is.
        #expect(policy.color(Self.outsideP3, in: .capture) == Self.outsideP3)
        #expect(policy.color(Self.outsideP3, in: .captureLinear) == SRGBTransfer.decode(Self.outsideP3))
        // P3 red lies outside sRGB after the clamp: extended values survive.
        let red = policy.color(Self.outsideP3, in: .extendedSRGB)
        #expect(red.x > 1.05 && red.y < -0.1)
    }

    @Test func replaysColourIsTheLinearSpaceWithAWideColourFlag() {
        let p3 = SampleColorPolicy(primaries: .displayP3)
        let (red, redIsWide) = p3.linear(Self.outsideP3)
        #expect(red == p3.color(Self.outsideP3, in: .linear) && redIsWide)
        let (grey, greyIsWide) = p3.linear(SIMD3(repeating: 0.5))
        #expect(isApproximatelyEqual(grey, SIMD3(repeating: SRGBTransfer.decode(Float(0.5))), tolerance: 1e-6) && !greyIsWide)
        // sRGB captures are clamped into sRGB: never wide.
        let srgb = SampleColorPolicy(primaries: .srgb)
        #expect(srgb.linear(SIMD3(1.2, -0.1, 0.5)) == (SRGBTransfer.decode(SIMD3<Float>(1, 0, 0.5)), false))
        var colours: [SIMD3<Float>] = [Self.outsideP3, SIMD3(repeating: 0.5), SIMD3(0, 1, 0)]
        #expect(p3.linearize(&colours) == 2)
        #expect(colours[0] == red && colours[1] == grey)
    }

    @Test func aGradeActsOnClampedEncodedSRGB() {
        // A cube that swaps red and blue.
        let swap = ColorCube(size: 2) { SIMD3($0.z, $0.y, $0.x) }
        let policy = SampleColorPolicy(primaries: .displayP3, grade: swap)
        let encoded = ColorMath.clampedToUnit(ColorConversion(from: .displayP3, to: .srgb).encoded(SIMD3<Float>(1, 0, 0.4)))
        let graded = swap.lookup(encoded)
        #expect(isApproximatelyEqual(graded, SIMD3(encoded.z, encoded.y, encoded.x), tolerance: 1e-6))
        #expect(policy.color(Self.outsideP3, in: .extendedSRGB) == graded)
        #expect(policy.color(Self.outsideP3, in: .srgb) == graded)
        #expect(policy.color(Self.outsideP3, in: .linear) == SRGBTransfer.decode(graded))
        #expect(policy.color(Self.outsideP3, in: .displayP3) == ColorConversion(from: .srgb, to: .displayP3).encoded(graded))
        #expect(policy.color(Self.outsideP3, in: .capture) == Self.outsideP3)
        #expect(policy.linear(Self.outsideP3) == (SRGBTransfer.decode(graded), false))
    }

    @Test(arguments: ColorPrimaries.allCases)
    func theSamplerConvertsByItsPolicy(primaries: ColorPrimaries) throws {
        let synth = CaptureSynthesizer(options: CaptureRoundTripTests.options())
        let sampler = CapturedImageSampler(image: synth.encode(synth.render(frame: 1)), primaries: primaries)
        #expect(sampler.colorPolicy.primaries == primaries && sampler.primaries == primaries)
        for p in [SIMD2(0.3, 0.4), SIMD2(0.71, 0.22)] {
            let decoded = try #require(sampler.color(at: p, space: .capture))
            for space in SampleSpace.allCases {
                #expect(sampler.color(at: p, space: space) == sampler.colorPolicy.color(decoded, in: space))
            }
        }
    }
}
