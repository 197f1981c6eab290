import Testing
@testable import PointPaint

@Suite("PLY summary")
struct PLYSummaryTests {
    private static func summary(_ body: String) throws -> PLYSummary {
        let text = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nend_header\n" + body
        return PLYSummary(try PLYReader.read(bytes: Array(text.utf8), file: "s.ply"), path: "s.ply")
    }

    @Test("bounds leave out NaN and infinite vertices and say how many")
    func nonFinite() throws {
        let s = try Self.summary("nan 0 0\n1 2 3\n-1 inf 5\n")
        let bounds = try #require(s.bounds)
        #expect(bounds.min == SIMD3(1, 2, 3) && bounds.max == SIMD3(1, 2, 3))
        #expect(s.nonFiniteCount == 2)
        #expect(s.description.contains("(2 vertices with NaN or infinite coordinates left out)"))
        let none = try Self.summary("nan 0 0\n0 nan 0\n0 0 -inf\n")
        #expect(none.bounds == nil)
        #expect(none.description.contains("bounds: none (no vertex has finite x, y, z)"))
    }

    @Test("comments and names from the file cannot clear the terminal or split a line in info")
    func escapes() throws {
        let text = "ply\nformat ascii 1.0\ncomment \u{1B}[2J hidden\u{200B}\rline\nobj_info \u{7}\nelement vertex\u{1B} 0\nend_header\n"
        let lines = PLYSummary(try PLYReader.read(bytes: Array(text.utf8), file: "s.ply"), path: "s.ply").description
            .split(separator: "\n")
        #expect(lines.contains("  comment \\u{1B}[2J hidden\\u{200B}\\rline"))
        #expect(lines.contains("  obj_info \\u{7}"))
        #expect(lines.contains("  element vertex\\u{1B} 0: "))
        #expect(!lines.joined().unicodeScalars.contains { $0.value < 0x20 })
    }
}
