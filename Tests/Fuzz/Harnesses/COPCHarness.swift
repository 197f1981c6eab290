@testable import PointPaint

/// COPC files (`info`, `view` and every cloud input), from a file: the header, the `info` record
/// and the hierarchy as `info` checks and prints them, then every point as LAZ.
enum COPCHarness: FuzzHarness {
    static let name = "copc"

    static func fuzz(_ bytes: [UInt8]) throws {
        let path = Fuzz.write(bytes, to: "points.copc.laz")
        let summary = try LASSummary(path: path)
        _ = summary.description
        if let copc = summary.copc {
            Fuzz.require(copc.nodes <= copc.points, "\(copc.nodes) nodes with points hold only \(copc.points) points")
        }
        let cloud = try LASReader.readCloud(path: path)
        Fuzz.require(cloud.positions.count == summary.header.pointCount,
                     "\(cloud.positions.count) points read of the header's \(summary.header.pointCount)")
    }
}
