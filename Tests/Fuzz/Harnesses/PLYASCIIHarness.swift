@testable import PointPaint

/// ASCII PLY: the input follows a fixed `ply` / `format ascii 1.0` opening, so mutations go to
/// the rest of the header and to the data.
enum PLYASCIIHarness: FuzzHarness {
    static let name = "ply-ascii"

    static func fuzz(_ bytes: [UInt8]) throws {
        try PLYCheck.readEverything(Array("ply\nformat ascii 1.0\n".utf8) + bytes)
    }
}
