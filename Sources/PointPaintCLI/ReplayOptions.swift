import ArgumentParser
import PointPaint

/// The options that shape a replayed cloud, shared by `replay` and `view` (and the coming
/// `paint`): which frames, how they are sampled, on how many threads, and the voxel grid. Each is
/// optional, so `view` can tell which were given for a PLY file, where none applies.
struct ReplayOptions: ParsableArguments {
    @Option(help: "Frames to replay: A..B (inclusive), A..<B, A.. or ..B (default: all).", transform: FrameRange.init(argument:))
    var frames: FrameRange?
    @Option(help: "Replay every Nth frame (default: 1).")
    var every: Int?
    @Option(help: "How the camera image is read between pixels (default: bilinear).")
    var interpolation: Interpolation?
    @Option(help: "Threads that load and sample frames (default: all cores).")
    var threads: Int?
    @OptionGroup var grid: VoxelOptions

    func validate() throws {
        if let every, every < 1 { throw ValidationError("--every must be at least 1") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    /// The first of these options given on the command line, as it is spelled there.
    var firstGiven: String? {
        let given: [(String, Bool)] = [
            ("--frames", frames != nil), ("--every", every != nil), ("--interpolation", interpolation != nil),
            ("--threads", threads != nil), ("--voxel-size", grid.voxelSize != nil), ("--accumulate", grid.accumulate != nil),
        ]
        return given.first { $0.1 }?.0
    }

    /// The replay of the capture at `path` these options describe, applying `grade` to every
    /// sample, limited to `shard` of the frames they select (which may hold none).
    /// - Throws: the capture's errors, and a `CommandError` when the options select no frame.
    func replay(of path: String, grade: ColorCube? = nil, shard: Shard? = nil) throws -> CaptureReplay {
        let reader = try CaptureReader(path: path)
        var options = CaptureReplay.Options()
        options.frames = frames?.range
        options.every = every ?? 1
        options.interpolation = interpolation ?? .bilinear
        if let threads { options.threads = threads }
        options.grade = grade
        let replay = CaptureReplay(reader: reader, options: options)
        guard !replay.frameIndices.isEmpty else {
            throw CommandError("\(path): --frames: no frames to replay: the capture has \(reader.frameCount)")
        }
        guard let shard else { return replay }
        options.shard = shard
        return CaptureReplay(reader: reader, options: options)
    }
}
