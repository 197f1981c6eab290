@testable import PointPaint

/// LAS files (`info`, `view`, `merge` inputs), from a file: the header and its variable-length
/// records, the summary `info` prints, then every point as `view` reads them.
enum LASHarness: FuzzHarness {
    static let name = "las"

    static func fuzz(_ bytes: [UInt8]) throws {
        let cloud = try Fuzz.lasCloud(bytes, named: "points.las").cloud
        Fuzz.require(cloud.colors.count == cloud.positions.count, "a colour for each point")
        for c in cloud.colors {
            Fuzz.require(c.min() >= 0 && c.max() <= 1, "a colour outside 0…1 from 16-bit codes: \(c)")
        }
    }
}
