import PointPaint
import Testing

/// The fast 8-bit apply (compact 16-bit table, branch-free kernels) against the float reference
/// lookup, over dense grids of colours.
@Suite struct ColorCubeApplyTests {
    /// Every 5th code on each axis and the top code: 52³ colours, RGB interleaved.
    static let gridColours: [UInt8] = {
        let codes = Array(stride(from: 0, to: 255, by: 5)) + [255]
        var out = [UInt8]()
        out.reserveCapacity(codes.count * codes.count * codes.count * 3)
        for b in codes {
            for g in codes {
                for r in codes { out += [UInt8(r), UInt8(g), UInt8(b)] }
            }
        }
        return out
    }()

    /// Checks every colour of `colours` graded by `cube` against the float reference: within one
    /// level of the unrounded reference, and rounded the same way for nearly all samples.
    static func checkAgainstReference(_ cube: ColorCube, _ colours: [UInt8], _ label: String) {
        for interpolation in ColorCube.Interpolation.allCases {
            var fast = colours
            cube.apply(to: &fast, interpolation: interpolation)
            var worst: Float = 0
            for i in stride(from: 0, to: colours.count, by: 3) {
                let input = SIMD3(Float(colours[i]), Float(colours[i + 1]), Float(colours[i + 2])) / 255
                let want = cube.lookup(input, interpolation: interpolation) * 255
                for c in 0 ..< 3 {
                    let clamped = min(max(want[c], 0), 255)
                    worst = max(worst, abs(Float(fast[i + c]) - clamped))
                }
            }
            #expect(worst <= Float(Tolerance.levels), "\(label) \(interpolation): off by \(worst) levels")
            let reference = gradingReferenceApply(cube, colours, interpolation: interpolation)
            let exact = zip(fast, reference).filter { $0 == $1 }.count
            #expect(Double(exact) >= 0.999 * Double(colours.count), "\(label) \(interpolation): \(exact) of \(colours.count)")
        }
    }

    @Test func smoothGradeMatchesReferenceOnDenseGrid() {
        Self.checkAgainstReference(gradingSmoothCube(size: 64), Self.gridColours, "smooth 64³")
    }

    @Test func randomCubeMatchesReferenceOnDenseGrid() {
        Self.checkAgainstReference(gradingRandomCube(size: 17, seed: 11), Self.gridColours, "random 17³")
    }

    /// Entries well outside 0…1 (an exaggerated look, still within the −1…2 the tables keep) use
    /// a wider stored range and still clamp to 0…255 like the reference.
    @Test func entriesOutsideTheUnitRangeMatchReference() {
        let cube = Look.noir.cube(size: 33).withStrength(1.8)
        #expect(cube.entries.contains { $0.min() < -0.2 } && cube.entries.contains { $0.max() > 1.2 })
        Self.checkAgainstReference(cube, Self.gridColours, "noir ×1.8")
    }

    /// A cube is a plain value: changed entries grade as a new cube with those entries would,
    /// and a `Prepared8Bit` keeps grading as the cube was when it was prepared, buffer after
    /// buffer, exactly as applying that cube does.
    @Test func preparedCubesKeepTheEntriesTheyWereMadeFrom() {
        let colours = gradingTestColours(random: 2000)
        var cube = gradingSmoothCube(size: 17)
        let before = cube
        let prepared = cube.prepared8Bit()
        #expect(prepared.size == 17)
        cube[red: 8, green: 8, blue: 8] = SIMD3(1, 0, 0)
        cube.entries[0] = SIMD3(0, 1, 0)
        #expect(cube != before)
        expectSameGrading(cube, ColorCube(size: cube.size, entries: cube.entries), colours)
        for interpolation in ColorCube.Interpolation.allCases {
            var first = colours, second = colours, unprepared = colours, changed = colours
            prepared.apply(to: &first, interpolation: interpolation)
            prepared.apply(to: &second, interpolation: interpolation)
            before.apply(to: &unprepared, interpolation: interpolation)
            cube.apply(to: &changed, interpolation: interpolation)
            #expect(first == unprepared && second == unprepared, "\(interpolation)")
            #expect(changed != unprepared, "\(interpolation)")
        }
    }

    @Test func flatChannelsGiveConstantOutput() {
        let cube = ColorCube(size: 5) { p in SIMD3(0.25, p.y, 1) }
        var colours = gradingTestColours(random: 500)
        let before = colours
        cube.apply(to: &colours, interpolation: .tetrahedral)
        for i in stride(from: 0, to: colours.count, by: 3) {
            #expect(colours[i] == 64 && colours[i + 1] == before[i + 1] && colours[i + 2] == 255)
        }
    }

    /// RGBA pixels grade like the same colours as RGB, alpha untouched; a trailing partial pixel
    /// is left alone (3 channels: the last whole pixel takes the byte-store path).
    @Test(arguments: ColorCube.Interpolation.allCases)
    func fourChannelsAndTailsAgreeWithThree(interpolation: ColorCube.Interpolation) {
        let cube = gradingRandomCube(size: 9, seed: 21)
        let rgb = gradingTestColours(random: 301)
        let count = rgb.count / 3
        var rgba = [UInt8]()
        for i in 0 ..< count { rgba += [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], UInt8(i & 255)] }
        var gradedRGB = rgb + [7, 9]  // a partial pixel
        cube.apply(to: &gradedRGB, interpolation: interpolation)
        #expect(Array(gradedRGB.suffix(2)) == [7, 9])
        let reference = gradingReferenceApply(cube, rgb, interpolation: interpolation)
        #expect(gradingMaxDifference(Array(gradedRGB.prefix(rgb.count)), reference) <= Tolerance.levels)
        cube.apply(to: &rgba, channels: 4, interpolation: interpolation)
        for i in 0 ..< count {
            #expect(rgba[4 * i] == gradedRGB[3 * i] && rgba[4 * i + 1] == gradedRGB[3 * i + 1]
                        && rgba[4 * i + 2] == gradedRGB[3 * i + 2] && rgba[4 * i + 3] == UInt8(i & 255))
        }
        // A single RGB pixel has no whole 4-byte word: only the byte-store path runs.
        var one: [UInt8] = [rgb[0], rgb[1], rgb[2]]
        cube.apply(to: &one, interpolation: interpolation)
        #expect(one == Array(gradedRGB.prefix(3)))
    }
}

/// Expects `a` and `b` to grade `colours` identically with every interpolation.
func expectSameGrading(_ a: ColorCube, _ b: ColorCube, _ colours: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    for interpolation in ColorCube.Interpolation.allCases {
        var x = colours, y = colours
        a.apply(to: &x, interpolation: interpolation)
        b.apply(to: &y, interpolation: interpolation)
        #expect(x == y, "\(interpolation)", sourceLocation: sourceLocation)
    }
}

/// The compact table's handling of entries it has to clamp.
@Suite struct ColorCubeApplyClampingTests {
    /// A NaN entry clamps to −1 like in the float tables, and its channel's stored range reaches
    /// down to −1: grading matches the same cube with −1 in its place, channel by channel.
    @Test(arguments: 0 ..< 3)
    func nanEntryGradesLikeMinusOne(channel: Int) {
        var withNaN = gradingRandomCube(size: 9, seed: 5)
        var withMinusOne = withNaN
        let index = withNaN.index(red: 4, green: 2, blue: 6)
        withNaN.entries[index][channel] = .nan
        withMinusOne.entries[index][channel] = -1
        expectSameGrading(withNaN, withMinusOne, gradingTestColours(random: 2000))
    }

    /// Entries beyond −1…2 (and infinities) clamp to the ends of that range before the range of
    /// each channel is taken: the same output as the cube with its entries clamped beforehand.
    @Test func outOfRangeEntriesGradeLikeClampedOnes() {
        var wild = gradingRandomCube(size: 9, seed: 8)
        wild.entries[10] = SIMD3(-5, 7, .infinity)
        wild.entries[500] = SIMD3(3, -.infinity, -1.5)
        let clamped = ColorCube(size: 9, entries: wild.entries.map { $0.clamped(lowerBound: SIMD3(repeating: -1), upperBound: SIMD3(repeating: 2)) })
        expectSameGrading(wild, clamped, gradingTestColours(random: 2000))
    }
}
