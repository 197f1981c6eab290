import ArgumentParser
import Foundation
import PointPaint
import PointPaintViewer

/// `pointpaint view`: replay a capture live in an OpenGL window, or orbit a PLY cloud; with
/// `--screenshot`, render offscreen to a PNG instead.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Watch a capture being painted (live replay) or orbit a PLY cloud in an OpenGL window; --screenshot renders a PNG instead.",
        discussion: Viewer.keyHelp)

    @Argument(help: "A capture to replay live (default: \(defaultCapturePath)): a PointPaint capture directory or an app's recording (Stray Scanner, Record3D, Polycam, 3D Scanner App, nerfstudio); or a PLY file to show (x, y, z and optional colour; a 'comment voxel_size S' sets the box size).")
    var source: String?
    @Option(help: "Read the capture as this format instead of the one its files show.")
    var sourceFormat: CaptureFormat?
    @Option(help: "Render offscreen to this PNG instead of opening a window (needs a display or Xvfb); a capture is replayed in full first.")
    var screenshot: String?
    @OptionGroup var display: ViewerDisplayOptions
    @OptionGroup(title: "Colour grading (applied in the fragment shader; keys L, J, [ and ] change it live)")
    var grading: GradingOptions
    @OptionGroup(title: "Live replay (when viewing a capture)")
    var live: LiveReplayOptions

    /// Where the picture comes from.
    enum Source: Equatable {
        /// A capture (a directory, a `.r3d` file, a `capture.json` or `transforms.json`), replayed live.
        case capture(String)
        /// A cloud file: PLY, LAS, LAZ or a `.ppstore` store.
        case ply(String)

        /// `source` read as a capture (none: the default capture; a directory; any file but a
        /// `.ply`, `.las`, `.laz` or `.ppstore`, or any path at all with a `sourceFormat`) or a
        /// cloud file.
        static func resolve(_ source: String?, sourceFormat: CaptureFormat?) -> Source {
            guard let source else { return .capture(defaultCapturePath) }
            var isDirectory: ObjCBool = false
            if sourceFormat != nil || (FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) && isDirectory.boolValue) {
                return .capture(source)
            }
            return ["ply", "las", "laz", "ppstore"].contains((source as NSString).pathExtension.lowercased()) ? .ply(source) : .capture(source)
        }
    }

    /// The argument read as a capture or a cloud file (`Source.resolve`).
    var resolvedSource: Source { Source.resolve(source, sourceFormat: sourceFormat) }

    /// Refuses the live-replay options for a cloud file: they shape a replay, and there is none.
    func validate() throws {
        if case .ply(let path) = resolvedSource, let option = live.firstGiven {
            throw ValidationError("\(option) applies to a capture, not to the PLY file \(path)")
        }
    }

    func run() throws {
        switch resolvedSource {
        case .capture(let path):
            try viewCapture(path, options: viewerOptions(path))
        case .ply(let path):
            let cloud = try readCloudFile(path)
            let skipped = cloud.positions.count { !$0.isFinite }
            if skipped > 0 {
                FileHandle.standardError.write(Data("note: \(path): \(skipped) of \(cloud.count) points have a non-finite coordinate and are not drawn\n".utf8))
            }
            if let screenshot {
                try write(cloud, voxels: cloud.count - skipped, to: screenshot, options: viewerOptions(path))
            } else {
                try MainActor.assumeIsolated { try Viewer.run(content: .cloud(cloud), options: viewerOptions(path)) }
            }
        }
    }

    /// The viewer options for showing `path`.
    func viewerOptions(_ path: String) -> ViewerOptions {
        display.viewerOptions(grade: grading.grade, title: "PointPaint — \(URL(fileURLWithPath: path).lastPathComponent)")
    }

    /// Replays the capture at `path`: live in a window (the replay on its own thread, publishing
    /// the store after each frame), or in full and then into the `--screenshot` PNG. The replay
    /// is not graded: the viewer grades in its shader.
    func viewCapture(_ path: String, options: ViewerOptions) throws {
        let capture = try live.replay.replay(of: path, format: sourceFormat)
        let voxelSize = live.replay.grid.size, policy = live.replay.grid.policy
        if let screenshot {
            var store = SceneStore(voxelSize: voxelSize, policy: policy, origin: capture.origin)
            var reporter = ProgressReporter(label: "frames", total: capture.frameIndices.count)
            let statistics = try capture.run(into: &store) { progress in
                reporter.update(done: progress.done, detail: "\(progress.voxels) voxels")
                return true
            }
            let cloud = store.cloud()
            try write(cloud, voxels: cloud.count, to: screenshot, options: options,
                      after: "replayed \(statistics.frames) frames of \(path): \(statistics.painted) samples in \(cloud.count) voxels")
            return
        }
        let cloud = LiveCloud(frameCount: capture.frameIndices.count, startPaused: live.paused)
        let speed = live.speed ?? 1
        Thread.detachNewThread {
            var store = SceneStore(voxelSize: voxelSize, policy: policy, origin: capture.origin)
            do {
                try capture.run(into: &store, publishingTo: cloud, speed: speed)
            } catch {
                cloud.finish(failure: error)
            }
        }
        do {
            try MainActor.assumeIsolated { try Viewer.run(content: .live(cloud), options: options) }
        } catch {
            cloud.cancel()
            throw error
        }
        if let failure = cloud.failure { throw failure }
    }

    /// Renders `cloud` offscreen into the PNG at `path`, then prints `line` if given and what was
    /// written (`voxels`: how many there are to draw; a cloud past the point budget says how many
    /// were drawn).
    func write(_ cloud: VoxelCloud, voxels: Int, to path: String, options: ViewerOptions, after line: String? = nil) throws {
        let drawn = try MainActor.assumeIsolated { try Viewer.screenshot(cloud: cloud, options: options, to: path) }
        if let line { print(line) }
        let budget = drawn.levelOfDetail ? ", \(drawn.voxelsDrawn) drawn by level of detail within the \(options.pointBudget)-point budget" : ""
        print("wrote \(path) (\(options.width)x\(options.height), \(voxels) voxels, \(options.strategy.rawValue)\(budget))")
        if case .quality(let measure) = MainActor.assumeIsolated({ options.strategy.makeStrategy().colorSource }) {
            print(QualityHeatMap.legend(measure, for: cloud))
        }
    }
}

/// `view`'s options for a capture: those that shape the replay (`ReplayOptions`), and its pace in
/// the window.
struct LiveReplayOptions: ParsableArguments {
    @OptionGroup var replay: ReplayOptions
    @Flag(help: "Start the replay paused (space resumes, N steps one frame).")
    var paused = false
    @Option(help: "Replay speed against the capture's clock in the window: 1 real time (the default), 2 twice as fast, 0 as fast as possible.")
    var speed: Double?

    func validate() throws {
        if let speed, !(speed >= 0 && speed.isFinite) { throw ValidationError("--speed must be 0 or more, found \(speed)") }
    }

    /// The first of these options given on the command line, as it is spelled there.
    var firstGiven: String? {
        replay.firstGiven ?? (paused ? "--paused" : speed != nil ? "--speed" : nil)
    }
}
