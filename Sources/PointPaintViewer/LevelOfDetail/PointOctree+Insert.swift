extension PointOctree {
    /// Adds the points `range` of `positions` (a live cloud's newly appended voxels) to a tree
    /// holding the points before `range.lowerBound`: each goes down from the root, taking a free
    /// grid cell, or the cell of a point farther from the cell's centre (which goes on down in its
    /// place), until a
    /// leaf keeps it; a leaf past `leafCapacity` splits. When the points' bounds need another cube,
    /// the tree is rebuilt from all of `positions[..<range.upperBound]` instead (a live cloud does
    /// so a few times as it grows).
    /// - Returns: whether the tree was rebuilt.
    /// - Complexity: O(levels) a point, amortised; a rebuild O(n).
    @discardableResult
    public mutating func insert(_ range: Range<Int>, of positions: [SIMD3<Float>]) -> Bool {
        guard !range.isEmpty else { return false }
        var lo = bounds?.min ?? SIMD3(repeating: .infinity), hi = bounds?.max ?? SIMD3(repeating: -.infinity)
        var any = bounds != nil
        for i in range where positions[i].hasFiniteCoordinates {
            lo = pointwiseMin(lo, positions[i])
            hi = pointwiseMax(hi, positions[i])
            any = true
        }
        guard any else { return false }
        if OctreeCube(enclosing: (lo, hi)) != cube {
            rebuild(positions: positions, count: range.upperBound)
            return true
        }
        bounds = (lo, hi)
        if !locations.isEmpty && locations.count < range.upperBound {
            locations.append(contentsOf: repeatElement(Self.noLocation, count: range.upperBound - locations.count))
        }
        positions.withUnsafeBufferPointer { p in
            for i in range where p[i].hasFiniteCoordinates { insertPoint(UInt32(i), p) }
        }
        return false
    }

    /// Marks the slots of the points `range` (voxels whose colour changed) as changed. Without
    /// locations (`trackLocations`), or when the range covers half the tree or more, every node is.
    /// - Complexity: O(range), or O(nodes).
    public mutating func markRecolored(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        if locations.isEmpty || 2 * range.count >= pointCount {
            for id in nodes.indices where !nodes[id].points.isEmpty { markChanged(id, 0 ..< nodes[id].points.count) }
            return
        }
        for i in range.clamped(to: 0 ..< locations.count) where locations[i] != Self.noLocation {
            let location = locations[i]
            let slot = Int(location & 0xFFFF_FFFF)
            markChanged(Int(location >> 32), slot ..< slot + 1)
        }
    }

    /// Puts `point` in `slot` of `node` in the record.
    @inline(__always)
    private mutating func place(_ point: UInt32, _ node: Int, _ slot: Int) {
        if !locations.isEmpty { locations[Int(point)] = UInt64(node) << 32 | UInt64(slot) }
        markChanged(node, slot ..< slot + 1)
    }

    private mutating func insertPoint(_ index: UInt32, _ positions: UnsafeBufferPointer<SIMD3<Float>>) {
        guard let cube else { return }
        if nodes.isEmpty { nodes.append(Node(level: 0, prefix: 0, parent: -1, cube: cube)) }
        pointCount += 1
        var point = index, key = cube.key(positions[Int(index)])
        var id = 0
        while true {
            let level = nodes[id].level
            if nodes[id].isLeaf {
                let slot = nodes[id].points.count
                nodes[id].points.append(point)
                place(point, id, slot)
                if slot + 1 > Self.leafCapacity && level < Self.maximumLevel { split(id, positions) }
                return
            }
            if nodes[id].cells == nil { indexCells(id, positions) }
            let cell = key >> UInt64(3 * (OctreeCube.bitsPerAxis - level - Self.gridBits))
            if let slot = nodes[id].cells![cell].map(Int.init) {
                let occupant = nodes[id].points[slot]
                let occupantKey = cube.key(positions[Int(occupant)])
                if Self.holdsCell(point, key, over: occupant, occupantKey, level: level, positions) {
                    nodes[id].points[slot] = point
                    place(point, id, slot)
                    (point, key) = (occupant, occupantKey)
                }
            } else {
                let slot = nodes[id].points.count
                nodes[id].cells![cell] = Int32(slot)
                nodes[id].points.append(point)
                place(point, id, slot)
                return
            }
            let octant = Int(truncatingIfNeeded: key >> UInt64(3 * (OctreeCube.bitsPerAxis - level - 1))) & 7
            var child = Int(nodes[id].children[octant])
            if child < 0 {
                child = nodes.count
                nodes.append(Node(level: level + 1, prefix: nodes[id].prefix << 3 | UInt64(octant), parent: id, cube: cube))
                nodes[id].children[octant] = Int32(child)
            }
            id = child
        }
    }

    /// Builds the cell → slot table of an inner node (made by a batch build, which needs none).
    private mutating func indexCells(_ id: Int, _ positions: UnsafeBufferPointer<SIMD3<Float>>) {
        guard let cube else { return }
        let shift = UInt64(3 * (OctreeCube.bitsPerAxis - nodes[id].level - Self.gridBits))
        var cells: [UInt64: Int32] = [:]
        cells.reserveCapacity(nodes[id].points.count * 2)
        for (slot, point) in nodes[id].points.enumerated() { cells[cube.key(positions[Int(point)]) >> shift] = Int32(slot) }
        nodes[id].cells = cells
    }

    /// Turns the leaf `id`, past its capacity, into an inner node with children, exactly as a
    /// batch build of its points would.
    private mutating func split(_ id: Int, _ positions: UnsafeBufferPointer<SIMD3<Float>>) {
        guard let cube else { return }
        let points = nodes[id].points
        let keyed = points.map { (cube.key(positions[Int($0)]), $0) }
            .sorted { Self.precedes($0.1, $0.0, $1.1, $1.0, positions) }
        var keys = keyed.map(\.0), order = keyed.map(\.1)
        let firstNew = nodes.count
        keys.withUnsafeMutableBufferPointer { k in
            order.withUnsafeMutableBufferPointer { o in
                Self.buildSubtree(id, range: 0 ..< k.count, keys: k.baseAddress!, order: o.baseAddress!, nodes: &nodes, cube: cube)
            }
        }
        for node in [id] + Array(firstNew ..< nodes.count) {
            for (slot, point) in nodes[node].points.enumerated() {
                if !locations.isEmpty { locations[Int(point)] = UInt64(node) << 32 | UInt64(slot) }
            }
            markChanged(node, 0 ..< nodes[node].points.count)
        }
    }
}
