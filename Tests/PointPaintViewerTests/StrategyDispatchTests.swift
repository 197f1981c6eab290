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

/// A subclass overriding every requirement with a sentinel, as a new strategy would.
@MainActor
final class SentinelStrategy: BaseRenderStrategy {
    var configured = 0
    override var name: String { "sentinel" }
    override var summary: String { "sentinel summary" }
    override var preferredGeometry: StrategyGeometry { .points }
    override func geometry(forVoxelCount voxelCount: Int, boxBudget: Int) -> StrategyGeometry { .points }
    override func shaders(for geometry: StrategyGeometry) -> ShaderFiles { ShaderFiles(vertex: ["s.vert"], fragment: ["s.frag"]) }
    override func configure(_ uniforms: any UniformSink, settings: RenderSettings, geometry: StrategyGeometry) {
        configured += 1
        uniforms.set("sentinel", Int32(7))
    }
}

/// A strategy relying on the protocol extension's defaults only.
@MainActor
final class DefaultsOnlyStrategy: RenderStrategy {
    var name: String { "defaults" }
}

@MainActor
@Suite("Render strategy dispatch")
struct StrategyDispatchTests {
    @Test("Calls through [any RenderStrategy] reach each subclass's overrides, not the extension defaults")
    func dispatchReachesOverrides() {
        let strategies: [any RenderStrategy] = [
            BaseRenderStrategy(), ShadedBoxesStrategy(), FlatBoxesStrategy(), PointsStrategy(), WideGamutStrategy(),
            SentinelStrategy(),
        ]
        #expect(strategies.map(\.name) == ["base", "shaded", "flat", "points", "gamut", "sentinel"])
        #expect(strategies.map(\.summary) == [
            "unlit boxes (base strategy)", "shaded boxes (per-face light)", "flat boxes (unlit, exact colours)",
            "round points (size in pixels)", "wide-gamut highlight (in-sRGB grey)", "sentinel summary",
        ])
        #expect(strategies.map(\.preferredGeometry) == [.boxes, .boxes, .boxes, .points, .boxes, .points])
        // Within the budget only the points strategies draw points.
        #expect(strategies.map { $0.geometry(forVoxelCount: 10, boxBudget: 100) } == [.boxes, .boxes, .boxes, .points, .boxes, .points])
        #expect(strategies.map { $0.shaders(for: .boxes).fragment.last! } == [
            "boxes_flat.frag", "boxes_shaded.frag", "boxes_flat.frag", "points.frag", "boxes_shaded.frag", "s.frag",
        ])
        #expect(strategies.map { $0.shaders(for: .boxes).fragment.first! } == [
            "grading.glsl", "grading.glsl", "grading.glsl", "grading.glsl", "gamut.glsl", "s.frag",
        ])
        let settings = RenderSettings()
        var sinks: [RecordingSink] = []
        for strategy in strategies {
            let sink = RecordingSink()
            strategy.configure(sink, settings: settings, geometry: strategy.preferredGeometry)
            sinks.append(sink)
        }
        #expect(sinks[0].values.isEmpty)                              // base: boxes need nothing
        #expect(sinks[1].values["ambient"] != nil && sinks[1].values["lightDirection"] != nil)
        #expect(sinks[2].values.isEmpty)
        #expect(sinks[3].values["pointSize"] == "4.0" && sinks[3].values["worldPointSize"] == "0.0")
        #expect(sinks[4].values["gamutTolerance"] != nil && sinks[4].values["lightDirection"] != nil)
        #expect(sinks[5].values == ["sentinel": "7"])
        #expect((strategies[5] as? SentinelStrategy)?.configured == 1)
    }

    @Test("Past the box budget, box strategies fall back to points sized in world units")
    func fallback() {
        let strategies: [any RenderStrategy] = [ShadedBoxesStrategy(), FlatBoxesStrategy(), WideGamutStrategy()]
        for strategy in strategies {
            #expect(strategy.geometry(forVoxelCount: 1_000_001, boxBudget: 250_000) == .points)
            #expect(strategy.shaders(for: .points).vertex == ["points.vert"])
            let sink = RecordingSink()
            var settings = RenderSettings()
            settings.boxSize = 0.25
            strategy.configure(sink, settings: settings, geometry: .points)
            #expect(sink.values["worldPointSize"] == "0.25")
        }
        #expect(WideGamutStrategy().shaders(for: .points).fragment == ["gamut.glsl", "points_square.frag"])
        #expect(PointsStrategy().shaders(for: .points).fragment == ["grading.glsl", "points.frag"])
    }

    @Test("A strategy without overrides gets the extension's defaults")
    func defaults() {
        let strategy: any RenderStrategy = DefaultsOnlyStrategy()
        #expect(strategy.summary == "defaults")
        #expect(strategy.preferredGeometry == .boxes)
        #expect(strategy.geometry(forVoxelCount: 5, boxBudget: 4) == .points)
        #expect(strategy.shaders(for: .boxes) == ShaderFiles(vertex: ["boxes.vert"], fragment: ["grading.glsl", "boxes_flat.frag"]))
        #expect(strategy.shaders(for: .points).fragment == ["grading.glsl", "points_square.frag"])
        let sink = RecordingSink()
        strategy.configure(sink, settings: RenderSettings(), geometry: .boxes)
        #expect(sink.values.isEmpty)
    }

    @Test("Every strategy's shader files are embedded", arguments: StrategyKind.allCases)
    func shadersEmbedded(kind: StrategyKind) {
        let strategy = kind.makeStrategy()
        #expect(strategy.name == kind.rawValue)
        for geometry in StrategyGeometry.allCases {
            let files = strategy.shaders(for: geometry)
            for file in files.vertex + files.fragment {
                #expect(EmbeddedShaders.sources[file] != nil, "\(file) is not embedded")
            }
        }
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
