import Foundation
import PointPaint
import Testing

/// Built-in looks, adjustments and the folded grade.
@Suite struct LookTests {
    static let samples: [SIMD3<Double>] = {
        var rng = SplitMix64(seed: 21)
        return (0 ..< 400).map { _ in SIMD3(rng.unit(), rng.unit(), rng.unit()) }
            + [SIMD3(0, 0, 0), SIMD3(1, 1, 1), SIMD3(1, 0, 0), SIMD3(0, 0, 1), SIMD3(0.5, 0.5, 0.5)]
    }()

    @Test(arguments: Look.allCases)
    func looksStayInsideTheUnitCube(look: Look) {
        for s in Self.samples {
            let v = look.apply(s)
            #expect(v.min() >= 0 && v.max() <= 1, "\(look) \(s) → \(v)")
        }
        #expect(Look(rawValue: look.rawValue) == look)
        #expect(!look.summary.isEmpty)
    }

    @Test(arguments: [Look.noir, .redFilter, .infrared])
    func monochromeLooksGiveGreys(look: Look) {
        for s in Self.samples {
            let v = look.apply(s)
            #expect(v.x == v.y && v.y == v.z)
        }
    }

    @Test func looksDoWhatTheySay() {
        #expect(Look.natural.cube(size: 9) == ColorCube.identity(size: 9) || Look.natural.cube(size: 9).maximumDifference(from: .identity(size: 9)) < 1e-7)
        // Noir: more contrast than plain luminance; black stays black, white white.
        #expect(Look.noir.apply(SIMD3(repeating: 0.2)).x < 0.15)
        #expect(Look.noir.apply(SIMD3(repeating: 0.8)).x > 0.85)
        #expect(Look.noir.apply(SIMD3(repeating: 1)).x == 1 && Look.noir.apply(.zero).x == 0)
        // Red filter: red renders lighter than blue of the same encoded value.
        #expect(Look.redFilter.apply(SIMD3(0.8, 0.1, 0.1)).x > Look.redFilter.apply(SIMD3(0.1, 0.1, 0.8)).x + 0.4)
        // Hot-black infrared: white becomes black and black white.
        #expect(Look.infrared.apply(SIMD3(1, 1, 1)) == .zero)
        #expect(Look.infrared.apply(.zero) == SIMD3(1, 1, 1))
        // Cyanotype: blue dominates the shadows and mid-tones.
        let mid = Look.cyanotype.apply(SIMD3(repeating: 0.5))
        #expect(mid.z > mid.y && mid.y > mid.x)
        // Night vision: green dominates.
        let nv = Look.nightVision.apply(SIMD3(0.4, 0.3, 0.6))
        #expect(nv.y > nv.x + 0.2 && nv.y > nv.z + 0.2)
    }

    @Test func adjustmentsDoWhatTheySay() {
        let grey = SIMD3<Double>(repeating: 0.5)
        for s in Self.samples { #expect(Adjustments.neutral.apply(s) == s) }
        #expect(isApproximatelyEqual(Adjustments(brightness: 1).apply(grey).x, 0.5.squareRoot(), tolerance: Tolerance.double))
        #expect(Adjustments(brightness: -1).apply(grey).x == 0.25)
        #expect(Adjustments(brightness: 1).apply(SIMD3(1, 1, 1)) == SIMD3(1, 1, 1))
        #expect(Adjustments(contrast: -1).apply(SIMD3(0.1, 0.9, 0.3)) == grey)
        #expect(isApproximatelyEqual(Adjustments(contrast: 1).apply(SIMD3(0.4, 0.6, 0.5)), SIMD3(0.3, 0.7, 0.5), tolerance: Tolerance.double))
        let warm = Adjustments(temperature: 1).apply(grey), cool = Adjustments(temperature: -1).apply(grey)
        #expect(warm.x > warm.y && warm.y > warm.z)
        #expect(cool.z > cool.y && cool.y > cool.x)
        let mono = Adjustments(saturation: -1).apply(SIMD3(0.9, 0.2, 0.4))
        #expect(isApproximatelyEqual(mono, SIMD3(repeating: mono.y), tolerance: Tolerance.double))
        let vivid = Adjustments(saturation: 1).apply(SIMD3(0.6, 0.4, 0.4))
        #expect(vivid.x - vivid.y > 0.2)
    }

    @Test func foldingMatchesTheParts() throws {
        let adjustments = Adjustments(brightness: 0.1, contrast: 0.2, temperature: -0.3, saturation: 0.4)
        let grade = Grade(look: .builtin(.cyanotype), strength: 0.75, adjustments: adjustments)
        let cube = grade.cube(size: 17)
        let ramp = ColorCube.latticeRamp(size: 17)
        // Exact at the lattice points.
        for (i, p) in [(0, SIMD3<Int>(0, 0, 0)), (17 * 17 * 17 - 1, SIMD3(16, 16, 16)), (3 + 17 * 5 + 289 * 11, SIMD3(3, 5, 11))] {
            let input = SIMD3<Double>(Double(ramp[p.x]), Double(ramp[p.y]), Double(ramp[p.z]))
            #expect(isApproximatelyEqual(SIMD3<Double>(cube.entries[i]), grade.apply(input), tolerance: 1e-6))
        }
        // Between lattice points a 65³ fold stays close to the exact grade, and much closer than
        // applying look and adjustments as two cubes in turn.
        let colours = gradingTestColours(random: 1000)
        var folded = colours, inTurn = colours
        let fine = grade.cube(size: 65)
        fine.apply(to: &folded)
        Look.cyanotype.cube(size: 65).withStrength(0.75).apply(to: &inTurn)
        adjustments.cube(size: 65).apply(to: &inTurn)
        var exact = colours
        for i in stride(from: 0, to: colours.count, by: 3) {
            let v = grade.apply(SIMD3(Double(colours[i]), Double(colours[i + 1]), Double(colours[i + 2])) / 255) * 255
            exact[i] = UInt8(v.x.rounded()); exact[i + 1] = UInt8(v.y.rounded()); exact[i + 2] = UInt8(v.z.rounded())
        }
        let foldedError = zip(folded, exact).map { abs(Int($0) - Int($1)) }
        let inTurnError = zip(inTurn, exact).map { abs(Int($0) - Int($1)) }
        #expect(Double(foldedError.reduce(0, +)) / Double(colours.count) < 0.3, "mean \(Double(foldedError.reduce(0, +)) / Double(colours.count))")
        #expect(foldedError.max()! <= 3, "max \(foldedError.max()!), in turn \(inTurnError.max()!)")
        #expect(foldedError.reduce(0, +) <= inTurnError.reduce(0, +))
    }

    @Test func aGradeThatChangesNothingSaysSo() throws {
        #expect(Grade().isIdentity)
        #expect(Grade(look: .builtin(.noir), strength: 0).isIdentity)
        #expect(Grade(strength: 0.5).isIdentity)
        let noir = Grade(look: .builtin(.noir))
        #expect(!noir.isIdentity)
        #expect(noir.cube(size: 9).maximumDifference(from: Look.noir.cube(size: 9)) < 1e-7)
        let adjusted = Grade(adjustments: Adjustments(saturation: 0.1))
        #expect(!adjusted.isIdentity && adjusted.cube().size == Grade.defaultCubeSize)
        #expect(!Grade(look: .cube(.identity(size: 2))).isIdentity, "a file look is applied even when it happens to be the identity")
    }

    @Test func aFileLookKeepsItsSize() throws {
        let file = gradingRandomCube(size: 12, seed: 8)
        let folded = Grade(look: .cube(file)).cube()
        #expect(folded.size == 12)
        #expect(folded.maximumDifference(from: file) < 1e-7)
        let half = Grade(look: .cube(file), strength: 0.5).cube()
        #expect(half.maximumDifference(from: file.withStrength(0.5)) < 1e-6)
        let resized = Grade(look: .cube(file)).cube(size: 7)
        #expect(resized.size == 7)
    }
}
