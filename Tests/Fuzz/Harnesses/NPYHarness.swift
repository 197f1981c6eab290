@testable import PointPaint

/// NumPy depth maps (Stray Scanner before 2022), from a file: the header's size, then the map.
enum NPYHarness: FuzzHarness {
    static let name = "npy"

    static func fuzz(_ bytes: [UInt8]) throws {
        try Fuzz.depthMap(bytes, named: "depth.npy", size: SourceFiles.depthNPYSize) {
            try SourceFiles.depthNPY($0, confidence: $1, size: $2, frame: $3)
        }
    }
}
