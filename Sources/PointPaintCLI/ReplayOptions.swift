import ArgumentParser
import PointPaint

/// The options that shape a replayed cloud, shared by `replay` and `view`: which frames
/// (`FrameSelectionOptions`), how they are sampled and on how many threads (`SamplingOptions`;
/// both groups `paint` takes too), where the points come from, and the voxel grid. Each is
/// optional, so `view` can tell which were given for a PLY file, where none applies.
struct ReplayOptions: ParsableArguments {
    @OptionGroup var selection: FrameSelectionOptions
    @OptionGroup var poses: PosesOption
    @OptionGroup var sampling: SamplingOptions
    @Option(help: "Where a frame's points come from: its feature points, its depth map, or the recording's own point cloud (default: auto, feature points where a frame has them, else depth).")
    var points: CaptureReplay.PointSource?
    @OptionGroup var depth: DepthSamplingOptions
    @Option(help: "Use every Nth depth pixel across and down (default: 1, all).")
    var depthStride: Int?
    @OptionGroup var grid: VoxelOptions

    func validate() throws {
        if let depthStride, depthStride < 1 { throw ValidationError("--depth-stride must be at least 1") }
    }

    /// The first of these options given on the command line, as it is spelled there.
    var firstGiven: String? {
        let given: [(String, Bool)] = [
            ("--points", points != nil), ("--depth-stride", depthStride != nil),
            ("--voxel-size", grid.voxelSize != nil), ("--accumulate", grid.accumulate != nil),
        ]
        return selection.firstGiven ?? poses.firstGiven ?? sampling.firstGiven ?? depth.firstGiven ?? given.first { $0.1 }?.0
    }

    /// The replay of the capture at `path` (read as `format`, or as the format its files show)
    /// these options describe, applying `grade` to every sample, limited to `shard` of the frames
    /// they select (which may hold none).
    /// - Throws: the capture's errors, and a `CommandError` when the options select no frame.
    func replay(of path: String, format: CaptureFormat? = nil, grade: ColorCube? = nil, shard: Shard? = nil) throws -> CaptureReplay {
        let source = try CaptureFormat.open(path, format: format)
        var options = options(grade: grade, shard: shard)
        options.pass.poses = try poses.load(for: source)
        let replay = try CaptureReplay(source: source, options: options)
        try FrameSelectionOptions.requireFrames(replay.selectedFrames.count, of: path, frameCount: source.frameCount)
        return replay
    }

    /// The library's replay options these options describe, applying `grade` to every sample,
    /// limited to `shard` of the frames they select.
    func options(grade: ColorCube? = nil, shard: Shard? = nil) -> CaptureReplay.Options {
        var options = CaptureReplay.Options()
        selection.apply(to: &options.pass)
        sampling.apply(to: &options.pass)
        options.grade = grade
        options.points = points ?? .auto
        depth.apply(to: &options.depth)
        if let depthStride { options.depth.stride = depthStride }
        options.shard = shard
        return options
    }
}
