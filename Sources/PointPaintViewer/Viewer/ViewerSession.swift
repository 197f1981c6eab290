import CGLFW
import Foundation
import PointPaint

/// The viewer's state and drawing, shared by the window, screenshots and the benchmark: a GL
/// context, the renderer, the camera, the strategies and the grade.
@MainActor
final class ViewerSession {
    let context: GLContext
    private(set) var renderer: SceneRenderer?
    var options: ViewerOptions
    var camera: OrbitCamera
    private(set) var framing: SceneFraming
    let strategies: [any RenderStrategy] = StrategyKind.allCases.map { $0.makeStrategy() }
    var strategyIndex: Int
    /// The strategy to return to when the wide-gamut highlight is switched off.
    var strategyBeforeGamut: Int?
    var grade: Grade
    /// The look loaded from a file (`--look FILE`), kept as an entry of the L cycle.
    let fileLook: ColorCube?
    let live: LiveCloud?
    private(set) var framesDone = 0
    private(set) var frameCount = 0
    private(set) var replayFinished = true
    /// Set once the person moves the camera, so a live replay stops re-framing the growing cloud.
    var cameraTouched = false
    /// The geometry of the last frame (points when boxes went over budget).
    private(set) var lastGeometry: StrategyGeometry = .boxes

    static let backgrounds: [SIMD3<Float>] = [SIMD3(0.11, 0.11, 0.13), SIMD3(0, 0, 0), SIMD3(1, 1, 1), SIMD3(0.5, 0.5, 0.5)]

    init(content: ViewerContent, options: ViewerOptions, visible: Bool) throws {
        self.options = options
        context = try GLContext(width: options.width, height: options.height, title: options.title, visible: visible)
        let renderer = SceneRenderer(library: ShaderLibrary())
        self.renderer = renderer
        strategyIndex = StrategyKind.allCases.firstIndex(of: options.strategy) ?? 0
        grade = options.grade
        fileLook = options.grade.lookCube
        let cloud: VoxelCloud
        switch content {
        case .cloud(let c):
            cloud = Self.finitePart(of: c)
            live = nil
        case .live(let l):
            live = l
            cloud = l.takeUpdate()?.cloud ?? VoxelCloud(voxelSize: nil, positions: [], colors: [])
            replayFinished = false
        }
        framing = SceneFraming(cloud: cloud, boxSize: options.boxSize)
        let aspect = Float(options.width) / Float(max(options.height, 1))
        camera = .fitted(to: framing, aspect: aspect, yawDegrees: options.yaw, pitchDegrees: options.pitch, distance: options.distance)
        camera.mode = options.trackball ? .trackball : .turntable
        renderer.setCloud(cloud)
        applyGrade()
        updateOverlays()
        glfwSwapInterval(options.vsync ? 1 : 0)
    }

    /// Releases GL objects, then the context.
    func close() {
        renderer = nil
        context.close()
    }

    var strategy: any RenderStrategy { strategies[strategyIndex] }
    var cloud: VoxelCloud { renderer?.cloud ?? VoxelCloud(voxelSize: nil, positions: [], colors: []) }
    var boxSize: Float { framing.boxSize * options.boxScale }

    /// Takes the replay's latest state, if any. Returns whether anything changed.
    func pollLive() -> Bool {
        guard let live, let renderer, let update = live.takeUpdate() else { return false }
        renderer.apply(update)
        framesDone = update.framesDone
        frameCount = update.frameCount
        replayFinished = update.finished
        if !update.appended.isEmpty || update.reset {
            if update.cloud.voxelSize == nil && options.boxSize == nil && framing.boxSizeInferred && !update.reset
                && update.cloud.count < 2 * update.appended.lowerBound {
                // Inferring the spacing costs a pass over the cloud: redo it only when the cloud doubled.
                framing = SceneFraming(bounds: VoxelCloud.finiteBounds(update.cloud.positions), boxSize: framing.boxSize, inferred: true)
            } else {
                framing = SceneFraming(cloud: update.cloud, boxSize: options.boxSize)
            }
            if !cameraTouched {
                camera.fit(framing, aspect: aspect)
            } else {
                camera.sceneCenter = framing.center
                camera.sceneRadius = max(framing.radius, length(camera.target - framing.center))
            }
            updateOverlays()
        }
        return true
    }

    /// Width over height of what is drawn now: the window's framebuffer (it may have been
    /// resized since it opened), or the requested size while it has none.
    var aspect: Float {
        var w: Int32 = 0, h: Int32 = 0
        glfwGetFramebufferSize(context.window, &w, &h)
        guard w > 0, h > 0 else { return Float(options.width) / Float(max(options.height, 1)) }
        return Float(w) / Float(h)
    }

    /// `cloud` without the points that have a non-finite coordinate (they cannot be framed or
    /// drawn); the cloud itself, not a copy, when all are finite.
    /// - Complexity: O(n).
    static func finitePart(of cloud: VoxelCloud) -> VoxelCloud {
        guard !cloud.positions.allSatisfy(\.isFinite) else { return cloud }
        let keep = cloud.positions.indices.filter { cloud.positions[$0].isFinite }
        return VoxelCloud(voxelSize: cloud.voxelSize, positions: keep.map { cloud.positions[$0] },
                          colors: keep.map { cloud.colors[$0] }, counts: keep.map { cloud.counts[$0] })
    }

    /// `grade` with the next look of the cycle (the previous one when `backwards`): the built-in
    /// looks in order, then `fileLook` when there is one. Strength and adjustments are kept.
    nonisolated static func nextLook(after grade: Grade, fileLook: ColorCube?, backwards: Bool) -> Grade {
        let builtins = Look.allCases
        let count = builtins.count + (fileLook == nil ? 0 : 1)
        let current = grade.lookCube != nil && fileLook != nil ? builtins.count : builtins.firstIndex(of: grade.look) ?? 0
        let next = (current + (backwards ? count - 1 : 1)) % count
        var result = grade
        if next == builtins.count {
            result.lookCube = fileLook
            result.look = .natural  // unused beside a file look; kept neutral so equal grades compare equal
        } else {
            result.lookCube = nil
            result.look = builtins[next]
        }
        return result
    }

    /// `grade` with strength 1 and neutral adjustments; the look (built-in or file) stays.
    nonisolated static func resetAdjustments(of grade: Grade) -> Grade {
        var result = grade
        result.strength = 1
        result.adjustments = .neutral
        return result
    }

    /// Rebuilds the colour cube from `grade` and uploads it.
    func applyGrade() {
        renderer?.setGrade(grade.isIdentity ? nil : grade.cube())
    }

    func updateOverlays() {
        renderer?.setOverlays(axes: options.showAxes, grid: options.showGrid, framing: framing, background: options.background)
    }

    func settings(height: Int) -> RenderSettings {
        var s = RenderSettings()
        s.boxSize = boxSize
        s.pointSize = options.pointSize
        s.pixelScale = Float(height) / (2 * tan(camera.fovY / 2))
        s.lightDirection = normalize(camera.right * -0.35 + camera.up * 0.8 - camera.forward * 0.5)
        return s
    }

    /// Draws a frame into the bound framebuffer; `levelOfDetail` applies the points budget
    /// (interactive frames), otherwise every voxel is drawn (screenshots).
    func draw(width: Int, height: Int, levelOfDetail: Bool = true) throws {
        guard let renderer else { return }
        lastGeometry = try renderer.draw(strategy: strategy, camera: camera, settings: settings(height: height),
                                         width: width, height: height, background: options.background,
                                         boxBudget: options.boxBudget, pointBudget: levelOfDetail ? options.pointBudget : .max)
    }

    /// Renders offscreen at `width × height` and returns the image (rows top to bottom); every
    /// voxel is drawn unless `levelOfDetail` asks for the interactive points budget.
    func screenshot(width: Int, height: Int, levelOfDetail: Bool = false) throws -> PNGImage {
        let framebuffer = try GLFramebuffer(width: width, height: height)
        framebuffer.bind()
        let previousCamera = camera
        try draw(width: width, height: height, levelOfDetail: levelOfDetail)
        camera = previousCamera
        glFinish()
        let pixels = framebuffer.readRGB()
        glBindFramebuffer(GLe(GL_FRAMEBUFFER), 0)
        return PNGImage(width: width, height: height, channels: 3, samples: pixels)
    }

    /// A line describing the grade: look, strength and the non-zero adjustments.
    var gradeDescription: String {
        var parts = [grade.lookCube != nil ? "look file" : "look \(grade.look.rawValue)"]
        if grade.strength != 1 { parts.append(String(format: "strength %.1f", grade.strength)) }
        let a = grade.adjustments
        for (name, value) in [("brightness", a.brightness), ("contrast", a.contrast), ("temperature", a.temperature), ("saturation", a.saturation)] where value != 0 {
            parts.append(name + " " + String(format: "%+.1f", value))
        }
        return parts.joined(separator: ", ")
    }
}
