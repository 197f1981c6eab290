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

    @Test(arguments: [
        ("nan 0 0\n", PointPaintError.Kind.outOfRange, 1),
        ("0 0 0\n1e999 0 0\n", .outOfRange, 2),
        ("0 0 -1\n\n# c\n1 2\n", .malformed, 4),
        ("1 2 3 -4\n", .outOfRange, 1),
        ("1 2 3 4 5\n", .malformed, 1),
        ("1 2 3 99999999999999999999999\n", .outOfRange, 1),
        ("x y z\n", .malformed, 1),
        ("1-2-3\n", .malformed, 1),
        ("0 0 0\n1 2,3\n", .malformed, 2),
        ("1 2 3-4\n", .malformed, 1),
        ("1 2 3 4.5\n", .malformed, 1),
        ("1\u{00A0}2 3\n", .malformed, 1),
    ])
    func badLines(text: String, kind: PointPaintError.Kind, line: Int) throws {
        let error = try #require(pointPaintError { _ = try XYZFormat.parse(Array(text.utf8), file: "p.xyz") })
        #expect(error.kind == kind && error.place == .line(line) && error.file == "p.xyz", "\(error)")
    }

    @Test func aLongLineIsQuotedShort() throws {
        let line = "x" + String(repeating: "9", count: 1 << 20) + " 0 0\n"
        let error = try #require(pointPaintError { _ = try XYZFormat.parse(Array(line.utf8), file: "l.xyz") })
        #expect(error.kind == .malformed && error.description.count < 200, "\(error.description.prefix(300))")
    }
}
