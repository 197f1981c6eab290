@_spi(Benchmarks) @testable import PointPaint

/// LZFSE streams (Record3D's depth and confidence maps): sized, then decoded. Whatever decodes
/// must encode (raw blocks) and decode back to the same bytes.
enum LZFSEHarness: FuzzHarness {
    static let name = "lzfse"

    /// A depth map's largest decoded size in a `.r3d` is a few MB; 16 MiB bounds the work.
    static let maximumSize = 16 << 20

    static func fuzz(_ bytes: [UInt8]) throws {
        let size = try bytes.withUnsafeBytes { try LZFSE.decodedSize(of: $0, file: "rgbd/0.depth", maximumSize: maximumSize) }
        let decoded = try LZFSE.decode(bytes, file: "rgbd/0.depth", expectedSize: size, maximumSize: maximumSize)
        Fuzz.require(decoded.count == size, "decoded \(decoded.count) bytes of \(size)")
        let again = try LZFSE.decode(LZFSE.encodeRaw(decoded), file: "encoded", expectedSize: size, maximumSize: maximumSize)
        Fuzz.require(again == decoded, "raw blocks of the decoded bytes decode to something else")
    }
}
