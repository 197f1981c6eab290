@testable import PointPaint

/// Binary PLY through the full parser: the input's first byte picks little- or big-endian, the
/// rest follows a fixed `ply` / `format …` opening (the rest of the header, then the data).
enum PLYBinaryHarness: FuzzHarness {
    static let name = "ply-binary"

    static func fuzz(_ bytes: [UInt8]) throws {
        guard let first = bytes.first else { return }
        let format = first & 1 == 0 ? "binary_little_endian" : "binary_big_endian"
        try PLYCheck.readEverything(Array("ply\nformat \(format) 1.0\n".utf8) + bytes.dropFirst())
    }
}
