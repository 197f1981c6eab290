@testable import PointPaint

/// The PLY header alone (format, comments, elements and properties), which every PLY read
/// parses first.
enum PLYHeaderHarness: FuzzHarness {
    static let name = "ply-header"

    static func fuzz(_ bytes: [UInt8]) throws {
        let (header, offset) = try PLYReader.readHeader(bytes: bytes, file: "header.ply")
        Fuzz.require(offset > 0 && offset <= bytes.count, "data offset \(offset) in \(bytes.count) bytes")
        Fuzz.require(header.elements.allSatisfy { $0.count >= 0 }, "a negative element count")
    }
}
