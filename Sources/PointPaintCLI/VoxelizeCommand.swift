import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint voxelize IN.ply -o OUT.ply --voxel-size S`: voxelises any coloured point cloud with
/// the scene store (Open3D's `voxel_down_sample` is the peer).
struct VoxelizeCommand: ParsableCommand {
    /// Command name and help.
    static let configuration = CommandConfiguration(
        commandName: "voxelize",
        abstract: "Voxelise a coloured point cloud (PLY) into voxel points or boxes.",
        discussion: """
            Reads the vertex element's x, y, z and colour (red/green/blue, r/g/b or diffuse_*), \
            averages colours per voxel in linear light (or keeps the first or latest point in file \
            order) and writes one vertex per voxel at its centre, or a cube per voxel.
            """)

    /// The input PLY.
    @Argument(help: "The PLY (or LAS) file to voxelise.")
    var input: String

    /// The output file and its format.
    @OptionGroup var output: CloudOutputOptions

    /// Voxel size and accumulation.
    @OptionGroup var grid: VoxelOptions

    /// Reads, voxelises, writes and prints one summary line.
    func run() throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let (store, points) = try Self.voxelize(input, into: grid.makeStore(origin:))
        try output.write(store.sortedVoxels(provenance: StoreProvenance(kind: .points, source: input)))
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        var line = "voxelize: \(count(points, "point")) in, \(count(store.count, "voxel")) out"
        if store.rejectedCount > 0 { line += " (\(count(store.rejectedCount, "point")) without a finite cell skipped)" }
        line += String(format: ", %.3f s → %@", seconds, output.output)
        print(line)
    }
}
