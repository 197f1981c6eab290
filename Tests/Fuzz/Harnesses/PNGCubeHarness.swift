@testable import PointPaint

/// A colour cube stored as a PNG (`--look FILE.png`, `lut apply`/`compose` with a .png cube),
/// through our libpng wrapper from a file, as the CLI reads it; a cube that loads is applied.
enum PNGCubeHarness: FuzzHarness {
    static let name = "png-cube"

    static func fuzz(_ bytes: [UInt8]) throws {
        let path = Fuzz.write(Fuzz.fixingPNGChecksums(bytes), to: "cube.png")
        let cube = try ColorCube(pngAt: path)
        Fuzz.require(cube.entries.count == cube.size * cube.size * cube.size, "a \(cube.size)³ cube with \(cube.entries.count) entries")
        Fuzz.applyEverywhere(cube)
    }
}
