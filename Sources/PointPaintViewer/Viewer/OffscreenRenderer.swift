import CGLFW
import PointPaint

/// A cloud drawn offscreen frame after frame through one hidden context and framebuffer of
/// `options.width × options.height`: frames to save, compare or time without a window.
/// `Viewer.screenshot` is one frame of it.
///
/// ```swift
/// let renderer = try OffscreenRenderer(cloud: cloud, options: options)   // on the main actor
/// defer { renderer.close() }
/// try renderer.render(detail: .full)
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
    /// - Parameter detail: `.full` draws within `options.pointBudget` (as a still window and a
    ///   screenshot do), `.interactive` within `options.interactivePointBudget` (as a window while
    ///   the camera moves). The octree nodes a frame needs are uploaded before it is drawn.
    /// - Returns: what was drawn: the geometry (points when the cloud is over the box budget),
    ///   the voxels and nodes.
    @discardableResult
    public func render(detail: FrameDetail = .full) throws -> FrameStatistics {
        framebuffer?.bind()
        try session.draw(width: session.options.width, height: session.options.height, detail: detail)
        glFinish()
        return session.lastFrame
    }

    /// Turns the camera about its target by `yawDegrees` about the vertical and `pitchDegrees`
    /// up or down (as dragging in the window does).
    public func orbit(yawDegrees: Float, pitchDegrees: Float) {
        session.moveCamera { $0.orbit(yawDegrees: yawDegrees, pitchDegrees: pitchDegrees) }
    }

    /// The camera.
    public var camera: OrbitCamera { session.camera }

    /// Draws with `kind` from the next frame on (a heat map strategy uploads the nodes again with
    /// its colours, as switching in the window does).
    public func selectStrategy(_ kind: StrategyKind) {
        session.selectStrategy(kind)
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
