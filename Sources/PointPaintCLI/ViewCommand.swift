import ArgumentParser
import Foundation
import PointPaint
import PointPaintViewer

extension StrategyKind: ExpressibleByArgument {}

/// `pointpaint view`: replay a capture live in an OpenGL window, or orbit a PLY cloud; with
/// `--screenshot`, render offscreen to a PNG instead.
public struct ViewCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Watch a capture being painted (live replay) or orbit a PLY cloud in an OpenGL window; --screenshot renders a PNG instead.",
        discussion: Viewer.keyHelp)

    @Argument(help: "A capture directory to replay live (default: \(defaultCapturePath)), or a PLY file to show (x, y, z and optional colour; a 'comment voxel_size S' sets the box size).")
    var source: String?
    @Option(help: "How voxels are drawn: \(StrategyKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var strategy: StrategyKind = .shaded
    @Option(help: "Render offscreen to this PNG instead of opening a window (needs a display or Xvfb); a capture is replayed in full first.")
    var screenshot: String?
    @Option(help: "Window or screenshot size, WIDTHxHEIGHT.")
    var size = PixelSize(width: 1280, height: 720)
    @Option(help: "Camera yaw in degrees (0 looks along −z).")
    var yaw: Float?
    @Option(help: "Camera pitch in degrees (positive looks down).")
    var pitch: Float?
    @Option(help: "Camera distance from the cloud's centre (default: fit to view).")
    var distance: Float?
    @Option(help: "Point diameter in pixels (points strategy).")
    var pointSize: Float = 4
    @Option(help: "Box edge as a multiple of the voxel size.")
    var boxScale: Float = 1
    @Option(help: "Box edge in world units (default: the voxel size, else inferred from the point spacing).")
    var boxSize: Float?
    @Option(help: "Boxes drawn at most before falling back to points.")
    var boxBudget = 250_000
    @Option(help: "Background colour: dark, black, white or grey.")
    var background = "dark"
    @Flag(help: "Draw the axes.")
    var axes = false
    @Flag(help: "Draw a ground grid.")
    var grid = false
    @Flag(help: "Turn the camera slowly.")
    var autoOrbit = false
    @Flag(help: "Rotate as a trackball instead of a turntable.")
    var trackball = false
    @OptionGroup(title: "Colour grading (applied in the fragment shader; keys L, J, [ and ] change it live)")
    var grading: GradingOptions
    @OptionGroup(title: "Live replay (when viewing a capture)")
    var replay: ViewReplayOptions
    @Option(help: ArgumentHelp("Benchmark: draw N generated cubes offscreen and print ms/frame (--frames N: frames timed, default 20).", visibility: .hidden))
    var benchmark: Int?
    @Option(help: ArgumentHelp("Demo of live replay: N generated voxels appearing over 100 frames.", visibility: .hidden))
    var liveDemo: Int?

    public init() {}

    static let backgrounds: [String: SIMD3<Float>] = [
        "dark": SIMD3(0.11, 0.11, 0.13), "black": SIMD3(0, 0, 0), "white": SIMD3(1, 1, 1), "grey": SIMD3(0.5, 0.5, 0.5),
    ]

    public func validate() throws {
        guard Self.backgrounds[background] != nil else { throw ValidationError("--background must be dark, black, white or grey") }
        guard pointSize > 0, boxScale > 0, boxBudget >= 0 else { throw ValidationError("sizes must be positive") }
        if let boxSize, !(boxSize > 0 && boxSize.isFinite) { throw ValidationError("--box-size must be a positive number, found \(boxSize)") }
        if let benchmark {
            guard benchmark >= 1 else { throw ValidationError("--benchmark needs at least 1 voxel") }
            if let frames = replay.frames, frames.count == nil { throw ValidationError("--benchmark takes --frames N, a number of frames to time") }
        }
    }

    /// Where the picture comes from.
    enum Source: Equatable {
        /// A capture directory, replayed live.
        case capture(String)
        /// A PLY file.
        case ply(String)
    }

    /// The argument read as a capture (a directory, or none: the default capture) or a PLY file.
    var resolvedSource: Source {
        guard let source else { return .capture(defaultCapturePath) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue {
            return .capture(source)
        }
        return .ply(source)
    }

    /// The viewer options these arguments describe (loads a look file if one is named).
    func viewerOptions() throws -> ViewerOptions {
        var options = ViewerOptions()
        options.strategy = strategy
        options.width = size.width
        options.height = size.height
        options.yaw = yaw
        options.pitch = pitch
        options.distance = distance
        options.pointSize = pointSize
        options.boxScale = boxScale
        options.boxSize = boxSize
        options.boxBudget = boxBudget
        options.background = Self.backgrounds[background] ?? options.background
        options.showAxes = axes
        options.showGrid = grid
        options.autoOrbit = autoOrbit
        options.trackball = trackball
        options.grade = try grading.grade()
        switch resolvedSource {
        case .capture(let path), .ply(let path):
            options.title = "PointPaint — \(URL(fileURLWithPath: path).lastPathComponent)"
        }
        return options
    }

    public func run() throws {
        let options = try viewerOptions()
        if let benchmark {
            let frameCount = replay.frames?.count ?? 20
            let result = try MainActor.assumeIsolated { try Viewer.benchmark(voxels: benchmark, frames: frameCount, options: options) }
            print("pointpaint view: \(result.voxels) voxels as \(result.geometry.rawValue) at \(options.width)x\(options.height): " + String(format: "%.1f ms/frame (fastest %.1f)", result.millisecondsPerFrame, result.fastestFrame) + " over \(result.frames) frames (\(result.renderer))")
            return
        }
        if let liveDemo {
            try Self.runLiveDemo(voxels: liveDemo, options: options)
            return
        }
        switch resolvedSource {
        case .capture(let path):
            try viewCapture(path, options: options)
        case .ply(let path):
            if let unused = replay.givenOptionName {
                throw ValidationError("\(unused) applies to a capture (a directory), not to the PLY file \(path)")
            }
            let cloud = try PLYReader.readCloud(path: path)
            let skipped = cloud.positions.count { !$0.isFinite }
            if skipped > 0 {
                FileHandle.standardError.write(Data("note: \(path): \(skipped) of \(cloud.count) points have a non-finite coordinate and are not drawn\n".utf8))
            }
            if let screenshot {
                try MainActor.assumeIsolated { try Viewer.screenshot(cloud: cloud, options: options, to: screenshot) }
                print("wrote \(screenshot) (\(options.width)x\(options.height), \(cloud.count - skipped) voxels, \(strategy.rawValue))")
            } else {
                try MainActor.assumeIsolated { try Viewer.run(content: .cloud(cloud), options: options) }
            }
        }
    }

    /// Replays the capture at `path`: live in a window (the replay on its own thread, publishing
    /// the store after each frame), or in full and then into the `--screenshot` PNG.
    func viewCapture(_ path: String, options: ViewerOptions) throws {
        let reader = try CaptureReader(path: path)
        let capture = CaptureReplay(reader: reader, options: replay.replayOptions)
        let total = capture.frameIndices.count
        guard total > 0 else {
            throw PointPaintError(.outOfRange, file: path, place: .part("--frames"), "no frames to replay: the capture has \(reader.frameCount)")
        }
        let voxelSize = replay.voxelSize ?? ViewReplayOptions.defaultVoxelSize, policy = replay.accumulate ?? .mean
        if let screenshot {
            var store = SceneStore(voxelSize: voxelSize, policy: policy)
            var reporter = ProgressReporter(label: "frames", total: total)
            let statistics = try capture.run(into: &store) { progress in
                reporter.update(done: progress.done, detail: "\(progress.voxels) voxels")
                return true
            }
            let cloud = store.cloud()
            try MainActor.assumeIsolated { try Viewer.screenshot(cloud: cloud, options: options, to: screenshot) }
            print("replayed \(statistics.frames) frames of \(path): \(statistics.painted) samples in \(cloud.count) voxels")
            print("wrote \(screenshot) (\(options.width)x\(options.height), \(cloud.count) voxels, \(strategy.rawValue))")
            return
        }
        let live = LiveCloud(frameCount: total, startPaused: replay.paused)
        let outcome = ReplayOutcome()
        let speed = replay.speed ?? 1
        Thread.detachNewThread {
            var store = SceneStore(voxelSize: voxelSize, policy: policy)
            do {
                try capture.run(into: &store, publishingTo: live, speed: speed)
            } catch {
                outcome.fail(error)
                FileHandle.standardError.write(Data("replay stopped: \(error)\n".utf8))
            }
        }
        do {
            try MainActor.assumeIsolated { try Viewer.run(content: .live(live), options: options) }
        } catch {
            live.cancel()
            throw error
        }
        if let error = outcome.error { throw error }
    }

    /// Replays a generated cloud into a window the way `replay` does: a thread publishes a
    /// growing `LiveCloud` (100 frames, recolouring the previous frame's voxels), the window
    /// shows it and answers space / N.
    static func runLiveDemo(voxels: Int, options: ViewerOptions) throws {
        let full = Viewer.benchmarkCloud(count: max(voxels, 1))
        let frames = 100
        let live = LiveCloud(frameCount: frames)
        Thread.detachNewThread {
            var previous = 0
            for frame in 1 ... frames {
                guard live.waitIfPaused() else { return }
                let n = full.count * frame / frames
                var cloud = full
                cloud.positions.removeSubrange(n...)
                cloud.counts.removeSubrange(n...)
                cloud.colors = cloud.colors[..<n].map { $0 * (0.6 + 0.4 * Float(frame) / Float(frames)) }
                live.publish(cloud: cloud, framesDone: frame, recolored: 0 ..< previous)
                previous = n
                Thread.sleep(forTimeInterval: 0.05)
            }
            live.finish()
        }
        try MainActor.assumeIsolated { try Viewer.run(content: .live(live), options: options) }
    }
}

/// The options of a live replay in `view`: those of `replay` that shape the cloud. Each is
/// optional, so `view` can refuse them for a PLY file.
struct ViewReplayOptions: ParsableArguments {
    /// The voxel size when `--voxel-size` is not given (the same as `replay`'s).
    static let defaultVoxelSize: Float = 0.01

    @Option(help: "Voxel edge length in world units (metres); default \(defaultVoxelSize).")
    var voxelSize: Float?
    @Option(help: "How samples in one voxel combine: mean (in linear light, the default), latest or first.")
    var accumulate: AccumulationPolicy?
    @Option(help: "Sampling: nearest or bilinear (the default).")
    var interpolation: Interpolation?
    @Option(help: "Frames to replay: A..B (inclusive), A..<B, A.., ..B, or N (the first N).",
            transform: ViewFrames.init(parsing:))
    var frames: ViewFrames?
    @Option(help: "Replay every Nth frame.")
    var every: Int?
    @Option(help: "Threads that load and sample frames (default: all cores).")
    var threads: Int?
    @Flag(help: "Start the replay paused (space resumes, N steps one frame).")
    var paused = false
    @Option(help: "Replay speed against the capture's clock in the window: 1 real time (the default), 2 twice as fast, 0 as fast as possible.")
    var speed: Double?

    func validate() throws {
        if let voxelSize, !(voxelSize > 0 && voxelSize.isFinite) {
            throw ValidationError("--voxel-size must be a positive number, found \(voxelSize)")
        }
        if let every, every < 1 { throw ValidationError("--every must be at least 1") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if let speed, !(speed >= 0 && speed.isFinite) { throw ValidationError("--speed must be 0 or more, found \(speed)") }
    }

    /// The first replay option given, for the error when the source is a PLY file
    /// (`--frames` is left out: `--benchmark` uses it too).
    var givenOptionName: String? {
        if voxelSize != nil { return "--voxel-size" }
        if accumulate != nil { return "--accumulate" }
        if interpolation != nil { return "--interpolation" }
        if every != nil { return "--every" }
        if threads != nil { return "--threads" }
        if paused { return "--paused" }
        if speed != nil { return "--speed" }
        return nil
    }

    /// The `CaptureReplay` options these describe (no grade: the viewer grades in its shader).
    var replayOptions: CaptureReplay.Options {
        var options = CaptureReplay.Options()
        options.frames = frames?.range
        options.every = every ?? 1
        options.interpolation = interpolation ?? .bilinear
        if let threads { options.threads = threads }
        return options
    }
}

/// `view --frames`: a frame range as `replay` takes it, or a count N (the first N frames; for
/// `--benchmark`, the frames timed).
struct ViewFrames {
    /// The frames to replay.
    var range: Range<Int>
    /// The count, when given as a plain number.
    var count: Int?

    /// Parses the command-line text; the error's description explains what was expected.
    init(parsing argument: String) throws {
        if let n = Int(argument) {
            guard n >= 1 else { throw ValidationError("expected a frame count of at least 1, found \(n)") }
            range = 0 ..< n
            count = n
        } else {
            range = try FrameRange(argument: argument).range
        }
    }
}

/// The error a live replay's thread ended with, read by the main thread after the window closes.
private final class ReplayOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var failure: Error?

    func fail(_ error: Error) {
        lock.lock()
        defer { lock.unlock() }
        failure = error
    }

    var error: Error? {
        lock.lock()
        defer { lock.unlock() }
        return failure
    }
}
