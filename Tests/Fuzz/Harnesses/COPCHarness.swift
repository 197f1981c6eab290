@testable import PointPaint

/// COPC files (`info`, `view` and every cloud input), from a file: the header, the `info` record
/// and the hierarchy as `info` checks and prints them, then every point as LAZ.
enum COPCHarness: FuzzHarness {
    static let name = "copc"

    static func fuzz(_ bytes: [UInt8]) throws {
        _ = try Fuzz.lasCloud(bytes, named: "points.copc.laz") { summary in
            if let copc = summary.copc {
                Fuzz.require(copc.nodes <= copc.points, "\(copc.nodes) nodes with points hold only \(copc.points) points")
            }
        }
    }
}
