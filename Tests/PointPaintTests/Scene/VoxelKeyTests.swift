import Testing
@testable import PointPaint

@Suite("VoxelKey")
struct VoxelKeyTests {
    @Test("floor(p / size), negative coordinates included")
    func floorCells() throws {
        let cases: [(Float, Int32)] = [(0, 0), (0.0099, 0), (0.01 * 1.5, 1), (-0.001, -1), (-0.01 * 1.5, -2), (-10, -1000)]
        for (v, expected) in cases {
            let key = try #require(VoxelKey(containing: SIMD3(v, 0.5, -0.5), voxelSize: 0.01))
            #expect(key.x == expected, "cell of \(v)")
            #expect(key.y == 50)
            #expect(key.z == -50)
        }
    }

    @Test("packing round-trips the whole range")
    func packing() {
        let lo = VoxelKey.range.lowerBound, hi = VoxelKey.range.upperBound
        for (x, y, z) in [(lo, hi, 0), (hi, lo, -1), (0, 0, 0), (-1, 1, lo), (12345, -54321, hi)] {
            let key = VoxelKey(x: x, y: y, z: z)
            #expect(key.packed >= 0)
            #expect(VoxelKey(packed: key.packed) == key)
        }
    }

    @Test("non-finite points and points outside the key range have no key")
    func rejects() {
        #expect(VoxelKey(containing: SIMD3(.nan, 0, 0), voxelSize: 1) == nil)
        #expect(VoxelKey(containing: SIMD3(0, .infinity, 0), voxelSize: 1) == nil)
        #expect(VoxelKey(containing: SIMD3(0, 0, 2_000_000), voxelSize: 1) == nil)
        #expect(VoxelKey(containing: SIMD3(0, 0, -1_048_576), voxelSize: 1) != nil)
    }

    @Test("centres lie inside their cells")
    func centres() throws {
        let p = SIMD3<Float>(-0.123, 4.567, 0.001)
        let key = try #require(VoxelKey(containing: p, voxelSize: 0.05))
        let c = key.center(voxelSize: 0.05)
        let d = c - p
        #expect(max(abs(d.x), abs(d.y), abs(d.z)) <= 0.025 + 1e-6)
        #expect(VoxelKey(containing: c, voxelSize: 0.05) == key)
    }
}
