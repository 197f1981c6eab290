/// The primitives a strategy draws.
public enum StrategyGeometry: String, Sendable, CaseIterable {
    /// Instanced cubes, one per voxel.
    case boxes
    /// One point per voxel.
    case points
}

/// The shader files of one program: the vertex stage and the fragment stage's parts in order.
public struct ShaderFiles: Sendable, Equatable, Hashable {
    /// Vertex stage files.
    public var vertex: [String]
    /// Fragment stage files (a style such as `grading.glsl`, then the stage's main file).
    public var fragment: [String]

    /// Creates a pair.
    public init(vertex: [String], fragment: [String]) {
        self.vertex = vertex
        self.fragment = fragment
    }
}

/// What a strategy may read when it sets its uniforms for a frame.
public struct RenderSettings: Sendable, Equatable {
    /// Edge length of a box in world units (voxel size × the user's scale).
    public var boxSize: Float = 0.05
    /// Point diameter in pixels for the points strategy.
    public var pointSize: Float = 4
    /// Pixels per world unit at distance 1 (viewport height / (2 tan(fovY/2))).
    public var pixelScale: Float = 870
    /// World-space direction towards the light (unit length).
    public var lightDirection: SIMD3<Float> = SIMD3(0, 1, 0)

    /// Default settings.
    public init() {}
}

/// How the viewer draws voxels. Requirements have defaults in the extension below, and
/// `BaseRenderStrategy` implements every one of them itself, so a subclass's override is what a
/// call through `any RenderStrategy` reaches (a requirement witnessed only by the extension
/// would dispatch statically to the default and silently ignore subclass overrides).
@MainActor
public protocol RenderStrategy: AnyObject {
    /// Short name, as `--strategy` takes it.
    var name: String { get }
    /// One line for help and the title bar.
    var summary: String { get }
    /// The geometry drawn while the cloud is within budget.
    var preferredGeometry: StrategyGeometry { get }
    /// The geometry to draw `voxelCount` voxels with when at most `boxBudget` boxes keep a frame
    /// interactive: boxes past the budget fall back to points.
    func geometry(forVoxelCount voxelCount: Int, boxBudget: Int) -> StrategyGeometry
    /// The shader files for drawing `geometry`.
    func shaders(for geometry: StrategyGeometry) -> ShaderFiles
    /// Sets the strategy's own uniforms for a frame (the renderer sets the camera, sizes and
    /// colour cube).
    func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry)
}

extension RenderStrategy {
    /// Defaults to `name`.
    public var summary: String { name }
    /// Defaults to boxes.
    public var preferredGeometry: StrategyGeometry { .boxes }
    /// Defaults to the preferred geometry, or points past the budget.
    public func geometry(forVoxelCount voxelCount: Int, boxBudget: Int) -> StrategyGeometry {
        voxelCount > boxBudget ? .points : preferredGeometry
    }
    /// Defaults to graded flat boxes, or graded square points.
    public func shaders(for geometry: StrategyGeometry) -> ShaderFiles {
        switch geometry {
        case .boxes: ShaderFiles(vertex: ["boxes.vert"], fragment: ["grading.glsl", "boxes_flat.frag"])
        case .points: ShaderFiles(vertex: ["points.vert"], fragment: ["grading.glsl", "points_square.frag"])
        }
    }
    /// Defaults to setting nothing.
    public func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {}
}

/// The base strategy: implements every requirement itself (unlit boxes, a points fallback past
/// the budget) so subclasses override real methods. Subclass it for new strategies.
@MainActor
open class BaseRenderStrategy: RenderStrategy {
    /// Creates the strategy.
    public init() {}

    /// "base".
    open var name: String { "base" }
    /// A line for help.
    open var summary: String { "unlit boxes (base strategy)" }
    /// Boxes.
    open var preferredGeometry: StrategyGeometry { .boxes }

    /// The preferred geometry within budget, points past it.
    open func geometry(forVoxelCount voxelCount: Int, boxBudget: Int) -> StrategyGeometry {
        voxelCount > boxBudget ? .points : preferredGeometry
    }

    /// Graded flat boxes, or graded square points (no discard, so early depth testing stays on).
    open func shaders(for geometry: StrategyGeometry) -> ShaderFiles {
        switch geometry {
        case .boxes: ShaderFiles(vertex: ["boxes.vert"], fragment: ["grading.glsl", "boxes_flat.frag"])
        case .points: ShaderFiles(vertex: ["points.vert"], fragment: ["grading.glsl", "points_square.frag"])
        }
    }

    /// Point-size uniforms for the points fallback: boxes become points as large as the box
    /// would appear, square (cheaper than round).
    open func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {
        guard geometry == .points else { return }
        uniforms.set("worldPointSize", settings.boxSize)
        uniforms.set("pointSize", settings.pointSize)
    }
}

/// Instanced cubes lit per face by a light fixed to the camera: the default.
public final class ShadedBoxesStrategy: BaseRenderStrategy {
    /// "shaded".
    public override var name: String { "shaded" }
    /// A line for help.
    public override var summary: String { "shaded boxes (per-face light)" }

    /// `boxes_shaded.frag` for boxes.
    public override func shaders(for geometry: StrategyGeometry) -> ShaderFiles {
        switch geometry {
        case .boxes: ShaderFiles(vertex: ["boxes.vert"], fragment: ["grading.glsl", "boxes_shaded.frag"])
        case .points: super.shaders(for: geometry)
        }
    }

    /// The light direction and ambient level.
    public override func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {
        super.configure(uniforms, settings: settings, geometry: geometry)
        uniforms.set("lightDirection", settings.lightDirection)
        uniforms.set("ambient", Float(0.45))
    }
}

/// Unlit boxes: each face shows the voxel colour exactly.
public final class FlatBoxesStrategy: BaseRenderStrategy {
    /// "flat".
    public override var name: String { "flat" }
    /// A line for help.
    public override var summary: String { "flat boxes (unlit, exact colours)" }

    /// `boxes_flat.frag` for boxes.
    public override func shaders(for geometry: StrategyGeometry) -> ShaderFiles {
        switch geometry {
        case .boxes: ShaderFiles(vertex: ["boxes.vert"], fragment: ["grading.glsl", "boxes_flat.frag"])
        case .points: super.shaders(for: geometry)
        }
    }
}

/// Round points of a fixed size in pixels, at any cloud size.
public final class PointsStrategy: BaseRenderStrategy {
    /// "points".
    public override var name: String { "points" }
    /// A line for help.
    public override var summary: String { "round points (size in pixels)" }
    /// Points.
    public override var preferredGeometry: StrategyGeometry { .points }

    /// Always points.
    public override func geometry(forVoxelCount voxelCount: Int, boxBudget: Int) -> StrategyGeometry { .points }

    /// Whether points are round (`points.frag`) or square (`points_square.frag`).
    public var round = true

    /// `points.vert` + `points.frag` (round) or `points_square.frag`.
    public override func shaders(for geometry: StrategyGeometry) -> ShaderFiles {
        ShaderFiles(vertex: ["points.vert"], fragment: ["grading.glsl", round ? "points.frag" : "points_square.frag"])
    }

    /// Pixel size.
    public override func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {
        uniforms.set("worldPointSize", Float(0))
        uniforms.set("pointSize", settings.pointSize)
    }
}

/// Shaded boxes where colours an sRGB display can show turn grey and out-of-gamut colours keep
/// their colour (grading does not apply).
public final class WideGamutStrategy: BaseRenderStrategy {
    /// "gamut".
    public override var name: String { "gamut" }
    /// A line for help.
    public override var summary: String { "wide-gamut highlight (in-sRGB grey)" }
    /// How far outside 0…1 a channel may lie and still count as inside: half an 8-bit level.
    public static let tolerance: Float = 0.5 / 255

    /// `gamut.glsl` styling the shaded boxes (or points).
    public override func shaders(for geometry: StrategyGeometry) -> ShaderFiles {
        switch geometry {
        case .boxes: ShaderFiles(vertex: ["boxes.vert"], fragment: ["gamut.glsl", "boxes_shaded.frag"])
        case .points: ShaderFiles(vertex: ["points.vert"], fragment: ["gamut.glsl", "points_square.frag"])
        }
    }

    /// Light and tolerance.
    public override func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {
        super.configure(uniforms, settings: settings, geometry: geometry)
        uniforms.set("lightDirection", settings.lightDirection)
        uniforms.set("ambient", Float(0.45))
        uniforms.set("gamutTolerance", Self.tolerance)
    }
}

/// The strategies `--strategy` names, in the order the viewer cycles through them.
public enum StrategyKind: String, Sendable, CaseIterable {
    /// `ShadedBoxesStrategy`.
    case shaded
    /// `FlatBoxesStrategy`.
    case flat
    /// `PointsStrategy`.
    case points
    /// `WideGamutStrategy`.
    case gamut

    /// A new instance of the strategy.
    @MainActor
    public func makeStrategy() -> any RenderStrategy {
        switch self {
        case .shaded: ShadedBoxesStrategy()
        case .flat: FlatBoxesStrategy()
        case .points: PointsStrategy()
        case .gamut: WideGamutStrategy()
        }
    }
}
