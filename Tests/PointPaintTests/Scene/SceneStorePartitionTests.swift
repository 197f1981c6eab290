import Testing
@testable import PointPaint

/// Large batches take the partitioned path; it must give exactly what adding one by one gives.
@Suite("SceneStore large batches")
struct SceneStorePartitionTests {
    /// A batch past the partition threshold: clustered points (many samples a voxel, repeats far
    /// apart in the batch and runs of neighbours), wide colours, and a few points without a key.
    private static func batch(_ n: Int, seed: UInt64) -> (points: [SIMD3<Float>], colors: [SIMD3<Float>]) {
        var state = seed
        func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24)
        }
        var points: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = []
        for i in 0 ..< n {
            switch i % 997 {
            case 0: points.append(SIMD3(.nan, 0, 0))
            case 1: points.append(SIMD3(1e30, 0, 0))
            case _ where i % 4 == 3:  // next to the sample before: runs within one voxel
                points.append(points[i - 1] + 0.001)
            default: points.append(SIMD3(next(), next(), next()) * 2 - 0.5)
            }
            colors.append(SIMD3(next(), next(), next()) * 1.6 - 0.3)
        }
        return (points, colors)
    }

    private static func voxels(_ s: SceneStore) -> [SceneStore.Voxel] { (0 ..< s.count).map { s[$0] } }

    /// Sizes of batch: one part (under 64K samples, no scatter) and two parts.
    static let sizes = [SceneStore.partitionThreshold + 1_001, SceneStore.partitionThreshold * 3 + 17]

    @Test("a large batch equals adding its samples one by one", arguments: AccumulationPolicy.allCases, sizes)
    func equalsOneByOne(policy: AccumulationPolicy, n: Int) {
        let (points, colors) = Self.batch(n, seed: 7)
        let (earlier, earlierColors) = Self.batch(5000, seed: 8)

        var batched = SceneStore(voxelSize: 0.05, policy: policy)
        var single = SceneStore(voxelSize: 0.05, policy: policy)
        // Some voxels exist before the batch (frame 3), so the batch both creates and updates.
        for i in earlier.indices {
            batched.add(earlier[i], color: earlierColors[i], frame: 3)
            single.add(earlier[i], color: earlierColors[i], frame: 3)
        }
        let accepted = batched.add(points: points, colors: colors, frame: 2)
        var oneByOne = 0
        for i in points.indices where single.add(points[i], color: colors[i], frame: 2) { oneByOne += 1 }

        #expect(accepted == oneByOne)
        #expect(accepted < n)  // the NaN and far-away points were rejected
        #expect(batched.rejectedCount == single.rejectedCount)
        #expect(batched.sampleCount == single.sampleCount)
        #expect(batched.count == single.count)
        #expect(batched.count > 15_000)  // 40³ cells: many voxels, most hit many times
        #expect(Self.voxels(batched) == Self.voxels(single))
        // Lookups still work after the merge.
        let probe = single[single.count / 2]
        #expect(batched.voxel(probe.key) == probe)
    }

    @Test("the radix sort orders distinct keys of any width")
    func radixSort() {
        var state: UInt64 = 3
        var keys = Set<UInt32>()
        while keys.count < 5000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            keys.insert(UInt32(truncatingIfNeeded: state >> 33) % 4_000_000_000)
        }
        let list = Array(keys)
        let order = list.withUnsafeBufferPointer { SceneStore.sortedByFirstAppearance($0, limit: 4_000_000_000) }
        #expect(order.map { list[Int($0)] } == list.sorted())
    }
}
