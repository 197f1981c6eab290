import ArgumentParser
import Foundation
import PointPaint
import PointPaintViewer

extension StrategyKind: ExpressibleByArgument {}

/// `pointpaint view`: orbit a PLY cloud in an OpenGL window, or render it to a PNG offscreen.
public struct ViewCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Orbit a coloured cloud (PLY) in an OpenGL window, or render it to a PNG with --screenshot.",
        discussion: Viewer.keyHelp)

    @Argument(help: "PLY file to show (x, y, z and optional colour; a 'comment voxel_size S' sets the box size).")
    var file: String?
    @Option(help: "How voxels are drawn: \(StrategyKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var strategy: StrategyKind = .shaded
    @Option(help: "Render offscreen to this PNG instead of opening a window (needs a display or Xvfb).")
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
    @Option(help: "Box edge in world units (default: the file's voxel size, else inferred from the point spacing).")
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
    @Option(help: ArgumentHelp("Benchmark: draw N generated cubes offscreen and print ms/frame.", visibility: .hidden))
    var benchmark: Int?
    @Option(help: ArgumentHelp("Frames timed by --benchmark.", visibility: .hidden))
    var frames = 20
    @Option(help: ArgumentHelp("Demo of live replay: N generated voxels appearing over 100 frames.", visibility: .hidden))
    var liveDemo: Int?

    public init() {}

    static let backgrounds: [String: SIMD3<Float>] = [
        "dark": SIMD3(0.11, 0.11, 0.13), "black": SIMD3(0, 0, 0), "white": SIMD3(1, 1, 1), "grey": SIMD3(0.5, 0.5, 0.5),
    ]

    public func validate() throws {
        guard file != nil || benchmark != nil || liveDemo != nil else { throw ValidationError("give a PLY file to view") }
        guard Self.backgrounds[background] != nil else { throw ValidationError("--background must be dark, black, white or grey") }
        guard pointSize > 0, boxScale > 0, boxBudget >= 0 else { throw ValidationError("sizes must be positive") }
        if let benchmark, benchmark < 1 { throw ValidationError("--benchmark needs at least 1 voxel") }
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
        if let file { options.title = "PointPaint — \(URL(fileURLWithPath: file).lastPathComponent)" }
        return options
    }

    public func run() throws {
        let options = try viewerOptions()
        if let benchmark {
            let frameCount = frames
            let result = try MainActor.assumeIsolated { try Viewer.benchmark(voxels: benchmark, frames: frameCount, options: options) }
            print("pointpaint view: \(result.voxels) voxels as \(result.geometry.rawValue) at \(options.width)x\(options.height): " + String(format: "%.1f ms/frame (fastest %.1f)", result.millisecondsPerFrame, result.fastestFrame) + " over \(result.frames) frames (\(result.renderer))")
            return
        }
        if let liveDemo {
            try Self.runLiveDemo(voxels: liveDemo, options: options)
            return
        }
        guard let file else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
            throw PointPaintError(file: file, "is a directory: replay a capture with 'pointpaint replay' and view its PLY")
        }
        let cloud = try PLYReader.readCloud(path: file)
        if let screenshot {
            try MainActor.assumeIsolated { try Viewer.screenshot(cloud: cloud, options: options, to: screenshot) }
            print("wrote \(screenshot) (\(options.width)x\(options.height), \(cloud.count) voxels, \(strategy.rawValue))")
        } else {
            try MainActor.assumeIsolated { try Viewer.run(content: .cloud(cloud), options: options) }
        }
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
