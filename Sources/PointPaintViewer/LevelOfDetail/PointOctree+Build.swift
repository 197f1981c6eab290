extension PointOctree {
    /// The cube and bounds of the finite points among the first `count` of `positions`, with their
    /// Morton keys in ascending order and the point index beside each (ties in the order of
    /// `precedes`).
    /// - Complexity: O(n): one pass for the bounds, one for the keys, a radix sort.
    static func sortedKeys(_ positions: [SIMD3<Float>], count: Int)
        -> (OctreeCube?, (min: SIMD3<Float>, max: SIMD3<Float>)?, [UInt64], [UInt32]) {
        positions.withUnsafeBufferPointer { all in
            let points = UnsafeBufferPointer(rebasing: all[0 ..< count])
            var lo = SIMD3<Float>(repeating: .infinity), hi = SIMD3<Float>(repeating: -.infinity)
            var finite = 0
            for p in points where p.hasFiniteCoordinates {
                lo = pointwiseMin(lo, p)
                hi = pointwiseMax(hi, p)
                finite += 1
            }
            guard finite > 0 else { return (nil, nil, [], []) }
            let cube = OctreeCube(enclosing: (lo, hi))
            // Filled beside the keys.
            var order = [UInt32](unsafeUninitializedCapacity: finite) { _, initialized in initialized = finite }
            var keys = [UInt64](unsafeUninitializedCapacity: finite) { keys, initialized in
                order.withUnsafeMutableBufferPointer { order in
                    var j = 0
                    for (i, p) in points.enumerated() where p.hasFiniteCoordinates {
                        keys[j] = cube.key(p)
                        order[j] = UInt32(i)
                        j += 1
                    }
                }
                initialized = finite
            }
            radixSort(&keys, &order)
            orderTies(keys, &order, all)
            return (cube, (lo, hi), keys, order)
        }
    }

    /// Sorts `keys` ascending, moving `order` along; stable (equal keys keep their order).
    /// Radix sort on 11-bit digits of the bits the keys differ in: most significant digit first
    /// while a run is larger than the cache holds, then least significant first within the run
    /// (digits the whole run shares are skipped), so only the first pass or two stream through
    /// memory.
    /// - Complexity: O(n).
    static func radixSort(_ keys: inout [UInt64], _ order: inout [UInt32]) {
        let n = keys.count
        guard n > 1 else { return }
        // Scratch space, written before it is read.
        var spareKeys = [UInt64](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        var spareOrder = [UInt32](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        keys.withUnsafeMutableBufferPointer { k in
            order.withUnsafeMutableBufferPointer { o in
                spareKeys.withUnsafeMutableBufferPointer { sk in
                    spareOrder.withUnsafeMutableBufferPointer { so in
                        let sorter = RadixSorter(keys: k.baseAddress!, order: o.baseAddress!, spareKeys: sk.baseAddress!, spareOrder: so.baseAddress!)
                        sorter.sort(0 ..< n)
                    }
                }
            }
        }
    }

    /// Puts runs of equal keys (points closer than the key lattice resolves) in the order of
    /// `precedes`, so the result does not depend on the input order.
    static func orderTies(_ keys: [UInt64], _ order: inout [UInt32], _ positions: UnsafeBufferPointer<SIMD3<Float>>) {
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[end] == keys[start] { end += 1 }
            if end - start > 1 {
                let key = keys[start]
                order[start ..< end].sort { precedes($0, key, $1, key, positions) }
            }
            start = end
        }
    }

    /// Fills node `id` (and creates its descendants) from the points `order[range]`, whose keys
    /// `keys[range]` are ascending: a node reached by at most `leafCapacity` points (or at the
    /// deepest level) keeps them all; otherwise it keeps the point of each grid cell nearest the
    /// cell's centre (a cell's points are a contiguous run of keys) and its children take the
    /// rest, which stay in key order, so each child's share is a contiguous run. Both buffers are
    /// overwritten within `range`.
    /// - Complexity: O(points × levels below the node).
    static func buildSubtree(_ id: Int, range: Range<Int>, keys: UnsafeMutablePointer<UInt64>, order: UnsafeMutablePointer<UInt32>,
                             nodes: inout [Node], cube: OctreeCube) {
        let level = nodes[id].level
        if range.count <= leafCapacity || level >= maximumLevel {
            nodes[id].points = Array(UnsafeBufferPointer(start: order + range.lowerBound, count: range.count))
            nodes[id].isLeaf = true
            nodes[id].cells = nil
            return
        }
        // One point of each cell (the one nearest its centre: `cellRank`) stays here; the rest
        // move down, in order, to the front.
        let cellShift = UInt64(3 * (OctreeCube.bitsPerAxis - level - gridBits))
        var kept: [UInt32] = []
        var write = range.lowerBound
        var runStart = range.lowerBound
        while runStart < range.upperBound {
            let cell = keys[runStart] >> cellShift
            var best = runStart, end = runStart + 1
            if end < range.upperBound && keys[end] >> cellShift == cell {
                // More than one point in the cell (a lone point needs no rank).
                var bestRank = cellRank(keys[runStart], level: level)
                while end < range.upperBound && keys[end] >> cellShift == cell {
                    let rank = cellRank(keys[end], level: level)
                    if rank < bestRank { (best, bestRank) = (end, rank) }
                    end += 1
                }
            }
            kept.append(order[best])
            for i in runStart ..< end where i != best {
                keys[write] = keys[i]
                order[write] = order[i]
                write += 1
            }
            runStart = end
        }
        nodes[id].points = kept
        nodes[id].isLeaf = false
        nodes[id].cells = nil
        let childShift = UInt64(3 * (OctreeCube.bitsPerAxis - level - 1))
        let prefix = nodes[id].prefix
        var start = range.lowerBound
        while start < write {
            let octant = Int(truncatingIfNeeded: keys[start] >> childShift) & 7
            var end = start + 1
            while end < write && Int(truncatingIfNeeded: keys[end] >> childShift) & 7 == octant { end += 1 }
            let child = nodes.count
            nodes.append(Node(level: level + 1, prefix: prefix << 3 | UInt64(octant), parent: id, cube: cube))
            nodes[id].children[octant] = Int32(child)
            buildSubtree(child, range: start ..< end, keys: keys, order: order, nodes: &nodes, cube: cube)
            start = end
        }
    }
}

/// The radix sort of `PointOctree.radixSort`, over a key buffer, the order buffer moved along with
/// it, and spare buffers of the same size.
private struct RadixSorter {
    let keys: UnsafeMutablePointer<UInt64>, order: UnsafeMutablePointer<UInt32>
    let spareKeys: UnsafeMutablePointer<UInt64>, spareOrder: UnsafeMutablePointer<UInt32>

    /// Bits a digit.
    static var bits: Int { 11 }
    /// Buckets a digit.
    static var buckets: Int { 1 << bits }
    /// Runs at most this long are sorted least significant digit first (keys, order and spares
    /// fit the cache).
    static var cachedRun: Int { 1 << 15 }

    /// Sorts `range`.
    func sort(_ range: Range<Int>) {
        let n = range.count
        guard n > 1 else { return }
        if n <= 32 { return insertionSort(range) }
        // Only the bits below the highest one the keys differ in matter.
        var differing: UInt64 = 0
        let first = keys[range.lowerBound]
        for i in range { differing |= keys[i] ^ first }
        guard differing != 0 else { return }
        let width = UInt64.bitWidth - differing.leadingZeroBitCount
        if n <= Self.cachedRun { return leastSignificantFirst(range, width: width) }
        // The top few of those bits first, enough for buckets that fit the cache, then each
        // bucket on its own.
        let split = min(Self.bits, max(1, UInt64.bitWidth - (n / (Self.cachedRun / 2)).leadingZeroBitCount))
        let shift = UInt64(max(width - split, 0)), buckets = 1 << split
        var storage = [Int](repeating: 0, count: 2 * buckets)
        storage.withUnsafeMutableBufferPointer { table in
            let counts = UnsafeMutableBufferPointer(rebasing: table[0 ..< buckets])
            let offsets = UnsafeMutableBufferPointer(rebasing: table[buckets ..< 2 * buckets])
            for i in range { counts[Int(truncatingIfNeeded: keys[i] >> shift) & (buckets - 1)] += 1 }
            var sum = range.lowerBound
            for b in 0 ..< buckets {
                offsets[b] = sum
                sum += counts[b]
            }
            for i in range {
                let key = keys[i], b = Int(truncatingIfNeeded: key >> shift) & (buckets - 1)
                spareKeys[offsets[b]] = key
                spareOrder[offsets[b]] = order[i]
                offsets[b] += 1
            }
            (keys + range.lowerBound).update(from: spareKeys + range.lowerBound, count: n)
            (order + range.lowerBound).update(from: spareOrder + range.lowerBound, count: n)
            guard shift > 0 else { return }
            var start = range.lowerBound
            for b in 0 ..< buckets {
                let count = counts[b]
                if count > 1 { sort(start ..< start + count) }
                start += count
            }
        }
    }

    private func insertionSort(_ range: Range<Int>) {
        for i in range.lowerBound + 1 ..< range.upperBound {
            let key = keys[i], index = order[i]
            var j = i
            while j > range.lowerBound && keys[j - 1] > key {
                keys[j] = keys[j - 1]
                order[j] = order[j - 1]
                j -= 1
            }
            keys[j] = key
            order[j] = index
        }
    }

    /// Sorts `range` by the keys' low `width` bits, least significant digit first.
    private func leastSignificantFirst(_ range: Range<Int>, width: Int) {
        let n = range.count, base = range.lowerBound
        let digits = (width + Self.bits - 1) / Self.bits
        var table = [Int](repeating: 0, count: (digits + 1) * Self.buckets)
        table.withUnsafeMutableBufferPointer { counts in
            for i in range {
                let key = keys[i]
                for d in 0 ..< digits { counts[d * Self.buckets + Int(truncatingIfNeeded: key >> UInt64(d * Self.bits)) & (Self.buckets - 1)] += 1 }
            }
            let offsets = UnsafeMutableBufferPointer(rebasing: counts[digits * Self.buckets ..< (digits + 1) * Self.buckets])
            var source = (keys + base, order + base), target = (spareKeys + base, spareOrder + base)
            for d in 0 ..< digits {
                let shift = UInt64(d * Self.bits)
                // A digit every key shares changes nothing.
                if counts[d * Self.buckets + Int(truncatingIfNeeded: source.0[0] >> shift) & (Self.buckets - 1)] == n { continue }
                var sum = 0
                for b in 0 ..< Self.buckets {
                    offsets[b] = sum
                    sum += counts[d * Self.buckets + b]
                }
                for i in 0 ..< n {
                    let key = source.0[i], b = Int(truncatingIfNeeded: key >> shift) & (Self.buckets - 1)
                    let at = offsets[b]
                    offsets[b] = at + 1
                    target.0[at] = key
                    target.1[at] = source.1[i]
                }
                swap(&source, &target)
            }
            if source.0 != keys + base {
                (keys + base).update(from: source.0, count: n)
                (order + base).update(from: source.1, count: n)
            }
        }
    }
}
