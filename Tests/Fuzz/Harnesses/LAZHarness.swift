@testable import PointPaint

/// LAZ files (every command that reads a cloud), from a file: the header and its LASzip record,
/// the summary `info` prints, every point as `view` reads them, and `convert` to LAS, whose
/// records must be the ones the cloud came from.
enum LAZHarness: FuzzHarness {
    static let name = "laz"

    static func fuzz(_ bytes: [UInt8]) throws {
        let (path, _, cloud) = try Fuzz.lasCloud(bytes, named: "points.laz")
        let converted = Fuzz.write([], to: "points.las")
        let result = try LASConverter.convert(path, to: converted)
        Fuzz.require(result.points == cloud.count, "convert wrote \(result.points) points of \(cloud.count)")
        let back = try LASReader.readCloud(path: converted)
        Fuzz.require(back.positions == cloud.positions, "the converted file's points differ from the LAZ file's")
    }
}
