import ArgumentParser
import PointPaint

/// `--frames` and `--every`: which of a capture's frames `replay`, `view`, `paint` and `register`
/// use. Both are optional, so `view` can tell whether they were given.
struct FrameSelectionOptions: ParsableArguments {
    /// `--every` when it is not given.
    static let defaultEvery = 1

    @Option(help: "Frames to use: A..B (inclusive), A..<B, A.. or ..B (default: all).", transform: FrameRange.init(argument:))
    var frames: FrameRange?
    @Option(help: "Use every Nth frame (default: \(defaultEvery)).")
    var every: Int?

    func validate() throws {
        if let every, every < 1 { throw ValidationError("--every must be at least 1") }
    }

    /// The first of these options given on the command line, as it is spelled there.
    var firstGiven: String? {
        frames != nil ? "--frames" : every != nil ? "--every" : nil
    }

    /// Sets the frame selection of `options`.
    func apply(to options: inout FramePassOptions) {
        options.frames = frames?.range
        options.every = every ?? Self.defaultEvery
    }

    /// Refuses a selection of `selected` frames that holds none, for the capture at `path` of
    /// `frameCount` frames: one line, whichever command reads it.
    /// - Throws: a `CommandError` when `selected` is 0.
    static func requireFrames(_ selected: Int, of path: String, frameCount: Int) throws {
        guard selected == 0 else { return }
        throw CommandError("\(path): --frames: no frames selected: the capture has \(frameCount)")
    }
}

/// `--interpolation` and `--threads`: how `replay`, `view` and `paint` sample the frames, and on
/// how many threads. Both are optional, so `view` can tell whether they were given.
struct SamplingOptions: ParsableArguments {
    /// `--interpolation` when it is not given.
    static let defaultInterpolation = Interpolation.bilinear

    @Option(help: "How the camera image is read between pixels (default: \(defaultInterpolation.rawValue)).")
    var interpolation: Interpolation?
    @Option(help: "Threads that load and sample frames (default: all cores).")
    var threads: Int?

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    /// The first of these options given on the command line, as it is spelled there.
    var firstGiven: String? {
        interpolation != nil ? "--interpolation" : threads != nil ? "--threads" : nil
    }

    /// Sets the interpolation and, when given, the thread count of `options` (otherwise left at
    /// the library's default, all cores).
    func apply(to options: inout FramePassOptions) {
        options.interpolation = interpolation ?? Self.defaultInterpolation
        if let threads { options.threads = threads }
    }
}
