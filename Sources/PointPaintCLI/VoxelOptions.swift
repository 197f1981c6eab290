import ArgumentParser
import PointPaint

/// The voxel grid of a scene store (`voxelize`, and through `ReplayOptions` `replay` and `view`):
/// voxel size and accumulation. Both are optional so `view` can tell whether they were given.
struct VoxelOptions: ParsableArguments {
    /// The voxel size when `--voxel-size` is not given.
    static let defaultVoxelSize: Float = 0.01

    @Option(help: "Voxel edge length in world units (metres; default \(defaultVoxelSize)).")
    var voxelSize: Float?

    @Option(help: "How samples in one voxel combine (default: mean, in linear light).")
    var accumulate: AccumulationPolicy?

    /// The voxel edge length, given or default.
    var size: Float { voxelSize ?? Self.defaultVoxelSize }
    /// The accumulation policy, given or default.
    var policy: AccumulationPolicy { accumulate ?? .mean }

    /// Rejects a voxel size that is not a positive finite number.
    func validate() throws {
        guard size > 0, size.isFinite else {
            throw ValidationError("--voxel-size must be a positive number, found \(size)")
        }
    }

    /// An empty store with this grid.
    func makeStore() -> SceneStore {
        SceneStore(voxelSize: size, policy: policy)
    }
}
