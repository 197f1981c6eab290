import CGLFW
import PointPaint

/// A cloud drawn offscreen frame after frame through one hidden context and framebuffer of
/// `options.width × options.height`: frames to save, compare or time without a window.
/// `Viewer.screenshot` is one frame of it.
///
/// ```swift
/// let renderer = try OffscreenRenderer(cloud: cloud, options: options)   // on the main actor
/// defer { renderer.close() }
/// try renderer.render()
/// let png = renderer.image()
/// ```
/// Needs an X11 or Wayland display, as `Viewer` does. One renderer (or viewer window) at a time:
/// each owns the process's GLFW context until `close()`.
@MainActor
public final class OffscreenRenderer {
    private let session: ViewerSession
    private var framebuffer: GLFramebuffer?

    /// Opens the hidden context and uploads `cloud` (points with a non-finite coordinate are left
    /// out). Options that belong to a window (vsync, auto-orbit, title) have no effect.
    public init(cloud: VoxelCloud, options: ViewerOptions = ViewerOptions()) throws {
        var options = options
        options.vsync = false
        session = try ViewerSession(content: .cloud(cloud), options: options, visible: false)
        do {
            framebuffer = try GLFramebuffer(width: options.width, height: options.height)
        } catch {
            session.close()
            throw error
        }
    }

    /// Draws one frame and waits until the GPU has finished it.
    /// - Parameter levelOfDetail: whether `options.pointBudget` thins large point clouds as the
    ///   window does; otherwise every voxel is drawn.
    /// - Returns: the geometry drawn (points when the cloud is over the box budget).
    @discardableResult
    public func render(levelOfDetail: Bool = false) throws -> StrategyGeometry {
        framebuffer?.bind()
        try session.draw(width: session.options.width, height: session.options.height, levelOfDetail: levelOfDetail)
        glFinish()
        return session.lastGeometry
    }

    /// The last frame as an RGB image, rows top to bottom.
    public func image() -> PNGImage {
        let pixels = framebuffer?.readRGB() ?? []
        return PNGImage(width: session.options.width, height: session.options.height, channels: 3, samples: pixels)
    }

    /// The OpenGL renderer's name (for example "llvmpipe (LLVM 15.0.6, 256 bits)").
    public var rendererName: String { session.context.rendererName }

    /// Releases the GL objects and the hidden window; call it once, when done.
    public func close() {
        framebuffer = nil
        session.close()
    }
}
