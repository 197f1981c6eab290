import Testing
@testable import PointPaint

/// Quality properties: views and the colour spread of each point, written to PLY and read back.
@Suite struct PaintResultTests {
    @Test func spreadIsTheStandardDeviationOfTheObservations() throws {
        let cloud = try PaintCloud(path: "two", positions: [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(2, 0, 0)], colors: nil)
        var accumulator = PaintAccumulator(count: 3, accumulation: .mean, voxelSize: nil, spread: true)
        accumulator.add(points: [0, 1], colors: [SIMD3(0.2, 0.5, 0.5), SIMD3(0.3, 0.3, 0.3)], frame: 0, cloud: cloud)
        accumulator.add(points: [0], colors: [SIMD3(0.6, 0.5, 0.4)], frame: 1, cloud: cloud)
        var statistics = CloudPainter.Statistics()
        statistics.seen = accumulator.seenCount
        statistics.unseen = 3 - statistics.seen
        let result = accumulator.result(cloud: cloud, unseen: .keep, statistics: statistics)
        let spread = try #require(result.colourSD)
        #expect(abs(spread[0] - 0.2) < 1e-6, "red varies by ±0.2: \(spread[0])")
        #expect(spread[1] == 0 && spread[2] == 0, "one view, no view: no spread")
        #expect(result.cloud.counts == [2, 1, 0])

        let ply = result.plyFile(qualityProperties: true)
        let back = try PLYReader.read(bytes: PLYWriter.encode(ply), file: "quality.ply")
        let vertex = try #require(back[element: "vertex"])
        #expect(vertex[property: "views"]?.values.doubles() == [2, 1, 0])
        let sd = try #require(vertex[property: "colour_sd"]).values.floats()
        #expect(sd == spread)
        #expect(result.plyFile()[element: "vertex"]?[property: "views"] == nil, "only when asked for")
    }

    /// Quality properties in voxels: each voxel's observations and their spread, no store.
    @Test func qualityPropertiesInVoxels() throws {
        let cloud = try PaintCloud(path: "c.ply", positions: [SIMD3(0.1, 0, 0), SIMD3(0.3, 0, 0)], colors: nil)
        var accumulator = PaintAccumulator(cloud: cloud, accumulation: .mean, voxelSize: 1, spread: true, weighted: false)
        accumulator.add(points: [0, 1], colors: [SIMD3(0.2, 0.5, 0.5), SIMD3(0.6, 0.5, 0.5)], frame: 0, cloud: cloud)
        var statistics = CloudPainter.Statistics()
        statistics.seen = 2
        let result = accumulator.result(cloud: cloud, unseen: .keep, statistics: statistics)
        #expect(result.store == nil && result.cloud.counts == [2])
        #expect(abs(try #require(result.colourSD)[0] - 0.2) < 1e-6)
    }
}
