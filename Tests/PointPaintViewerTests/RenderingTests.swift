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
    @Test("Past the point budget coarse octree nodes are drawn with points as large as their gaps: the surface stays covered")
    func pointsLevelOfDetail() throws {
        try #require(Viewer.displayAvailable, "no display (DISPLAY is unset): run the viewer tests under xvfb-run -a -s \"-noreset\"")
        // A 240 × 240 grid facing the camera, red, drawn as 1-pixel points.
        var positions: [SIMD3<Float>] = []
        for i in 0 ..< 57_600 { positions.append(SIMD3(Float(i % 240), Float(i / 240), 0) * 0.005 - 0.6) }
        let cloud = VoxelCloud(voxelSize: nil, positions: positions, colors: Array(repeating: SIMD3(1, 0, 0), count: positions.count))
        var options = Render.options(.points)
        options.pointSize = 1
        options.eyeDomeLighting = false
        options.pointBudget = .max
        let whole = try Render.image(cloud, options, name: "lod-whole")
        options.pointBudget = 8_000
        let session = try ViewerSession(content: .cloud(cloud), options: options, visible: false)
        defer { session.close() }
        let reduced = try session.screenshot(width: Render.width, height: Render.height)
        #expect(session.lastFrame.voxelsDrawn <= 8_000 && session.lastFrame.voxelsDrawn > 300)
        #expect(session.lastFrame.budgetLimited)
        func coverage(_ image: PNGImage) -> Int {
            var n = 0
            for y in 0 ..< image.height { for x in 0 ..< image.width where isRed(image.pixel(x, y)) { n += 1 } }
            return n
        }
        let a = coverage(whole), b = coverage(reduced)
        #expect(a > 8000)
        #expect(Double(b) > 0.9 * Double(a), "the reduced cloud leaves holes: \(b) red pixels against \(a)")
        #expect(Double(b) < 1.1 * Double(a), "the reduced cloud spills over: \(b) red pixels against \(a)")
        // While the camera moves, a quarter of the budget.
        try session.draw(width: Render.width, height: Render.height, detail: .interactive)
        #expect(session.lastFrame.voxelsDrawn <= 2_000 && session.lastFrame.voxelsDrawn > 100)
    }

    @Test("The same camera gives the same picture, byte for byte, whatever order the points came in")
    func insertionOrder() throws {
        let positions = TestClouds.room(60_000)
        var random = SeededRandom(11)
        let shuffled = positions.shuffled(using: &random)
        var options = Render.options(.points, yaw: 35, pitch: 25)
        options.pointSize = 2
        options.pointBudget = 20_000
        for strategy in [StrategyKind.points, .shaded] {
            options.strategy = strategy
            let a = try Render.image(TestClouds.cloud(positions), options, name: "order-\(strategy.rawValue)")
            let b = try Render.image(TestClouds.cloud(shuffled), options, name: "order-\(strategy.rawValue)-shuffled")
            #expect(a.samples8 == b.samples8, "\(strategy): \(a.differingPixels(b)) pixels differ")
            #expect(a.differingPixels(try Render.image(TestClouds.cloud([]), options, name: "empty")) > 2_000)
        }
    }

    @Test("A cloud with far outliers is framed by its bulk, which fills most of the frame; shift-F frames every point")
    func outliersFraming() throws {
        // A 2 m cube of points and three stray points 50–200 m away.
        var random = SeededRandom(5)
        var positions = (0 ..< 20_000).map { _ in SIMD3<Float>(Float.random(in: -1 ... 1, using: &random), Float.random(in: -1 ... 1, using: &random), Float.random(in: -1 ... 1, using: &random)) }
        positions += [SIMD3(200, 3, 0), SIMD3(-40, 60, 5), SIMD3(0, 0, -120)]
        let cloud = VoxelCloud(voxelSize: 0.03, positions: positions, colors: Array(repeating: SIMD3(1, 0, 0), count: positions.count))
        let options = Render.options(.flat, yaw: 0, pitch: 0)
        let image = try Render.image(cloud, options, name: "outliers-bulk")
        var columns = Set<Int>(), rows = Set<Int>()
        for y in 0 ..< image.height { for x in 0 ..< image.width where image.pixel(x, y) != .zero { columns.insert(x); rows.insert(y) } }
        let width = (columns.max() ?? 0) - (columns.min() ?? 0), height = (rows.max() ?? 0) - (rows.min() ?? 0)
        #expect(height >= Render.height * 8 / 10, "the bulk spans \(height) of \(Render.height) rows")
        #expect(width >= Render.height * 8 / 10)
        // The whole cloud on request: the cube shrinks to a few pixels.
        let session = try ViewerSession(content: .cloud(cloud), options: options, visible: false)
        defer { session.close() }
        session.fitWholeView()
        let whole = try session.screenshot(width: Render.width, height: Render.height)
        var lit = 0
        for y in 0 ..< whole.height { for x in 0 ..< whole.width where whole.pixel(x, y) != .zero { lit += 1 } }
        #expect(lit < 200, "\(lit) pixels lit when framing every point")
        session.fitView()
        #expect(try session.screenshot(width: Render.width, height: Render.height).samples8 == image.samples8, "F frames the bulk again")
    }

    @Test("Eye-dome lighting darkens a uniform shape where depth steps, and nowhere else")
    func eyeDomeLighting() throws {
        // A far square at z = 0 and a smaller near one at z = 0.6, one grey; square points the size
        // of a voxel tile both (a box strategy past its box budget).
        var positions: [SIMD3<Float>] = []
        for i in 0 ..< 48 { for j in 0 ..< 48 { positions.append(SIMD3(Float(i) - 23.5, Float(j) - 23.5, 0) * 0.05) } }
        let far = positions.count
        for i in 0 ..< 16 { for j in 0 ..< 16 { positions.append(SIMD3(Float(i) - 7.5, Float(j) - 7.5, 12) * 0.05) } }
        let grey = SIMD3<Float>(0.8, 0.8, 0.8)
        var options = Render.options(.flat, yaw: 0, pitch: 0)
        options.background = .grey
        options.boxBudget = 0
        options.boxScale = 1.3
        let cloud = VoxelCloud(voxelSize: 0.05, positions: positions, colors: Array(repeating: grey, count: positions.count))
        options.eyeDomeLighting = false
        let plain = try Render.image(cloud, options, name: "edl-off")
        options.eyeDomeLighting = true
        let shaded = try Render.image(cloud, options, name: "edl-on")
        // Where the near square lies: the same scene with it red.
        let marked = VoxelCloud(voxelSize: 0.05, positions: positions,
                                colors: (0 ..< positions.count).map { $0 < far ? grey : SIMD3(1, 0, 0) })
        options.eyeDomeLighting = false
        let mask = try Render.image(marked, options, name: "edl-mask")
        let surface = plain.pixel(Render.width / 2, Render.height / 2)
        #expect(surface == SIMD3(204, 204, 204))
        func near(_ x: Int, _ y: Int) -> Bool { isRed(mask.pixel(x, y)) }
        func onSurface(_ x: Int, _ y: Int) -> Bool { plain.pixel(x, y) == surface }
        var outline = 0, darkened = 0, flat = 0, unchanged = 0
        for y in 3 ..< Render.height - 3 { for x in 3 ..< Render.width - 3 where onSurface(x, y) {
            let neighbours = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
            if !near(x, y) && neighbours.contains(where: { near($0.0, $0.1) }) {
                // The far square just beside the near one: a step in depth.
                outline += 1
                if shaded.pixel(x, y).x < surface.x * 6 / 10 { darkened += 1 }
            } else if (-3 ... 3).allSatisfy({ dy in (-3 ... 3).allSatisfy { dx in
                near(x + dx, y + dy) == near(x, y) && onSurface(x + dx, y + dy) } }) {
                // Well inside either square: no step within three pixels.
                flat += 1
                if shaded.pixel(x, y) == plain.pixel(x, y) { unchanged += 1 }
            }
        } }
        #expect(outline > 40)
        #expect(darkened == outline, "\(darkened) of \(outline) pixels beside the step are darkened")
        #expect(flat > 2_000)
        #expect(unchanged == flat, "\(flat - unchanged) of \(flat) pixels away from steps changed")
        // The background around the far square gets its outline too.
        let corner = try #require((0 ..< Render.width).first { onSurface($0, Render.height / 2) })
        #expect(shaded.pixel(corner - 1, Render.height / 2).x < plain.pixel(corner - 1, Render.height / 2).x / 2)
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

    @Test("The views and spread heat maps colour voxels by their measure, not their colour; switching uploads again")
    func qualityHeatMaps() throws {
        try #require(Viewer.displayAvailable, "no display (DISPLAY is unset): run the viewer tests under xvfb-run -a -s \"-noreset\"")
        // Two red voxels: the left seen once with no spread, the right 256 times with a spread of 0.1.
        let cloud = VoxelCloud(voxelSize: 0.3, positions: [SIMD3(-0.5, 0, 0), SIMD3(0.5, 0, 0)],
                               colors: [SIMD3(1, 0, 0), SIMD3(1, 0, 0)], counts: [1, 256], colourSD: [0, 0.1])
        let renderer = try OffscreenRenderer(cloud: cloud, options: Render.options(.flat))
        defer { renderer.close() }
        let left = SIMD2(Render.width / 4, Render.height / 2), right = SIMD2(Render.width * 3 / 4, Render.height / 2)
        func pixels(_ kind: StrategyKind) throws -> (SIMD3<Int>, SIMD3<Int>) {
            renderer.selectStrategy(kind)
            try renderer.render()
            let image = renderer.image()
            if FileManager.default.fileExists(atPath: ".build-viewer-shots") { try? image.write(to: ".build-viewer-shots/quality-\(kind).png") }
            return (image.pixel(left.x, left.y), image.pixel(right.x, right.y))
        }
        // Blue: blue over green over red. Yellow: red and green high, blue low.
        func blue(_ c: SIMD3<Int>) -> Bool { c.z > c.y + 20 && c.y > c.x && c.x + c.y + c.z < 400 }
        func yellow(_ c: SIMD3<Int>) -> Bool { c.x > 120 && c.y > 120 && c.z < c.y / 2 }
        let flat = try pixels(.flat)
        #expect(isRed(flat.0) && isRed(flat.1))
        for kind in [StrategyKind.views, .spread] {
            let (l, r) = try pixels(kind)
            #expect(blue(l), "\(kind): the left voxel should be blue, got \(l)")
            #expect(yellow(r), "\(kind): the right voxel should be yellow, got \(r)")
        }
        let back = try pixels(.flat)
        #expect(back == flat, "back to flat, the voxels' own colours are uploaded again")
        // A cloud without spreads shows grey under spread.
        let plain = VoxelCloud(voxelSize: 0.3, positions: cloud.positions, colors: cloud.colors)
        let grey = try Render.image(plain, Render.options(.spread), name: "quality-spread-missing").pixel(left.x, left.y)
        #expect(grey.x == grey.y && grey.y == grey.z && grey.x > 30, "no colour_sd: grey, got \(grey)")
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
        func frames(boxBudget: Int) throws -> [(FrameStatistics, PNGImage)] {
            options.boxBudget = boxBudget
            let renderer = try OffscreenRenderer(cloud: Self.mixedCloud, options: options)
            defer { renderer.close() }
            return try (0 ..< 2).map { _ in (try renderer.render(), renderer.image()) }
        }
        let over = try frames(boxBudget: 26), within = try frames(boxBudget: 27)
        #expect(over.map(\.0.geometry) == [.points, .points] && within.map(\.0.geometry) == [.boxes, .boxes])
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

    @Test("Live updates upload the new voxels and the recoloured slots of the nodes on the GPU; new nodes when drawn")
    func incrementalUploads() throws {
        try #require(Viewer.displayAvailable, "no display (DISPLAY is unset): run the viewer tests under xvfb-run -a -s \"-noreset\"")
        let live = LiveCloud(frameCount: 3)
        var options = Render.options(.points, yaw: 20, pitch: 20)
        options.pointBudget = .max
        let session = try ViewerSession(content: .live(live), options: options, visible: false)
        defer { session.close() }
        let renderer = try #require(session.renderer)
        let positions = TestClouds.room(20_000)
        func cloud(_ n: Int) -> VoxelCloud { TestClouds.cloud(Array(positions[0 ..< n])) }
        let slot = NodeBuffer.stride
        live.publish(cloud: cloud(100), framesDone: 1)
        #expect(session.pollLive())
        try session.draw(width: 64, height: 48)
        #expect(renderer.bytesUploaded == 100 * slot && session.lastFrame.voxelsDrawn == 100)
        // Ten new voxels and five recoloured ones: fifteen slots of the one node.
        live.publish(cloud: cloud(110), framesDone: 2, recolored: 95 ..< 100)
        #expect(session.pollLive())
        #expect(renderer.bytesUploaded == 115 * slot)
        // Past the leaf capacity the root splits: it is uploaded again in place, its new children
        // when they are drawn.
        live.publish(cloud: cloud(20_000), framesDone: 3, recolored: 0 ..< 0)
        #expect(session.pollLive())
        let octree = renderer.octree
        #expect(octree.nodes.count > 1)
        #expect(renderer.bytesUploaded == (115 + octree.nodes[0].points.count) * slot)
        try session.draw(width: 64, height: 48)
        #expect(renderer.bytesUploaded == (115 + octree.nodes[0].points.count + renderer.octree.subtreeCount(0)
            - octree.nodes[0].points.count) * slot)
        #expect(session.lastFrame.voxelsDrawn == 20_000)
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
