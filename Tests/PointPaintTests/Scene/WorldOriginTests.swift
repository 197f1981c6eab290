import Testing
@testable import PointPaint

/// Where clouds are measured from: zero near the world origin, the rounded centre elsewhere.
@Suite struct WorldOriginTests {
    @Test func nearTheOriginTheOriginIsZero() {
        #expect(WorldOrigin.choose(min: [-1024, -3, 0], max: [5, 1024, 12]) == .zero)
        #expect(WorldOrigin.choose(min: [0, 0, 0], max: [1024.5, 0, 0]) == [512, 0, 0])
    }

    @Test func farAwayItIsTheCentreRoundedToWholeMetres() {
        #expect(WorldOrigin.choose(min: [500_000.2, 5_400_000.7, 100], max: [500_100.9, 5_400_010.1, 101])
                == [500_051, 5_400_005, 100])
        #expect(WorldOrigin.choose(min: [-730_003.4, 0, 0], max: [-729_990, 1, 1]) == [-729_997, 0, 0])
    }

    @Test func coordinatesPastTwoToTheThirtyOneMetresAreRefused() throws {
        try WorldOrigin.check(min: [-2_147_483_647, 0, 0], max: [0, 0, 0], file: nil)
        let error = try #require(throws: PointPaintError.self) {
            try WorldOrigin.check(min: [0, 0, 0], max: [0, 3e9, 0], file: "far.las")
        }
        #expect(error.kind == .outOfRange && error.file == "far.las")
        #expect(error.message.contains("3000000000"), "\(error)")
    }

    @Test func floatsRoundByHalfTheirSpacing() {
        #expect(WorldOrigin.floatRoundingError(at: 1024) == 1.0 / 16_384)  // 2^-14: 61 µm
        #expect(WorldOrigin.floatRoundingError(at: 5_400_000) == 0.25)
    }

    @Test func aCameraMeasuredFromAnOriginProjectsTheMovedPointAlike() throws {
        let pose = Matrix4x4(columnMajor: [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 500_010, 5_400_002, 120, 1])
        let camera = try #require(Camera(intrinsics: CameraIntrinsics(fx: 500, fy: 500, cx: 320, cy: 240), transform: pose))
        let origin = SIMD3<Double>(500_000, 5_400_000, 100)
        let local = camera.measured(from: origin)
        #expect(local.position == [10, 2, 20])
        let world = SIMD3<Double>(500_000.25, 5_400_002.5, 119.5)
        guard case .visible(let s, let t) = local.project(world - origin, width: 640, height: 480),
              case .visible(let s0, let t0) = camera.project(world, width: 640, height: 480) else {
            Issue.record("the point is in front of the camera, inside the image")
            return
        }
        // The same place; the world camera loses ~1e-10 to the 5,400 km it subtracts.
        #expect(abs(s - s0) < 1e-9 && abs(t - t0) < 1e-9, "(\(s), \(t)) against (\(s0), \(t0))")
        #expect(camera.measured(from: .zero) == camera)
    }
}
