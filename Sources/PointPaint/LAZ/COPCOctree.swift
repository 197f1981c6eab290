/// The octree a COPC file arranges its points in (Cloud Optimized Point Cloud 1.0, copc.io): a
/// root cube around the points, each node a grid of `COPCOctree.grid`³ cells; a point goes to
/// the shallowest level whose cell holding it is still free (the first point of a cell, in file
/// order, takes it), and to the deepest level when every cell above is taken. So each level adds
/// detail at half the spacing of the one above, and a viewer reads only the levels it needs.
/// Described in docs/laz.md.
struct COPCOctree {
    /// A node: its level and position among the 2^level nodes along each axis.
    struct Key: Hashable, Comparable, Sendable {
        var level: Int32, x: Int32, y: Int32, z: Int32

        static func < (a: Key, b: Key) -> Bool { (a.level, a.x, a.y, a.z) < (b.level, b.x, b.y, b.z) }
    }

    /// Cells along each axis of a node.
    static let grid = 128
    /// The deepest level: 128 · 2^14 cells along an axis still pack into 21 bits.
    static let deepest = 14

    /// Centre and half the side of the root cube, in world coordinates.
    var center: SIMD3<Double>, halfsize: Double
    /// Distance between cells at the root (halved at each level).
    var spacing: Double { 2 * halfsize / Double(Self.grid) }
    /// The nodes with points, in key order, each with its points' indices in file order.
    var nodes: [(key: Key, points: [Int])]

    /// The octree of `count` points at `world(i)`; `step` is the coordinates' resolution (no
    /// level's cells are made finer than it).
    init(count: Int, step: Double, world: (Int) -> SIMD3<Double>) {
        var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
        for i in 0 ..< count {
            let p = world(i)
            low = pointwiseMin(low, p)
            high = pointwiseMax(high, p)
        }
        if count == 0 { low = .zero; high = .zero }
        center = (low + high) / 2
        // A cube a little larger than the points (and never empty), so every point lies inside.
        halfsize = Swift.max((high - low).max() / 2 * (1 + 1e-9), step)
        let corner = center - SIMD3(repeating: halfsize)
        // Levels until a cell is no larger than a coordinate step.
        var levels = 0
        while levels < Self.deepest, 2 * halfsize / Double(Self.grid << levels) > step { levels += 1 }
        var taken = [Set<UInt64>](repeating: [], count: levels + 1)
        var byNode: [Key: [Int]] = [:]
        for i in 0 ..< count {
            let relative = world(i) - corner
            for level in 0 ... levels {
                let cells = Self.grid << level
                let size = 2 * halfsize / Double(cells)
                @inline(__always) func cell(_ v: Double) -> Int { Swift.min(Swift.max(Int((v / size).rounded(.down)), 0), cells - 1) }
                let c = SIMD3<Int>(cell(relative.x), cell(relative.y), cell(relative.z))
                let packed = UInt64(c.x) | UInt64(c.y) << 21 | UInt64(c.z) << 42
                if level == levels || taken[level].insert(packed).inserted {
                    let key = Key(level: Int32(level), x: Int32(c.x / Self.grid), y: Int32(c.y / Self.grid), z: Int32(c.z / Self.grid))
                    byNode[key, default: []].append(i)
                    break
                }
            }
        }
        nodes = byNode.sorted { $0.key < $1.key }.map { (key: $0.key, points: $0.value) }
    }
}
