import Foundation
import PointPaint
import Testing
@testable import PointPaintViewer

/// Rendering tests draw offscreen through a hidden GLFW window, so they need a display: CI runs
/// the suite under `xvfb-run -a` (Mesa llvmpipe). Without one they fail with a clear message
/// rather than pass silently.
@MainActor
enum Render {
    static let width = 160, height = 120

    static func options(_ strategy: StrategyKind = .flat, yaw: Float = 0, pitch: Float = 0) -> ViewerOptions {
        var o = ViewerOptions()
        o.width = width
        o.height = height
        o.strategy = strategy
        o.yaw = yaw
        o.pitch = pitch
        o.background = .black
        return o
    }

    static func image(_ cloud: VoxelCloud, _ options: ViewerOptions, name: String) throws -> PNGImage {
        try #require(Viewer.displayAvailable, "no display (DISPLAY is unset): run the viewer tests under xvfb-run -a -s \"-noreset\"")
        let image = try Viewer.screenshot(cloud: cloud, options: options)
        // Kept for people to look at: .build-viewer-shots/NAME.png when the folder exists.
        let folder = FileManager.default.currentDirectoryPath + "/.build-viewer-shots"
        if FileManager.default.fileExists(atPath: folder) { try? image.write(to: folder + "/" + name + ".png") }
        return image
    }
}

extension PNGImage {
    func pixel(_ x: Int, _ y: Int) -> SIMD3<Int> {
        let i = (y * width + x) * channels
        return SIMD3(Int(samples8[i]), Int(samples8[i + 1]), Int(samples8[i + 2]))
    }

    /// Mean x of the pixels matching `test`, or nil when none do.
    func centroidX(where test: (SIMD3<Int>) -> Bool) -> Double? {
        var sum = 0, n = 0
        for y in 0 ..< height { for x in 0 ..< width where test(pixel(x, y)) { sum += x; n += 1 } }
        return n > 0 ? Double(sum) / Double(n) : nil
    }

    func differingPixels(_ other: PNGImage) -> Int {
        var n = 0
        for y in 0 ..< height { for x in 0 ..< width where pixel(x, y) != other.pixel(x, y) { n += 1 } }
        return n
    }
}

private func isRed(_ c: SIMD3<Int>) -> Bool { c.x > 200 && c.y < 40 && c.z < 40 }
private func isBlue(_ c: SIMD3<Int>) -> Bool { c.z > 200 && c.x < 40 && c.y < 40 }

@MainActor
@Suite("Rendering (needs a display: xvfb-run)", .serialized)
struct RenderingTests {
    @Test("Past the points budget every k-th voxel is drawn √k larger: the surface stays covered")
    func pointsLevelOfDetail() throws {
        #expect(SceneRenderer.pointStep(count: 1_000_000, budget: 500_000) == 2)
        #expect(SceneRenderer.pointStep(count: 1_000_001, budget: 500_000) == 3)
        #expect(SceneRenderer.pointStep(count: 400_000, budget: 500_000) == 1)
        #expect(SceneRenderer.pointStep(count: 10, budget: .max) == 1)
        try #require(Viewer.displayAvailable, "no display (DISPLAY is unset): run the viewer tests under xvfb-run -a -s \"-noreset\"")
        // A 120 × 120 grid facing the camera, red, drawn as 2-pixel points.
        var positions: [SIMD3<Float>] = []
        for i in 0 ..< 14_400 { positions.append(SIMD3(Float(i % 120), Float(i / 120), 0) * 0.01 - 0.6) }
        let cloud = VoxelCloud(voxelSize: nil, positions: positions, colors: Array(repeating: SIMD3(1, 0, 0), count: positions.count))
        var options = Render.options(.points)
        options.pointSize = 2
        options.pointBudget = 3_600  // every 4th voxel, twice as large
        let session = try ViewerSession(content: .cloud(cloud), options: options, visible: false)
        defer { session.close() }
        let full = try session.screenshot(width: Render.width, height: Render.height)
        let reduced = try session.screenshot(width: Render.width, height: Render.height, levelOfDetail: true)
        func coverage(_ image: PNGImage) -> Int {
            var n = 0
            for y in 0 ..< image.height { for x in 0 ..< image.width where isRed(image.pixel(x, y)) { n += 1 } }
            return n
        }
        let a = coverage(full), b = coverage(reduced)
        #expect(a > 2000)
        #expect(a != b || full.differingPixels(reduced) > 0, "the level of detail changed nothing")
        #expect(Double(b) > 0.8 * Double(a), "the reduced cloud leaves holes: \(b) red pixels against \(a)")
    }

    @Test("A single red voxel centred in view is red in the centre, background at the corners")
    func singleRedVoxel() throws {
        let cloud = VoxelCloud(voxelSize: 0.1, positions: [SIMD3(1, 2, 3)], colors: [SIMD3(1, 0, 0)])
        var options = Render.options()
        options.background = .grey
        let image = try Render.image(cloud, options, name: "single-red-voxel")
        #expect(image.width == Render.width && image.height == Render.height && image.channels == 3)
        #expect(image.pixel(Render.width / 2, Render.height / 2) == SIMD3(255, 0, 0))
        for (x, y) in [(0, 0), (Render.width - 1, 0), (0, Render.height - 1), (Render.width - 1, Render.height - 1)] {
            #expect(image.pixel(x, y) == SIMD3(128, 128, 128))
        }
    }

    @Test("Orbiting 180° mirrors a two-voxel scene")
    func orbitMirrors() throws {
        let cloud = VoxelCloud(voxelSize: 0.2, positions: [SIMD3(-0.5, 0, 0), SIMD3(0.5, 0, 0)],
                               colors: [SIMD3(1, 0, 0), SIMD3(0, 0, 1)])
        let front = try Render.image(cloud, Render.options(yaw: 0), name: "two-voxels-yaw0")
        let back = try Render.image(cloud, Render.options(yaw: 180), name: "two-voxels-yaw180")
        let redFront = try #require(front.centroidX(where: isRed)), blueFront = try #require(front.centroidX(where: isBlue))
        let redBack = try #require(back.centroidX(where: isRed)), blueBack = try #require(back.centroidX(where: isBlue))
        #expect(redFront < Double(Render.width) / 2 && blueFront > Double(Render.width) / 2)
        let mirror = Double(Render.width - 1)
        #expect(abs(redBack - (mirror - redFront)) <= 1)
        #expect(abs(blueBack - (mirror - blueFront)) <= 1)
        // Pixel for pixel, the back view is the front view flipped.
        var differing = 0
        for y in 0 ..< Render.height { for x in 0 ..< Render.width {
            let a = front.pixel(x, y), b = back.pixel(Render.width - 1 - x, y)
            if a != b && !(isRed(a) && isRed(b)) && !(isBlue(a) && isBlue(b)) { differing += 1 }
        } }
        #expect(differing <= Render.height, "\(differing) pixels differ from the mirror image")
    }

    static let mixedCloud: VoxelCloud = {
        var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = []
        for i in 0 ..< 27 {
            let g = SIMD3<Float>(Float(i % 3), Float(i / 3 % 3), Float(i / 9)) - 1
            positions.append(g * 0.3)
            colors.append(i == 13 ? SIMD3(1.25, -0.1, 0.05) : (g + 1) / 2)
        }
        return VoxelCloud(voxelSize: 0.2, positions: positions, colors: colors)
    }()

    @Test("Each strategy gives a different image")
    func strategiesDiffer() throws {
        var images: [StrategyKind: PNGImage] = [:]
        for kind in StrategyKind.allCases {
            images[kind] = try Render.image(Self.mixedCloud, Render.options(kind, yaw: 30, pitch: 25), name: "strategy-\(kind.rawValue)")
        }
        let kinds = StrategyKind.allCases
        for i in kinds.indices { for j in kinds.indices where i < j {
            let n = try #require(images[kinds[i]]).differingPixels(try #require(images[kinds[j]]))
            #expect(n > 200, "\(kinds[i]) and \(kinds[j]) differ in only \(n) pixels")
        } }
    }

    @Test("The wide-gamut strategy greys in-gamut colours and keeps out-of-gamut ones")
    func wideGamut() throws {
        let cloud = VoxelCloud(voxelSize: 0.3, positions: [SIMD3(-0.5, 0, 0), SIMD3(0.5, 0, 0)],
                               colors: [SIMD3(1, 0, 0), SIMD3(1.3, -0.2, 0)])
        let normal = try Render.image(cloud, Render.options(.flat), name: "gamut-flat")
        let gamut = try Render.image(cloud, Render.options(.gamut), name: "gamut-highlight")
        let left = SIMD2(Render.width / 4, Render.height / 2), right = SIMD2(Render.width * 3 / 4, Render.height / 2)
        #expect(isRed(normal.pixel(left.x, left.y)) && isRed(normal.pixel(right.x, right.y)))
        let grey = gamut.pixel(left.x, left.y)
        #expect(grey.x == grey.y && grey.y == grey.z && grey.x > 40, "in-gamut red should be grey, got \(grey)")
        let kept = gamut.pixel(right.x, right.y)
        #expect(kept.x > 120 && kept.y < 30 && kept.z < 30, "out-of-gamut red should stay red, got \(gamut.pixel(right.x, right.y))")
    }

    @Test("The colour cube is applied in the fragment shader")
    func grading() throws {
        let cloud = VoxelCloud(voxelSize: 0.1, positions: [.zero], colors: [SIMD3(0.9, 0.2, 0.1)])
        var options = Render.options(.flat)
        options.grade = Grade(look: .builtin(.noir))
        let noir = try Render.image(cloud, options, name: "grade-noir")
        let c = noir.pixel(Render.width / 2, Render.height / 2)
        #expect(c.x == c.y && c.y == c.z, "noir should be black and white, got \(c)")
        // The shader's lookup agrees with the CPU cube within a level or two.
        let expected = Grade(look: .builtin(.noir)).cube().lookup(SIMD3(0.9, 0.2, 0.1))
        #expect(abs(Double(c.x) - Double(expected.x * 255)) <= 2.5)
        options.grade = Grade(look: .builtin(.nightVision))
        let green = try Render.image(cloud, options, name: "grade-night-vision").pixel(Render.width / 2, Render.height / 2)
        #expect(green.y > green.x && green.y > green.z)
    }

    @Test("Past the box budget the cloud is drawn as points, and still drawn")
    func pointsFallback() throws {
        var options = Render.options(.shaded, yaw: 30, pitch: 25)
        options.boxBudget = 10
        let points = try Render.image(Self.mixedCloud, options, name: "fallback-points")
        options.boxBudget = 1000
        let boxes = try Render.image(Self.mixedCloud, options, name: "fallback-boxes")
        let lit = (0 ..< Render.height).flatMap { y in (0 ..< Render.width).map { points.pixel($0, y) } }.filter { $0 != .zero }.count
        #expect(lit > 100)
        #expect(points.differingPixels(boxes) > 100)
        // Frame after frame offscreen, the geometry drawn follows the budget.
        options.width = 64
        options.height = 48
        func frames(boxBudget: Int) throws -> [(StrategyGeometry, PNGImage)] {
            options.boxBudget = boxBudget
            let renderer = try OffscreenRenderer(cloud: Self.mixedCloud, options: options)
            defer { renderer.close() }
            return try (0 ..< 2).map { _ in (try renderer.render(), renderer.image()) }
        }
        let over = try frames(boxBudget: 26), within = try frames(boxBudget: 27)
        #expect(over.map(\.0) == [.points, .points] && within.map(\.0) == [.boxes, .boxes])
        #expect(over[1].1.differingPixels(over[0].1) == 0, "the same frame twice")
        #expect(within[1].1.differingPixels(over[1].1) > 20)
    }

    @Test("Shader compile errors name the file and line and carry the driver's log")
    func shaderErrors() throws {
        try #require(Viewer.displayAvailable, "no display (DISPLAY is unset): run the viewer tests under xvfb-run -a -s \"-noreset\"")
        let context = try GLContext(width: 16, height: 16, title: "test", visible: false)
        defer { context.close() }
        var sources = EmbeddedShaders.sources
        sources["broken.frag"] = "out vec4 fragColor;\nvoid main() {\n    fragColor = vec4(undefinedThing, 1.0);\n}\n"
        let library = ShaderLibrary(sources: sources)
        do {
            _ = try library.program(vertex: ["boxes.vert"], fragment: ["grading.glsl", "broken.frag"])
            Issue.record("a broken shader compiled")
        } catch let error as ShaderError {
            #expect(error.file == "broken.frag")
            #expect(error.line == 3)
            #expect(error.log.contains("undefinedThing"))
            #expect(error.description.hasPrefix("broken.frag:3: "))
        }
        #expect(throws: ShaderError.self) { try library.program(vertex: ["missing.vert"], fragment: ["lines.frag"]) }
        // Every embedded program compiles and links.
        for kind in StrategyKind.allCases {
            for geometry in StrategyGeometry.allCases {
                for graded in [false, true] {
                    _ = try library.program(for: kind.makeStrategy().shaders(for: geometry), graded: graded)
                }
            }
        }
        _ = try library.program(vertex: ["lines.vert"], fragment: ["lines.frag"])
    }

    @Test("Live updates upload only the new tail and the recoloured range")
    func incrementalUploads() throws {
        try #require(Viewer.displayAvailable, "no display (DISPLAY is unset): run the viewer tests under xvfb-run -a -s \"-noreset\"")
        let context = try GLContext(width: 16, height: 16, title: "test", visible: false)
        defer { context.close() }
        let renderer = SceneRenderer(library: ShaderLibrary())
        let live = LiveCloud()
        func cloud(_ n: Int) -> VoxelCloud {
            VoxelCloud(voxelSize: 0.1, positions: (0 ..< n).map { SIMD3(Float($0), 0, 0) }, colors: Array(repeating: .one, count: n))
        }
        let slot = MemoryLayout<SIMD3<Float>>.stride
        live.publish(cloud: cloud(100), framesDone: 1)
        renderer.apply(try #require(live.takeUpdate()))
        #expect(renderer.bytesUploaded == 100 * 2 * slot)
        live.publish(cloud: cloud(110), framesDone: 2, recolored: 20 ..< 30)
        renderer.apply(try #require(live.takeUpdate()))
        #expect(renderer.bytesUploaded == (100 + 10) * 2 * slot + 10 * slot)
        #expect(renderer.cloud.count == 110 && renderer.capacity == 1024)
        // Growing past the capacity reallocates and uploads everything once.
        live.publish(cloud: cloud(2000), framesDone: 3, recolored: 0 ..< 0)
        renderer.apply(try #require(live.takeUpdate()))
        #expect(renderer.capacity >= 2000)
        #expect(renderer.bytesUploaded == (110 * 2 + 10 + 2000 * 2) * slot)
    }

    @Test("A cloud with NaN and infinite points and no voxel size draws its finite points, with or without a box size")
    func nonFiniteCloud() throws {
        let finite = (0 ..< 25).map { SIMD3<Float>(Float($0 % 5) * 0.1, Float($0 / 5) * 0.1, 0) }
        let bad: [SIMD3<Float>] = [SIMD3(.nan, 0, 0), SIMD3(0, .infinity, 0), SIMD3(-.infinity, .nan, 1)]
        let cloud = VoxelCloud(voxelSize: nil, positions: bad + finite, colors: Array(repeating: SIMD3(1, 0, 0), count: 28))
        var options = Render.options()
        let inferred = try Render.image(cloud, options, name: "non-finite-inferred")
        #expect(inferred.pixel(Render.width / 2, Render.height / 2) == SIMD3(255, 0, 0))
        #expect(inferred.pixel(0, 0) == SIMD3(0, 0, 0))
        options.boxSize = 0.1
        let given = try Render.image(cloud, options, name: "non-finite-box-size")
        #expect(given.pixel(Render.width / 2, Render.height / 2) == SIMD3(255, 0, 0))
        #expect(ViewerSession.finitePart(of: cloud).positions == finite)
    }
}
