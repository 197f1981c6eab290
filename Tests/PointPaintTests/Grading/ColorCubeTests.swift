import Foundation
import PointPaint
import Testing

/// Colours every 8-bit test should see: all greys, every code on each channel alone, and a
/// deterministic spread of random colours. RGB, interleaved.
func gradingTestColours(random: Int = 3000, seed: UInt64 = 5) -> [UInt8] {
    var out = [UInt8]()
    for v in 0 ... 255 {
        let c = UInt8(v)
        out += [c, c, c, c, 0, 0, 0, c, 0, 0, 0, c, c, 255 - c, UInt8((v * 7) & 255)]
    }
    var rng = SplitMix64(seed: seed)
    for _ in 0 ..< random * 3 { out.append(UInt8(truncatingIfNeeded: rng.next())) }
    return out
}

/// A smooth, non-trivial cube: a look followed by adjustments, so composition and interpolation
/// are exercised on something like real grading.
func gradingSmoothCube(size: Int) -> ColorCube {
    Grade(look: .builtin(.cyanotype), strength: 0.6, adjustments: Adjustments(contrast: 0.3, temperature: 0.4, saturation: 0.5))
        .cube(size: size)
}

/// A cube with independent random entries: the worst case for any shortcut in the lookup.
func gradingRandomCube(size: Int, seed: UInt64) -> ColorCube {
    var rng = SplitMix64(seed: seed)
    let entries = (0 ..< size * size * size).map { _ in
        SIMD3(Float(rng.unit()), Float(rng.unit()), Float(rng.unit()))
    }
    return ColorCube(size: size, entries: entries)
}

/// The largest per-sample difference between two buffers.
func gradingMaxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
}

/// The reference lookup of each colour, quantised to 8 bits (`ColorMath.bytes`).
func gradingReferenceApply(_ cube: ColorCube, _ colours: [UInt8], interpolation: ColorCube.Interpolation) -> [UInt8] {
    var out = colours
    for i in stride(from: 0, to: colours.count, by: 3) {
        let input = SIMD3(Float(colours[i]), Float(colours[i + 1]), Float(colours[i + 2])) / 255
        let c = ColorMath.bytes(cube.lookup(input, interpolation: interpolation))
        (out[i], out[i + 1], out[i + 2]) = (c.x, c.y, c.z)
    }
    return out
}

@Suite struct ColorCubeTests {
    /// Every size 2…128, and larger sizes spread up to the top, 255 and 256 (building every large
    /// cube in a debug build would take minutes; the code path does not depend on the size).
    @Test(arguments: Array(2 ... 128) + [129, 150, 200, 255, 256])
    func identityLeavesEightBitColoursUnchanged(size: Int) {
        let cube = ColorCube.identity(size: size)
        let colours = gradingTestColours(random: size > 128 ? 200 : 1000, seed: UInt64(size))
        for interpolation in ColorCube.Interpolation.allCases {
            var out = colours
            cube.apply(to: &out, interpolation: interpolation)
            #expect(out == colours, "size \(size) \(interpolation)")
        }
    }

    @Test func identityKeepsEveryRedGreenPairAtCommonSizes() {
        // Every red and green code with 16 blue codes (1 M colours) through the most used sizes.
        let blues = stride(from: 0, through: 255, by: 17).map { UInt8($0) }
        var all = [UInt8](repeating: 0, count: 65536 * blues.count * 3)
        for i in 0 ..< 65536 * blues.count {
            all[3 * i] = UInt8(i & 255)
            all[3 * i + 1] = UInt8((i >> 8) & 255)
            all[3 * i + 2] = blues[i >> 16]
        }
        for size in [17, 33, 64] {
            var out = all
            ColorCube.identity(size: size).apply(to: &out)
            #expect(out == all, "size \(size)")
        }
    }

    @Test func identityLayoutIsRedFastest() {
        let cube = ColorCube.identity(size: 5)
        #expect(cube.entries.count == 125)
        #expect(cube.entries[1] == SIMD3(0.25, 0, 0))
        #expect(cube.entries[5] == SIMD3(0, 0.25, 0))
        #expect(cube.entries[25] == SIMD3(0, 0, 0.25))
        #expect(cube[red: 4, green: 3, blue: 2] == SIMD3(1, 0.75, 0.5))
        #expect(cube.index(red: 4, green: 3, blue: 2) == 4 + 3 * 5 + 2 * 25)
    }

    @Test(arguments: ColorCube.Interpolation.allCases)
    func lookupHitsLatticePointsExactly(interpolation: ColorCube.Interpolation) {
        let cube = gradingRandomCube(size: 9, seed: 3)
        let ramp = ColorCube.latticeRamp(size: 9)
        for (b, vb) in ramp.enumerated() {
            for (g, vg) in ramp.enumerated() {
                for (r, vr) in ramp.enumerated() {
                    let got = cube.lookup(SIMD3(vr, vg, vb), interpolation: interpolation)
                    let want = cube[red: r, green: g, blue: b]
                    #expect(isApproximatelyEqual(got, want, tolerance: Tolerance.lattice))
                }
            }
        }
    }

    @Test(arguments: [2, 5, 17, 33, 64])
    func fastApplyMatchesReferenceLookup(size: Int) {
        let cube = gradingRandomCube(size: size, seed: UInt64(size))
        let colours = gradingTestColours()
        for interpolation in ColorCube.Interpolation.allCases {
            var fast = colours
            cube.apply(to: &fast, interpolation: interpolation)
            let reference = gradingReferenceApply(cube, colours, interpolation: interpolation)
            #expect(gradingMaxDifference(fast, reference) <= Tolerance.levels)
            let exact = zip(fast, reference).filter { $0 == $1 }.count
            #expect(Double(exact) >= 0.999 * Double(colours.count), "\(size) \(interpolation)")
        }
    }

    @Test func applyLeavesAlphaAlone() {
        let cube = Look.infrared.cube(size: 17)
        var rgba: [UInt8] = [255, 255, 255, 77, 0, 0, 0, 200]
        cube.apply(to: &rgba, channels: 4)
        #expect(rgba[3] == 77 && rgba[7] == 200)
        #expect(rgba[0] < 5 && rgba[4] > 250)  // white → black, black → white
    }

    @Test func sixteenBitApplyKeepsIdentity() {
        var samples = (0 ..< 3000).map { UInt16(truncatingIfNeeded: $0 &* 2654435761 >> 7) }
        let before = samples
        ColorCube.identity(size: 33).apply(to: &samples)
        #expect(zip(samples, before).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test func trilinearAndTetrahedralAgreeOnAffineCubes() {
        // An affine map is reproduced exactly by both interpolations.
        let cube = ColorCube(size: 7) { p in SIMD3(0.1 + 0.5 * p.x + 0.2 * p.y, 0.8 - 0.3 * p.z, 0.25 * (p.x + p.y + p.z)) }
        var rng = SplitMix64(seed: 9)
        for _ in 0 ..< 500 {
            let p = SIMD3(Float(rng.unit()), Float(rng.unit()), Float(rng.unit()))
            let want = SIMD3<Float>(0.1 + 0.5 * p.x + 0.2 * p.y, 0.8 - 0.3 * p.z, 0.25 * (p.x + p.y + p.z))
            for interpolation in ColorCube.Interpolation.allCases {
                #expect(isApproximatelyEqual(cube.lookup(p, interpolation: interpolation), want, tolerance: Tolerance.chainedLattice))
            }
        }
    }

    @Test func lookupClampsInputsOutsideTheUnitCube() {
        let cube = gradingRandomCube(size: 4, seed: 1)
        #expect(cube.lookup(SIMD3(-3, -0.1, .nan)) == cube.entries[0])
        #expect(isApproximatelyEqual(cube.lookup(SIMD3(2, 1.5, 9)), cube.entries[63], tolerance: Tolerance.lattice))
    }

    @Test func composingWithIdentityChangesNothing() {
        let cube = gradingRandomCube(size: 12, seed: 4)
        #expect(ColorCube.identity(size: 12).then(cube).maximumDifference(from: cube) < Tolerance.lattice)
        #expect(cube.then(.identity(size: 12)).maximumDifference(from: cube) < Tolerance.lattice)
        // A different-sized identity in between resamples losslessly too.
        #expect(cube.then(.identity(size: 5)).maximumDifference(from: cube) < Tolerance.lattice)
    }

    /// Applies `first` then `second` to the test colours both ways and compares.
    static func checkComposition(_ first: ColorCube, _ second: ColorCube) {
        let colours = gradingTestColours()
        var inTurn = colours
        first.apply(to: &inTurn)
        second.apply(to: &inTurn)
        var composed = colours
        first.then(second).apply(to: &composed)
        #expect(gradingMaxDifference(inTurn, composed) <= 1, "\(first.size)³")
        // Composition is not commutative: the other order is a different grade.
        var reversed = colours
        second.then(first).apply(to: &reversed)
        #expect(gradingMaxDifference(reversed, composed) > 3)
    }

    /// Smooth (analytic) cubes compose within a level at every common size.
    @Test(arguments: [17, 33, 64])
    func compositionMatchesApplyingInTurn(size: Int) {
        let first = ColorCube(size: size) { p in
            SIMD3(0.9 * p.x + 0.1 * p.y * p.z, 0.15 + 0.7 * p.y + 0.1 * sin(3 * p.x), p.z * p.z * 0.6 + 0.3 * p.z + 0.05)
        }
        let second = ColorCube(size: size) { p in
            SIMD3(0.5 + 0.45 * sin(2 * p.x + p.z - 1), p.y * (0.8 + 0.2 * p.z), 0.2 + 0.6 * p.z + 0.2 * p.x * p.y)
        }
        Self.checkComposition(first, second)
    }

    /// Strong built-in looks with clamped kinks compose within a level at 64³, the size grading
    /// uses (at 17³ they differ by several levels: interpolation between lattice points, not
    /// composition, is then the limit).
    @Test func strongLooksComposeAt64() {
        let first = gradingSmoothCube(size: 64)
        Self.checkComposition(first, Grade(look: .builtin(.nightVision), strength: 0.5, adjustments: Adjustments(brightness: 0.2)).cube(size: 64))
        Self.checkComposition(Look.noir.cube(size: 64), Adjustments(temperature: 0.6, saturation: 0.3).cube(size: 64))
    }

    @Test func strengthMixesWithIdentity() {
        let cube = Look.noir.cube(size: 9)
        #expect(cube.withStrength(0).maximumDifference(from: .identity(size: 9)) < 1e-7)
        #expect(cube.withStrength(1) == cube)
        let half = cube.withStrength(0.5)
        let identity = ColorCube.identity(size: 9)
        for i in [0, 17, 200, 728] {
            let want = (cube.entries[i] + identity.entries[i]) / 2
            #expect(isApproximatelyEqual(half.entries[i], want, tolerance: Tolerance.lattice))
        }
    }

    @Test func resampledKeepsSmoothCubesClose() {
        let big = gradingSmoothCube(size: 65)
        let small = big.resampled(size: 33)
        #expect(small.size == 33)
        #expect(small.maximumDifference(from: gradingSmoothCube(size: 33)) < 2e-3)
    }
}
