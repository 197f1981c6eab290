import Foundation
import PointPaint

/// The input of `voxelize`: a PLY file streamed in chunks (memory grows with voxels, not with
/// points), or a LAS file.
extension VoxelizeCommand {
    /// Adds every point of the file at `path` to `store` in file order, colours decoded to linear
    /// light (8-bit channels through a table); returns the number of points read.
    /// - Throws: `.outOfRange` naming the file when a finite point lies past the keys' reach.
    static func addPoints(of path: String, to store: inout SceneStore) throws -> Int {
        if (path as NSString).pathExtension.lowercased() == "las" {
            let cloud = try LASReader.readCloud(path: path)
            store.add(points: cloud.positions, colors: cloud.colors.map { SRGBTransfer.decode($0) })
            try store.requireEveryPointHeld(file: path)
            return cloud.count
        }
        let table = SRGBTransfer.linearOf8Bit
        return try PLYReader.forEachPointChunk(path: path) { chunk in
            let linear: [SIMD3<Float>]
            if let codes = chunk.codes {
                linear = codes.map { SIMD3(table[Int($0.x)], table[Int($0.y)], table[Int($0.z)]) }
            } else {
                linear = (chunk.colors ?? []).map { SRGBTransfer.decode($0) }
            }
            store.add(points: chunk.positions, colors: linear)
            // Stop at the first chunk with a point the keys cannot hold: nothing is written.
            try store.requireEveryPointHeld(file: path)
        }
    }
}
