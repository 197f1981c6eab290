import Testing
@testable import PointPaint

/// A finite point past the keys' reach is counted and named, never dropped in silence.
@Suite struct SceneStoreReachTests {
    @Test func reachIsTwoToTheTwentyCellsOfTheDecimalSize() {
        #expect(SceneStore.reach(voxelSize: 0.05) == 52_428.8)
        #expect(SceneStore.reach(voxelSize: 0.001) == 1_048.576)
    }

    @Test func finitePointsPastTheReachAreCountedAndNamed() throws {
        var store = SceneStore(voxelSize: 0.05)
        let far = SIMD3<Float>(500_000, 5_400_000, 200)
        let points: [SIMD3<Float>] = [[1, 2, 3], far, [.nan, 0, 0], [0, 60_000, 0], [.infinity, 0, 0]]
        let accepted = store.add(points: points, colors: Array(repeating: [0.5, 0.5, 0.5], count: points.count))
        #expect(accepted == 1)
        #expect(store.rejectedCount == 4)
        #expect(store.unheld.count == 2 && store.unheld.first == far, "non-finite points are not unheld: \(store.unheld)")
        let error = try #require(store.unheldError(file: "cloud.ply", place: .frame(3)))
        #expect(error.kind == .outOfRange)
        #expect(error.description == "cloud.ply: frame 3: point (500000.000, 5400000.000, 200.000) (and 1 more) lies "
            + "past the voxel grid's reach: at 0.05 m voxels a cell must lie within ±52428.8 m (2^20 cells) of the "
            + "origin on each axis", "\(error)")
        #expect(throws: PointPaintError.self) { try store.requireEveryPointHeld() }
    }

    @Test func singlesBatchesAndMergesAllCount() {
        var a = SceneStore(voxelSize: 1)
        let far = a.add([0, 0, 2_000_000], color: .zero), notANumber = a.add([.nan, 0, 0], color: .zero)
        #expect(!far && !notANumber)
        #expect(a.unheld.count == 1)
        var b = SceneStore(voxelSize: 1)
        // Above the partition threshold, the batch goes the partitioned way.
        var points = [SIMD3<Float>](repeating: [1, 1, 1], count: 40_000)
        points[39_999] = [-3_000_000, 0, 0]
        b.add(points: points, colors: Array(repeating: .zero, count: points.count))
        #expect(b.unheld.count == 1 && b.unheld.first == [-3_000_000, 0, 0])
        a.merge(b)
        #expect(a.unheld.count == 2 && a.unheld.first == [0, 0, 2_000_000])
        var held = SceneStore(voxelSize: 1)
        held.add(points: [[1, 1, 1], [.nan, 1, 1]], colors: [.zero, .zero])
        #expect(held.unheldError() == nil)
    }
}
