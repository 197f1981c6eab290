@testable import PointPaint

/// An OpenEXR depth map (Record3D's export), through our OpenEXR wrapper from a file, as the
/// source reads it: its size, then the map.
enum EXRHarness: FuzzHarness {
    static let name = "exr"

    static func fuzz(_ bytes: [UInt8]) throws {
        try Fuzz.depthMap(bytes, named: "depth.exr", size: SourceFiles.depthEXRSize) {
            try SourceFiles.depthEXR($0, confidence: $1, size: $2, frame: $3)
        }
    }
}
