import Testing
@testable import PointPaint

/// The `.xyz` feature-point format: what it accepts, and one clear error a bad line.
@Suite struct FeaturePointXYZTests {
    @Test func acceptedForms() throws {
        let points = try XYZFormat.parse(Array("# comment\n\n  1 2 3\r\n4\t5 6 18446744073709551615\n-1e-3 +2.5 .5".utf8), file: "p.xyz")
        #expect(points == [FeaturePoint(position: SIMD3(1, 2, 3)), FeaturePoint(position: SIMD3(4, 5, 6), id: .max),
                           FeaturePoint(position: SIMD3(-0.001, 2.5, 0.5))])
        #expect(try XYZFormat.parse(Array(XYZFormat.format(points).utf8), file: "p.xyz") == points)
    }

    @Test func aByteOrderMarkBeforeTheFirstLineIsSkipped() throws {
        let points = try XYZFormat.parse([0xEF, 0xBB, 0xBF] + Array("1 2 3 4\n".utf8), file: "b.xyz")
        #expect(points == [FeaturePoint(position: SIMD3(1, 2, 3), id: 4)])
    }

    /// The one wording test of the `.xyz` family: the line quoted, escaped and cut.
    @Test func wording() throws {
        let error = try #require(pointPaintError { _ = try XYZFormat.parse(Array("0 0 0\n1 2\u{1B}[2J 3\n".utf8), file: "p.xyz") })
        #expect(error.description == "p.xyz: line 2: expected a number for y, found '2\\u{1B}[2J'")
    }

    /// Each bad line follows a point, a blank line and a comment, so it is line 4.
    @Test(arguments: [
        "nan 0 0": PointPaintError.Kind.outOfRange, "1e999 0 0": .outOfRange, "1 2 3 -4": .outOfRange,
        "1 2 3 99999999999999999999999": .outOfRange, "1 2": .malformed, "1 2 3 4 5": .malformed, "x y z": .malformed,
        "1-2-3": .malformed, "1 2,3": .malformed, "1 2 3-4": .malformed, "1 2 3 4.5": .malformed, "1\u{00A0}2 3": .malformed,
    ])
    func badLines(line: String, kind: PointPaintError.Kind) throws {
        let text = "0 0 -1\n\n# c\n" + line + "\n5 6 7\n"
        let error = try #require(pointPaintError { _ = try XYZFormat.parse(Array(text.utf8), file: "p.xyz") })
        #expect(error.kind == kind && error.place == .line(4) && error.file == "p.xyz", "\(error)")
    }

    @Test func aLongLineIsQuotedShort() throws {
        let line = "x" + String(repeating: "9", count: 1 << 20) + " 0 0\n"
        let error = try #require(pointPaintError { _ = try XYZFormat.parse(Array(line.utf8), file: "l.xyz") })
        #expect(error.kind == .malformed && error.description.count < 200, "\(error.description.prefix(300))")
    }

    @Test func mapCoordinatesKeepEveryDigit() throws {
        // At 5,400 km a Float moves in 0.5 m steps: the file's digits are kept beside it.
        let text = "500000.123456 5400000.654321 120.25 7\n0.5 -1.25 2 8\n"
        let points = try XYZFormat.parse(Array(text.utf8), file: "m.xyz")
        #expect(points[0].exact == SIMD3(500000.123456, 5400000.654321, 120.25) && points[0].id == 7)
        #expect(points[0].world == SIMD3(500000.123456, 5400000.654321, 120.25))
        #expect(points[0].position == SIMD3<Float>(500000.125, 5400000.5, 120.25))
        #expect(points[1].exact == nil && points[1].world == SIMD3(0.5, -1.25, 2))
        // Written back, the digits read back the same.
        #expect(try XYZFormat.parse(Array(XYZFormat.format(points).utf8), file: "m.xyz") == points)
    }
}
