import Foundation

/// What a camera sees, as the octree's node selection needs it.
public struct OctreeView: Sendable {
    /// The eye position.
    public var eye: SIMD3<Float>
    /// World-to-clip matrix (nodes outside its frustum are left out).
    public var viewProjection: Matrix4x4f
    /// Pixels per world unit at distance 1 (viewport height / (2 tan(fovY/2))).
    public var pixelScale: Float
    /// How far drawn points reach past their centres (half a box): nodes that close to the frustum
    /// stay in.
    public var margin: Float

    /// A view from its parts.
    public init(eye: SIMD3<Float>, viewProjection: Matrix4x4f, pixelScale: Float, margin: Float = 0) {
        self.eye = eye
        self.viewProjection = viewProjection
        self.pixelScale = pixelScale
        self.margin = margin
    }

    /// What `camera` sees in a viewport of `width × height` pixels.
    public init(camera: OrbitCamera, width: Int, height: Int, margin: Float = 0) {
        self.init(eye: camera.eye, viewProjection: camera.viewProjection(aspect: Float(width) / Float(max(height, 1))),
                  pixelScale: Float(height) / (2 * tan(camera.fovY / 2)), margin: margin)
    }

    /// The six frustum planes (a, b, c, d with a·x + b·y + c·z + d ≥ 0 inside), from the matrix's rows.
    var planes: [SIMD4<Float>] {
        let m = viewProjection
        let rows = (0 ..< 4).map { i in SIMD4(m.c0[i], m.c1[i], m.c2[i], m.c3[i]) }
        return [rows[3] + rows[0], rows[3] - rows[0], rows[3] + rows[1], rows[3] - rows[1], rows[3] + rows[2], rows[3] - rows[2]]
    }
}

/// The nodes to draw for a view, in drawing order, and the level-of-detail tree the points shader
/// walks to size each point by the finest level drawn where it lies.
public struct OctreeSelection: Sendable, Equatable {
    /// One node to draw.
    public struct Entry: Sendable, Equatable {
        /// The node's index in `PointOctree.nodes`.
        public var node: Int
        /// Every `step`-th of its points is drawn (1 but for a first node larger than the budget).
        public var step: Int
        /// Points drawn from it.
        public var count: Int
        /// The node's entry in `tree`.
        public var treeIndex: Int
    }

    /// The nodes, largest on screen first.
    public var entries: [Entry] = []
    /// Points drawn in all (at most the budget).
    public var pointCount = 0
    /// Whether a node in view, fine enough to draw, was left out for the budget.
    public var isBudgetLimited = false
    /// The drawn nodes breadth first, one texel each: x holds the octants with a drawn child (bits
    /// 0–7) and those with any child (bits 8–15), y the index of the first drawn child (the others
    /// follow in octant order).
    public var tree: [SIMD2<UInt32>] = []

    /// No nodes.
    public init() {}
}

extension PointOctree {
    /// The nodes to draw for `view`: those inside its frustum, largest on screen first (edge over
    /// the distance from the eye to the node's cube, so nearer and larger nodes come first and a
    /// node holding the eye comes before all), a child only after its parent, and only while its
    /// grid spacing covers at least `minimumSpacingPixels` pixels; until the next node would take
    /// the total past `budget`. A first node larger than the budget on its own is drawn thinned.
    /// - Complexity: O(k log k) for the k nodes visited.
    public func select(_ view: OctreeView, budget: Int, minimumSpacingPixels: Float) -> OctreeSelection {
        var selection = OctreeSelection()
        guard !nodes.isEmpty, budget > 0 else { return selection }
        let planes = view.planes
        var heap = NodeHeap()
        func consider(_ id: Int) {
            let node = nodes[id]
            guard Self.intersects(node, planes, margin: view.margin) else { return }
            let distance = Self.distance(from: view.eye, to: node)
            let pixelsPerUnit = distance > 0 ? view.pixelScale / distance : .infinity
            guard id == 0 || node.spacing * pixelsPerUnit >= minimumSpacingPixels else { return }
            heap.push(NodeHeap.Item(priority: node.size * pixelsPerUnit, level: node.level, prefix: node.prefix, node: id))
        }
        consider(0)
        while let top = heap.pop() {
            let count = nodes[top.node].points.count
            if selection.pointCount + count > budget {
                selection.isBudgetLimited = true
                guard selection.entries.isEmpty else { break }
                let step = (count + budget - 1) / budget
                let thinned = (count + step - 1) / step
                selection.entries.append(OctreeSelection.Entry(node: top.node, step: step, count: thinned, treeIndex: 0))
                selection.pointCount = thinned
                break
            }
            selection.entries.append(OctreeSelection.Entry(node: top.node, step: 1, count: count, treeIndex: 0))
            selection.pointCount += count
            for octant in 0 ..< 8 where nodes[top.node].children[octant] >= 0 { consider(Int(nodes[top.node].children[octant])) }
        }
        arrangeTree(&selection)
        return selection
    }

    /// Fills `selection.tree` and each entry's `treeIndex` from its entries (which must include
    /// the parent of each node, and so the root): the drawn nodes breadth first, so a node's drawn
    /// children are consecutive. Call it again after removing entries (and their descendants).
    public func arrangeTree(_ selection: inout OctreeSelection) {
        selection.tree = []
        var drawn: [Int: Int] = [:]
        for (i, entry) in selection.entries.enumerated() { drawn[entry.node] = i }
        guard let root = drawn[0] else { return }
        var queue = [0]
        selection.entries[root].treeIndex = 0
        selection.tree = [.zero]
        var head = 0
        while head < queue.count {
            let node = nodes[queue[head]]
            let first = queue.count
            var drawnMask: UInt32 = 0
            for octant in 0 ..< 8 {
                let child = Int(node.children[octant])
                guard child >= 0, let entry = drawn[child] else { continue }
                drawnMask |= 1 << UInt32(octant)
                selection.entries[entry].treeIndex = queue.count
                queue.append(child)
                selection.tree.append(.zero)
            }
            selection.tree[head] = SIMD2(drawnMask | UInt32(node.childMask) << 8, UInt32(first))
            head += 1
        }
    }

    /// The distance from `eye` to the nearest point of `node`'s cube (0 inside).
    static func distance(from eye: SIMD3<Float>, to node: Node) -> Float {
        let lo = node.origin, hi = node.origin + SIMD3(repeating: node.size)
        let outside = pointwiseMax(pointwiseMax(lo - eye, eye - hi), .zero)
        return length(outside)
    }

    /// Whether `node`'s cube, widened by `margin`, reaches inside every plane.
    static func intersects(_ node: Node, _ planes: [SIMD4<Float>], margin: Float) -> Bool {
        let lo = node.origin - SIMD3(repeating: margin), hi = node.origin + SIMD3(repeating: node.size + margin)
        for plane in planes {
            let normal = SIMD3(plane.x, plane.y, plane.z)
            // The corner furthest along the plane's normal.
            let corner = SIMD3<Float>(normal.x >= 0 ? hi.x : lo.x, normal.y >= 0 ? hi.y : lo.y, normal.z >= 0 ? hi.z : lo.z)
            if dot(normal, corner) + plane.w < 0 { return false }
        }
        return true
    }
}

/// A max-heap of nodes by priority (ties: shallower, then smaller key prefix, so the order does
/// not depend on how the nodes were created).
struct NodeHeap {
    struct Item {
        var priority: Float
        var level: Int
        var prefix: UInt64
        var node: Int

        func before(_ other: Item) -> Bool {
            if priority != other.priority { return priority > other.priority }
            if level != other.level { return level < other.level }
            return prefix < other.prefix
        }
    }

    private var items: [Item] = []

    mutating func push(_ item: Item) {
        items.append(item)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].before(items[parent]) else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Item? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return top }
        items[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var best = i
            if l < items.count && items[l].before(items[best]) { best = l }
            if r < items.count && items[r].before(items[best]) { best = r }
            guard best != i else { break }
            items.swapAt(i, best)
            i = best
        }
        return top
    }
}
