import Foundation

/// A level-of-detail octree over a cloud's points, in the manner of Potree: every node keeps a
/// grid-subsampled share of the points that reach it (one per occupied cell of a 64³ grid over the
/// node's cube, the point nearest the cell's centre) and passes the rest to its children, which
/// refine it; a node reached by at most
/// `leafCapacity` points keeps them all. Drawing the nodes nearest and largest on screen first
/// until a point budget is spent (`select(_:budget:minimumSpacingPixels:)`) shows the whole
/// cloud coarsely and the part in front of the camera finely.
///
/// The octree holds indices into the cloud's arrays, not the points: the renderer gathers each
/// node's positions and colours when it uploads it. Nodes are a function of the set of points
/// alone: a cell keeps the point nearest its centre (ties broken by the Morton key, the position's
/// bits, then the index), so any insertion order, and growing the tree point by point
/// (`insert(_:of:)`, for a live replay) or building it at once, give the same nodes with the same
/// points. A batch build lists each node's points in key order, so the same points in any order
/// give identical nodes.
///
/// ```swift
/// var octree = PointOctree(positions: cloud.positions)
/// let selection = octree.select(view, budget: 2_000_000, minimumSpacingPixels: 1.5)
/// for entry in selection.entries { draw(octree.nodes[entry.node].points) }
/// ```
public struct PointOctree: Sendable {
    /// log₂ of the grid cells along a node's edge: a node keeps at most one point per cell of a
    /// 64³ grid.
    public static let gridBits = 6
    /// Points a node keeps without subsampling; a node reached by more becomes an inner node.
    public static let leafCapacity = 16_384
    /// The deepest level: its cells are the key lattice's, so its nodes keep everything.
    public static let maximumLevel = OctreeCube.bitsPerAxis - gridBits

    /// A node: a cube of the octree and the points it keeps.
    public struct Node: Sendable {
        /// Depth below the root (0).
        public let level: Int
        /// The Morton key prefix (3·`level` bits) shared by the points under the node.
        public let prefix: UInt64
        /// The cube's minimum corner.
        public let origin: SIMD3<Float>
        /// The cube's edge.
        public let size: Float
        /// The parent's index (−1 for the root).
        public let parent: Int32
        /// The children by octant (bit 0 x, bit 1 y, bit 2 z set: the upper half); −1 where none.
        public internal(set) var children = SIMD8<Int32>(repeating: -1)
        /// Indices of the points the node keeps, into the cloud's arrays.
        public internal(set) var points: [UInt32] = []
        /// Whether the node keeps every point that reaches it (it has no children).
        public internal(set) var isLeaf = true
        /// For inner nodes grown point by point: the slot of the point each occupied grid cell holds.
        var cells: [UInt64: Int32]?

        /// The edge of a grid cell: the largest gap between the points the node keeps on a
        /// surface it samples (0 for a leaf, which keeps every point).
        public var spacing: Float { size / Float(1 << PointOctree.gridBits) }

        /// The octants that have a child, as bits.
        public var childMask: UInt8 {
            var mask: UInt8 = 0
            for octant in 0 ..< 8 where children[octant] >= 0 { mask |= 1 << octant }
            return mask
        }

        init(level: Int, prefix: UInt64, parent: Int, cube: OctreeCube) {
            self.level = level
            self.parent = Int32(parent)
            self.prefix = prefix
            (origin, size) = cube.box(prefix: prefix, level: level)
        }
    }

    /// The root cube (nil while there is no finite point).
    public private(set) var cube: OctreeCube?
    /// The nodes; the root is node 0 (when there is one), children come after their parent.
    public internal(set) var nodes: [Node] = []
    /// Bounds of the points in the tree.
    public internal(set) var bounds: (min: SIMD3<Float>, max: SIMD3<Float>)?
    /// Points in the tree (the finite ones of those given).
    public internal(set) var pointCount = 0
    /// Counts rebuilds: it changes when the nodes were replaced wholesale (a live cloud outgrew its
    /// cube), so whatever was derived from the old nodes is void.
    public private(set) var generation = 0
    /// Where each cloud index lives (node << 32 | slot), kept while growing point by point so a
    /// recoloured voxel finds its slot; `noLocation` for points not in the tree.
    var locations: [UInt64] = []
    /// Slots whose point changed since `takeChanges()`, by node.
    var changed: [Int32: IndexSet] = [:]
    /// Whether `changed` covers everything (after a rebuild).
    var changedAll = false

    static let noLocation = UInt64.max

    /// An empty octree.
    public init() {}

    /// The octree of `positions` (points with a non-finite coordinate are left out).
    /// - Complexity: O(n) (a radix sort of the points' Morton keys, then one linear pass a level).
    public init(positions: [SIMD3<Float>]) {
        rebuild(positions: positions, count: positions.count)
    }

    /// The octree of `positions`, as `init(positions:)`, handing each node to `finished` (its
    /// index and itself) on the calling thread as soon as its points are final, before its
    /// children are built (its `children` are not set yet): what stores the nodes can do so while
    /// the rest of the tree is built.
    public init(positions: [SIMD3<Float>], finished: (_ id: Int, _ node: Node) -> Void) {
        rebuild(positions: positions, count: positions.count, finished: finished)
    }

    /// Replaces the tree with the octree of the first `count` of `positions`; `finished` as in
    /// `init(positions:finished:)`.
    mutating func rebuild(positions: [SIMD3<Float>], count: Int, finished: (_ id: Int, _ node: Node) -> Void = { _, _ in }) {
        var (cube, bounds, keys, order) = Self.sortedKeys(positions, count: count)
        self.cube = cube
        self.bounds = bounds
        nodes = []
        pointCount = keys.count
        generation += 1
        changed = [:]
        changedAll = true
        let tracking = !locations.isEmpty
        locations = []
        guard let cube else { return }
        nodes.append(Node(level: 0, prefix: 0, parent: -1, cube: cube))
        keys.withUnsafeMutableBufferPointer { k in
            order.withUnsafeMutableBufferPointer { o in
                Self.buildSubtree(0, range: 0 ..< k.count, keys: k.baseAddress!, order: o.baseAddress!, nodes: &nodes, cube: cube,
                                  finished: finished)
            }
        }
        if tracking { trackLocations(count: count) }
    }

    /// The number of points kept by `node` and its descendants.
    public func subtreeCount(_ node: Int) -> Int {
        var total = nodes[node].points.count
        for octant in 0 ..< 8 where nodes[node].children[octant] >= 0 { total += subtreeCount(Int(nodes[node].children[octant])) }
        return total
    }

    /// Starts keeping each point's node and slot (what recolouring needs), for clouds of `count`
    /// indices.
    /// - Complexity: O(n).
    mutating func trackLocations(count: Int) {
        locations = Array(repeating: Self.noLocation, count: max(count, 1))
        for (id, node) in nodes.enumerated() {
            for (slot, i) in node.points.enumerated() { locations[Int(i)] = UInt64(id) << 32 | UInt64(slot) }
        }
    }

    /// The slots changed since the last call, by node, or nil when every node must be taken as
    /// changed (the tree was rebuilt); clears the record.
    mutating func takeChanges() -> [Int32: IndexSet]? {
        defer { changed = [:]; changedAll = false }
        return changedAll ? nil : changed
    }

    /// Records that `slots` of `node` hold changed points.
    mutating func markChanged(_ node: Int, _ slots: Range<Int>) {
        guard !changedAll else { return }
        changed[Int32(node), default: IndexSet()].insert(integersIn: slots)
    }

    /// How far a point of key `key` lies from the centre of its grid cell in a level-`level` node,
    /// in the keys' own terms (smaller is nearer): below the cell, the point lies in one of eight
    /// sub-cells; nearest the centre is the point whose every further octant digit points back
    /// towards the centre, the digit's complement, so the rank is the key's remaining digits with
    /// that complement taken away (exclusive or), most significant first.
    @inline(__always)
    static func cellRank(_ key: UInt64, level: Int) -> UInt64 {
        let below = 3 * (OctreeCube.bitsPerAxis - level - gridBits) - 3
        guard below > 0 else { return 0 }
        let rest = (UInt64(1) << UInt64(below)) - 1
        let toward = ~(key >> UInt64(below)) & 7
        return (key ^ (toward &* 0x1249_2492_4924_9249)) & rest
    }

    /// Whether point `a` (key `ka`) should hold a level-`level` grid cell rather than `b` (key
    /// `kb`): the nearer to the cell's centre (`cellRank`), then the smaller key, then the smaller
    /// position bits, then the smaller index.
    @inline(__always)
    static func holdsCell(_ a: UInt32, _ ka: UInt64, over b: UInt32, _ kb: UInt64, level: Int,
                          _ positions: UnsafeBufferPointer<SIMD3<Float>>) -> Bool {
        let ra = cellRank(ka, level: level), rb = cellRank(kb, level: level)
        if ra != rb { return ra < rb }
        return precedes(a, ka, b, kb, positions)
    }

    /// Whether point `a` (key `ka`) precedes `b` (key `kb`) in key order: the smaller key, then
    /// the smaller position bits, then the smaller index.
    @inline(__always)
    static func precedes(_ a: UInt32, _ ka: UInt64, _ b: UInt32, _ kb: UInt64, _ positions: UnsafeBufferPointer<SIMD3<Float>>) -> Bool {
        if ka != kb { return ka < kb }
        let pa = positions[Int(a)], pb = positions[Int(b)]
        for axis in 0 ..< 3 where pa[axis].bitPattern != pb[axis].bitPattern {
            return pa[axis].bitPattern < pb[axis].bitPattern
        }
        return a < b
    }
}
