import Testing
@testable import PointPaint

/// Samples of `frames` frames over a few hundred voxels, wide colours included.
private func frames(_ count: Int, perFrame: Int, seed: UInt64) -> [(points: [SIMD3<Float>], colors: [SIMD3<Float>])] {
    var state = seed
    func next() -> Float {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(state >> 40) / Float(1 << 24)
    }
    return (0 ..< count).map { _ in
        let points = (0 ..< perFrame).map { _ in SIMD3(next(), next(), next()) * 2 - 1 }
        let colors = (0 ..< perFrame).map { _ in SIMD3(next(), next(), next()) * 1.4 - 0.2 }
        return (points, colors)
    }
}

@Suite("SceneStore canonical order")
struct SceneStoreCanonicalTests {
    @Test("the canonical cloud holds cloud()'s voxels in Morton order", arguments: AccumulationPolicy.allCases)
    func mortonOrder(policy: AccumulationPolicy) throws {
        var store = SceneStore(voxelSize: 0.1, policy: policy)
        for (f, frame) in frames(6, perFrame: 900, seed: 3).enumerated() { store.add(points: frame.points, colors: frame.colors, frame: f) }
        let canonical = store.canonicalCloud()
        let insertion = store.cloud()
        #expect(canonical.count == insertion.count && canonical.count > 500)
        let codes = canonical.positions.map { VoxelKey(containing: $0, voxelSize: 0.1)!.mortonCode }
        #expect(zip(codes, codes.dropFirst()).allSatisfy { $0 < $1 }, "strictly increasing codes")
        // The same voxels with the same colours and counts, only reordered.
        let byCode = Dictionary(uniqueKeysWithValues: (0 ..< insertion.count).map {
            (VoxelKey(containing: insertion.positions[$0], voxelSize: 0.1)!.mortonCode, $0)
        })
        for (i, code) in codes.enumerated() {
            let j = try #require(byCode[code])
            #expect(canonical.positions[i] == insertion.positions[j])
            #expect(canonical.colors[i] == insertion.colors[j])
            #expect(canonical.counts[i] == insertion.counts[j])
        }
    }

    @Test("frames split over stores in any way and merged give the same canonical cloud", arguments: AccumulationPolicy.allCases)
    func shardsAgree(policy: AccumulationPolicy) {
        let input = frames(12, perFrame: 700, seed: 11)
        var whole = SceneStore(voxelSize: 0.1, policy: policy)
        for (f, frame) in input.enumerated() { whole.add(points: frame.points, colors: frame.colors, frame: f) }
        let reference = whole.canonicalCloud()
        for n in [2, 3, 5] {
            var shards = (0 ..< n).map { _ in SceneStore(voxelSize: 0.1, policy: policy) }
            for (f, frame) in input.enumerated() { shards[f % n].add(points: frame.points, colors: frame.colors, frame: f) }
            var merged = shards.removeLast()  // merged in reverse: a different insertion order
            for shard in shards.reversed() { merged.merge(shard) }
            #expect(merged.cloud() != whole.cloud(), "insertion order differs")
            #expect(merged.canonicalCloud() == reference, "\(n) shards")
        }
    }

    @Test("a full voxel refuses further samples and merged counts that would pass the limit")
    func fullVoxel() {
        var store = SceneStore(voxelSize: 1)
        store.add(SIMD3(0.5, 0.5, 0.5), color: SIMD3(1, 1, 1))
        store.storage.records[0].count = UInt32.max - 1
        let last = store.add(SIMD3(0.5, 0.5, 0.5), color: SIMD3(1, 1, 1))
        let past = store.add(SIMD3(0.5, 0.5, 0.5), color: SIMD3(1, 1, 1))
        #expect(last && !past, "the voxel is full")
        let batch = store.add(points: [SIMD3(0.5, 0.5, 0.5), SIMD3(2.5, 0.5, 0.5)], colors: [.zero, .zero])
        #expect(batch == 1)
        #expect(store.rejectedCount == 2)
        #expect(store[0].count == UInt32.max)
        var other = SceneStore(voxelSize: 1)
        other.add(points: [SIMD3(0.5, 0.5, 0.5), SIMD3(0.2, 0.2, 0.2), SIMD3(5.5, 0.5, 0.5)], colors: [.zero, .zero, .zero])
        let before = store.sampleCount
        store.merge(other)
        #expect(store[0].count == UInt32.max, "the full voxel keeps what it had")
        #expect(store.rejectedCount == 4, "both samples of the merged voxel are refused")
        #expect(store.sampleCount == before + 1)
        #expect(store.count == 3)
    }

    @Test("the store's info holds its counts and cell bounds")
    func info() {
        var store = SceneStore(voxelSize: 0.5, policy: .latest)
        store.add(points: [SIMD3(-1.2, 0, 3), SIMD3(2.6, -4.1, 0.1), SIMD3(.nan, 0, 0)], colors: [.zero, .zero, .zero], frame: 4)
        let info = store.storeInfo(provenance: StoreProvenance(kind: .replay, source: "cap", frameCount: 1))
        #expect(info.voxelCount == 2 && info.sampleCount == 2 && info.rejectedCount == 1)
        #expect(info.keyBounds == StoreInfo.KeyBounds(min: SIMD3(-3, -9, 0), max: SIMD3(5, 0, 6)))
        #expect(info.plyComments == ["replayed 1 frames, 2 samples, latest accumulation"])
        #expect(SceneStore(voxelSize: 1).storeInfo(provenance: StoreProvenance(kind: .points)).keyBounds == nil)
    }
}
