@testable import PointPaint

/// `.cube` text, as `--look FILE.cube` and the `lut` commands read it; a cube that parses is
/// applied to a few colours as `lut apply` would.
enum CubeHarness: FuzzHarness {
    static let name = "cube"

    static func fuzz(_ bytes: [UInt8]) throws {
        let file = try CubeFile(parsing: bytes, file: "look.cube")
        let cube = file.cube
        Fuzz.require(cube.entries.count == cube.size * cube.size * cube.size, "a \(cube.size)³ cube with \(cube.entries.count) entries")
        Fuzz.require(cube.entries.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }, "a cube with a non-finite entry")
        Fuzz.applyEverywhere(cube)
    }
}
