import Testing
@testable import PointPaint

private func voxel(_ r: Int64, count: UInt32 = 1, first: UInt32, last: UInt32, g: Int64 = 0) -> StoredVoxel {
    StoredVoxel(code: 99, r: r, g: g, b: 0, count: count, first: first, last: last)
}

@Suite("StoredVoxel")
struct StoredVoxelTests {
    @Test("merging is commutative and associative for every policy, ties included", arguments: AccumulationPolicy.allCases)
    func symmetric(policy: AccumulationPolicy) throws {
        // Frames overlap on purpose: 3 appears in two voxels, with different colours.
        let bits = { (v: Float) in Int64(v.bitPattern) }
        let voxels = [
            voxel(bits(0.25), count: 2, first: 1, last: 3), voxel(bits(0.5), count: 1, first: 3, last: 3, g: 7),
            voxel(bits(0.125), count: 4, first: 0, last: 2), voxel(bits(0.5), count: 1, first: 3, last: 3, g: 9),
        ]
        func merge(_ list: [StoredVoxel]) throws -> StoredVoxel {
            var acc = list[0]
            for v in list.dropFirst() { acc = try #require(acc.merged(with: v, policy: policy)) }
            return acc
        }
        let reference = try merge(voxels)
        // Every order.
        func permutations(_ a: [StoredVoxel]) -> [[StoredVoxel]] {
            guard a.count > 1 else { return [a] }
            return a.indices.flatMap { i in permutations(Array(a[..<i] + a[(i + 1)...])).map { [a[i]] + $0 } }
        }
        for order in permutations(voxels) { #expect(try merge(order) == reference) }
        // Another grouping: (a·b)·(c·d).
        let left = try #require(voxels[0].merged(with: voxels[1], policy: policy))
        let right = try #require(voxels[2].merged(with: voxels[3], policy: policy))
        #expect(right.merged(with: left, policy: policy) == reference)
        #expect(reference.count == 8 && reference.first == 0 && reference.last == 3)
        switch policy {
        case .mean: #expect(reference.r == bits(0.25) + 2 * bits(0.5) + bits(0.125))
        case .latest: #expect(reference.g == 9, "frame 3 is tied: the greater colour bits win")
        case .first: #expect(reference.r == bits(0.125))
        }
    }

    @Test("a count past UInt32.max is refused")
    func overflow() {
        let a = voxel(1, count: .max - 1, first: 0, last: 0)
        #expect(a.merged(with: voxel(1, count: 1, first: 0, last: 0), policy: .mean)?.count == .max)
        #expect(a.merged(with: voxel(1, count: 2, first: 0, last: 0), policy: .mean) == nil)
    }

    @Test("the colour of a mean is the fixed-point sum over the count")
    func colour() {
        let v = StoredVoxel(code: 0, r: 3 << 23, g: -(1 << 24), b: 0, count: 2, first: 0, last: 0)
        #expect(v.color(.mean) == SIMD3(0.75, -0.5, 0))
    }
}
