@testable import PointPaint

/// NumPy depth maps (Stray Scanner before 2022), from a file: the header's size, then the map.
enum NPYHarness: FuzzHarness {
    static let name = "npy"

    static func fuzz(_ bytes: [UInt8]) throws {
        let path = Fuzz.write(bytes, to: "depth.npy")
        let size = try SourceFiles.depthNPYSize(path, frame: 0)
        let map = try SourceFiles.depthNPY(path, confidence: nil, size: size, frame: 0)
        Fuzz.require(map.width == size.width && map.height == size.height, "a depth map of another size than its header's")
    }
}
