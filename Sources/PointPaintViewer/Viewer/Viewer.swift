import CGLFW
import Foundation
import PointPaint

/// The viewer's entry points: a window, and an offscreen screenshot.
///
/// ```swift
/// try await MainActor.run { try Viewer.run(content: .cloud(cloud), options: options) }
/// let png = try Viewer.screenshot(cloud: cloud, options: options)   // on the main actor
/// ```
/// Both need an X11 or Wayland display (Xvfb works); without one they throw a
/// `PointPaintError` saying so (`Viewer.displayAvailable` tells beforehand). To render many
/// frames offscreen, use an `OffscreenRenderer`.
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
    /// options.height`, within the point budget (`options.pointBudget`: a larger cloud is drawn
    /// through its level-of-detail octree, as a still window draws it), and returns the picture as
    /// an RGB PNG image.
    @MainActor
    public static func screenshot(cloud: VoxelCloud, options: ViewerOptions = ViewerOptions()) throws -> PNGImage {
        let renderer = try OffscreenRenderer(cloud: cloud, options: options)
        defer { renderer.close() }
        try renderer.render(detail: .full)
        return renderer.image()
    }

    /// Renders `cloud` offscreen (as `screenshot(cloud:options:)`) and writes a PNG to `path`
    /// (atomically).
    /// - Returns: what the frame drew (how many voxels, and whether the budget left some out).
    @MainActor
    @discardableResult
    public static func screenshot(cloud: VoxelCloud, options: ViewerOptions = ViewerOptions(), to path: String) throws -> FrameStatistics {
        let renderer = try OffscreenRenderer(cloud: cloud, options: options)
        defer { renderer.close() }
        let statistics = try renderer.render(detail: .full)
        try renderer.image().write(to: path)
        return statistics
    }
}
