import Foundation
import Testing
@testable import PointPaint

/// `FrameProjection` equals a plain loop over every point (as `Camera.project` projects), with
/// and without skipping blocks, through every kernel this CPU runs; `CloudBlocks` bound their
/// points.
@Suite struct FrameProjectionTests {
    /// A cloud of patches in file order (so blocks are compact), some far off to every side and
    /// behind, plus points scattered everywhere (so some blocks are wide).
    static func cloud(seed: UInt64) -> [SIMD3<Float>] {
        var rng = SplitMix64(seed: seed)
        var points: [SIMD3<Float>] = []
        for _ in 0 ..< 40 {
            let centre = SIMD3<Float>(Float.random(in: -12 ... 12, using: &rng), Float.random(in: -12 ... 12, using: &rng), Float.random(in: -12 ... 12, using: &rng))
            for _ in 0 ..< 700 { points.append(centre + SIMD3(Float.random(in: -0.3 ... 0.3, using: &rng), Float.random(in: -0.3 ... 0.3, using: &rng), Float.random(in: -0.3 ... 0.3, using: &rng))) }
        }
        for _ in 0 ..< 3003 { points.append(SIMD3(Float.random(in: -12 ... 12, using: &rng), Float.random(in: -12 ... 12, using: &rng), Float.random(in: -12 ... 12, using: &rng))) }
        return points
    }

    /// A camera at `position` turned by `yaw` about y, ARKit axes.
    static func camera(position: SIMD3<Double>, yaw: Double) -> Camera {
        let c = cos(yaw), s = sin(yaw)
        let transform = Matrix4x4(columns: SIMD4(c, 0, -s, 0), SIMD4(0, 1, 0, 0), SIMD4(s, 0, c, 0), SIMD4(position.x, position.y, position.z, 1))
        return Camera(intrinsics: CameraIntrinsics(fx: 500, fy: 500, cx: 320, cy: 240), transform: transform)!
    }

    @Test(arguments: [(0.0, 0.0), (1.0, 0.7), (-3.0, 2.5), (5.0, -1.9)])
    func equalsTheLoopOverEveryPoint(x: Double, yaw: Double) {
        let positions = Self.cloud(seed: 7)
        let camera = Self.camera(position: SIMD3(x, 0.5, 1), yaw: yaw)
        // The reference: observe's loop, point by point.
        var candidates: [UInt32] = [], coordinates: [SIMD2<Float>] = [], depths: [Float] = []
        var behind = 0, outside = 0
        for (i, p) in positions.enumerated() {
            let c = camera.worldToCamera.transformPoint(SIMD3<Double>(p))
            guard c.z < 0 else { behind += 1; continue }
            let depth = -c.z
            let u = 500 * c.x / depth + 320, v = 500 * -c.y / depth + 240
            let s = u / 640, t = v / 480
            guard s >= 0, s < 1, t >= 0, t < 1 else { outside += 1; continue }
            candidates.append(UInt32(i))
            coordinates.append(SIMD2(Float(s), Float(t)))
            depths.append(Float(depth))
        }
        let blocks = CloudBlocks(positions)
        for kernel in CPUKernel.allCases where kernel.isAvailable {
            for projection in [FrameProjection(positions: positions, blocks: nil, camera: camera, width: 640, height: 480, kernel: kernel),
                               FrameProjection(positions: positions, blocks: blocks, camera: camera, width: 640, height: 480, kernel: kernel)] {
                #expect(projection.candidates == candidates, "\(kernel)")
                #expect(projection.coordinates == coordinates, "\(kernel)")
                #expect(projection.depths == depths, "\(kernel)")
                #expect(projection.behind == behind && projection.outside == outside, "\(kernel)")
            }
            // Into reused arrays, as observations project: the same, from their start.
            let buffers = ObservationScratch.Buffers()
            buffers.reserve(positions.count + 5)
            for _ in 0 ..< 2 {
                let counts = FrameProjection.project(positions, blocks: blocks, camera: camera, width: 640, height: 480, kernel: kernel,
                                                     into: buffers)
                #expect(counts.candidates == candidates.count && counts.behind == behind && counts.outside == outside, "\(kernel)")
                let n = counts.candidates
                #expect(Array(UnsafeBufferPointer(start: buffers.candidates, count: n)) == candidates, "\(kernel)")
                #expect(Array(UnsafeBufferPointer(start: buffers.coordinates, count: n)) == coordinates, "\(kernel)")
                #expect(Array(UnsafeBufferPointer(start: buffers.depths, count: n)) == depths, "\(kernel)")
            }
        }
        #expect(!candidates.isEmpty && behind > 0 && outside > 0, "the case covers all three")
        let skipped = FrameProjection(positions: positions, blocks: blocks, camera: camera, width: 640, height: 480).skippedBlocks
        #expect(skipped > 0, "some patches lie wholly behind or beside the camera")
    }

    @Test func blocksBoundTheirPoints() {
        let positions = Self.cloud(seed: 3)
        let blocks = CloudBlocks(positions)
        #expect(blocks.count == (positions.count + CloudBlocks.size - 1) / CloudBlocks.size)
        for (i, p) in positions.enumerated() {
            let b = i / CloudBlocks.size
            #expect(all(p .>= blocks.lower[b]) && all(p .<= blocks.upper[b]))
        }
        #expect(blocks.magnitude <= 12.3 && blocks.magnitude > 11, "patches reach 0.3 past ±12")
    }

    @Test func aBlockStraddlingAnEdgeIsProjectedPointByPoint() {
        // One block: points on both sides of the image's left edge, and one just inside.
        let camera = Self.camera(position: .zero, yaw: 0)
        // u = 500·x/2 + 320 at depth 2: x = −1.28 is the left edge.
        let positions = (0 ..< 100).map { SIMD3<Float>(-1.28 + Float($0 - 50) * 1e-4, 0, -2) }
        let projection = FrameProjection(positions: positions, blocks: CloudBlocks(positions), camera: camera, width: 640, height: 480)
        #expect(projection.skippedBlocks == 0)
        #expect(projection.candidates.count + projection.outside == 100 && projection.candidates.count >= 49)
    }
}
