import Foundation
import CGLFW
import PointPaint

/// What one frame is drawn with, beside the strategy, camera and settings.
struct FrameRequest {
    /// Viewport size in pixels.
    var width: Int, height: Int
    /// Clear colour.
    var background: SIMD3<Float>
    /// Boxes drawn at most (past it a box strategy draws points).
    var boxBudget: Int
    /// Points drawn at most; a cloud within it is drawn whole (what is in view).
    var pointBudget: Int
    /// Points drawn at most when the cloud is past `pointBudget` and drawn through its level of
    /// detail (`ViewerOptions.levelOfDetailBudget`: at most `pointBudget`).
    var levelOfDetailBudget: Int
    /// Past the budget, nodes whose grid spacing covers fewer pixels are not drawn.
    var minimumSpacingPixels: Float = ViewerOptions.minimumSpacingPixels
    /// Whether the strategy's screen-space shading (eye-dome lighting for points) applies.
    var screenSpaceShading = true
    /// Points uploaded at most this frame; nodes past it wait for a later frame (a window stays
    /// responsive while a large cloud streams in). Offscreen frames upload everything.
    var uploadLimit = Int.max
}

/// What a frame drew.
public struct FrameStatistics: Sendable, Equatable {
    /// The geometry drawn (points when boxes were over budget).
    public var geometry: StrategyGeometry = .boxes
    /// Voxels drawn.
    public var voxelsDrawn = 0
    /// Octree nodes drawn.
    public var nodesDrawn = 0
    /// Whether the cloud was past the point budget, so its level of detail chose what to draw.
    public var levelOfDetail = false
    /// Whether nodes in view were left out for the point budget.
    public var budgetLimited = false
    /// Whether nodes in view were left out because they were not uploaded yet (the next frame
    /// draws more).
    public var uploadsPending = false
    /// Whether eye-dome lighting was applied.
    public var eyeDomeLighting = false

    /// Nothing drawn yet.
    public init() {}
}

/// Owns the GPU side of a cloud: the level-of-detail octree over it with one buffer per node
/// (points for the points, instances for the boxes), uploaded the first time the node is drawn
/// and updated in place during a live replay; the unit cube, the colour cube texture, the
/// eye-dome lighting pass and the overlay lines.
@MainActor
final class SceneRenderer {
    /// The shaders programs are built from.
    let library: ShaderLibrary
    let cubeVertices = GLBuffer()
    let cubeIndices = GLBuffer()
    let lines = GLVertexArray()
    let lineBuffer = GLBuffer()
    var lineVertexCount = 0
    let markLines = GLVertexArray()
    let markBuffer = GLBuffer()
    var markVertexCount = 0
    private let gradeTexture = GLTexture3D()
    private let lodTree = GLBufferTexture()
    private let eyeDome = EyeDomeLighting()
    /// Whether a colour cube is applied.
    private(set) var gradeEnabled = false
    /// The cloud as uploaded (CPU copy shared copy-on-write with the source, used for picking).
    private(set) var cloud = VoxelCloud(voxelSize: nil, positions: [], colors: [])
    /// The level-of-detail octree over `cloud`.
    private(set) var octree = PointOctree()
    /// GPU copies of the nodes drawn so far, by node index.
    private var nodeBuffers: [NodeBuffer?] = []
    private var scratch: [Float] = []
    /// Bytes uploaded since creation (for tests and statistics).
    private(set) var bytesUploaded = 0
    /// Whether the cloud grows (a live replay): node buffers get room to grow.
    private var live = false
    /// The colours the node buffers hold: the voxels' own or a quality heat map (a strategy
    /// asking for others drops every buffer, and nodes upload again as they are drawn).
    private(set) var colorSource = VoxelColorSource.color

    /// Creates the buffers; needs a current OpenGL 3.3 context.
    init(library: ShaderLibrary) {
        self.library = library
        let (corners, indices) = Self.unitCube()
        cubeVertices.upload(corners)
        cubeIndices.upload(indices, target: GL_ELEMENT_ARRAY_BUFFER)
        for (array, buffer) in [(lines, lineBuffer), (markLines, markBuffer)] {
            array.bind()
            buffer.allocate(bytes: 24)
            array.floatAttribute(0, components: 3, stride: 24, offset: 0)
            array.floatAttribute(1, components: 3, stride: 24, offset: 12)
        }
        glBindVertexArray(0)
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

    /// Replaces the cloud: builds its octree (tracking each point's slot when `live`, so recoloured
    /// voxels can be found) and drops every node's buffer; nodes upload as they are drawn.
    /// - Complexity: O(n) for the octree.
    func setCloud(_ cloud: VoxelCloud, live: Bool = false) {
        self.cloud = cloud
        self.live = live
        octree = PointOctree(positions: cloud.positions)
        if live { octree.trackLocations(count: cloud.count) }
        _ = octree.takeChanges()
        nodeBuffers = []
    }

    /// Applies a live update: the appended voxels join the octree, and the slots they and the
    /// recoloured voxels occupy are uploaded again in the nodes already on the GPU.
    /// - Complexity: O(appended × levels + recoloured), amortised; a rebuild (the cloud outgrew
    ///   its octree's cube, or the update resets it) O(n).
    func apply(_ update: LiveCloud.Update) {
        guard !update.reset else { return setCloud(update.cloud, live: true) }
        cloud = update.cloud
        octree.insert(update.appended.clamped(to: 0 ..< cloud.count), of: cloud.positions)
        octree.markRecolored(update.recolored.clamped(to: 0 ..< cloud.count))
        guard let changes = octree.takeChanges() else {
            nodeBuffers = []
            return
        }
        for (node, slots) in changes where Int(node) < nodeBuffers.count {
            guard let buffer = nodeBuffers[Int(node)] else { continue }
            for run in slots.rangeView {
                bytesUploaded += buffer.upload(octree.nodes[Int(node)].points, slots: run, of: cloud, colors: colorSource,
                                               growing: live, scratch: &scratch)
            }
        }
    }

    /// The buffer of `node`, uploaded now if it was not yet and `allowance` (points) covers it.
    private func buffer(for node: Int, allowance: inout Int) -> NodeBuffer? {
        if nodeBuffers.count < octree.nodes.count { nodeBuffers += Array(repeating: nil, count: octree.nodes.count - nodeBuffers.count) }
        if let buffer = nodeBuffers[node] { return buffer }
        let points = octree.nodes[node].points
        guard points.count <= allowance else { return nil }
        allowance -= points.count
        let buffer = NodeBuffer()
        bytesUploaded += buffer.upload(points, slots: 0 ..< points.count, of: cloud, colors: colorSource, growing: live, scratch: &scratch)
        nodeBuffers[node] = buffer
        return buffer
    }

    /// Nodes with a buffer on the GPU.
    var residentNodeCount: Int { nodeBuffers.count { $0 != nil } }

    /// Uploads a colour cube (nil: colours as they are).
    func setGrade(_ cube: ColorCube?) {
        guard let cube else { gradeEnabled = false; return }
        gradeTexture.upload(size: cube.size, entries: cube.entries)
        gradeEnabled = true
    }

    /// The program drawing `shaders` with the colour cube as it is set now.
    func program(for shaders: StrategyShaders) throws -> ShaderProgram {
        try library.program(for: shaders, graded: gradeEnabled)
    }

    /// The nodes to draw: within the point budget when drawing points (everything in view when
    /// the cloud fits it), everything in view for boxes; then those not uploaded yet while the
    /// upload allowance lasts, the others (and their descendants) left for a later frame.
    private func selection(_ view: OctreeView, geometry: StrategyGeometry, request: FrameRequest,
                           statistics: inout FrameStatistics) -> [(OctreeSelection.Entry, NodeBuffer)] {
        let whole = geometry == .boxes || cloud.count <= request.pointBudget
        statistics.levelOfDetail = !whole
        var selection = octree.select(view, budget: whole ? .max : min(request.levelOfDetailBudget, request.pointBudget),
                                      minimumSpacingPixels: whole ? 0 : request.minimumSpacingPixels)
        statistics.budgetLimited = selection.isBudgetLimited
        var allowance = request.uploadLimit
        var drawable: [(OctreeSelection.Entry, NodeBuffer)] = []
        var dropped = Set<Int>()
        var kept: [OctreeSelection.Entry] = []
        for entry in selection.entries {
            let node = octree.nodes[entry.node]
            // A node whose parent waits waits too (its parent's points must be there to refine).
            if dropped.contains(Int(node.parent)) {
                dropped.insert(entry.node)
                continue
            }
            guard let buffer = buffer(for: entry.node, allowance: &allowance) else {
                dropped.insert(entry.node)
                statistics.uploadsPending = true
                continue
            }
            kept.append(entry)
            drawable.append((entry, buffer))
        }
        if !dropped.isEmpty {
            selection.entries = kept
            octree.arrangeTree(&selection)
            drawable = zip(selection.entries, drawable.map(\.1)).map { ($0, $1) }
        }
        lodTree.upload(selection.tree)
        return drawable
    }

    /// Draws one frame into the bound framebuffer.
    /// - Returns: what was drawn.
    @discardableResult
    func draw(strategy: any RenderStrategy, camera: OrbitCamera, settings: RenderSettings, request: FrameRequest) throws -> FrameStatistics {
        var statistics = FrameStatistics()
        var target: GLint = 0
        glGetIntegerv(GLe(GL_DRAW_FRAMEBUFFER_BINDING), &target)
        let geometry = strategy.geometry(forVoxelCount: cloud.count, boxBudget: request.boxBudget)
        statistics.geometry = geometry
        if strategy.colorSource != colorSource {
            colorSource = strategy.colorSource
            nodeBuffers = []
        }
        let shaded = request.screenSpaceShading && strategy.screenSpaceShading(for: geometry) == .eyeDome
        if shaded { try eyeDome.beginScene(width: request.width, height: request.height) }
        statistics.eyeDomeLighting = shaded
        glViewport(0, 0, GLsizei(request.width), GLsizei(request.height))
        let background = request.background
        glClearColor(background.x, background.y, background.z, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT))
        glEnable(GLe(GL_DEPTH_TEST))
        glDepthFunc(GLe(GL_LESS))
        let viewProjection = camera.viewProjection(aspect: Float(request.width) / Float(max(request.height, 1)))
        let program = try program(for: strategy.shaders(for: geometry))
        program.use()
        program.set("viewProjection", viewProjection)
        program.set("boxSize", settings.boxSize)
        program.set("pixelScale", settings.pixelScale)
        program.set("maxPointSize", Float(64))
        program.set("pointSize", settings.pointSize)
        program.set("worldPointSize", Float(0))
        glActiveTexture(GLe(GL_TEXTURE0))
        glBindTexture(GLe(GL_TEXTURE_3D), gradeTexture.id)
        program.set("gradeCube", Int32(0))
        program.set("gradeCubeSize", Float(max(gradeTexture.size, 2)))
        strategy.configure(program, settings: settings, geometry: geometry)
        let view = OctreeView(eye: camera.eye, viewProjection: viewProjection, pixelScale: settings.pixelScale,
                              margin: settings.boxSize * 0.87)
        let drawable = selection(view, geometry: geometry, request: request, statistics: &statistics)
        switch geometry {
        case .boxes:
            glEnable(GLe(GL_CULL_FACE))
            glCullFace(GLe(GL_BACK))
            for (entry, buffer) in drawable {
                buffer.bindBoxes(cubeVertices: cubeVertices, cubeIndices: cubeIndices)
                glDrawElementsInstanced(GLe(GL_TRIANGLES), 36, GLe(GL_UNSIGNED_SHORT), nil, GLsizei(entry.count))
            }
            glDisable(GLe(GL_CULL_FACE))
        case .points:
            glEnable(GLe(GL_PROGRAM_POINT_SIZE))
            glActiveTexture(GLe(GL_TEXTURE3))
            glBindTexture(GLe(GL_TEXTURE_BUFFER), lodTree.id)
            glActiveTexture(GLe(GL_TEXTURE0))
            program.set("lodTree", Int32(3))
            for (entry, buffer) in drawable {
                let node = octree.nodes[entry.node]
                program.set("lodNode", Int32(entry.treeIndex))
                program.set("lodOrigin", node.origin)
                program.set("lodSize", node.size)
                program.set("lodSpacing", node.spacing)
                program.set("lodFloor", entry.step > 1 ? node.spacing * Float(entry.step).squareRoot() : 0)
                buffer.bindPoints(step: entry.step)
                glDrawArrays(GLe(GL_POINTS), 0, GLsizei(entry.count))
            }
        }
        statistics.nodesDrawn = drawable.count
        statistics.voxelsDrawn = drawable.reduce(0) { $0 + $1.0.count }
        try drawLines(lines, count: lineVertexCount, viewProjection: viewProjection, depthTested: true)
        if shaded {
            let edl = try library.program(vertex: ["edl.vert"], fragment: ["edl.frag"])
            eyeDome.resolve(into: GLuint(target), program: edl, clip: camera.clipRange)
        }
        try drawLines(markLines, count: markVertexCount, viewProjection: viewProjection, depthTested: false)
        glBindVertexArray(0)
        return statistics
    }

    /// Draws `count` vertices of a lines array with the lines program.
    private func drawLines(_ array: GLVertexArray, count: Int, viewProjection: Matrix4x4f, depthTested: Bool) throws {
        guard count > 0 else { return }
        let program = try library.program(vertex: ["lines.vert"], fragment: ["lines.frag"])
        program.use()
        program.set("viewProjection", viewProjection)
        if !depthTested { glDisable(GLe(GL_DEPTH_TEST)) }
        array.bind()
        glDrawArrays(GLe(GL_LINES), 0, GLsizei(count))
        glEnable(GLe(GL_DEPTH_TEST))
    }
}
