import PointPaint
import Testing
@testable import PointPaintViewer

private func close(_ a: Float, _ b: Float, _ tolerance: Float = 1e-4) -> Bool { abs(a - b) <= tolerance * max(1, abs(a), abs(b)) }

/// The 8 corners of every box.
private func corners(_ cloud: VoxelCloud, box: Float) -> [SIMD3<Float>] {
    cloud.positions.flatMap { p in
        [-1, 1].flatMap { x in [-1, 1].flatMap { y in [-1, 1].map { z in p + SIMD3<Float>(x, y, z) * box / 2 } } }
    }
}

/// The bounding rectangle, in NDC, of the projected box corners.
private func projectedExtent(_ camera: OrbitCamera, _ cloud: VoxelCloud, box: Float, aspect: Float) -> (min: SIMD2<Float>, max: SIMD2<Float>)? {
    var lo = SIMD2<Float>(repeating: .infinity), hi = SIMD2<Float>(repeating: -.infinity)
    for c in corners(cloud, box: box) {
        guard let p = camera.project(c, aspect: aspect) else { return nil }
        lo = pointwiseMin(lo, SIMD2(p.x, p.y))
        hi = pointwiseMax(hi, SIMD2(p.x, p.y))
    }
    return (lo, hi)
}

@Suite("Orbit camera")
struct OrbitCameraTests {
    let aspect: Float = 16.0 / 9.0

    @Test("Degenerate clouds are framed: inside the view, filling a good part of it, not edge-on", arguments: [
        ("one voxel", VoxelCloud(voxelSize: 0.01, positions: [SIMD3(3, -2, 5)], colors: [SIMD3(1, 0, 0)])),
        ("flat floor", VoxelCloud(voxelSize: 0.1, positions: (0 ..< 100).map { SIMD3(Float($0 % 10), 0, Float($0 / 10)) },
                                  colors: Array(repeating: SIMD3(1, 1, 1), count: 100))),
        ("wall facing x", VoxelCloud(voxelSize: 0.1, positions: (0 ..< 100).map { SIMD3(0, Float($0 % 10), Float($0 / 10)) },
                                     colors: Array(repeating: SIMD3(1, 1, 1), count: 100))),
        ("line along z", VoxelCloud(voxelSize: 0.1, positions: (0 ..< 20).map { SIMD3(0, 0, Float($0)) },
                                    colors: Array(repeating: SIMD3(1, 1, 1), count: 20))),
        ("no voxel size", VoxelCloud(voxelSize: nil, positions: (0 ..< 50).map { SIMD3(Float($0) * 0.02, 0.3, 0) },
                                     colors: Array(repeating: SIMD3(1, 1, 1), count: 50))),
    ])
    func fitDegenerate(name: String, cloud: VoxelCloud) throws {
        let framing = SceneFraming(cloud: cloud)
        let camera = OrbitCamera.fitted(to: framing, aspect: aspect)
        #expect(camera.distance.isFinite && camera.distance > 0)
        let extent = try #require(projectedExtent(camera, cloud, box: framing.boxSize, aspect: aspect))
        #expect(extent.min.x >= -1 && extent.min.y >= -1 && extent.max.x <= 1 && extent.max.y <= 1, "\(name) leaves the view")
        let size = extent.max - extent.min
        // Fills at least 40 % of the view one way, and is not seen edge-on (5 % the other way)…
        #expect(max(size.x, size.y) >= 0.8, "\(name) is framed too small: \(size)")
        // …except a line, which is thin by nature but must not collapse to a dot.
        if name != "line along z" && name != "no voxel size" { #expect(min(size.x, size.y) >= 0.1, "\(name) is seen edge-on: \(size)") }
        let (near, far) = camera.clipRange
        for c in corners(cloud, box: framing.boxSize) {
            let depth = dot(c - camera.eye, camera.forward)
            #expect(depth > near && depth < far, "\(name): a corner is clipped")
        }
    }

    @Test("A wide room-like scene fills the view (its bounds, not its bounding sphere) from any angle", arguments: [0, 30, 95, 200] as [Float])
    func fitFills(yaw: Float) throws {
        // A 6 × 4 m floor of points, a wall at the back and a box in the middle: the shape of a
        // captured room, whose bounding sphere is far larger than what the view shows of it.
        var positions: [SIMD3<Float>] = []
        for i in 0 ..< 30 { for j in 0 ..< 20 { positions.append(SIMD3(Float(i) * 0.2 - 3, 0, Float(j) * 0.2 - 2)) } }
        for i in 0 ..< 30 { for k in 0 ..< 9 { positions.append(SIMD3(Float(i) * 0.2 - 3, Float(k) * 0.2, -2)) } }
        positions.append(SIMD3(0, 0.5, 0))
        let cloud = VoxelCloud(voxelSize: 0.05, positions: positions, colors: Array(repeating: .one, count: positions.count))
        let framing = SceneFraming(cloud: cloud)
        let camera = OrbitCamera.fitted(to: framing, aspect: aspect, yawDegrees: yaw, pitchDegrees: 25)
        let extent = try #require(projectedExtent(camera, cloud, box: framing.boxSize, aspect: aspect))
        #expect(extent.min.x >= -1 && extent.min.y >= -1 && extent.max.x <= 1 && extent.max.y <= 1)
        let size = extent.max - extent.min
        #expect(max(size.x, size.y) >= 1.3, "only \(size) of the 2 × 2 view")
    }

    @Test("A cloud without a voxel size gets its box size from the point spacing")
    func inferredBoxSize() {
        let grid = (0 ..< 400).map { SIMD3<Float>(Float($0 % 20) * 0.02, Float($0 / 20) * 0.02, 1) }
        let framing = SceneFraming(cloud: VoxelCloud(voxelSize: nil, positions: grid, colors: Array(repeating: .one, count: grid.count)))
        #expect(framing.boxSizeInferred)
        #expect(close(framing.boxSize, 0.02, 1e-3))
        #expect(PointSpacing.estimate([SIMD3(1, 2, 3)]) == 0.05)
        #expect(PointSpacing.estimate([SIMD3(1, 2, 3), SIMD3(1, 2, 3)]) == 0.05)
        let known = SceneFraming(cloud: VoxelCloud(voxelSize: 0.5, positions: grid, colors: Array(repeating: .one, count: grid.count)))
        #expect(!known.boxSizeInferred && known.boxSize == 0.5)
    }

    @Test("Non-finite points are left out of the framing and the spacing; --box-size skips the estimate")
    func nonFinitePoints() {
        let grid = (0 ..< 100).map { SIMD3<Float>(Float($0 % 10) * 0.1, Float($0 / 10) * 0.1, 0) }
        let bad: [SIMD3<Float>] = [SIMD3(.nan, 0, 0), SIMD3(0, .infinity, 0), SIMD3(0, 0, -.infinity), SIMD3(.nan, .nan, .nan)]
        let cloud = VoxelCloud(voxelSize: nil, positions: bad + grid + bad, colors: Array(repeating: .one, count: 108))
        let framing = SceneFraming(cloud: cloud)
        #expect(framing.boxSizeInferred && close(framing.boxSize, 0.1, 1e-3))
        #expect(close(framing.center.x, 0.45) && close(framing.center.y, 0.45) && framing.center.z == 0)
        #expect(framing.radius.isFinite && close(framing.extent.x, 0.9) && close(framing.extent.y, 0.9) && framing.extent.z == 0)
        #expect(PointSpacing.estimate(bad + [SIMD3(1, 1, 1)]) == 0.05)
        #expect(VoxelCloud.finiteBounds(bad) == nil)
        let onlyBad = SceneFraming(cloud: VoxelCloud(voxelSize: nil, positions: bad, colors: Array(repeating: .one, count: 4)))
        #expect(onlyBad.radius == 1 && onlyBad.center == .zero)
        let given = SceneFraming(cloud: cloud, boxSize: 0.25)
        #expect(!given.boxSizeInferred && given.boxSize == 0.25 && given.center == framing.center)
        // Finite but enormous coordinates keep the framing finite too.
        let huge = SceneFraming(cloud: VoxelCloud(voxelSize: nil, positions: [SIMD3(-3e38, 0, 0), SIMD3(3e38, 1, 0)], colors: [.one, .one]))
        #expect(huge.radius.isFinite && huge.center.x.isFinite && huge.boxSize.isFinite)
        #expect(OrbitCamera.fitted(to: huge, aspect: aspect).distance > 0)
    }

    @Test("A sparse cloud without a voxel size gets boxes a small fraction of its extent")
    func sparseCloudBoxCap() {
        let sparse: [SIMD3<Float>] = [SIMD3(0, 0, 0), SIMD3(4, 0, 0), SIMD3(0, 4, 0), SIMD3(4, 4, 4)]
        let framing = SceneFraming(cloud: VoxelCloud(voxelSize: nil, positions: sparse, colors: Array(repeating: .one, count: 4)))
        #expect(PointSpacing.estimate(sparse) == 4)
        #expect(framing.boxSizeInferred && close(framing.boxSize, 4 / SceneFraming.inferredBoxDivisor))
        // A recorded voxel size is never capped.
        let recorded = SceneFraming(cloud: VoxelCloud(voxelSize: 3, positions: sparse, colors: Array(repeating: .one, count: 4)))
        #expect(recorded.boxSize == 3)
    }

    @Test("Orbiting 180° about the vertical mirrors the picture left to right")
    func orbit180() throws {
        var camera = OrbitCamera(target: .zero, distance: 4, yawDegrees: 0, pitchDegrees: 0)
        // A point in the plane through the target facing the camera lands mirrored in x…
        let p = SIMD3<Float>(0.7, 0.3, 0)
        let before = try #require(camera.project(p, aspect: aspect))
        // …and any point lands where its half-turned twin landed before.
        let q = SIMD3<Float>(0.7, 0.3, 0.4)
        let twin = try #require(camera.project(SIMD3(-q.x, q.y, -q.z), aspect: aspect))
        camera.orbit(yawDegrees: 180, pitchDegrees: 0)
        let after = try #require(camera.project(p, aspect: aspect))
        #expect(close(after.x, -before.x) && close(after.y, before.y))
        let turned = try #require(camera.project(q, aspect: aspect))
        #expect(close(turned.x, twin.x) && close(turned.y, twin.y) && close(turned.z, twin.z))
        #expect(close(camera.eye.z, -4))
    }

    @Test("Turntable keeps the horizon level; trackball may roll")
    func turntableLevel() {
        var camera = OrbitCamera(distance: 2, yawDegrees: 10, pitchDegrees: 20)
        for _ in 0 ..< 10 { camera.orbit(yaw: 0.7, pitch: 0.3) }
        #expect(abs(camera.right.y) < 1e-4)
        camera.mode = .trackball
        for _ in 0 ..< 10 { camera.orbit(yaw: 0.7, pitch: 0.3) }
        #expect(abs(camera.right.y) > 1e-2)
        #expect(close(length(camera.eye - camera.target), 2))
    }

    @Test("Turntable pitch stops at ±89°, however far it is dragged; trackball does not", arguments: [Float(1), -1])
    func turntablePitchClamped(direction: Float) {
        var camera = OrbitCamera(distance: 2, yawDegrees: 30, pitchDegrees: 20)
        let limit = OrbitCamera.maximumTurntablePitch
        for _ in 0 ..< 12 { camera.orbit(yaw: 0.1, pitch: direction * 0.4) }
        #expect(close(camera.pitch, direction * limit, 1e-3))
        #expect(camera.up.y > 0, "the view turned upside down")
        #expect(abs(camera.right.y) < 1e-4)
        camera.orbit(yawDegrees: 0, pitchDegrees: -direction * 30)
        #expect(close(camera.pitch * 180 / .pi, direction * 59, 1e-3))
        var free = OrbitCamera(distance: 2, yawDegrees: 30, pitchDegrees: 80)
        free.mode = .trackball
        free.orbit(yawDegrees: 0, pitchDegrees: 20)
        #expect(free.up.y < 0, "a trackball goes over the top")
    }

    @Test("Zoom to cursor keeps the point under the cursor fixed", arguments: [SIMD2<Float>(0.5, 0.3), SIMD2<Float>(-0.8, -0.6), .zero])
    func zoomToCursor(cursor: SIMD2<Float>) throws {
        var camera = OrbitCamera(target: SIMD3(1, 2, 3), distance: 5, yawDegrees: 33, pitchDegrees: 12, sceneRadius: 2)
        // The point under the cursor on the plane through the target facing the camera.
        let ray = camera.ray(ndc: cursor, aspect: aspect)
        let t = dot(camera.target - ray.origin, camera.forward) / dot(ray.direction, camera.forward)
        let point = ray.origin + ray.direction * t
        let before = try #require(camera.project(point, aspect: aspect))
        #expect(close(before.x, cursor.x, 1e-3) && close(before.y, cursor.y, 1e-3))
        camera.zoom(factor: 0.5, toward: cursor, aspect: aspect)
        #expect(close(camera.distance, 2.5))
        let after = try #require(camera.project(point, aspect: aspect))
        #expect(close(after.x, cursor.x, 1e-3) && close(after.y, cursor.y, 1e-3))
        if cursor == .zero { #expect(close(camera.target.x, 1) && close(camera.target.y, 2) && close(camera.target.z, 3)) }
    }

    @Test("Panning moves the target in the view plane by the dragged fraction of the view")
    func pan() throws {
        var camera = OrbitCamera(distance: 3, yawDegrees: 0, pitchDegrees: 0)
        let p = SIMD3<Float>(0.2, 0.1, 0)
        let before = try #require(camera.project(p, aspect: aspect))
        camera.pan(ndcDelta: SIMD2(0.1, -0.2), aspect: aspect)
        let after = try #require(camera.project(p, aspect: aspect))
        #expect(close(after.x - before.x, 0.1, 1e-3) && close(after.y - before.y, -0.2, 1e-3))
        #expect(camera.target.z == 0)
    }

    @Test("A ray through a voxel picks the nearest box it hits")
    func picking() {
        let cloud = VoxelCloud(voxelSize: 0.1, positions: [SIMD3(0, 0, 0), SIMD3(0, 0, 1), SIMD3(2, 0, 0)],
                               colors: [.one, .one, .one], counts: [4, 5, 6])
        let camera = OrbitCamera(target: .zero, distance: 3, yawDegrees: 0, pitchDegrees: 0)
        let ray = camera.ray(ndc: .zero, aspect: aspect)
        #expect(Picking.pick(cloud, boxSize: 0.1, origin: ray.origin, direction: ray.direction) == 1)
        let miss = camera.ray(ndc: SIMD2(0.9, 0.9), aspect: aspect)
        #expect(Picking.pick(cloud, boxSize: 0.1, origin: miss.origin, direction: miss.direction) == nil)
    }
}
