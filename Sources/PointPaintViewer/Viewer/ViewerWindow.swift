import CGLFW
import Foundation
import PointPaint

/// The interactive window: GLFW callbacks (found through the window user pointer), keys, mouse
/// orbit/pan/zoom, picking, the title line and the redraw loop.
@MainActor
final class ViewerWindow {
    let session: ViewerSession
    private var quit = false
    private var needsRedraw = true
    private var dragButton: Int32?
    private var dragStart = SIMD2<Double>.zero
    private var lastCursor = SIMD2<Double>.zero
    private var dragDistance = 0.0
    private var shiftHeld = false
    private var framesDrawn = 0
    private var fpsWindowStart = 0.0
    private var fps = 0.0
    private var lastFrameMilliseconds = 0.0
    private var lastTitle = 0.0
    private var autoOrbitLast = 0.0
    private var gradeControl = 0
    private static let gradeControls = ["strength", "brightness", "contrast", "temperature", "saturation"]

    nonisolated static let help = """
        Viewer keys:
          left drag       orbit       right/middle/shift drag  pan
          scroll          zoom to the cursor
          click           print the voxel under the cursor
          1 2 3 4         shaded, flat, points, gamut; S cycles (shift: back)
          W               wide-gamut highlight on/off
          + / -           point or box size
          B  A  G         background, axes, grid
          L               next look (shift: previous)
          J               grade control: strength, brightness, contrast,
                          temperature, saturation
          [ / ]  \\        step the control down / up; reset strength and
                          adjustments (the look stays)
          F  0  T         fit to view, reset view, turntable/trackball
          arrows  O       orbit 15 degrees, auto-orbit
          space  N        pause/resume the replay, step one frame
          P  R            screenshot (PNG here), reload Shaders/
          H  Q/Esc        this help, quit
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
        fpsWindowStart = glfwGetTime()
        while glfwWindowShouldClose(window) == 0 && !quit {
            if needsRedraw || session.options.autoOrbit {
                glfwPollEvents()
            } else {
                // Nothing to draw: sleep until an event, a publication or the next title update.
                glfwWaitEventsTimeout(Self.idleWait(replayRunning: session.live != nil && !session.replayFinished
                                                        && session.live?.isPaused == false))
            }
            if session.pollLive() { needsRedraw = true }
            let now = glfwGetTime()
            if session.options.autoOrbit {
                let dt = autoOrbitLast > 0 ? now - autoOrbitLast : 0
                session.camera.orbit(yaw: Float(dt) * 0.35, pitch: 0)
                needsRedraw = true
            }
            autoOrbitLast = now
            if needsRedraw {
                needsRedraw = false
                var w: Int32 = 0, h: Int32 = 0
                glfwGetFramebufferSize(window, &w, &h)
                glBindFramebuffer(GLe(GL_FRAMEBUFFER), 0)
                let start = glfwGetTime()
                do {
                    try session.draw(width: Int(w), height: Int(h))
                } catch {
                    say("error: \(error)")
                    quit = true
                }
                glfwSwapBuffers(window)
                lastFrameMilliseconds = (glfwGetTime() - start) * 1000
                framesDrawn += 1
            }
            if now - fpsWindowStart >= 1 {
                fps = Double(framesDrawn) / (now - fpsWindowStart)
                framesDrawn = 0
                fpsWindowStart = now
            }
            if now - lastTitle >= 0.5 {
                lastTitle = now
                glfwSetWindowTitle(window, title)
            }
        }
    }

    /// Seconds the loop sleeps waiting for events when nothing needs drawing: short while a
    /// replay runs (a fallback; its publications wake the loop at once), longer when paused,
    /// finished or showing a still cloud.
    nonisolated static func idleWait(replayRunning: Bool) -> Double { replayRunning ? 0.1 : 0.5 }

    /// Voxels, frame, FPS, strategy and look.
    var title: String {
        var parts = ["\(session.options.title) — \(session.cloud.count) voxels"]
        if session.live != nil {
            let total = session.frameCount > 0 ? "/\(session.frameCount)" : ""
            let state = session.replayFinished ? " done" : (session.live?.isPaused == true ? " paused" : "")
            parts.append("frame \(session.framesDone)\(total)\(state)")
        }
        parts.append(String(format: "%.0f FPS (%.0f ms)", fps, lastFrameMilliseconds))
        var strategy = session.strategy.name
        if session.lastGeometry == .points && session.strategy.preferredGeometry == .boxes { strategy += " (points past budget)" }
        parts.append(strategy)
        parts.append(session.gradeDescription)
        parts.append("[\(Self.gradeControls[gradeControl])]")
        return parts.joined(separator: " · ")
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
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            MainActor.assumeIsolated {
                Unmanaged<ViewerWindow>.fromOpaque(pointer).takeUnretainedValue().key(key, action: action, mods: mods)
            }
        }
        glfwSetMouseButtonCallback(window) { window, button, action, mods in
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            MainActor.assumeIsolated {
                Unmanaged<ViewerWindow>.fromOpaque(pointer).takeUnretainedValue().mouseButton(button, action: action, mods: mods)
            }
        }
        glfwSetCursorPosCallback(window) { window, x, y in
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            MainActor.assumeIsolated {
                Unmanaged<ViewerWindow>.fromOpaque(pointer).takeUnretainedValue().cursorMoved(SIMD2(x, y))
            }
        }
        glfwSetScrollCallback(window) { window, _, dy in
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            MainActor.assumeIsolated {
                Unmanaged<ViewerWindow>.fromOpaque(pointer).takeUnretainedValue().scrolled(dy)
            }
        }
        glfwSetFramebufferSizeCallback(window) { window, _, _ in
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            MainActor.assumeIsolated {
                Unmanaged<ViewerWindow>.fromOpaque(pointer).takeUnretainedValue().needsRedraw = true
            }
        }
        glfwSetWindowRefreshCallback(window) { window in
            guard let window, let pointer = glfwGetWindowUserPointer(window) else { return }
            MainActor.assumeIsolated {
                Unmanaged<ViewerWindow>.fromOpaque(pointer).takeUnretainedValue().needsRedraw = true
            }
        }
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
        session.cameraTouched = true
        if button == GLFW_MOUSE_BUTTON_LEFT {
            // Half the window height turns the view by 90°.
            session.camera.orbit(yaw: -Float(delta.x) * scale * .pi / 2, pitch: Float(delta.y) * scale * .pi / 2)
        } else {
            session.camera.pan(ndcDelta: SIMD2(Float(delta.x) * scale / aspect, -Float(delta.y) * scale), aspect: aspect)
        }
        needsRedraw = true
    }

    func scrolled(_ dy: Double) {
        var x = 0.0, y = 0.0
        glfwGetCursorPos(session.context.window, &x, &y)
        session.cameraTouched = true
        session.camera.zoom(factor: Float(pow(0.85, dy)), toward: ndc(SIMD2(x, y)), aspect: aspect)
        needsRedraw = true
    }

    private func pick(at cursor: SIMD2<Double>) {
        let ray = session.camera.ray(ndc: ndc(cursor), aspect: aspect)
        let cloud = session.cloud
        guard let i = Picking.pick(cloud, boxSize: session.boxSize, origin: ray.origin, direction: ray.direction) else {
            say("no voxel under the cursor")
            return
        }
        let p = cloud.positions[i], c = cloud.colors[i]
        let rgb8 = (c * Float(255)).rounded(.toNearestOrAwayFromZero)
        let hex = String(format: "#%02X%02X%02X", Int(min(max(rgb8.x, 0), 255)), Int(min(max(rgb8.y, 0), 255)), Int(min(max(rgb8.z, 0), 255)))
        let outside = [c.x, c.y, c.z].contains { $0 < 0 || $0 > 1 } ? " (outside sRGB)" : ""
        say(String(format: "voxel %d: position (%.4f, %.4f, %.4f)  colour (%.4f, %.4f, %.4f) ≈ ", i, p.x, p.y, p.z, c.x, c.y, c.z)
              + hex + outside + "  count \(cloud.counts[i])")
    }

    // MARK: Keys

    func key(_ key: Int32, action: Int32, mods: Int32) {
        guard action == GLFW_PRESS || action == GLFW_REPEAT else { return }
        let shift = mods & GLFW_MOD_SHIFT != 0
        let options = session.options
        needsRedraw = true
        switch key {
        case GLFW_KEY_Q, GLFW_KEY_ESCAPE: quit = true
        case GLFW_KEY_H: say(Self.help)
        case GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3, GLFW_KEY_4:
            session.strategyIndex = Int(key - GLFW_KEY_1)
            session.strategyBeforeGamut = nil
        case GLFW_KEY_S:
            let n = session.strategies.count
            session.strategyIndex = (session.strategyIndex + (shift ? n - 1 : 1)) % n
            session.strategyBeforeGamut = nil
        case GLFW_KEY_W:
            let gamut = StrategyKind.allCases.firstIndex(of: .gamut)!
            if session.strategyIndex == gamut {
                session.strategyIndex = session.strategyBeforeGamut ?? 0
                session.strategyBeforeGamut = nil
            } else {
                session.strategyBeforeGamut = session.strategyIndex
                session.strategyIndex = gamut
            }
        case GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD, GLFW_KEY_MINUS, GLFW_KEY_KP_SUBTRACT:
            let factor: Float = key == GLFW_KEY_EQUAL || key == GLFW_KEY_KP_ADD ? 1.25 : 0.8
            if session.strategy.preferredGeometry == .points {
                session.options.pointSize = min(max(options.pointSize * factor, 1), 64)
            } else {
                session.options.boxScale = min(max(options.boxScale * factor, 0.05), 20)
            }
        case GLFW_KEY_B:
            let list = ViewerSession.backgrounds
            let i = list.firstIndex(of: options.background) ?? -1
            session.options.background = list[(i + 1) % list.count]
            session.updateOverlays()
        case GLFW_KEY_A:
            session.options.showAxes.toggle()
            session.updateOverlays()
        case GLFW_KEY_G:
            session.options.showGrid.toggle()
            session.updateOverlays()
        case GLFW_KEY_L:
            session.grade = ViewerSession.nextLook(after: session.grade, fileLook: session.fileLook, backwards: shift)
            session.applyGrade()
            say(session.grade.lookCube != nil ? "look: from the file" : "look: \(session.grade.look.rawValue) (\(session.grade.look.summary))")
        case GLFW_KEY_J:
            gradeControl = (gradeControl + 1) % Self.gradeControls.count
            say("grade control: \(Self.gradeControls[gradeControl])")
        case GLFW_KEY_LEFT_BRACKET, GLFW_KEY_RIGHT_BRACKET:
            stepGrade(key == GLFW_KEY_RIGHT_BRACKET ? 0.1 : -0.1)
        case GLFW_KEY_BACKSLASH:
            session.grade = ViewerSession.resetAdjustments(of: session.grade)
            session.applyGrade()
            say("grading reset: strength 1, adjustments 0 (\(session.gradeDescription))")
        case GLFW_KEY_F:
            session.camera.fit(session.framing, aspect: aspect)
        case GLFW_KEY_0, GLFW_KEY_HOME:
            let mode = session.camera.mode
            session.camera = .fitted(to: session.framing, aspect: aspect, yawDegrees: options.yaw, pitchDegrees: options.pitch,
                                     distance: options.distance)
            session.camera.mode = mode
            session.cameraTouched = false
        case GLFW_KEY_T:
            session.camera.mode = session.camera.mode == .turntable ? .trackball : .turntable
            say("rotation: \(session.camera.mode.rawValue)")
        case GLFW_KEY_LEFT: session.camera.orbit(yawDegrees: -15, pitchDegrees: 0)
        case GLFW_KEY_RIGHT: session.camera.orbit(yawDegrees: 15, pitchDegrees: 0)
        case GLFW_KEY_UP: session.camera.orbit(yawDegrees: 0, pitchDegrees: 15)
        case GLFW_KEY_DOWN: session.camera.orbit(yawDegrees: 0, pitchDegrees: -15)
        case GLFW_KEY_O: session.options.autoOrbit.toggle()
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

    private func stepGrade(_ step: Double) {
        func bump(_ v: inout Double, _ range: ClosedRange<Double>) {
            v = min(max(((v + step) * 10).rounded() / 10, range.lowerBound), range.upperBound)
        }
        switch gradeControl {
        case 0: bump(&session.grade.strength, 0 ... 1)
        case 1: bump(&session.grade.adjustments.brightness, -1 ... 1)
        case 2: bump(&session.grade.adjustments.contrast, -1 ... 1)
        case 3: bump(&session.grade.adjustments.temperature, -1 ... 1)
        default: bump(&session.grade.adjustments.saturation, -1 ... 1)
        }
        session.applyGrade()
        say("grade: \(session.gradeDescription)")
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
                let files = session.strategy.shaders(for: geometry)
                _ = try library.program(vertex: files.vertex, fragment: files.fragment)
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
