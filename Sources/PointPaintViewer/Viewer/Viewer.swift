import CGLFW
import Foundation
import PointPaint

/// The viewer's entry points: a window, an offscreen screenshot, a benchmark.
///
/// ```swift
/// try await MainActor.run { try Viewer.run(content: .cloud(cloud), options: options) }
/// let png = try Viewer.screenshot(cloud: cloud, options: options)   // on the main actor
/// ```
/// All of them need an X11 or Wayland display (Xvfb works); without one they throw a
/// `PointPaintError` saying so (`Viewer.displayAvailable` tells beforehand).
public enum Viewer {
    /// Whether `DISPLAY` or `WAYLAND_DISPLAY` is set (the window or hidden context can open).
    public static var displayAvailable: Bool { GLContext.displayAvailable }

    /// The key help, as printed on start and by `H`.
    public static var keyHelp: String { ViewerWindow.help }

    /// Opens a window showing `content` and returns when it is closed. For `.live`, the replay
    /// runs on another thread and publishes into the `LiveCloud`; the window applies its updates
    /// each frame and cancels it when closed.
    @MainActor
    public static func run(content: ViewerContent, options: ViewerOptions = ViewerOptions()) throws {
        guard displayAvailable else {
            throw PointPaintError(.missing, "no display to open a window on (DISPLAY is unset): use --screenshot FILE.png, or run under xvfb-run")
        }
        let session = try ViewerSession(content: content, options: options, visible: true)
        defer { session.close() }
        say("OpenGL renderer: \(session.context.rendererName)")
        try ViewerWindow(session: session).run()
    }

    /// Renders `cloud` offscreen (hidden window, framebuffer object) at `options.width ×
    /// options.height` and returns the picture as an RGB PNG image.
    @MainActor
    public static func screenshot(cloud: VoxelCloud, options: ViewerOptions = ViewerOptions()) throws -> PNGImage {
        let session = try ViewerSession(content: .cloud(cloud), options: options, visible: false)
        defer { session.close() }
        return try session.screenshot(width: options.width, height: options.height)
    }

    /// Renders `cloud` offscreen and writes a PNG to `path` (atomically).
    @MainActor
    public static func screenshot(cloud: VoxelCloud, options: ViewerOptions = ViewerOptions(), to path: String) throws {
        try screenshot(cloud: cloud, options: options).write(to: path)
    }

    /// A frame-time measurement.
    public struct BenchmarkResult: Sendable {
        /// Voxels drawn.
        public var voxels: Int
        /// Mean milliseconds per frame (draw + glFinish).
        public var millisecondsPerFrame: Double
        /// The fastest frame in milliseconds (the least disturbed by other work on the machine).
        public var fastestFrame: Double
        /// Frames timed.
        public var frames: Int
        /// What was drawn: boxes, or points past the box budget.
        public var geometry: StrategyGeometry
        /// The OpenGL renderer.
        public var renderer: String
    }

    /// The benchmark's scene, identical to `Benchmarks/peers/cubes.c`: `count` voxels on a cubic
    /// lattice of side ⌈∛count⌉ filling the unit cube centred at the origin, each coloured by its
    /// position, with boxes of 0.8 lattice steps.
    public static func benchmarkCloud(count: Int) -> VoxelCloud {
        var side = 1
        while side * side * side < count { side += 1 }
        let step = 1 / Float(side)
        var positions = [SIMD3<Float>](), colors = [SIMD3<Float>]()
        positions.reserveCapacity(count)
        colors.reserveCapacity(count)
        for i in 0 ..< count {
            let g = SIMD3<Float>(Float(i % side), Float(i / side % side), Float(i / (side * side)))
            positions.append((g + 0.5) * step - 0.5)
            colors.append((g + 0.5) * step)
        }
        return VoxelCloud(voxelSize: 0.8 * step, positions: positions, colors: colors)
    }

    /// Draws `benchmarkCloud(count: voxels)` offscreen at `options.width × options.height` from
    /// yaw 30°, pitch 25° (the C peer's view) and times `frames` frames, each ended by
    /// `glFinish`, after 3 untimed warm-up frames.
    @MainActor
    public static func benchmark(voxels: Int, frames: Int = 20, options: ViewerOptions = ViewerOptions()) throws -> BenchmarkResult {
        var options = options
        options.yaw = 30
        options.pitch = 25
        options.vsync = false
        let session = try ViewerSession(content: .cloud(benchmarkCloud(count: voxels)), options: options, visible: false)
        defer { session.close() }
        let framebuffer = try GLFramebuffer(width: options.width, height: options.height)
        framebuffer.bind()
        for _ in 0 ..< 3 {
            try session.draw(width: options.width, height: options.height)
            glFinish()
        }
        var times: [Double] = []
        for _ in 0 ..< max(frames, 1) {
            let start = DispatchTime.now().uptimeNanoseconds
            try session.draw(width: options.width, height: options.height)
            glFinish()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return BenchmarkResult(voxels: voxels, millisecondsPerFrame: times.reduce(0, +) / Double(times.count),
                               fastestFrame: times.min() ?? 0, frames: times.count,
                               geometry: session.lastGeometry, renderer: session.context.rendererName)
    }
}
