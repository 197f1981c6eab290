@testable import PointPaint

/// LAS files (`info`, `view`, `merge` inputs), from a file: the header and its variable-length
/// records, the summary `info` prints, then every point as `view` reads them.
enum LASHarness: FuzzHarness {
    static let name = "las"

    static func fuzz(_ bytes: [UInt8]) throws {
        let path = Fuzz.write(bytes, to: "points.las")
        let summary = try LASSummary(path: path)
        _ = summary.description
        let cloud = try LASReader.readCloud(path: path)
        Fuzz.require(cloud.positions.count == summary.header.pointCount,
                     "\(cloud.positions.count) points read of the header's \(summary.header.pointCount)")
        Fuzz.require(cloud.colors.count == cloud.positions.count, "a colour for each point")
        for c in cloud.colors {
            Fuzz.require(c.min() >= 0 && c.max() <= 1, "a colour outside 0…1 from 16-bit codes: \(c)")
        }
    }
}
