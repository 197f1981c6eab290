import Testing
@testable import PointPaint

/// Deterministic samples spread over a few hundred voxels, frames out of order, ties included.
private func samples(_ n: Int, seed: UInt64) -> [(p: SIMD3<Float>, c: SIMD3<Float>, frame: Int)] {
    var state = seed
    func next() -> Float {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Float(state >> 40) / Float(1 << 24)
    }
    return (0 ..< n).map { _ in
        let p = SIMD3(next(), next(), next()) * 0.8 - 0.3
        let c = SIMD3(next(), next(), next()) * 1.6 - 0.3  // wide colour: outside 0…1 too
        return (p, c, Int(next() * 7))
    }
}

private func store(_ s: ArraySlice<(p: SIMD3<Float>, c: SIMD3<Float>, frame: Int)>, _ policy: AccumulationPolicy) -> SceneStore {
    var store = SceneStore(voxelSize: 0.1, policy: policy)
    for x in s { store.add(x.p, color: x.c, frame: x.frame) }
    return store
}

private func voxels(_ s: SceneStore) -> [SceneStore.Voxel] { (0 ..< s.count).map { s[$0] } }

@Suite("SceneStore")
struct SceneStoreTests {
    @Test("mean averages in linear light and exports gamma-encoded")
    func linearMean() throws {
        var s = SceneStore(voxelSize: 1)
        s.add(SIMD3(0.2, 0.2, 0.2), color: SIMD3(0, 0, 0))
        s.add(SIMD3(0.7, 0.7, 0.7), color: SIMD3(1, 1, 1))
        #expect(s.count == 1)
        let v = s[0]
        #expect(v.count == 2)
        #expect(v.color == SIMD3(0.5, 0.5, 0.5))
        let cloud = s.cloud()
        // encode(0.5) = 0.7354, not the 0.5 a gamma-space average would give.
        #expect(abs(cloud.colors[0].x - 0.735_357) < 1e-5)
        #expect(cloud.positions[0] == SIMD3(0.5, 0.5, 0.5))
        #expect(cloud.counts == [2])
        #expect(cloud.voxelSize == 1)
    }

    @Test("wide-colour values survive to export")
    func wideColour() {
        var s = SceneStore(voxelSize: 1)
        s.add(.zero, color: SIMD3(1.5, -0.2, 0.25))
        let c = s[0].color
        #expect(abs(c.x - 1.5) < 1e-6 && abs(c.y + 0.2) < 1e-6 && abs(c.z - 0.25) < 1e-6)
        let e = s.cloud().colors[0]
        #expect(e.x > 1 && e.y < 0)
        #expect(abs(e.x - SRGBTransfer.encode(Float(1.5))) < 1e-5)
    }

    @Test("latest keeps the greatest frame, ties to the last added; first the smallest, ties to the first")
    func latestAndFirst() {
        let p = SIMD3<Float>(0.5, 0.5, 0.5)
        var latest = SceneStore(voxelSize: 1, policy: .latest)
        var first = SceneStore(voxelSize: 1, policy: .first)
        let feed: [(Float, Int)] = [(0.1, 3), (0.2, 5), (0.3, 1), (0.4, 5), (0.5, 1), (0.6, 4)]
        for (c, f) in feed {
            latest.add(p, color: SIMD3(repeating: c), frame: f)
            first.add(p, color: SIMD3(repeating: c), frame: f)
        }
        #expect(latest[0].color.x == 0.4)
        #expect(first[0].color.x == 0.3)
        for s in [latest, first] {
            #expect(s[0].firstFrame == 1 && s[0].lastFrame == 5 && s[0].count == 6)
        }
    }

    /// `voxelize --accumulate first` wrote NaN and infinite colours where `mean` cleaned them.
    @Test("every policy keeps NaN as 0 and clamps to ±64, one sample at a time or in a large batch",
          arguments: AccumulationPolicy.allCases)
    func nonFiniteColours(policy: AccumulationPolicy) {
        let bad: [SIMD3<Float>] = [SIMD3(.nan, .infinity, -.infinity), SIMD3(1e30, -1e30, .signalingNaN)]
        var single = SceneStore(voxelSize: 1, policy: policy)
        for (i, c) in bad.enumerated() { single.add(SIMD3(Float(i) * 2, 0, 0), color: c) }
        // `partitionThreshold` samples or more take the partitioned path.
        let n = SceneStore.partitionThreshold + 4_464
        var batch = SceneStore(voxelSize: 1, policy: policy)
        batch.add(points: (0 ..< n).map { SIMD3(Float($0 % 2) * 2, 0, 0) }, colors: (0 ..< n).map { bad[$0 % 2] })
        for store in [single, batch] {
            #expect(store.count == 2)
            let colors = (0 ..< store.count).map { store[$0].color }
            #expect(colors.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }, "\(policy): \(colors)")
            #expect(store.cloud().colors.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite })
            #expect(colors[0].x == 0 && colors[0].y == 64 && colors[0].z == -64 && colors[1].x == 64 && colors[1].z == 0)
        }
    }

    @Test("voxel indices follow first appearance; cloud(from:) gives only new voxels")
    func insertionOrder() throws {
        var s = SceneStore(voxelSize: 1)
        s.add(SIMD3(5, 0, 0), color: .zero)
        s.add(SIMD3(-3, 0, 0), color: .zero)
        s.add(SIMD3(5.5, 0, 0), color: .zero)
        let before = s.count
        s.add(SIMD3(0, 9, 0), color: .zero)
        #expect(s[0].key == VoxelKey(x: 5, y: 0, z: 0))
        #expect(s[1].key == VoxelKey(x: -3, y: 0, z: 0))
        #expect(s.index(of: VoxelKey(x: 0, y: 9, z: 0)) == 2)
        #expect(s.index(of: VoxelKey(x: 1, y: 1, z: 1)) == nil)
        let delta = s.cloud(from: before)
        #expect(delta.count == 1)
        #expect(delta.positions[0] == SIMD3(0.5, 9.5, 0.5))
    }

    @Test("merging equals one store fed both inputs", arguments: AccumulationPolicy.allCases)
    func mergeProperty(policy: AccumulationPolicy) {
        let all = samples(3000, seed: 7)
        let whole = store(all[...], policy)
        for cut in [0, 1, 1234, 3000] {
            var merged = store(all[..<cut], policy)
            merged.merge(store(all[cut...], policy))
            #expect(voxels(merged) == voxels(whole), "cut at \(cut)")
            #expect(merged.sampleCount == whole.sampleCount)
        }
        // Three parts, merged left to right.
        var three = store(all[..<500], policy)
        three.merge(store(all[500 ..< 2100], policy))
        three.merge(store(all[2100...], policy))
        #expect(voxels(three) == voxels(whole))
        #expect(three.cloud() == whole.cloud())
    }

    @Test("batch adds equal single adds, and repeated runs are identical", arguments: AccumulationPolicy.allCases)
    func determinism(policy: AccumulationPolicy) {
        let all = samples(5000, seed: 99)
        var batch = SceneStore(voxelSize: 0.1, policy: policy)
        // One frame a batch: group by frame, keeping order within each.
        for frame in 0 ..< 7 {
            let part = all.filter { $0.frame == frame }
            batch.add(points: part.map(\.p), colors: part.map(\.c), frame: frame)
        }
        var single = SceneStore(voxelSize: 0.1, policy: policy)
        for frame in 0 ..< 7 { for x in all where x.frame == frame { single.add(x.p, color: x.c, frame: frame) } }
        #expect(voxels(batch) == voxels(single))
        #expect(batch.cloud() == single.cloud())
    }

    @Test("growth keeps every voxel findable; copies are independent")
    func growthAndCopies() throws {
        var s = SceneStore(voxelSize: 1)
        var points: [SIMD3<Float>] = []
        for i in 0 ..< 70_000 { points.append(SIMD3(Float(i % 41), Float((i / 41) % 43), Float(i / (41 * 43)))) }
        s.add(points: points, colors: Array(repeating: SIMD3(0.5, 0.5, 0.5), count: points.count))
        #expect(s.count == 70_000)
        for i in stride(from: 0, to: 70_000, by: 997) {
            let key = try #require(VoxelKey(containing: points[i], voxelSize: 1))
            #expect(s.index(of: key) == i)
        }
        let copy = s
        s.add(SIMD3(1000, 0, 0), color: .zero)
        #expect(copy.count == 70_000)
        #expect(s.count == 70_001)
    }

    @Test("points without a finite cell are counted, not stored")
    func rejects() {
        var s = SceneStore(voxelSize: 0.01)
        let accepted = s.add(SIMD3(.nan, 0, 0), color: .zero)
        #expect(!accepted)
        let n = s.add(points: [SIMD3(0, 0, 0), SIMD3(1e9, 0, 0), SIMD3(0, -.infinity, 0)], colors: Array(repeating: .zero, count: 3))
        #expect(n == 1)
        #expect(s.rejectedCount == 3)
        #expect(s.count == 1)
        // NaN colours accumulate as zero rather than trapping.
        s.add(.zero, color: SIMD3(.nan, 1, 1))
        #expect(s[0].color.x == 0)
    }

    @Test("slots decode to the record index and fingerprint they were made from")
    func slots() {
        let hash: UInt64 = 0xDEAD_BEEF_0123_4567
        let wide = SceneStore.Slot<UInt64>(index: 41, hash: hash)
        #expect(!wide.isEmpty && wide.index(below: 42) == 41)
        #expect(wide.matches(hash: hash) && wide.matches(hash: 0xDEAD_BEEF_0000_0000) && !wide.matches(hash: 0x0EAD_BEEF_0123_4567))
        let narrow = SceneStore.Slot<UInt32>(index: 0, hash: hash)
        #expect(narrow.raw == 1 && narrow.index(below: 1) == 0 && narrow.matches(hash: 0))
        #expect(SceneStore.Slot<UInt64>.empty.isEmpty)
        let last = SceneStore.Slot<UInt64>(index: Int(UInt32.max) - 1, hash: 0)
        #expect(last.index(below: Int(UInt32.max)) == Int(UInt32.max) - 1)
    }

    @Test("a slot table finds what it holds, probing from the top bits of the hashes it is given")
    func slotTable() {
        let memory = UnsafeMutablePointer<SceneStore.Slot<UInt32>>.allocate(capacity: 1 << 6)
        defer { memory.deallocate() }
        let table = SceneStore.SlotTable(emptying: memory, bits: 6)
        let top: UInt64 = 0xDEAD_BEEF_0123_4567
        #expect(table.position(top) == Int(top >> 58))
        let records = (0 ..< 40).map { SceneStore.Record(key: Int64($0) * 7919, r: 0, g: 0, b: 0, count: 0, first: 0, last: 0) }
        // Hashes shifted past three part bits, as a partition's tables are given them.
        func hash(_ key: Int64) -> UInt64 { SceneStore.hash(key) << 3 }
        records.withUnsafeBufferPointer { records in
            var positions: [Int] = []
            for (i, r) in records.enumerated() {
                #expect(table.find(r.key, hash: hash(r.key), in: UnsafeBufferPointer(rebasing: records[..<i])) == nil)
                positions.append(table.insert(i, hash: hash(r.key)))
            }
            #expect(Set(positions).count == records.count)
            for (i, r) in records.enumerated() { #expect(table.find(r.key, hash: hash(r.key), in: records) == i) }
            #expect(table.find(5, hash: hash(5), in: records) == nil)
            for p in positions { table.empty(at: p) }
            #expect((0 ..< table.capacity).allSatisfy { memory[$0].isEmpty })
        }
    }
}
