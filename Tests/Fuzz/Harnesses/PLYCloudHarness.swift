@testable import PointPaint

/// The cloud reader `view FILE.ply` runs, with its one-pass path for binary files of fixed-size
/// records: whenever it succeeds, the full parse must give the very same cloud (the reader's
/// promise), bit for bit (any NaN matching any other).
enum PLYCloudHarness: FuzzHarness {
    static let name = "ply-cloud"

    static func fuzz(_ bytes: [UInt8]) throws {
        let cloud = try PLYReader.readCloud(bytes: bytes, file: "cloud.ply")
        let full = try PLYReader.read(bytes: bytes, file: "cloud.ply").cloud(file: "cloud.ply")
        Fuzz.require(cloud.voxelSize?.bitPattern == full.voxelSize?.bitPattern, "voxel sizes \(String(describing: cloud.voxelSize)) and \(String(describing: full.voxelSize))")
        Fuzz.require(cloud.count == full.count, "\(cloud.count) points one pass, \(full.count) in full")
        Fuzz.require(same(cloud.positions, full.positions), "positions differ between the one-pass and the full read")
        Fuzz.require(same(cloud.colors, full.colors), "colours differ between the one-pass and the full read")
    }
}

/// Whether `a` and `b` hold the same values bit for bit, any NaN matching any other.
private func same(_ a: [SIMD3<Float>], _ b: [SIMD3<Float>]) -> Bool {
    func equal(_ x: Float, _ y: Float) -> Bool { x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN) }
    return a.count == b.count && zip(a, b).allSatisfy { equal($0.x, $1.x) && equal($0.y, $1.y) && equal($0.z, $1.z) }
}
