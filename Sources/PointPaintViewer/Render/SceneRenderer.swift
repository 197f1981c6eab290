import Foundation
import CGLFW
import PointPaint

/// Owns the GPU side of a cloud: one buffer holding every voxel's centre and colour (instances
/// for the boxes, vertices for the points), the unit cube, the colour cube texture and the
/// axes/grid lines. Updates are incremental: appended voxels and recoloured ranges only.
@MainActor
final class SceneRenderer {
    /// The shaders programs are built from.
    let library: ShaderLibrary
    private let cubeVertices = GLBuffer()
    private let cubeIndices = GLBuffer()
    /// Centres in the first `capacity` slots, colours in the next: one buffer, two regions, so
    /// appends and recolourings are each one contiguous upload.
    private let voxels = GLBuffer()
    private let boxes = GLVertexArray()
    private let points = GLVertexArray()
    private let lines = GLVertexArray()
    private let lineBuffer = GLBuffer()
    private var lineVertexCount = 0
    private let gradeTexture = GLTexture3D()
    /// Whether a colour cube is applied.
    private(set) var gradeEnabled = false
    /// The cloud as uploaded (CPU copy shared copy-on-write with the source, used for picking).
    private(set) var cloud = VoxelCloud(voxelSize: nil, positions: [], colors: [])
    /// Voxel slots allocated on the GPU.
    private(set) var capacity = 0
    /// Bytes uploaded since creation (for tests and statistics).
    private(set) var bytesUploaded = 0

    private static let slot = MemoryLayout<SIMD3<Float>>.stride

    /// Creates the buffers; needs a current OpenGL 3.3 context.
    init(library: ShaderLibrary) {
        self.library = library
        let (corners, indices) = Self.unitCube()
        boxes.bind()
        cubeVertices.upload(corners)
        boxes.floatAttribute(0, components: 3, stride: 24, offset: 0)
        boxes.floatAttribute(1, components: 3, stride: 24, offset: 12)
        cubeIndices.upload(indices, target: GL_ELEMENT_ARRAY_BUFFER)
        lines.bind()
        lineBuffer.allocate(bytes: 24)
        lines.floatAttribute(0, components: 3, stride: 24, offset: 0)
        lines.floatAttribute(1, components: 3, stride: 24, offset: 12)
        glBindVertexArray(0)
        reserve(1024)
    }

    /// The unit cube: 4 corners a face (x, y, z, normal x, y, z), counter-clockwise from outside.
    static func unitCube() -> ([Float], [UInt16]) {
        let x = SIMD3<Float>(1, 0, 0), y = SIMD3<Float>(0, 1, 0), z = SIMD3<Float>(0, 0, 1)
        // (normal, u, v) with u × v = normal.
        let faces: [(SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)] = [(x, y, z), (-x, z, y), (y, z, x), (-y, x, z), (z, x, y), (-z, y, x)]
        var corners: [Float] = [], indices: [UInt16] = []
        for (f, (n, u, v)) in faces.enumerated() {
            for (a, b) in [(-1, -1), (1, -1), (1, 1), (-1, 1)] as [(Float, Float)] {
                let p = (n + u * a + v * b) / 2
                corners += [p.x, p.y, p.z, n.x, n.y, n.z]
            }
            let base = UInt16(4 * f)
            indices += [base, base + 1, base + 2, base, base + 2, base + 3]
        }
        return (corners, indices)
    }

    /// Makes room for `count` voxels; growing reallocates (doubling) and re-points the
    /// attributes, after which everything must be uploaded again.
    /// - Returns: whether the buffer was reallocated.
    @discardableResult
    private func reserve(_ count: Int) -> Bool {
        guard count > capacity else { return false }
        capacity = max(count, capacity * 2, 1024)
        voxels.allocate(bytes: capacity * 2 * Self.slot)
        let colorOffset = capacity * Self.slot
        boxes.bind()
        voxels.bind()
        boxes.floatAttribute(2, components: 3, stride: Self.slot, offset: 0, divisor: 1)
        boxes.floatAttribute(3, components: 3, stride: Self.slot, offset: colorOffset, divisor: 1)
        points.bind()
        pointStride = 0
        pointAttributes(step: 1)
        glBindVertexArray(0)
        return true
    }

    /// The step of the points level of detail: draw every `step`-th voxel so at most `budget`
    /// are drawn.
    static func pointStep(count: Int, budget: Int) -> Int {
        budget > 0 && count > budget ? (count + budget - 1) / budget : 1
    }

    /// Voxel slots between consecutive points the points array reads (the level of detail).
    private var pointStride = 0

    /// Points the (bound) points array at every `step`-th voxel.
    private func pointAttributes(step: Int) {
        guard step != pointStride else { return }
        pointStride = step
        voxels.bind()
        points.floatAttribute(2, components: 3, stride: step * Self.slot, offset: 0)
        points.floatAttribute(3, components: 3, stride: step * Self.slot, offset: capacity * Self.slot)
    }

    private func upload(positions range: Range<Int>) {
        guard !range.isEmpty else { return }
        cloud.positions.withUnsafeBytes { all in
            let bytes = UnsafeRawBufferPointer(rebasing: all[range.lowerBound * Self.slot ..< range.upperBound * Self.slot])
            voxels.update(offset: range.lowerBound * Self.slot, bytes: bytes)
            bytesUploaded += bytes.count
        }
    }

    private func upload(colors range: Range<Int>) {
        guard !range.isEmpty else { return }
        cloud.colors.withUnsafeBytes { all in
            let bytes = UnsafeRawBufferPointer(rebasing: all[range.lowerBound * Self.slot ..< range.upperBound * Self.slot])
            voxels.update(offset: (capacity + range.lowerBound) * Self.slot, bytes: bytes)
            bytesUploaded += bytes.count
        }
    }

    /// Replaces the cloud, uploading it whole.
    /// - Complexity: O(n) bytes uploaded.
    func setCloud(_ cloud: VoxelCloud) {
        self.cloud = cloud
        reserve(cloud.count)
        upload(positions: 0 ..< cloud.count)
        upload(colors: 0 ..< cloud.count)
    }

    /// Applies a live update: only the appended voxels and the recoloured range are uploaded,
    /// unless the buffer had to grow or the update resets the cloud.
    /// - Complexity: O(appended + recoloured) bytes, amortised.
    func apply(_ update: LiveCloud.Update) {
        guard !update.reset else { return setCloud(update.cloud) }
        cloud = update.cloud
        if reserve(cloud.count) {
            upload(positions: 0 ..< cloud.count)
            upload(colors: 0 ..< cloud.count)
            return
        }
        let appended = update.appended.clamped(to: 0 ..< cloud.count)
        upload(positions: appended)
        upload(colors: appended)
        upload(colors: update.recolored.clamped(to: 0 ..< cloud.count))
    }

    /// Uploads a colour cube (nil: colours as they are).
    func setGrade(_ cube: ColorCube?) {
        guard let cube else { gradeEnabled = false; return }
        gradeTexture.upload(size: cube.size, entries: cube.entries)
        gradeEnabled = true
    }

    /// Rebuilds the axes (at the origin, red x, green y, blue z) and the grid (under the cloud).
    func setOverlays(axes: Bool, grid: Bool, framing: SceneFraming, background: SIMD3<Float>) {
        var data: [Float] = []
        func line(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>) {
            data += [a.x, a.y, a.z, c.x, c.y, c.z, b.x, b.y, b.z, c.x, c.y, c.z]
        }
        if axes {
            let l = framing.radius
            line(.zero, SIMD3(l, 0, 0), SIMD3(0.9, 0.2, 0.2))
            line(.zero, SIMD3(0, l, 0), SIMD3(0.2, 0.85, 0.2))
            line(.zero, SIMD3(0, 0, l), SIMD3(0.25, 0.4, 1))
        }
        if grid {
            let luma = (background * SIMD3(0.3, 0.6, 0.1)).sum()
            let color = SIMD3<Float>(repeating: luma > 0.5 ? luma - 0.25 : luma + 0.2)
            let half = framing.radius
            let step = Self.niceStep(half / 5)
            let cells = Int((half / step).rounded(.up))
            let c = framing.center, y = c.y - framing.extent.y / 2 - framing.boxSize / 2
            let x0 = (c.x / step).rounded() * step, z0 = (c.z / step).rounded() * step
            let span = Float(cells) * step
            for i in -cells ... cells {
                let o = Float(i) * step
                line(SIMD3(x0 + o, y, z0 - span), SIMD3(x0 + o, y, z0 + span), color)
                line(SIMD3(x0 - span, y, z0 + o), SIMD3(x0 + span, y, z0 + o), color)
            }
        }
        lineVertexCount = data.count / 6
        if !data.isEmpty { lineBuffer.upload(data, usage: GL_DYNAMIC_DRAW) }
    }

    /// 1, 2 or 5 times a power of ten, at least `x`.
    static func niceStep(_ x: Float) -> Float {
        guard x > 0, x.isFinite else { return 1 }
        let p = Float.pow10(x.log10Floor)
        for m: Float in [1, 2, 5, 10] where m * p >= x { return m * p }
        return 10 * p
    }

    /// The program drawing `shaders` with the colour cube as it is set now.
    func program(for shaders: StrategyShaders) throws -> ShaderProgram {
        try library.program(for: shaders, graded: gradeEnabled)
    }

    /// Draws one frame into the bound framebuffer.
    /// - Returns: the geometry drawn (points when boxes were over budget).
    @discardableResult
    func draw(strategy: any RenderStrategy, camera: OrbitCamera, settings: RenderSettings, width: Int, height: Int,
              background: SIMD3<Float>, boxBudget: Int, pointBudget: Int = .max) throws -> StrategyGeometry {
        glViewport(0, 0, GLsizei(width), GLsizei(height))
        glClearColor(background.x, background.y, background.z, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT))
        glEnable(GLe(GL_DEPTH_TEST))
        glDepthFunc(GLe(GL_LESS))
        let viewProjection = camera.viewProjection(aspect: Float(width) / Float(max(height, 1)))
        let n = cloud.count
        let geometry = strategy.geometry(forVoxelCount: n, boxBudget: boxBudget)
        let program = try program(for: strategy.shaders(for: geometry))
        program.use()
        program.set("viewProjection", viewProjection)
        program.set("boxSize", settings.boxSize)
        program.set("pixelScale", settings.pixelScale)
        program.set("maxPointSize", Float(64))
        program.set("pointSize", settings.pointSize)
        program.set("worldPointSize", Float(0))
        let step = geometry == .points ? Self.pointStep(count: n, budget: pointBudget) : 1
        program.set("sizeScale", Float(step).squareRoot())
        glActiveTexture(GLe(GL_TEXTURE0))
        glBindTexture(GLe(GL_TEXTURE_3D), gradeTexture.id)
        program.set("gradeCube", Int32(0))
        program.set("gradeCubeSize", Float(max(gradeTexture.size, 2)))
        strategy.configure(program, settings: settings, geometry: geometry)
        if n > 0 {
            switch geometry {
            case .boxes:
                glEnable(GLe(GL_CULL_FACE))
                glCullFace(GLe(GL_BACK))
                boxes.bind()
                glDrawElementsInstanced(GLe(GL_TRIANGLES), 36, GLe(GL_UNSIGNED_SHORT), nil, GLsizei(n))
                glDisable(GLe(GL_CULL_FACE))
            case .points:
                glEnable(GLe(GL_PROGRAM_POINT_SIZE))
                points.bind()
                pointAttributes(step: step)
                glDrawArrays(GLe(GL_POINTS), 0, GLsizei((n + step - 1) / step))
            }
        }
        if lineVertexCount > 0 {
            let lineProgram = try library.program(vertex: ["lines.vert"], fragment: ["lines.frag"])
            lineProgram.use()
            lineProgram.set("viewProjection", viewProjection)
            lines.bind()
            glDrawArrays(GLe(GL_LINES), 0, GLsizei(lineVertexCount))
        }
        glBindVertexArray(0)
        return geometry
    }
}

private extension Float {
    static func pow10(_ e: Int) -> Float { Float(Foundation.pow(10.0, Double(e))) }
    var log10Floor: Int { Int(Foundation.log10(Double(self)).rounded(.down)) }
}
