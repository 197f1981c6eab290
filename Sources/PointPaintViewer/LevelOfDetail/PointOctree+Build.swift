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
    /// Radix sort, most significant digit first, on the bits the keys of a run differ in, with a
    /// digit as wide as the run needs (11 bits for millions of keys, a few for a hundred): each
    /// pass moves a run between the buffers and the spare ones, so a run of clustered keys (the
    /// points of a surface) takes a pass or two and no pass copies back.
    /// - Complexity: O(n), a pass per digit.
    static func radixSort(_ keys: inout [UInt64], _ order: inout [UInt32]) {
        let n = keys.count
        guard n > 1 else { return }
        // Scratch space, written before it is read.
        var spareKeys = [UInt64](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        var spareOrder = [UInt32](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
        var tables = [Int](unsafeUninitializedCapacity: RadixSorter.tableCapacity) { _, initialized in initialized = RadixSorter.tableCapacity }
        keys.withUnsafeMutableBufferPointer { k in
            order.withUnsafeMutableBufferPointer { o in
                spareKeys.withUnsafeMutableBufferPointer { sk in
                    spareOrder.withUnsafeMutableBufferPointer { so in
                        tables.withUnsafeMutableBufferPointer { t in
                            let sorter = RadixSorter(main: (k.baseAddress!, o.baseAddress!), spare: (sk.baseAddress!, so.baseAddress!),
                                                     tables: t.baseAddress!)
                            sorter.sort(0 ..< n, inSpare: false, depth: 0)
                        }
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
    /// cell's centre (`cellHolder`; a cell's points are a contiguous run of keys) and its children
    /// take the rest, which stay in key order, so each child's share is a contiguous run. Both
    /// buffers are overwritten within `range`.
    ///
    /// Runs are found by galloping and the rest moved down in blocks, so a level whose cells
    /// hold many points each (the top levels of a large cloud, or of one with far outliers)
    /// costs little more than moving its points. Each node is handed to `finished` once its points
    /// are set, before its children are built.
    /// - Complexity: O(points × levels below the node).
    static func buildSubtree(_ id: Int, range: Range<Int>, keys: UnsafeMutablePointer<UInt64>, order: UnsafeMutablePointer<UInt32>,
                             nodes: inout [Node], cube: OctreeCube, finished: (_ id: Int, _ node: Node) -> Void = { _, _ in }) {
        let level = nodes[id].level
        if range.count <= leafCapacity || level >= maximumLevel {
            nodes[id].points = Array(UnsafeBufferPointer(start: order + range.lowerBound, count: range.count))
            nodes[id].isLeaf = true
            nodes[id].cells = nil
            finished(id, nodes[id])
            return
        }
        // One point of each cell stays here; the rest move down, in order, to the front.
        let cellShift = UInt64(3 * (OctreeCube.bitsPerAxis - level - gridBits))
        var kept: [UInt32] = []
        var write = range.lowerBound
        var runStart = range.lowerBound
        while runStart < range.upperBound {
            let cell = keys[runStart] >> cellShift
            let end = gallop(from: runStart, to: range.upperBound) { keys[$0] >> cellShift == cell }
            let best = cellHolder(keys, run: runStart ..< end, level: level)
            kept.append(order[best])
            moveDown(keys, order, runStart ..< best, to: &write)
            moveDown(keys, order, best + 1 ..< end, to: &write)
            runStart = end
        }
        nodes[id].points = kept
        nodes[id].isLeaf = false
        nodes[id].cells = nil
        finished(id, nodes[id])
        let childShift = UInt64(3 * (OctreeCube.bitsPerAxis - level - 1))
        let prefix = nodes[id].prefix
        var start = range.lowerBound
        while start < write {
            let octant = Int(truncatingIfNeeded: keys[start] >> childShift) & 7
            let end = firstIndex(in: start ..< write) { Int(truncatingIfNeeded: keys[$0] >> childShift) & 7 != octant }
            let child = nodes.count
            nodes.append(Node(level: level + 1, prefix: prefix << 3 | UInt64(octant), parent: id, cube: cube))
            nodes[id].children[octant] = Int32(child)
            buildSubtree(child, range: start ..< end, keys: keys, order: order, nodes: &nodes, cube: cube, finished: finished)
            start = end
        }
    }

    /// The index in `run` (ascending keys sharing a level-`level` grid cell) of the point that
    /// holds the cell: the least `cellRank`, the first of equals. A long run is searched bit by
    /// bit: within each sub-cell the keys share their higher bits, so the least rank (the key's
    /// lower bits exclusive-or a pattern) lies in the part whose next bit matches the pattern,
    /// found by a binary search.
    /// - Complexity: O(run) for a short run, O(bits × log run) for a long one.
    static func cellHolder(_ keys: UnsafePointer<UInt64>, run: Range<Int>, level: Int) -> Int {
        var best = run.lowerBound
        guard run.count > 1 else { return best }
        if run.count <= 32 {
            var bestRank = cellRank(keys[best], level: level)
            for i in run.lowerBound + 1 ..< run.upperBound {
                let rank = cellRank(keys[i], level: level)
                if rank < bestRank { (best, bestRank) = (i, rank) }
            }
            return best
        }
        let below = 3 * (OctreeCube.bitsPerAxis - level - gridBits) - 3
        guard below > 0 else { return best }
        var bestRank = UInt64.max
        var start = run.lowerBound
        while start < run.upperBound {
            // One sub-cell (the digit just below the cell): a contiguous run of its own.
            let digit = keys[start] >> UInt64(below) & 7
            let end = firstIndex(in: start ..< run.upperBound) { keys[$0] >> UInt64(below) & 7 != digit }
            let pattern = (~digit & 7) &* 0x1249_2492_4924_9249
            var lo = start, hi = end
            var bit = below - 1
            while bit >= 0 && hi - lo > 1 {
                let mask = UInt64(1) << UInt64(bit)
                // Sorted keys sharing the bits above: they differ at this one only if the first and last do.
                if keys[lo] & mask != keys[hi - 1] & mask {
                    let split = firstIndex(in: lo ..< hi) { keys[$0] & mask != 0 }
                    if pattern & mask != 0 { lo = split } else { hi = split }
                }
                bit -= 1
            }
            let rank = cellRank(keys[lo], level: level)
            if rank < bestRank { (best, bestRank) = (lo, rank) }
            start = end
        }
        return best
    }

    /// The end of the run from `start` where `inRun` holds (it holds at `start`, and holds for a
    /// prefix of `start ..< limit`): doubling steps, then a binary search, so a run of k costs
    /// O(log k).
    @inline(__always)
    static func gallop(from start: Int, to limit: Int, _ inRun: (Int) -> Bool) -> Int {
        var known = start, step = 1
        while known + step < limit && inRun(known + step) {
            known += step
            step &*= 2
        }
        return firstIndex(in: known + 1 ..< min(known + step, limit)) { !inRun($0) }
    }

    /// The first index of `range` where `past` holds (it holds for a suffix of `range`), or the
    /// range's end.
    @inline(__always)
    static func firstIndex(in range: Range<Int>, where past: (Int) -> Bool) -> Int {
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if past(mid) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// Moves the keys and indices of `source` down to `write` (at or before its start) and
    /// advances `write` past them.
    @inline(__always)
    static func moveDown(_ keys: UnsafeMutablePointer<UInt64>, _ order: UnsafeMutablePointer<UInt32>, _ source: Range<Int>,
                         to write: inout Int) {
        let count = source.count
        guard count > 0 else { return }
        if write != source.lowerBound {
            if count <= 8 {
                for i in 0 ..< count {
                    keys[write + i] = keys[source.lowerBound + i]
                    order[write + i] = order[source.lowerBound + i]
                }
            } else {
                // The ranges may overlap: raw copies are memmove.
                UnsafeMutableRawPointer(keys + write).copyMemory(from: keys + source.lowerBound, byteCount: count * MemoryLayout<UInt64>.stride)
                UnsafeMutableRawPointer(order + write).copyMemory(from: order + source.lowerBound, byteCount: count * MemoryLayout<UInt32>.stride)
            }
        }
        write += count
    }
}

/// The radix sort of `PointOctree.radixSort`: the key and order buffers, spare buffers of the
/// same size, and room for one digit's counts and offsets per level of recursion.
private struct RadixSorter {
    typealias Buffers = (keys: UnsafeMutablePointer<UInt64>, order: UnsafeMutablePointer<UInt32>)
    let main: Buffers, spare: Buffers
    let tables: UnsafeMutablePointer<Int>

    /// The widest digit, in bits.
    static var maximumBits: Int { 11 }
    /// Ints of `tables`: counts and offsets for the widest digit at every depth (a pass takes at
    /// least one of the 64 bits).
    static var tableCapacity: Int { 64 * 2 << maximumBits }

    /// Sorts `range`, which is in the spare buffers when `inSpare`, into the main ones.
    func sort(_ range: Range<Int>, inSpare: Bool, depth: Int) {
        let n = range.count
        let source = inSpare ? spare : main, target = inSpare ? main : spare
        if n <= 32 {
            if inSpare { copy(range, from: spare, to: main) }
            return insertionSort(range)
        }
        // Only the bits below the highest one the keys differ in matter.
        var differing: UInt64 = 0
        let first = source.keys[range.lowerBound]
        for i in range { differing |= source.keys[i] ^ first }
        guard differing != 0 else {
            if inSpare { copy(range, from: spare, to: main) }
            return
        }
        let width = UInt64.bitWidth - differing.leadingZeroBitCount
        // About eight keys a bucket, at most the widest digit, at most the bits left.
        let bits = min(Self.maximumBits, width, max(1, Int.bitWidth - n.leadingZeroBitCount - 3))
        let shift = UInt64(width - bits), buckets = 1 << bits
        let counts = tables + depth * (2 << Self.maximumBits), offsets = counts + buckets
        counts.update(repeating: 0, count: buckets)
        for i in range { counts[Int(truncatingIfNeeded: source.keys[i] >> shift) & (buckets - 1)] += 1 }
        var sum = range.lowerBound
        for b in 0 ..< buckets {
            offsets[b] = sum
            sum += counts[b]
        }
        for i in range {
            let key = source.keys[i], b = Int(truncatingIfNeeded: key >> shift) & (buckets - 1)
            let at = offsets[b]
            offsets[b] = at + 1
            target.keys[at] = key
            target.order[at] = source.order[i]
        }
        // Each bucket is now in the other buffers.
        var start = range.lowerBound
        for b in 0 ..< buckets {
            let count = counts[b]
            if count > 0 {
                let bucket = start ..< start + count
                if shift == 0 || count == 1 {
                    // Equal keys, or one: in order already.
                    if !inSpare { copy(bucket, from: spare, to: main) }
                } else {
                    sort(bucket, inSpare: !inSpare, depth: depth + 1)
                }
            }
            start += count
        }
    }

    private func copy(_ range: Range<Int>, from source: Buffers, to target: Buffers) {
        (target.keys + range.lowerBound).update(from: source.keys + range.lowerBound, count: range.count)
        (target.order + range.lowerBound).update(from: source.order + range.lowerBound, count: range.count)
    }

    private func insertionSort(_ range: Range<Int>) {
        let keys = main.keys, order = main.order
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
}
