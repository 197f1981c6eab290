import Foundation
import PointPaint

/// The input of `voxelize`: a PLY file streamed in chunks (memory grows with voxels, not with
/// points), or a LAS file (told apart by content).
extension VoxelizeCommand {
    /// Voxelises every point of the file at `path` in file order into a store `makeStore` makes
    /// for the file's origin (`WorldOrigin`), colours decoded to linear light (8-bit channels
    /// through a table); returns the store and the number of points read.
    /// - Throws: `.outOfRange` naming the file when a finite point lies past the keys' reach.
    static func voxelize(_ path: String, into makeStore: (SIMD3<Double>) -> SceneStore) throws -> (store: SceneStore, points: Int) {
        if CloudFileContent.of(path) == .las {
            let cloud = try LASReader.readCloud(path: path)
            var store = makeStore(cloud.origin)
            store.add(points: cloud.positions, colors: cloud.colors.map { SRGBTransfer.decode($0) })
            try store.requireEveryPointHeld(file: path)
            return (store, cloud.count)
        }
        let table = SRGBTransfer.linearOf8Bit
        var store: SceneStore?
        let points = try PLYReader.forEachPointChunk(path: path) { chunk in
            let linear: [SIMD3<Float>]
            if let codes = chunk.codes {
                linear = codes.map { SIMD3(table[Int($0.x)], table[Int($0.y)], table[Int($0.z)]) }
            } else {
                linear = (chunk.colors ?? []).map { SRGBTransfer.decode($0) }
            }
            if store == nil { store = makeStore(chunk.origin) }
            store!.add(points: chunk.positions, colors: linear)
            // Stop at the first chunk with a point the keys cannot hold: nothing is written.
            try store!.requireEveryPointHeld(file: path)
        }
        return (store ?? makeStore(.zero), points)
    }
}
