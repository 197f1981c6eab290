/// The primitives a strategy draws.
public enum StrategyGeometry: String, Sendable, CaseIterable {
    /// Instanced cubes, one per voxel.
    case boxes
    /// One point per voxel.
    case points
}

/// The part of a fragment program that gives a voxel its colour before lighting (GLSL
/// `styleColor`). The renderer picks the file: `grading.glsl` while a colour cube is set,
/// `ungraded.glsl` (a pass-through, no per-fragment cost) while none is.
public enum ColorStyle: String, Sendable, CaseIterable {
    /// The colour grade (the colour cube), or the colour unchanged while there is none.
    case grading
    /// The wide-gamut highlight (`gamut.glsl`): colours inside sRGB grey, others keep their colour.
    case gamut
    /// The colour as uploaded, never graded (`ungraded.glsl` whether a colour cube is set or
    /// not): for heat maps, whose colours are the message.
    case heatMap
}

/// A screen-space pass over what a strategy drew, applied by the renderer after the voxels and
/// before the overlays.
public enum ScreenSpaceShading: String, Sendable, CaseIterable {
    /// The picture as drawn.
    case none
    /// Eye-dome lighting (`edl.frag`): darkens pixels whose neighbours lie in front of them in
    /// log depth, outlining shapes in unlit points (while the viewer's eye-dome lighting is on).
    case eyeDome
}

/// The shaders of one program: the vertex stage, the colour style and the fragment stage's main
/// file (which calls `styleColor`).
public struct StrategyShaders: Sendable, Equatable, Hashable {
    /// The vertex stage's file.
    public var vertex: String
    /// How a voxel's colour is styled before lighting.
    public var style: ColorStyle
    /// The fragment stage's main file.
    public var fragment: String

    /// Creates a program description.
    public init(vertex: String, style: ColorStyle = .grading, fragment: String) {
        self.vertex = vertex
        self.style = style
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
/// would dispatch statically to the default and silently ignore subclass overrides). Both the
/// extension and the base class forward to `StrategyDefaults`, so each default has one body.
@MainActor
public protocol RenderStrategy: AnyObject {
    /// The geometry drawn while the cloud is within budget.
    var preferredGeometry: StrategyGeometry { get }
    /// The geometry to draw `voxelCount` voxels with when at most `boxBudget` boxes keep a frame
    /// interactive: boxes past the budget fall back to points.
    func geometry(forVoxelCount voxelCount: Int, boxBudget: Int) -> StrategyGeometry
    /// The shaders for drawing `geometry`.
    func shaders(for geometry: StrategyGeometry) -> StrategyShaders
    /// Sets the strategy's own uniforms for a frame. The renderer has set the camera, the box size,
    /// pixel-sized points (`pointSize`, `worldPointSize` 0) and the colour cube before.
    func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry)
    /// The screen-space pass after drawing `geometry`.
    func screenSpaceShading(for geometry: StrategyGeometry) -> ScreenSpaceShading
    /// What colour each voxel is uploaded with: its own, or a heat map of a quality measure.
    var colorSource: VoxelColorSource { get }
}

extension RenderStrategy {
    /// Boxes.
    public var preferredGeometry: StrategyGeometry { StrategyDefaults.preferredGeometry }
    /// The preferred geometry, or points past the budget.
    public func geometry(forVoxelCount voxelCount: Int, boxBudget: Int) -> StrategyGeometry {
        StrategyDefaults.geometry(preferred: preferredGeometry, voxelCount: voxelCount, boxBudget: boxBudget)
    }
    /// Graded flat boxes, or graded square points.
    public func shaders(for geometry: StrategyGeometry) -> StrategyShaders { StrategyDefaults.shaders(for: geometry) }
    /// Points as large as the boxes they stand in for.
    public func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {
        StrategyDefaults.configure(uniforms, settings: settings, geometry: geometry)
    }
    /// Eye-dome lighting for points (unlit), none for boxes (lit or exact by design).
    public func screenSpaceShading(for geometry: StrategyGeometry) -> ScreenSpaceShading {
        StrategyDefaults.screenSpaceShading(for: geometry)
    }
    /// The voxels' own colours.
    public var colorSource: VoxelColorSource { StrategyDefaults.colorSource }
}

/// The one body of each `RenderStrategy` default, called by the protocol extension and by
/// `BaseRenderStrategy` alike.
@MainActor
enum StrategyDefaults {
    static let preferredGeometry = StrategyGeometry.boxes

    static func geometry(preferred: StrategyGeometry, voxelCount: Int, boxBudget: Int) -> StrategyGeometry {
        voxelCount > boxBudget ? .points : preferred
    }

    /// Flat boxes; square points (no discard, so early depth testing stays on).
    static func shaders(for geometry: StrategyGeometry) -> StrategyShaders {
        switch geometry {
        case .boxes: StrategyShaders(vertex: "boxes.vert", fragment: "boxes_flat.frag")
        case .points: StrategyShaders(vertex: "points.vert", fragment: "points_square.frag")
        }
    }

    /// For points standing in for boxes (past the box budget): sized in world units like the box.
    static func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {
        guard geometry == .points else { return }
        uniforms.set("worldPointSize", settings.boxSize)
    }

    /// Eye-dome lighting for points, none for boxes.
    static func screenSpaceShading(for geometry: StrategyGeometry) -> ScreenSpaceShading {
        geometry == .points ? .eyeDome : .none
    }

    static let colorSource = VoxelColorSource.color
}

/// The base strategy: implements every requirement itself (unlit boxes, a points fallback past
/// the budget) so subclasses override real methods. Subclass it for new strategies.
@MainActor
open class BaseRenderStrategy: RenderStrategy {
    /// Creates the strategy.
    public init() {}

    /// Boxes.
    open var preferredGeometry: StrategyGeometry { StrategyDefaults.preferredGeometry }

    /// The preferred geometry within budget, points past it.
    open func geometry(forVoxelCount voxelCount: Int, boxBudget: Int) -> StrategyGeometry {
        StrategyDefaults.geometry(preferred: preferredGeometry, voxelCount: voxelCount, boxBudget: boxBudget)
    }

    /// Graded flat boxes, or graded square points.
    open func shaders(for geometry: StrategyGeometry) -> StrategyShaders { StrategyDefaults.shaders(for: geometry) }

    /// Points as large as the boxes they stand in for.
    open func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {
        StrategyDefaults.configure(uniforms, settings: settings, geometry: geometry)
    }

    /// Eye-dome lighting for points, none for boxes.
    open func screenSpaceShading(for geometry: StrategyGeometry) -> ScreenSpaceShading {
        StrategyDefaults.screenSpaceShading(for: geometry)
    }

    /// The voxels' own colours.
    open var colorSource: VoxelColorSource { StrategyDefaults.colorSource }
}

/// Instanced cubes lit per face by a light fixed to the camera: the default.
public class ShadedBoxesStrategy: BaseRenderStrategy {
    /// `boxes_shaded.frag` for boxes.
    public override func shaders(for geometry: StrategyGeometry) -> StrategyShaders {
        var shaders = super.shaders(for: geometry)
        if geometry == .boxes { shaders.fragment = "boxes_shaded.frag" }
        return shaders
    }

    /// The light direction and ambient level.
    public override func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {
        super.configure(uniforms, settings: settings, geometry: geometry)
        uniforms.set("lightDirection", settings.lightDirection)
        uniforms.set("ambient", Float(0.45))
    }
}

/// Unlit boxes: each face shows the voxel colour exactly (the base strategy as it is).
public final class FlatBoxesStrategy: BaseRenderStrategy {}

/// Round points of a fixed size in pixels, at any cloud size.
public final class PointsStrategy: BaseRenderStrategy {
    /// Points.
    public override var preferredGeometry: StrategyGeometry { .points }

    /// Always points.
    public override func geometry(forVoxelCount voxelCount: Int, boxBudget: Int) -> StrategyGeometry { .points }

    /// `points.vert` + `points.frag` (round: fragments outside the disc are discarded).
    public override func shaders(for geometry: StrategyGeometry) -> StrategyShaders {
        StrategyShaders(vertex: "points.vert", fragment: "points.frag")
    }

    /// Nothing: the points keep the renderer's size in pixels (the base would size them like boxes).
    public override func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {}

    /// Eye-dome lighting, whatever the geometry asked about (this strategy only draws points).
    public override func screenSpaceShading(for geometry: StrategyGeometry) -> ScreenSpaceShading { .eyeDome }
}

/// Shaded boxes where colours an sRGB display can show turn grey and out-of-gamut colours keep
/// their colour (grading does not apply).
public final class WideGamutStrategy: ShadedBoxesStrategy {
    /// How far outside 0…1 a channel may lie and still count as inside: half an 8-bit level.
    public static let tolerance: Float = 0.5 / 255

    /// The shaded boxes (or square points), styled by `gamut.glsl`.
    public override func shaders(for geometry: StrategyGeometry) -> StrategyShaders {
        var shaders = super.shaders(for: geometry)
        shaders.style = .gamut
        return shaders
    }

    /// The light, and the tolerance.
    public override func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {
        super.configure(uniforms, settings: settings, geometry: geometry)
        uniforms.set("gamutTolerance", Self.tolerance)
    }
}

/// Shaded boxes (or points past the budget) coloured by a heat map of each voxel's quality
/// (`QualityHeatMap`): how many observations it has, or how much their colours spread. The
/// colour cube does not apply: the map is what is shown.
public final class QualityStrategy: ShadedBoxesStrategy {
    /// The measure shown.
    public let measure: VoxelQuality

    /// A strategy showing `measure`.
    public init(_ measure: VoxelQuality) {
        self.measure = measure
    }

    /// The heat map of `measure`.
    public override var colorSource: VoxelColorSource { .quality(measure) }

    /// The shaded boxes (or square points) without the colour cube (the `.heatMap` style).
    public override func shaders(for geometry: StrategyGeometry) -> StrategyShaders {
        var shaders = super.shaders(for: geometry)
        shaders.style = .heatMap
        return shaders
    }
}

/// The strategies `--strategy` names, in the order the viewer cycles through them.
public enum StrategyKind: String, Sendable, CaseIterable {
    /// `ShadedBoxesStrategy`: shaded boxes (per-face light).
    case shaded
    /// `FlatBoxesStrategy`: flat boxes (unlit, exact colours).
    case flat
    /// `PointsStrategy`: round points (size in pixels).
    case points
    /// `WideGamutStrategy`: wide-gamut highlight (in-sRGB grey).
    case gamut
    /// `QualityStrategy(.views)`: heat map of each voxel's observations.
    case views
    /// `QualityStrategy(.spread)`: heat map of the spread of each voxel's observed colours.
    case spread

    /// A new instance of the strategy.
    @MainActor
    public func makeStrategy() -> any RenderStrategy {
        switch self {
        case .shaded: ShadedBoxesStrategy()
        case .flat: FlatBoxesStrategy()
        case .points: PointsStrategy()
        case .gamut: WideGamutStrategy()
        case .views: QualityStrategy(.views)
        case .spread: QualityStrategy(.spread)
        }
    }
}
