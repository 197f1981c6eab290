import CGLFW
import Foundation
import PointPaint

/// The viewer's state and drawing, shared by the window and offscreen rendering: a GL context, the
/// renderer, the camera, the strategies, the grade and the measurement. State changes go through
/// the mutators below, which refresh what the GPU holds themselves (the colour cube, the axes and
/// grid, the measurement's marks), so callers never remember a refresh.
@MainActor
final class ViewerSession {
    let context: GLContext
    private(set) var renderer: SceneRenderer?
    private(set) var options: ViewerOptions
    private(set) var camera: OrbitCamera
    private(set) var framing: SceneFraming
    /// One instance of each strategy.
    private let strategies = Dictionary(uniqueKeysWithValues: StrategyKind.allCases.map { ($0, $0.makeStrategy()) })
    /// The strategy drawing now.
    private(set) var strategyKind: StrategyKind
    /// The strategy to return to when the wide-gamut highlight is switched off.
    private var strategyBeforeGamut: StrategyKind?
    /// The colour grade; setting it uploads its colour cube.
    private(set) var grade: Grade {
        didSet { uploadGrade() }
    }
    /// The look loaded from a file (`--look FILE`), kept as an entry of the L cycle.
    let fileLook: ColorCube?
    let live: LiveCloud?
    /// The live replay's progress as last taken (nil when showing a finished cloud).
    private(set) var replay: ReplayProgress?
    /// Set once the person moves the camera, so a live replay stops re-framing the growing cloud.
    private var cameraTouched = false
    /// What the last frame drew.
    private(set) var lastFrame = FrameStatistics()
    /// The geometry of the last frame (points when boxes went over budget).
    var lastGeometry: StrategyGeometry { lastFrame.geometry }
    /// The first voxel of a measurement (index and centre), until the second is picked.
    private(set) var measureStart: (index: Int, position: SIMD3<Float>)?
    /// The measurement between the last two picked voxels.
    private(set) var measurement: Measurement?
    /// Voxels in the live cloud when its bulk was last computed.
    private var bulkCount = 0

    /// A live replay's progress.
    struct ReplayProgress {
        /// Frames replayed so far.
        var framesDone = 0
        /// Frames in all (0 when unknown).
        var frameCount = 0
        /// Whether the replay has ended.
        var finished = false
        /// Whether it ended with an error (`LiveCloud.failure`).
        var failed = false
    }

    init(content: ViewerContent, options: ViewerOptions, visible: Bool) throws {
        self.options = options
        context = try GLContext(width: options.width, height: options.height, title: options.title, visible: visible)
        let renderer = SceneRenderer(library: ShaderLibrary())
        self.renderer = renderer
        strategyKind = options.strategy
        grade = options.grade
        if case .cube(let cube) = options.grade.look { fileLook = cube } else { fileLook = nil }
        let cloud: VoxelCloud
        switch content {
        case .cloud(let c):
            cloud = Self.finitePart(of: c)
            live = nil
        case .live(let l):
            live = l
            cloud = l.takeUpdate()?.cloud ?? VoxelCloud(voxelSize: nil, positions: [], colors: [])
            replay = ReplayProgress()
        }
        framing = SceneFraming(cloud: cloud, boxSize: options.boxSize)
        let aspect = Float(options.width) / Float(max(options.height, 1))
        camera = .fitted(to: framing, aspect: aspect, yawDegrees: options.yaw, pitchDegrees: options.pitch, distance: options.distance)
        camera.mode = options.trackball ? .trackball : .turntable
        renderer.setCloud(cloud, live: live != nil)
        bulkCount = cloud.count
        uploadGrade()
        updateOverlays()
        glfwSwapInterval(options.vsync ? 1 : 0)
    }

    /// Releases GL objects, then the context.
    func close() {
        renderer = nil
        context.close()
    }

    var strategy: any RenderStrategy { strategies[strategyKind]! }
    var cloud: VoxelCloud { renderer?.cloud ?? VoxelCloud(voxelSize: nil, positions: [], colors: []) }
    var boxSize: Float { framing.boxSize * options.boxScale }

    /// Takes the replay's latest state, if any. Returns whether anything changed.
    func pollLive() -> Bool {
        guard let live, let renderer, let update = live.takeUpdate() else { return false }
        renderer.apply(update)
        replay = ReplayProgress(framesDone: update.framesDone, frameCount: update.frameCount, finished: update.finished,
                                failed: update.failure != nil)
        if !update.appended.isEmpty || update.reset {
            let cloud = update.cloud
            // The bulk (a sampled pass and a sort) is redone when the cloud grew by an eighth, or
            // at the end; the bounds every time.
            var bulk: (min: SIMD3<Float>, max: SIMD3<Float>)? = (framing.center - framing.extent / 2, framing.center + framing.extent / 2)
            if update.reset || update.finished || cloud.count >= bulkCount + bulkCount / 8 || bulkCount == 0 {
                bulk = SceneFraming.bulkBounds(cloud.positions)
                bulkCount = cloud.count
            }
            let bounds = VoxelCloud.finiteBounds(cloud.positions)
            if cloud.voxelSize == nil && options.boxSize == nil && framing.boxSizeInferred && !update.reset
                && cloud.count < 2 * update.appended.lowerBound {
                // Inferring the spacing costs a pass over the cloud: redo it only when the cloud doubled.
                framing = SceneFraming(bounds: bounds, bulk: bulk, boxSize: framing.boxSize, inferred: true)
            } else if cloud.voxelSize == nil && options.boxSize == nil {
                framing = SceneFraming(cloud: cloud)
                bulkCount = cloud.count
            } else {
                framing = SceneFraming(bounds: bounds, bulk: bulk, boxSize: options.boxSize ?? cloud.voxelSize ?? framing.boxSize)
            }
            if !cameraTouched {
                camera.fit(framing, aspect: aspect)
            } else {
                camera.sceneCenter = framing.fullCenter
                camera.sceneRadius = max(framing.fullRadius, length(camera.target - framing.fullCenter))
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
    nonisolated static func finitePart(of cloud: VoxelCloud) -> VoxelCloud {
        guard !cloud.positions.allSatisfy({ $0.hasFiniteCoordinates }) else { return cloud }
        let keep = cloud.positions.indices.filter { cloud.positions[$0].hasFiniteCoordinates }
        return VoxelCloud(voxelSize: cloud.voxelSize, origin: cloud.origin, positions: keep.map { cloud.positions[$0] },
                          colors: keep.map { cloud.colors[$0] }, counts: keep.map { cloud.counts[$0] },
                          colourSD: cloud.colourSD.map { spread in keep.map { spread[$0] } })
    }

    // MARK: Strategies and sizes

    /// Draws with `kind` from now on.
    func selectStrategy(_ kind: StrategyKind) {
        strategyKind = kind
        strategyBeforeGamut = nil
    }

    /// The next strategy of `StrategyKind.allCases` (the previous one when `backwards`).
    func cycleStrategy(backwards: Bool) {
        selectStrategy(strategyKind.cycled(backwards: backwards))
    }

    /// Switches to the wide-gamut highlight, or back to the strategy shown before it.
    func toggleGamutHighlight() {
        if strategyKind == .gamut {
            strategyKind = strategyBeforeGamut ?? StrategyKind.allCases[0]
            strategyBeforeGamut = nil
        } else {
            strategyBeforeGamut = strategyKind
            strategyKind = .gamut
        }
    }

    /// Scales what the strategy sizes: the point diameter (1…64 pixels) for points, the box
    /// scale (0.05…20) for boxes.
    func scaleSize(by factor: Float) {
        if strategy.preferredGeometry == .points {
            options.pointSize = min(max(options.pointSize * factor, 1), 64)
        } else {
            options.boxScale = min(max(options.boxScale * factor, 0.05), 20)
        }
    }

    // MARK: Background and overlays

    /// The next background of `Background.allCases`.
    func cycleBackground() {
        options.background = options.background.cycled()
        updateOverlays()
    }

    /// Shows or hides the axes.
    func toggleAxes() {
        options.showAxes.toggle()
        updateOverlays()
    }

    /// Shows or hides the ground grid.
    func toggleGrid() {
        options.showGrid.toggle()
        updateOverlays()
    }

    private func updateOverlays() {
        renderer?.setOverlays(axes: options.showAxes, grid: options.showGrid, framing: framing, background: options.background.rgb)
    }

    // MARK: Grade

    /// The next look of the L cycle (the previous one when `backwards`); strength and adjustments stay.
    func cycleLook(backwards: Bool) {
        grade = Self.nextLook(after: grade, fileLook: fileLook, backwards: backwards)
    }

    /// Moves `control` by `steps` steps of 0.1, within its range.
    func step(_ control: GradeControl, by steps: Int) {
        grade[keyPath: control.keyPath] = control.stepped(grade[keyPath: control.keyPath], by: steps)
    }

    /// Strength 1 and neutral adjustments; the look (built-in or file) stays.
    func resetAdjustments() {
        grade = Self.resetAdjustments(of: grade)
    }

    /// `grade` with the next look of the cycle (the previous one when `backwards`): the built-in
    /// looks in order, then `fileLook` when there is one. Strength and adjustments are kept.
    nonisolated static func nextLook(after grade: Grade, fileLook: ColorCube?, backwards: Bool) -> Grade {
        let cycle = Look.allCases.map(Grade.LookSource.builtin) + (fileLook.map { [.cube($0)] } ?? [])
        let current = cycle.firstIndex(of: grade.look) ?? 0
        var result = grade
        result.look = cycle[(current + (backwards ? cycle.count - 1 : 1)) % cycle.count]
        return result
    }

    /// `grade` with every `GradeControl` neutral (strength 1, adjustments 0); the look stays.
    nonisolated static func resetAdjustments(of grade: Grade) -> Grade {
        var result = grade
        for control in GradeControl.allCases { result[keyPath: control.keyPath] = control.neutral }
        return result
    }

    /// Rebuilds the colour cube from `grade` and uploads it.
    private func uploadGrade() {
        renderer?.setGrade(grade.isIdentity ? nil : grade.cube())
    }

    /// A line describing the grade: look, strength and the non-zero adjustments.
    var gradeDescription: String {
        var parts: [String]
        switch grade.look {
        case .builtin(let look): parts = ["look \(look.rawValue)"]
        case .cube: parts = ["look file"]
        }
        for control in GradeControl.allCases where grade[keyPath: control.keyPath] != control.neutral {
            let value = grade[keyPath: control.keyPath]
            parts.append(control.rawValue + " " + String(format: control == .strength ? "%.1f" : "%+.1f", value))
        }
        return parts.joined(separator: ", ")
    }

    // MARK: Camera

    /// Changes the camera. A move by the person (`touching`) stops a live replay re-framing the
    /// growing cloud; the camera still widens its clip range to take the cloud in.
    func moveCamera(touching: Bool = true, _ change: (inout OrbitCamera) -> Void) {
        if touching { cameraTouched = true }
        change(&camera)
    }

    /// Frames the cloud's bulk, keeping the direction.
    func fitView() {
        camera.fit(framing, aspect: aspect)
    }

    /// Frames every point, outliers included, keeping the direction.
    func fitWholeView() {
        camera.fit(framing.whole, aspect: aspect)
    }

    /// The view the session started with (the options' angles and distance, framing the cloud's
    /// bulk as it is now); the rotation mode stays, and a live replay re-frames again.
    func resetView() {
        let mode = camera.mode
        camera = .fitted(to: framing, aspect: aspect, yawDegrees: options.yaw, pitchDegrees: options.pitch, distance: options.distance)
        camera.mode = mode
        cameraTouched = false
    }

    /// Turns the camera slowly by itself, or stops.
    func toggleAutoOrbit() {
        options.autoOrbit.toggle()
    }

    // MARK: Drawing

    func settings(height: Int) -> RenderSettings {
        var s = RenderSettings()
        s.boxSize = boxSize
        s.pointSize = options.pointSize
        s.pixelScale = Float(height) / (2 * tan(camera.fovY / 2))
        s.lightDirection = normalize(camera.right * -0.35 + camera.up * 0.8 - camera.forward * 0.5)
        return s
    }

    /// Multiplies the point budget by `factor` (the keys halve and double it), within
    /// `ViewerOptions.pointBudgetRange`.
    func scaleBudget(by factor: Double) {
        let range = ViewerOptions.pointBudgetRange
        options.pointBudget = min(max(Int((Double(options.pointBudget) * factor).rounded()), range.lowerBound), range.upperBound)
    }

    /// Switches eye-dome lighting of points on or off.
    func toggleEyeDomeLighting() {
        options.eyeDomeLighting.toggle()
    }

    /// Draws a frame into the bound framebuffer, within the point budget for `detail`.
    /// - Parameter uploadLimit: points uploaded to the GPU at most this frame (nodes past it wait).
    func draw(width: Int, height: Int, detail: FrameDetail = .full, uploadLimit: Int = .max) throws {
        guard let renderer else { return }
        let request = FrameRequest(width: width, height: height, background: options.background.rgb, boxBudget: options.boxBudget,
                                   pointBudget: detail == .full ? options.pointBudget : options.interactivePointBudget,
                                   levelOfDetailBudget: options.levelOfDetailBudget(detail, width: width, height: height),
                                   screenSpaceShading: options.eyeDomeLighting, uploadLimit: uploadLimit)
        lastFrame = try renderer.draw(strategy: strategy, camera: camera, settings: settings(height: height), request: request)
    }

    /// Renders offscreen at `width × height` and returns the image (rows top to bottom), within
    /// the point budget for `detail`.
    func screenshot(width: Int, height: Int, detail: FrameDetail = .full) throws -> PNGImage {
        let framebuffer = try GLFramebuffer(width: width, height: height)
        framebuffer.bind()
        try draw(width: width, height: height, detail: detail)
        glFinish()
        let pixels = framebuffer.readRGB()
        glBindFramebuffer(GLe(GL_FRAMEBUFFER), 0)
        return PNGImage(width: width, height: height, channels: 3, samples: pixels)
    }

    // MARK: Picking and measuring

    /// The voxel under normalised device coordinates `ndc` (the nearest box the ray hits), or nil.
    func pick(ndc: SIMD2<Float>) -> Int? {
        guard let renderer else { return nil }
        let ray = camera.ray(ndc: ndc, aspect: aspect)
        return renderer.octree.pick(positions: renderer.cloud.positions, boxSize: boxSize, origin: ray.origin, direction: ray.direction)
    }

    /// Adds voxel `index` to the measurement: the first voxel starts one (marked), the second
    /// completes it (both marked and joined), a third starts a new one.
    /// - Returns: the completed measurement, when this voxel completed one.
    @discardableResult
    func measure(voxel index: Int) -> Measurement? {
        let position = cloud.positions[index]
        if let start = measureStart {
            measureStart = nil
            measurement = Measurement(from: start.position, to: position)
        } else {
            measurement = nil
            measureStart = (index, position)
        }
        updateMarks()
        return measurement
    }

    /// Whether a measurement (or its first voxel) is shown.
    var isMeasuring: Bool { measureStart != nil || measurement != nil }

    /// Removes the measurement and its marks.
    func clearMeasurement() {
        measureStart = nil
        measurement = nil
        updateMarks()
    }

    private func updateMarks() {
        let points = measurement.map { [$0.from, $0.to] } ?? measureStart.map { [$0.position] } ?? []
        let arm = max(boxSize * 1.5, (measurement?.distance ?? 0) * 0.02)
        renderer?.setMarks(points, arm: arm)
    }
}
