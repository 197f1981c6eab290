import CGLFW
import Foundation
import PointPaint

/// A GLFW window with a current OpenGL 3.3 core context (visible, or hidden for offscreen work).
/// `close()` destroys it; GL objects must be released before.
@MainActor
final class GLContext {
    /// The GLFW window.
    let window: OpaquePointer
    private var closed = false

    /// Initialises GLFW and creates the window; throws one clear line when there is no display.
    init(width: Int, height: Int, title: String, visible: Bool) throws {
        guard glfwInit() == GLFW_TRUE else { throw Self.failure("cannot initialise GLFW") }
        glfwDefaultWindowHints()
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
        glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE)
        guard let window = glfwCreateWindow(Int32(width), Int32(height), title, nil, nil) else {
            let error = Self.failure("cannot create an OpenGL 3.3 core window")
            glfwTerminate()
            throw error
        }
        self.window = window
        glfwMakeContextCurrent(window)
    }

    /// Whether a display is configured (X11 or Wayland).
    nonisolated static var displayAvailable: Bool {
        let env = ProcessInfo.processInfo.environment
        return !(env["DISPLAY"] ?? "").isEmpty || !(env["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    private static func failure(_ what: String) -> PointPaintError {
        var description: UnsafePointer<CChar>?
        glfwGetError(&description)
        let detail = description.map { String(cString: $0) } ?? "unknown GLFW error"
        let hint = displayAvailable ? "" : " (no display: DISPLAY is unset; run under xvfb-run -a)"
        return PointPaintError(displayAvailable ? .unsupported : .missing, "\(what): \(detail)\(hint)")
    }

    /// Destroys the window and shuts GLFW down.
    func close() {
        guard !closed else { return }
        closed = true
        glfwDestroyWindow(window)
        glfwTerminate()
    }

    /// The OpenGL renderer string (for example "llvmpipe (LLVM 15.0.6, 256 bits)").
    var rendererName: String {
        glGetString(GLe(GL_RENDERER)).map { String(cString: $0) } ?? "unknown"
    }
}
