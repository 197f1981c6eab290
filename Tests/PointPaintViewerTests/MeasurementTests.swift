import PointPaint
import Testing
@testable import PointPaintViewer

@Suite("Measuring")
struct MeasurementTests {
    /// A floor voxel, a voxel on a shelf 1.2 m up and 2 m across, and clutter around them.
    static let cloud: VoxelCloud = {
        var positions: [SIMD3<Float>] = [SIMD3(-1, 0, 0.5), SIMD3(1, 1.2, 0.5)]
        for i in 0 ..< 40 { positions.append(SIMD3(Float(i % 8) * 0.3 - 1.2, Float(i / 8) * 0.3 - 0.6, -1.5)) }
        return VoxelCloud(voxelSize: 0.1, positions: positions, colors: Array(repeating: .one, count: positions.count))
    }()

    @Test("Two picks through the camera's rays give the voxels' distance and height difference")
    func twoPicks() throws {
        let aspect: Float = 4 / 3
        let framing = SceneFraming(cloud: Self.cloud)
        let camera = OrbitCamera.fitted(to: framing, aspect: aspect, yawDegrees: 25, pitchDegrees: 20)
        var picked: [Int] = []
        for target in [0, 1] {
            // Click where the voxel shows: its projection, turned back into a ray.
            let ndc = try #require(camera.project(Self.cloud.positions[target], aspect: aspect))
            let ray = camera.ray(ndc: SIMD2(ndc.x, ndc.y), aspect: aspect)
            let index = try #require(Picking.pick(Self.cloud, boxSize: framing.boxSize, origin: ray.origin, direction: ray.direction))
            let octree = PointOctree(positions: Self.cloud.positions)
            #expect(octree.pick(positions: Self.cloud.positions, boxSize: framing.boxSize, origin: ray.origin, direction: ray.direction) == index)
            picked.append(index)
        }
        #expect(picked == [0, 1])
        let measurement = Measurement(from: Self.cloud.positions[picked[0]], to: Self.cloud.positions[picked[1]])
        #expect(abs(measurement.distance - (4 + 1.44 as Float).squareRoot()) < 1e-5)
        #expect(abs(measurement.heightDifference - 1.2) < 1e-6)
        #expect(abs(measurement.horizontalDistance - 2) < 1e-6)
        #expect(measurement.description == "distance 2.332 m, height +1.200 m, horizontal 2.000 m")
        let back = Measurement(from: measurement.to, to: measurement.from)
        #expect(back.heightDifference == -measurement.heightDifference && back.distance == measurement.distance)
    }
}
