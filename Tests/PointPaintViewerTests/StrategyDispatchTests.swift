import PointPaint
import Testing
@testable import PointPaintViewer

/// Records uniforms a strategy sets.
@MainActor
final class RecordingSink: UniformSink {
    var values: [String: String] = [:]
    func set(_ name: String, _ value: Float) { values[name] = "\(value)" }
    func set(_ name: String, _ value: SIMD3<Float>) { values[name] = "\(value)" }
    func set(_ name: String, _ value: Int32) { values[name] = "\(value)" }
}

/// A subclass overriding every requirement, as a new strategy would.
@MainActor
final class SentinelStrategy: BaseRenderStrategy {
    var configured = 0
    override var preferredGeometry: StrategyGeometry { .points }
    override func geometry(forVoxelCount voxelCount: Int, boxBudget: Int) -> StrategyGeometry { .points }
    override func shaders(for geometry: StrategyGeometry) -> StrategyShaders {
        StrategyShaders(vertex: "points.vert", style: .gamut, fragment: "points.frag")
    }
    override func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {
        configured += 1
        uniforms.set("sentinel", Int32(7))
    }
    override func screenSpaceShading(for geometry: StrategyGeometry) -> ScreenSpaceShading { .none }
    override var colorSource: VoxelColorSource { .quality(.spread) }
}

/// A strategy relying on the protocol extension's defaults only.
@MainActor
final class DefaultsOnlyStrategy: RenderStrategy {}

/// What a strategy does for one geometry, read through `any RenderStrategy`.
@MainActor
struct StrategyBehaviour: Equatable, CustomStringConvertible {
    var shaders: StrategyShaders
    var uniforms: [String: String]
    var shading: ScreenSpaceShading

    init(_ strategy: any RenderStrategy, _ geometry: StrategyGeometry) {
        shaders = strategy.shaders(for: geometry)
        shading = strategy.screenSpaceShading(for: geometry)
        let sink = RecordingSink()
        var settings = RenderSettings()
        settings.boxSize = 0.25
        strategy.configure(sink, settings: settings, geometry: geometry)
        uniforms = sink.values
    }

    /// Eye-dome lighting for points, none for boxes, unless `shading` says otherwise.
    init(_ vertex: String, _ fragment: String, style: ColorStyle = .grading, uniforms: [String: String] = [:],
         shading: ScreenSpaceShading? = nil) {
        shaders = StrategyShaders(vertex: vertex, style: style, fragment: fragment)
        self.uniforms = uniforms
        self.shading = shading ?? (vertex == "points.vert" ? .eyeDome : .none)
    }

    nonisolated var description: String { "\(shaders) \(uniforms) \(shading)" }
}

@MainActor
@Suite("Render strategy dispatch")
struct StrategyDispatchTests {
    static let light = ["lightDirection": "\(RenderSettings().lightDirection)", "ambient": "0.45"]
    static let worldSized = ["worldPointSize": "0.25"]

    @Test("Through [any RenderStrategy] each strategy draws its own geometry, shaders and uniforms")
    func dispatchReachesOverrides() {
        let strategies: [any RenderStrategy] = [
            BaseRenderStrategy(), ShadedBoxesStrategy(), FlatBoxesStrategy(), PointsStrategy(), WideGamutStrategy(),
            SentinelStrategy(), QualityStrategy(.views),
        ]
        // Within the budget only the points strategies draw points; past it every one does.
        #expect(strategies.map { $0.geometry(forVoxelCount: 10, boxBudget: 100) } == [.boxes, .boxes, .boxes, .points, .boxes, .points, .boxes])
        #expect(strategies.map(\.colorSource) == [.color, .color, .color, .color, .color, .quality(.spread), .quality(.views)])
        #expect(strategies.allSatisfy { $0.geometry(forVoxelCount: 1_000_001, boxBudget: 250_000) == .points })
        let gamut = ["gamutTolerance": "\(WideGamutStrategy.tolerance)"]
        let gamutLight = Self.light.merging(gamut) { a, _ in a }
        let expected: [(boxes: StrategyBehaviour, points: StrategyBehaviour)] = [
            (StrategyBehaviour("boxes.vert", "boxes_flat.frag"),
             StrategyBehaviour("points.vert", "points_square.frag", uniforms: Self.worldSized)),
            (StrategyBehaviour("boxes.vert", "boxes_shaded.frag", uniforms: Self.light),
             StrategyBehaviour("points.vert", "points_square.frag", uniforms: Self.light.merging(Self.worldSized) { a, _ in a })),
            (StrategyBehaviour("boxes.vert", "boxes_flat.frag"),
             StrategyBehaviour("points.vert", "points_square.frag", uniforms: Self.worldSized)),
            (StrategyBehaviour("points.vert", "points.frag"), StrategyBehaviour("points.vert", "points.frag")),
            (StrategyBehaviour("boxes.vert", "boxes_shaded.frag", style: .gamut, uniforms: gamutLight),
             StrategyBehaviour("points.vert", "points_square.frag", style: .gamut, uniforms: gamutLight.merging(Self.worldSized) { a, _ in a })),
            (StrategyBehaviour("points.vert", "points.frag", style: .gamut, uniforms: ["sentinel": "7"], shading: ScreenSpaceShading.none),
             StrategyBehaviour("points.vert", "points.frag", style: .gamut, uniforms: ["sentinel": "7"], shading: ScreenSpaceShading.none)),
            (StrategyBehaviour("boxes.vert", "boxes_shaded.frag", style: .heatMap, uniforms: Self.light),
             StrategyBehaviour("points.vert", "points_square.frag", style: .heatMap, uniforms: Self.light.merging(Self.worldSized) { a, _ in a })),
        ]
        for (strategy, expected) in zip(strategies, expected) {
            #expect(StrategyBehaviour(strategy, .boxes) == expected.boxes, "\(type(of: strategy)) drawing boxes")
            #expect(StrategyBehaviour(strategy, .points) == expected.points, "\(type(of: strategy)) drawing points")
        }
        #expect((strategies[5] as? SentinelStrategy)?.configured == 2)
    }

    @Test("A strategy without overrides gets the base strategy's behaviour: one body for each default")
    func defaults() {
        let defaults: any RenderStrategy = DefaultsOnlyStrategy(), base: any RenderStrategy = BaseRenderStrategy()
        #expect(defaults.preferredGeometry == base.preferredGeometry)
        #expect(defaults.colorSource == base.colorSource)
        for (count, budget) in [(5, 4), (4, 5)] {
            #expect(defaults.geometry(forVoxelCount: count, boxBudget: budget) == base.geometry(forVoxelCount: count, boxBudget: budget))
        }
        for geometry in StrategyGeometry.allCases {
            #expect(StrategyBehaviour(defaults, geometry) == StrategyBehaviour(base, geometry))
        }
    }

    @Test("Every strategy's shader files are embedded, graded or not", arguments: StrategyKind.allCases)
    func shadersEmbedded(kind: StrategyKind) {
        let strategy = kind.makeStrategy()
        for geometry in StrategyGeometry.allCases {
            for graded in [false, true] {
                let files = ShaderLibrary.files(of: strategy.shaders(for: geometry), graded: graded)
                for file in files.vertex + files.fragment {
                    #expect(EmbeddedShaders.sources[file] != nil, "\(file) is not embedded")
                }
            }
        }
    }

    @Test("The grading style is the colour cube while one is set, a pass-through otherwise; the gamut style is always the highlight, the heat map never graded")
    func colorStyles() {
        let graded = StrategyShaders(vertex: "boxes.vert", style: .grading, fragment: "boxes_flat.frag")
        #expect(ShaderLibrary.files(of: graded, graded: true).fragment == ["grading.glsl", "boxes_flat.frag"])
        #expect(ShaderLibrary.files(of: graded, graded: false).fragment == ["ungraded.glsl", "boxes_flat.frag"])
        var gamut = graded
        gamut.style = .gamut
        #expect(ShaderLibrary.files(of: gamut, graded: true).fragment == ShaderLibrary.files(of: gamut, graded: false).fragment)
        #expect(ShaderLibrary.files(of: gamut, graded: false) == (["boxes.vert"], ["gamut.glsl", "boxes_flat.frag"]))
        var heat = graded
        heat.style = .heatMap
        #expect(ShaderLibrary.files(of: heat, graded: true) == (["boxes.vert"], ["ungraded.glsl", "boxes_flat.frag"]))
    }
}

@Suite("Shader error messages")
struct ShaderErrorMessageTests {
    @Test("Driver logs map back to the part's file and line", arguments: [
        "0:30003(19): error: `x' undeclared",        // Mesa: source number dropped, line carries the part
        "2:3(19): error: `x' undeclared",            // source-string number kept
        "ERROR: 2:3: 'x' : undeclared identifier",   // other drivers' style
        "0(30003) : error C1008: undefined variable \"x\"",   // NVIDIA, source number dropped
        "2(3) : error C0000: syntax error, unexpected ';'",   // NVIDIA, source-string number kept
    ])
    func mapping(log: String) {
        let error = ShaderProgram.error(log: log, parts: ["grading.glsl", "broken.frag", "other.frag"])
        let inThird = log.hasPrefix("0:30003") || log.hasPrefix("0(30003)")
        #expect(error.file == (inThird ? "other.frag" : "broken.frag"))
        #expect(error.line == 3)
        #expect(error.description.contains(".frag:3"))
        #expect(!error.description.contains("30003"))
    }

    @Test("A multi-line NVIDIA log names the first error's place and maps every line")
    func nvidiaLog() {
        let log = "0(10012) : error C1503: undefined variable \"cube\"\n0(20004) : warning C7050: \"c\" might be used before being initialized"
        let error = ShaderProgram.error(log: log, parts: ["grading.glsl", "boxes_shaded.frag"])
        #expect(error.file == "grading.glsl" && error.line == 12)
        #expect(error.log == "grading.glsl:12 : error C1503: undefined variable \"cube\"\nboxes_shaded.frag:4 : warning C7050: \"c\" might be used before being initialized")
    }
}
