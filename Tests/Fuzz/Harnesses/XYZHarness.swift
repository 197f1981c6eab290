@testable import PointPaint

/// `.xyz` feature points, as a capture's frames name them. Points that parse must format to text
/// that parses to the very same points (every Float bit, every id).
enum XYZHarness: FuzzHarness {
    static let name = "xyz"

    static func fuzz(_ bytes: [UInt8]) throws {
        let points = try XYZFormat.parse(bytes, file: "points.xyz")
        Fuzz.require(points.count <= bytes.count / 5, "\(points.count) points from \(bytes.count) bytes")
        let again = try XYZFormat.parse(Array(XYZFormat.format(points).utf8), file: "written.xyz")
        Fuzz.require(again.count == points.count, "formatted points read back as \(again.count), not \(points.count)")
        for (a, b) in zip(points, again) {
            Fuzz.require(a.id == b.id && a.position.x.bitPattern == b.position.x.bitPattern
                && a.position.y.bitPattern == b.position.y.bitPattern && a.position.z.bitPattern == b.position.z.bitPattern,
                "point \(a) read back as \(b)")
        }
    }
}
