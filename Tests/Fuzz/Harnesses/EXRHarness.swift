@testable import PointPaint

/// An OpenEXR depth map (Record3D's export), through our OpenEXR wrapper from a file, as the
/// source reads it: its size, then the map.
enum EXRHarness: FuzzHarness {
    static let name = "exr"

    static func fuzz(_ bytes: [UInt8]) throws {
        let path = Fuzz.write(bytes, to: "depth.exr")
        let size = try SourceFiles.depthEXRSize(path, frame: 0)
        let map = try SourceFiles.depthEXR(path, confidence: nil, size: size, frame: 0)
        Fuzz.require(map.width == size.width && map.height == size.height, "a depth map of another size than its header's")
    }
}
