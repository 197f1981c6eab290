import CGLFW
import Foundation
import PointPaint

/// The interactive window: GLFW callbacks (found through the window user pointer), keys, mouse
/// orbit/pan/zoom, picking and measuring, the title line and the redraw loop. While the camera
/// moves, frames draw the interactive point budget; once it has been still for
/// `refineDelay`, one frame refines to the full budget.
@MainActor
final class ViewerWindow {
    let session: ViewerSession
    private(set) var quit = false
    private var needsRedraw = true
    private var dragButton: Int32?
    private var dragStart = SIMD2<Double>.zero
    private var lastCursor = SIMD2<Double>.zero
    private var dragDistance = 0.0
    private var frameRate = FrameRate(startingAt: 0)
    private var lastTitle = 0.0
    private var autoOrbitLast = 0.0
    /// The grade number `[` and `]` change; `J` picks the next.
    private var gradeControl = GradeControl.strength
    /// When the camera last moved (seconds, GLFW time).
    private var lastMove = -Double.infinity
    /// Whether the last frame was drawn with less than the full budget (or left nodes to upload).
    private var needsRefinement = false

    /// Seconds the camera stays still before a frame refines to the full point budget.
    static let refineDelay = 0.25
    /// Points uploaded at most in a frame while the camera moves (more wait for later frames).
    static let interactiveUploadLimit = 500_000

    nonisolated static let help = """
        Viewer keys:
          left drag       orbit       right/middle/shift drag  pan
          scroll          zoom to the cursor
          click           print the voxel under the cursor; a second click measures
                          the distance and height difference to it (Esc clears)
          1 … \(StrategyKind.allCases.count)           \(StrategyKind.allCases.map(\.rawValue).joined(separator: ", "));
                          S cycles (shift: back); views and spread are heat maps
          W               wide-gamut highlight on/off
          + / -           point or box size
          B  A  G         background, axes, grid
          E               eye-dome lighting (outlines) of points on/off
          ,  .            halve / double the point budget
          L               next look (shift: previous)
          J               next grade control, one of
                          \(GradeControl.allCases.map(\.rawValue).joined(separator: ", "))
          [ / ]  \\        step the control down / up; reset strength and
                          adjustments (the look stays)
          F  0  T         fit the cloud's bulk, reset view, turntable/trackball
          shift-F         fit every point, outliers included
          arrows  O       orbit 15 degrees, auto-orbit
          space  N        pause/resume the replay, step one frame
          P  R            screenshot (PNG here), reload Shaders/
          H  Q            this help, quit (Esc quits too when nothing is measured)
        """

    init(session: ViewerSession) {
        self.session = session
    }

    /// Runs until the window closes or Q is pressed.
    func run() throws {
        let window = session.context.window
        glfwSetWindowUserPointer(window, Unmanaged.passUnretained(self).toOpaque())
        defer { glfwSetWindowUserPointer(window, nil) }
        installCallbacks(window)
        // The replay wakes the loop when it publishes, so the loop can sleep in between.
        session.live?.setPublishHandler { glfwPostEmptyEvent() }
        defer {
            session.live?.setPublishHandler(nil)
            session.live?.cancel()
        }
        say(Self.help)
        frameRate = FrameRate(startingAt: glfwGetTime())
        while glfwWindowShouldClose(window) == 0 && !quit {
            if needsRedraw || session.options.autoOrbit {
                glfwPollEvents()
            } else if needsRefinement {
                // Wake when the camera has been still long enough to refine.
                glfwWaitEventsTimeout(max(lastMove + Self.refineDelay - glfwGetTime(), 0.01))
            } else {
                // Nothing to draw: sleep until an event, a publication or the next title update
                // (short while a replay runs, as a fallback: its publications wake the loop at once).
                let replayRunning = session.replay?.finished == false && session.live?.isPaused == false
                glfwWaitEventsTimeout(replayRunning ? 0.1 : 0.5)
            }
            if session.pollLive() { needsRedraw = true }
            let now = glfwGetTime()
            if session.options.autoOrbit {
                let dt = autoOrbitLast > 0 ? now - autoOrbitLast : 0
                session.moveCamera(touching: false) { $0.orbit(yaw: Float(dt) * 0.35, pitch: 0) }
                lastMove = now
                needsRedraw = true
            }
            autoOrbitLast = now
            let moving = now - lastMove < Self.refineDelay
            if needsRefinement && !moving { needsRedraw = true }
            if needsRedraw {
                needsRedraw = false
                var w: Int32 = 0, h: Int32 = 0
                glfwGetFramebufferSize(window, &w, &h)
                glBindFramebuffer(GLe(GL_FRAMEBUFFER), 0)
                let start = glfwGetTime()
                do {
                    try session.draw(width: Int(w), height: Int(h), detail: moving ? .interactive : .full,
                                     uploadLimit: moving ? Self.interactiveUploadLimit : .max)
                } catch {
                    say("error: \(error)")
                    quit = true
                }
                glfwSwapBuffers(window)
                frameRate.frameDrawn(from: start, to: glfwGetTime())
                needsRefinement = moving || session.lastFrame.uploadsPending
            }
            frameRate.tick(at: now)
            if now - lastTitle >= 0.5 {
                lastTitle = now
                glfwSetWindowTitle(window, title)
            }
        }
    }

    /// Voxels, frame, FPS, strategy and look.
    var title: String {
        var parts = ["\(session.options.title) — \(session.cloud.count) voxels"]
        if let replay = session.replay {
            let total = replay.frameCount > 0 ? "/\(replay.frameCount)" : ""
            let state = replay.failed ? " failed" : replay.finished ? " done" : (session.live?.isPaused == true ? " paused" : "")
            parts.append("frame \(replay.framesDone)\(total)\(state)")
        }
        parts.append(String(format: "%.0f FPS (%.0f ms)", frameRate.perSecond, frameRate.lastFrameMilliseconds))
        var strategy = session.strategyKind.rawValue
        if session.lastGeometry == .points && session.strategy.preferredGeometry == .boxes { strategy += " (points past budget)" }
        if session.lastFrame.eyeDomeLighting { strategy += " + EDL" }
        parts.append(strategy)
        if session.lastGeometry == .points && session.cloud.count > session.options.pointBudget {
            parts.append("drew \(Self.count(session.lastFrame.voxelsDrawn)) of budget \(Self.count(session.options.pointBudget))")
        }
        if let measurement = session.measurement { parts.append(measurement.description) }
        parts.append(session.gradeDescription)
        parts.append("[\(gradeControl.rawValue)]")
        return parts.joined(separator: " · ")
    }

    /// `1.5M`, `250k` or `900`.
    static func count(_ n: Int) -> String {
        n >= 1_000_000 ? String(format: "%.1fM", Double(n) / 1e6) : n >= 10_000 ? "\(n / 1000)k" : "\(n)"
    }

    private var aspect: Float { session.aspect }

    private func ndc(_ cursor: SIMD2<Double>) -> SIMD2<Float> {
        var w: Int32 = 0, h: Int32 = 0
        glfwGetWindowSize(session.context.window, &w, &h)
        return SIMD2(Float(2 * cursor.x / Double(max(w, 1)) - 1), Float(1 - 2 * cursor.y / Double(max(h, 1))))
    }

    // MARK: Callbacks

    private func installCallbacks(_ window: OpaquePointer) {
        glfwSetKeyCallback(window) { window, key, _, action, mods in
            ViewerWindow.withOwner(of: window) { $0.key(key, action: action, mods: mods) }
        }
        glfwSetMouseButtonCallback(window) { window, button, action, mods in
            ViewerWindow.withOwner(of: window) { $0.mouseButton(button, action: action, mods: mods) }
        }
        glfwSetCursorPosCallback(window) { window, x, y in
            ViewerWindow.withOwner(of: window) { $0.cursorMoved(SIMD2(x, y)) }
        }
        glfwSetScrollCallback(window) { window, _, dy in
            ViewerWindow.withOwner(of: window) { $0.scrolled(dy) }
        }
        glfwSetFramebufferSizeCallback(window) { window, _, _ in
            ViewerWindow.withOwner(of: window) { $0.needsRedraw = true }
        }
        glfwSetWindowRefreshCallback(window) { window in
            ViewerWindow.withOwner(of: window) { $0.needsRedraw = true }
        }
    }

    /// The one trampoline from GLFW's C callbacks: finds the window's `ViewerWindow` through its
    /// user pointer (set by `run()`) and calls `body` with it on the main actor, where GLFW
    /// delivers events.
    private nonisolated static func withOwner(of window: OpaquePointer?, _ body: @MainActor (ViewerWindow) -> Void) {
        guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
        let owner = Unmanaged<ViewerWindow>.fromOpaque(pointer).takeUnretainedValue()
        MainActor.assumeIsolated { body(owner) }
    }

    func mouseButton(_ button: Int32, action: Int32, mods: Int32) {
        var x = 0.0, y = 0.0
        glfwGetCursorPos(session.context.window, &x, &y)
        if action == GLFW_PRESS {
            dragButton = (button == GLFW_MOUSE_BUTTON_LEFT && mods & GLFW_MOD_SHIFT != 0) ? GLFW_MOUSE_BUTTON_MIDDLE : button
            dragStart = SIMD2(x, y)
            lastCursor = dragStart
            dragDistance = 0
        } else if action == GLFW_RELEASE {
            if button == GLFW_MOUSE_BUTTON_LEFT && dragDistance < 4 { pick(at: SIMD2(x, y)) }
            dragButton = nil
        }
    }

    func cursorMoved(_ position: SIMD2<Double>) {
        guard let button = dragButton else { return }
        let delta = position - lastCursor
        lastCursor = position
        dragDistance += (delta * delta).sum().squareRoot()
        var h: Int32 = 0, w: Int32 = 0
        glfwGetWindowSize(session.context.window, &w, &h)
        let scale = Float(2 / Double(max(h, 1)))
        let aspect = aspect
        lastMove = glfwGetTime()
        session.moveCamera { camera in
            if button == GLFW_MOUSE_BUTTON_LEFT {
                // Half the window height turns the view by 90°.
                camera.orbit(yaw: -Float(delta.x) * scale * .pi / 2, pitch: Float(delta.y) * scale * .pi / 2)
            } else {
                camera.pan(ndcDelta: SIMD2(Float(delta.x) * scale / aspect, -Float(delta.y) * scale), aspect: aspect)
            }
        }
        needsRedraw = true
    }

    func scrolled(_ dy: Double) {
        var x = 0.0, y = 0.0
        glfwGetCursorPos(session.context.window, &x, &y)
        let toward = ndc(SIMD2(x, y)), aspect = aspect
        lastMove = glfwGetTime()
        session.moveCamera { $0.zoom(factor: Float(pow(0.85, dy)), toward: toward, aspect: aspect) }
        needsRedraw = true
    }

    private func pick(at cursor: SIMD2<Double>) {
        guard let i = session.pick(ndc: ndc(cursor)) else {
            say("no voxel under the cursor")
            return
        }
        let cloud = session.cloud
        // World coordinates: a cloud in map coordinates shows its eastings and northings.
        let p = cloud.worldPosition(i), c = cloud.colors[i]
        let rgb8 = ColorMath.bytes(c)
        let hex = String(format: "#%02X%02X%02X", rgb8.x, rgb8.y, rgb8.z)
        let outside = [c.x, c.y, c.z].contains { $0 < 0 || $0 > 1 } ? " (outside sRGB)" : ""
        say(String(format: "voxel %d: position (%.4f, %.4f, %.4f)  colour (%.4f, %.4f, %.4f) ≈ ", i, p.x, p.y, p.z, c.x, c.y, c.z)
              + hex + outside + "  count \(cloud.counts[i])"
              + (cloud.colourSD.map { String(format: "  colour_sd %.4f", $0[i]) } ?? ""))
        if let measurement = session.measure(voxel: i) { say("measured: " + measurement.description) }
        needsRedraw = true
    }

    /// The heat map's legend when the strategy now drawing is one.
    private func sayLegend() {
        guard case .quality(let measure) = session.strategy.colorSource else { return }
        say(QualityHeatMap.legend(measure, for: session.cloud))
    }

    // MARK: Keys

    func key(_ key: Int32, action: Int32, mods: Int32) {
        guard action == GLFW_PRESS || action == GLFW_REPEAT else { return }
        let shift = mods & GLFW_MOD_SHIFT != 0
        needsRedraw = true
        switch key {
        case GLFW_KEY_Q: quit = true
        case GLFW_KEY_ESCAPE:
            if session.isMeasuring {
                session.clearMeasurement()
                say("measurement cleared")
            } else {
                quit = true
            }
        case GLFW_KEY_H: say(Self.help)
        case GLFW_KEY_1 ..< GLFW_KEY_1 + Int32(StrategyKind.allCases.count):
            session.selectStrategy(StrategyKind.allCases[Int(key - GLFW_KEY_1)])
            sayLegend()
        case GLFW_KEY_S:
            session.cycleStrategy(backwards: shift)
            sayLegend()
        case GLFW_KEY_W: session.toggleGamutHighlight()
        case GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD: session.scaleSize(by: 1.25)
        case GLFW_KEY_MINUS, GLFW_KEY_KP_SUBTRACT: session.scaleSize(by: 0.8)
        case GLFW_KEY_B: session.cycleBackground()
        case GLFW_KEY_A: session.toggleAxes()
        case GLFW_KEY_G: session.toggleGrid()
        case GLFW_KEY_E:
            session.toggleEyeDomeLighting()
            say("eye-dome lighting: \(session.options.eyeDomeLighting ? "on" : "off")")
        case GLFW_KEY_COMMA, GLFW_KEY_PERIOD:
            session.scaleBudget(by: key == GLFW_KEY_PERIOD ? 2 : 0.5)
            say("point budget: \(Self.count(session.options.pointBudget)) (\(Self.count(session.options.interactivePointBudget)) while moving)")
        case GLFW_KEY_L:
            session.cycleLook(backwards: shift)
            switch session.grade.look {
            case .builtin(let look): say("look: \(look.rawValue) (\(look.summary))")
            case .cube: say("look: from the file")
            }
        case GLFW_KEY_J:
            gradeControl = gradeControl.cycled()
            say("grade control: \(gradeControl.rawValue)")
        case GLFW_KEY_LEFT_BRACKET, GLFW_KEY_RIGHT_BRACKET:
            session.step(gradeControl, by: key == GLFW_KEY_RIGHT_BRACKET ? 1 : -1)
            say("grade: \(session.gradeDescription)")
        case GLFW_KEY_BACKSLASH:
            session.resetAdjustments()
            say("grading reset: strength 1, adjustments 0 (\(session.gradeDescription))")
        case GLFW_KEY_F:
            if shift { session.fitWholeView() } else { session.fitView() }
        case GLFW_KEY_0, GLFW_KEY_HOME: session.resetView()
        case GLFW_KEY_T:
            session.moveCamera(touching: false) { $0.mode = $0.mode == .turntable ? .trackball : .turntable }
            say("rotation: \(session.camera.mode.rawValue)")
        case GLFW_KEY_LEFT, GLFW_KEY_RIGHT, GLFW_KEY_UP, GLFW_KEY_DOWN:
            // A held arrow key moves the camera frame after frame: interactive frames.
            lastMove = glfwGetTime()
            let (yaw, pitch): (Float, Float) = switch key {
            case GLFW_KEY_LEFT: (-15, 0)
            case GLFW_KEY_RIGHT: (15, 0)
            case GLFW_KEY_UP: (0, 15)
            default: (0, -15)
            }
            session.moveCamera(touching: false) { $0.orbit(yawDegrees: yaw, pitchDegrees: pitch) }
        case GLFW_KEY_O: session.toggleAutoOrbit()
        case GLFW_KEY_SPACE:
            if let live = session.live {
                live.setPaused(!live.isPaused)
                say(live.isPaused ? "replay paused" : "replay resumed")
            }
        case GLFW_KEY_N:
            session.live?.step()
        case GLFW_KEY_P: screenshot()
        case GLFW_KEY_R: reloadShaders()
        default: needsRedraw = false
        }
    }

    private func screenshot() {
        var w: Int32 = 0, h: Int32 = 0
        glfwGetFramebufferSize(session.context.window, &w, &h)
        let stamp = Int(Date().timeIntervalSince1970 * 1000)
        let path = session.options.screenshotDirectory + "/pointpaint-\(stamp).png"
        do {
            try session.screenshot(width: Int(w), height: Int(h)).write(to: path)
            say("screenshot: \(path)")
        } catch {
            say("screenshot failed: \(error)")
        }
    }

    private func reloadShaders() {
        guard let library = session.renderer?.library else { return }
        let previous = library.sources
        do {
            let n = try library.reload(from: session.options.shaderDirectory)
            // Build the current strategy's programs now, so errors show at once.
            for geometry in StrategyGeometry.allCases {
                _ = try session.renderer?.program(for: session.strategy.shaders(for: geometry))
            }
            say("reloaded \(n) shaders from \(session.options.shaderDirectory)/")
        } catch {
            library.replaceSources(previous)
            say("shader reload failed, keeping the previous shaders: \(error)")
        }
    }
}

/// Writes a line to standard output at once (unbuffered, so messages appear while the window runs
/// even when output goes to a pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
