import Foundation
import Testing
@testable import PointPaint

/// The small CSV reader of app recordings: columns by name, spaces trimmed, exponent forms,
/// empty fields, and each error at its line.
@Suite struct SourceCSVTests {
    typealias Truth = CaptureSourceTruth

    /// Writes `text` to a file and reads it with `header`.
    static func csv(_ text: String, header: SourceCSV.Header = .required) throws -> (SourceCSV, TemporaryDirectory) {
        let dir = TemporaryDirectory("csv")
        try dir.write(text, to: "file.csv")
        return (try SourceCSV(contentsOf: dir.file("file.csv"), limit: 1 << 20, header: header), dir)
    }

    @Test func columnsByNameTrimmedWithExponentsAndEmptyFields() throws {
        let (csv, _) = try Self.csv("a, b,c ,  d\r\n1e-05, -2.5E+3 , 000042,\n\t.5 ,7., 3, 4\n\n")
        #expect(csv.hasHeader && csv.names == ["a", "b", "c", "d"] && csv.rows.map(\.line) == [2, 3])
        let a = try csv.column("a"), b = try csv.column("b"), c = try csv.column("c"), d = try csv.column("d")
        #expect(try csv.number(a, in: csv.rows[0]) == 1e-05 && csv.number(b, in: csv.rows[0]) == -2500)
        #expect(try csv.integer(c, in: csv.rows[0]) == 42 && csv.optionalNumber(d, in: csv.rows[0]) == nil)
        #expect(try csv.number(a, in: csv.rows[1]) == 0.5 && csv.number(b, in: csv.rows[1]) == 7 && csv.optionalNumber(d, in: csv.rows[1]) == 4)
        #expect(csv.column(ifPresent: "e") == nil)
        Truth.expectError(.missing, at: .line(1)) { _ = try csv.column("e") }
        Truth.expectError(.malformed, at: .line(2)) { _ = try csv.number(d, in: csv.rows[0]) }
    }

    @Test func numbersAreDecimalOnly() {
        for text in ["1", "-1", "+1.5", "1.", ".5", "1e5", "1E-5", "-0.0", "3.4028235e+38"] {
            #expect(SourceCSV.number(Substring(text)) != nil, "\(text)")
        }
        for text in ["", "-", ".", "e5", "1e", "1e+", "0x1p3", "1.2.3", "1e5e5", "1-2", "12a", "1 2", "--1", "1,5"] {
            #expect(SourceCSV.number(Substring(text)) == nil, "\(text)")
        }
        #expect(SourceCSV.number("nan")!.isNaN && SourceCSV.number("-inf") == -.infinity && SourceCSV.number("Infinity") == .infinity)
    }

    @Test func nonFiniteAndNonNumbersAreRefusedAtTheirLine() throws {
        let (csv, _) = try Self.csv("x, y\n1, 2\n3, nan\n5, 1e999\n7, 0x10\n")
        let y = try csv.column("y")
        #expect(try csv.number(y, in: csv.rows[0]) == 2)
        for row in csv.rows.dropFirst() {
            Truth.expectError(.malformed, at: .line(row.line)) { _ = try csv.number(y, in: row) }
        }
        Truth.expectError(.malformed, at: .line(2)) { _ = try csv.integer(try csv.column("x"), in: SourceCSV.Row(line: 2, fields: ["1.0"])) }
    }

    @Test func headersAbsentOrOptional() throws {
        var (csv, _) = try Self.csv("1, 2\n3, 4", header: .absent(names: ["p", "q"]))
        #expect(try !csv.hasHeader && csv.rows.map(\.line) == [1, 2] && csv.number(csv.column("q"), in: csv.rows[1]) == 4)
        (csv, _) = try Self.csv("-1e3, 2\n3, 4", header: .optional(namesIfAbsent: ["p", "q"]))
        #expect(!csv.hasHeader && csv.rows.count == 2)
        (csv, _) = try Self.csv("p, q\n3, 4", header: .optional(namesIfAbsent: ["x", "y"]))
        #expect(csv.hasHeader && csv.names == ["p", "q"] && csv.rows.count == 1)
    }

    @Test(arguments: [
        ("a, b\n1, 2\n3\n", PointPaintError.Kind.malformed, Optional(PointPaintError.Place.line(3))),
        ("a, b\n1, 2\n\n3, 4\n", .malformed, .line(3)),
        ("a, a\n1, 2\n", .malformed, .line(1)),
        ("a, \n1, 2\n", .malformed, .line(1)),
        ("a, b\n", .malformed, .line(1)),
        ("\n\n", .malformed, nil),
        ("a, b\n1, 2, 3\n", .malformed, .line(2)),
    ])
    func badFiles(text: String, kind: PointPaintError.Kind, place: PointPaintError.Place?) throws {
        Truth.expectError(kind, at: place, file: "file.csv") { _ = try Self.csv(text) }
    }

    @Test func missingLargeAndNotUTF8() throws {
        let dir = TemporaryDirectory("csv")
        Truth.expectError(.missing, at: nil) { _ = try SourceCSV(contentsOf: dir.file("none.csv"), limit: 100, header: .required) }
        try dir.write(String(repeating: "1, 2\n", count: 100), to: "large.csv")
        Truth.expectError(.tooLarge, at: nil) { _ = try SourceCSV(contentsOf: dir.file("large.csv"), limit: 100, header: .required) }
        try dir.write(Data([0x61, 0x0A, 0xFF, 0x0A]), to: "bytes.csv")
        Truth.expectError(.malformed, at: .line(2)) { _ = try SourceCSV(contentsOf: dir.file("bytes.csv"), limit: 100, header: .required) }
    }
}
