import Foundation
import Testing
@testable import PointPaint

/// Points from depth against the scene they were rendered from: every point lies on the surface
/// its pixel's ray hits, and projects back to the pixel it came from.
@Suite struct DepthMapPointsTests {
    static let synthesizer: CaptureSynthesizer = {
        let options = CaptureSynthesizer.Options(frames: 5, width: 640, height: 480)
        return CaptureSynthesizer(options: options)
    }()

    @Test(arguments: [(256, 192), (64, 48)])
    func pointsLieOnTheSurfacesTheirRaysHit(size: (Int, Int)) throws {
        let synth = Self.synthesizer
        for frame in [0, 2, 4] {
            let camera = synth.camera(frame: frame)
            let map = synth.renderDepth(frame: frame, width: size.0, height: size.1)
            var sampling = DepthSampling()
            sampling.minimumConfidence = .low
            sampling.maximumDepth = 100
            var positions: [SIMD3<Float>] = [], coordinates: [SIMD2<Float>] = []
            let counts = map.appendPoints(camera: camera, imageWidth: 640, imageHeight: 480, sampling: sampling,
                                          positions: &positions, coordinates: &coordinates)
            #expect(counts.points == positions.count && positions.count == coordinates.count)
            #expect(counts.points + counts.noDepth == size.0 * size.1)
            #expect(counts.points > size.0 * size.1 / 2, "the scene fills most of the view")
            var worstDistance = 0.0, worstPixel = 0.0
            for (p, st) in zip(positions, coordinates) {
                // The ray through the pixel centre, in the colour image's pixels.
                let ray = camera.ray(u: Double(st.x) * 640, v: Double(st.y) * 480)
                let hit = try #require(synth.scene.intersect(origin: ray.origin, direction: ray.direction))
                let d = SIMD3<Double>(p) - hit.point
                worstDistance = max(worstDistance, (d * d).sum().squareRoot())
                guard case .visible(let s, let t) = camera.project(SIMD3<Double>(p), width: 640, height: 480) else {
                    Issue.record("a point from depth projects outside its own image")
                    continue
                }
                worstPixel = max(worstPixel, abs(s * 640 - Double(st.x) * 640), abs(t * 480 - Double(st.y) * 480))
            }
            // Float positions a few metres from the origin: micrometres.
            #expect(worstDistance < 2e-5, "frame \(frame): \(worstDistance) m")
            #expect(worstPixel < 1e-3, "frame \(frame): \(worstPixel) px")
        }
    }

    @Test func pixelsAreSkippedForNoDepthConfidenceAndDistanceAndCounted() {
        let depth: [Float] = [0, .nan, -1, .infinity, 1, 2, 6, 1.5]
        let confidence: [UInt8] = [2, 2, 2, 2, 0, 1, 2, 2]
        let map = DepthMap(width: 4, height: 2, depth: depth, confidence: confidence)
        let camera = Camera(intrinsics: CameraIntrinsics(fx: 4, fy: 4, cx: 2, cy: 1), transform: .identity)!
        var sampling = DepthSampling()
        var positions: [SIMD3<Float>] = [], coordinates: [SIMD2<Float>] = []
        var counts = map.appendPoints(camera: camera, imageWidth: 4, imageHeight: 2, sampling: sampling, positions: &positions, coordinates: &coordinates)
        #expect(counts == DepthPointCounts(considered: 8, points: 1, noDepth: 4, lowConfidence: 2, tooFar: 1))
        // Pixel (3, 1) at 1.5 m: x = (3.5 − 2)·1.5/4, y = −(1.5 − 1)·1.5/4, z = −1.5.
        #expect(positions == [SIMD3(0.5625, -0.1875, -1.5)])
        #expect(coordinates == [SIMD2(3.5 / 4, 1.5 / 2)])
        sampling.minimumConfidence = .medium
        sampling.maximumDepth = 10
        positions = []
        coordinates = []
        counts = map.appendPoints(camera: camera, imageWidth: 4, imageHeight: 2, sampling: sampling, positions: &positions, coordinates: &coordinates)
        #expect(counts.points == 3 && counts.lowConfidence == 1 && counts.tooFar == 0)
        // Without a confidence map every pixel counts as high.
        let plain = DepthMap(width: 4, height: 2, depth: depth)
        counts = plain.appendPoints(camera: camera, imageWidth: 4, imageHeight: 2, sampling: DepthSampling(), positions: &positions, coordinates: &coordinates)
        #expect(counts.points == 3 && counts.lowConfidence == 0 && counts.tooFar == 1)
    }

    @Test func strideTakesEveryNthPixelFromTheFirst() {
        let map = DepthMap(width: 5, height: 3, depth: [Float](repeating: 1, count: 15))
        let camera = Camera(intrinsics: CameraIntrinsics(fx: 5, fy: 5, cx: 2.5, cy: 1.5), transform: .identity)!
        var sampling = DepthSampling()
        sampling.stride = 2
        var positions: [SIMD3<Float>] = [], coordinates: [SIMD2<Float>] = []
        let counts = map.appendPoints(camera: camera, imageWidth: 10, imageHeight: 6, sampling: sampling, positions: &positions, coordinates: &coordinates)
        #expect(counts.considered == 6 && counts.points == 6)
        #expect(coordinates.map { SIMD2(($0.x * 5 - 0.5).rounded(), ($0.y * 3 - 0.5).rounded()) }
                == [SIMD2(0, 0), SIMD2(2, 0), SIMD2(4, 0), SIMD2(0, 2), SIMD2(2, 2), SIMD2(4, 2)])
    }
}
