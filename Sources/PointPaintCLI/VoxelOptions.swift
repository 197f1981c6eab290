import ArgumentParser
import PointPaint

/// The voxel grid of a scene store (`voxelize`, and through `ReplayOptions` `replay` and `view`):
/// voxel size and accumulation. Both are optional so `view` can tell whether they were given.
/// `paint` has its own `--voxel-size` (no voxels unless given) and `--accumulate` (with `best`),
/// and checks the size with `validate(voxelSize:)`.
struct VoxelOptions: ParsableArguments {
    /// The voxel size when `--voxel-size` is not given.
    static let defaultVoxelSize: Float = 0.01

    /// Read as a `Double` so a value too small or too large for the store's `Float` is reported
    /// as given (`1e-300`), not as what it rounds to (`0.0`).
    @Option(help: "Voxel edge length in world units (metres; default \(defaultVoxelSize)).")
    var voxelSize: Double?

    @Option(help: "How samples in one voxel combine (default: mean, in linear light).")
    var accumulate: AccumulationPolicy?

    /// The voxel edge length, given or default.
    var size: Float { voxelSize.map { Float($0) } ?? Self.defaultVoxelSize }
    /// The accumulation policy, given or default.
    var policy: AccumulationPolicy { accumulate ?? .mean }

    func validate() throws {
        try Self.validate(voxelSize: voxelSize)
    }

    /// Rejects a `--voxel-size` that is not a positive number a `Float` holds as a normal number:
    /// the one check of every command that takes a voxel size (`paint` declares its own option,
    /// whose default is no voxels).
    static func validate(voxelSize: Double?) throws {
        guard let voxelSize else { return }
        let size = Float(voxelSize)
        guard voxelSize > 0, size >= .leastNormalMagnitude, size.isFinite else {
            throw ValidationError("--voxel-size must be a positive number from \(Float.leastNormalMagnitude) to \(Float.greatestFiniteMagnitude), found \(voxelSize)")
        }
    }

    /// An empty store with this grid, measured from `origin` (whole metres).
    func makeStore(origin: SIMD3<Double> = .zero) -> SceneStore {
        SceneStore(voxelSize: size, policy: policy, origin: origin)
    }
}
