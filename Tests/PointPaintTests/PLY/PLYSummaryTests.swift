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
}
