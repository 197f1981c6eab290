import CGLFW
import PointPaint
import Testing
@testable import PointPaintViewer

/// Keys and live replay driven directly on a hidden window (needs a display: xvfb-run).
@MainActor
@Suite("Viewer keys and live replay (needs a display: xvfb-run)", .serialized)
struct ViewerWindowTests {
    static let cloud = VoxelCloud(voxelSize: 0.1, positions: [.zero, SIMD3(1, 0, 0)], colors: [SIMD3(1, 0, 0), SIMD3(0, 1, 0)])

    func session(_ content: ViewerContent) throws -> ViewerSession {
        try #require(Viewer.displayAvailable, "no display (DISPLAY is unset): run the viewer tests under xvfb-run -a -s \"-noreset\"")
        var options = ViewerOptions()
        options.width = 64
        options.height = 48
        return try ViewerSession(content: content, options: options, visible: false)
    }

    @Test("Keys switch strategies, the gamut highlight, looks, grade steps, sizes and the camera")
    func keys() throws {
        let session = try session(.cloud(Self.cloud))
        defer { session.close() }
        let window = ViewerWindow(session: session)
        #expect(session.strategyKind == .shaded)
        window.press(GLFW_KEY_S)
        #expect(session.strategyKind == .flat && session.strategy is FlatBoxesStrategy)
        window.press(GLFW_KEY_S, shift: true)
        #expect(session.strategyKind == .shaded)
        window.press(GLFW_KEY_3)
        #expect(session.strategyKind == .points)
        window.press(GLFW_KEY_W)
        #expect(session.strategyKind == .gamut && session.strategy is WideGamutStrategy)
        window.press(GLFW_KEY_W)
        #expect(session.strategyKind == .points)
        window.press(GLFW_KEY_EQUAL)
        #expect(session.options.pointSize == 5)
        window.press(GLFW_KEY_1)
        window.press(GLFW_KEY_MINUS)
        #expect(session.options.boxScale == 0.8)
        #expect(session.renderer?.gradeEnabled == false, "no colour cube while the grade changes nothing")
        window.press(GLFW_KEY_L)
        #expect(session.grade.look == .builtin(.noir))
        #expect(session.renderer?.gradeEnabled == true, "a new look uploads its cube")
        window.press(GLFW_KEY_L, shift: true)
        window.press(GLFW_KEY_L, shift: true)
        #expect(session.grade.look == .builtin(Look.allCases.last!))
        window.press(GLFW_KEY_J)                       // strength → brightness
        window.press(GLFW_KEY_RIGHT_BRACKET)
        window.press(GLFW_KEY_RIGHT_BRACKET)
        #expect(session.grade.adjustments.brightness == 0.2)
        #expect(window.title.contains("brightness +0.2") && window.title.contains("2 voxels"))
        window.press(GLFW_KEY_J)                       // brightness → contrast … → strength
        window.press(GLFW_KEY_J)
        window.press(GLFW_KEY_J)
        window.press(GLFW_KEY_J)
        window.press(GLFW_KEY_LEFT_BRACKET)
        #expect(session.grade.strength == 0.9)
        window.press(GLFW_KEY_BACKSLASH)
        #expect(session.grade == Grade(look: .builtin(Look.allCases.last!)), "reset keeps the look")
        for _ in Look.allCases.indices.dropLast() { window.press(GLFW_KEY_L, shift: true) }
        #expect(session.grade == Grade())
        #expect(session.renderer?.gradeEnabled == false, "back to no grade: the cube is dropped")
        window.press(GLFW_KEY_B)
        #expect(session.options.background == .black)
        window.press(GLFW_KEY_A)
        window.press(GLFW_KEY_G)
        #expect(session.options.showAxes && session.options.showGrid)
        let start = session.camera
        window.press(GLFW_KEY_RIGHT)
        #expect(session.camera != start)
        window.press(GLFW_KEY_0)
        #expect(session.camera == start)
        window.press(GLFW_KEY_T)
        #expect(session.camera.mode == .trackball)
        // Every strategy still draws after all that.
        for kind in StrategyKind.allCases {
            session.selectStrategy(kind)
            let image = try session.screenshot(width: 64, height: 48)
            #expect(image.samples8.count == 64 * 48 * 3)
        }
    }

    @Test("Clicking two voxels measures between them, drawn on top; Escape clears the measurement before it quits")
    func measuring() throws {
        let cloud = VoxelCloud(voxelSize: 0.1, positions: [SIMD3(-1, 0, 0), SIMD3(1, 0.5, 0), SIMD3(0, -0.5, -1)],
                               colors: [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)])
        let session = try session(.cloud(cloud))
        defer { session.close() }
        let window = ViewerWindow(session: session)
        let before = try session.screenshot(width: 64, height: 48)
        func click(_ i: Int) throws -> Measurement? {
            let ndc = try #require(session.camera.project(cloud.positions[i], aspect: session.aspect))
            let picked = try #require(session.pick(ndc: SIMD2(ndc.x, ndc.y)))
            #expect(picked == i)
            return session.measure(voxel: picked)
        }
        #expect(try click(0) == nil, "one voxel: no measurement yet")
        #expect(session.isMeasuring)
        let measurement = try #require(try click(1))
        #expect(abs(measurement.distance - (4.25 as Float).squareRoot()) < 1e-6 && measurement.heightDifference == 0.5)
        #expect(window.title.contains("distance 2.062 m, height +0.500 m"), "\(window.title)")
        // The marks and the line show.
        let marked = try session.screenshot(width: 64, height: 48)
        #expect(marked.differingPixels(before) > 20)
        // A third click starts a new measurement from that voxel.
        #expect(try click(2) == nil && session.measurement == nil && session.isMeasuring)
        window.key(GLFW_KEY_ESCAPE, action: GLFW_PRESS, mods: 0)
        #expect(!session.isMeasuring && !window.quit)
        #expect(try session.screenshot(width: 64, height: 48).samples8 == before.samples8, "the marks are gone")
        window.key(GLFW_KEY_ESCAPE, action: GLFW_PRESS, mods: 0)
        #expect(window.quit)
    }

    @Test("E switches eye-dome lighting, comma and period halve and double the point budget, shift-F frames every point")
    func levelOfDetailKeys() throws {
        let session = try session(.cloud(Self.cloud))
        defer { session.close() }
        let window = ViewerWindow(session: session)
        #expect(session.options.eyeDomeLighting && session.options.pointBudget == 2_000_000)
        window.press(GLFW_KEY_E)
        #expect(!session.options.eyeDomeLighting)
        window.press(GLFW_KEY_COMMA)
        #expect(session.options.pointBudget == 1_000_000 && session.options.interactivePointBudget == 250_000)
        window.press(GLFW_KEY_PERIOD)
        window.press(GLFW_KEY_PERIOD)
        #expect(session.options.pointBudget == 4_000_000)
        for _ in 0 ..< 12 { window.press(GLFW_KEY_COMMA) }
        #expect(session.options.pointBudget == ViewerOptions.pointBudgetRange.lowerBound)
        let fitted = session.camera
        window.press(GLFW_KEY_F, shift: true)
        #expect(session.camera == fitted, "a cloud without outliers: its bulk is all of it")
        session.selectStrategy(.points)
        window.press(GLFW_KEY_E)
        _ = try session.screenshot(width: 64, height: 48)
        #expect(session.lastFrame.eyeDomeLighting && session.lastFrame.geometry == .points)
    }

    @Test("A live cloud grows in the viewer; space pauses and N steps the replay")
    func live() throws {
        let live = LiveCloud(frameCount: 3)
        let session = try session(.live(live))
        defer { session.close() }
        let window = ViewerWindow(session: session)
        #expect(session.cloud.count == 0)
        #expect(!session.pollLive())
        live.publish(cloud: Self.cloud, framesDone: 1)
        #expect(session.pollLive())
        #expect(session.cloud.count == 2)
        #expect(window.title.contains("frame 1/3"))
        // The camera follows the growing cloud until the person moves it.
        #expect(session.camera.target == SIMD3(0.5, 0, 0))
        window.key(GLFW_KEY_SPACE, action: GLFW_PRESS, mods: 0)
        #expect(live.isPaused)
        window.key(GLFW_KEY_N, action: GLFW_PRESS, mods: 0)
        #expect(live.waitIfPaused())           // the step lets one frame through without blocking
        window.key(GLFW_KEY_SPACE, action: GLFW_PRESS, mods: 0)
        #expect(!live.isPaused)
        live.finish()
        #expect(session.pollLive())
        #expect(window.title.contains("done"))
        live.finish(failure: PointPaintError(.missing, file: "frames/000002.nv12", "cannot open"))
        #expect(session.pollLive())
        #expect(window.title.contains("frame 1/3 failed"), "\(window.title)")
        let image = try session.screenshot(width: 64, height: 48)
        let drawn = (0 ..< 48).flatMap { y in (0 ..< 64).map { image.pixel($0, y) } }.filter { $0 != image.pixel(0, 0) }
        #expect(drawn.count > 20)
    }

    @Test("A look loaded from a file stays in the L cycle, and reset keeps it")
    func fileLookInCycle() throws {
        let fileCube = ColorCube(size: 2) { p in SIMD3(p.z, p.y, p.x) }
        var options = ViewerOptions()
        options.width = 64
        options.height = 48
        options.grade = Grade(look: .cube(fileCube), strength: 0.5, adjustments: Adjustments(contrast: 0.3))
        try #require(Viewer.displayAvailable, "no display (DISPLAY is unset): run the viewer tests under xvfb-run -a -s \"-noreset\"")
        let session = try ViewerSession(content: .cloud(Self.cloud), options: options, visible: false)
        defer { session.close() }
        let window = ViewerWindow(session: session)
        window.press(GLFW_KEY_L)
        #expect(session.grade.look == .builtin(.natural))
        #expect(session.grade.strength == 0.5 && session.grade.adjustments.contrast == 0.3)
        for _ in Look.allCases { window.press(GLFW_KEY_L) }
        #expect(session.grade.look == .cube(fileCube), "the file look comes round again")
        window.press(GLFW_KEY_L, shift: true)
        #expect(session.grade.look == .builtin(Look.allCases.last!))
        window.press(GLFW_KEY_L)
        window.press(GLFW_KEY_BACKSLASH)
        #expect(session.grade == Grade(look: .cube(fileCube)))
        #expect(session.gradeDescription == "look file")
    }
}

@Suite("Look cycle")
struct LookCycleTests {
    @Test("Without a file look the cycle is the built-in looks; with one, the file look follows the last")
    func cycle() {
        var grade = Grade(strength: 0.4)
        var looks: [Grade.LookSource] = []
        for _ in 0 ..< Look.allCases.count {
            grade = ViewerSession.nextLook(after: grade, fileLook: nil, backwards: false)
            looks.append(grade.look)
        }
        #expect(looks == (Look.allCases.dropFirst() + [.natural]).map(Grade.LookSource.builtin))
        #expect(grade.strength == 0.4)
        let file = ColorCube.identity(size: 3)
        let last = Grade(look: .builtin(Look.allCases.last!))
        let toFile = ViewerSession.nextLook(after: last, fileLook: file, backwards: false)
        #expect(toFile.look == .cube(file))
        #expect(ViewerSession.nextLook(after: toFile, fileLook: file, backwards: false) == Grade())
        #expect(ViewerSession.nextLook(after: Grade(), fileLook: file, backwards: true).look == .cube(file))
        let reset = ViewerSession.resetAdjustments(of: Grade(look: .cube(file), strength: 0.2, adjustments: Adjustments(saturation: -1)))
        #expect(reset == Grade(look: .cube(file)))
    }
}

extension ViewerWindow {
    /// Presses `key` (with shift when asked), as GLFW reports it.
    func press(_ key: Int32, shift: Bool = false) {
        self.key(key, action: GLFW_PRESS, mods: shift ? GLFW_MOD_SHIFT : 0)
    }
}
