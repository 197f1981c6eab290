import Foundation

/// Points of many frames binned into cubic cells, for the nearest point of other frames within a
/// radius no larger than the cell: the 27 cells around the query hold every candidate. The frames
/// a query asks for are a window of frames and the keyframes (every `keyframes`-th frame): a
/// cell holds its keyframes' points first, then the others' sorted by frame, so a search reads
/// the keyframes and only the window's part of the rest; a neighbouring cell farther than the
/// nearest point found is not read at all.
struct NeighbourGrid: Sendable {
    /// The cell edge, metres.
    let cell: Double
    /// Every `keyframes`-th frame (0, k, 2k, …) is a keyframe; nil: none is.
    let keyframes: Int?
    /// The lowest cell of any point on each axis: keys are of cells counted from it, so that the
    /// keys of a scene a few thousand cells across have only their low bits set.
    private let origin: SIMD3<Int64>
    /// Where each cell's points lie in `entries`, by the cell's key.
    private let cells: CellTable
    /// Each point with its frame and index, cell by cell (the point kept beside them, so a
    /// search reads one array).
    private let entries: [Entry]

    private struct Entry {
        /// The point's coordinates (three `Double`s, not a `SIMD3`, whose padding would make an
        /// entry 48 bytes instead of 32).
        var x: Double, y: Double, z: Double
        var frame: Int32, index: Int32
    }

    /// Bins `points` (a list a frame) into cells of `cell` metres, every `keyframes`-th frame's
    /// as keyframes, on up to `threads` threads (the grid is the same whatever their number).
    init(points: [[SIMD3<Double>]], cell: Double, keyframes: Int? = nil, threads: Int = 1) {
        self.cell = cell
        let keyframes = keyframes.map { max(1, $0) }
        self.keyframes = keyframes
        let isKeyframe = { (frame: Int) in keyframes.map { frame % $0 == 0 } ?? false }
        let count = points.reduce(0) { $0 + $1.count }
        let lowest = PoseStep.inOrder(count: points.count, threads: threads) { f in
            points[f].reduce(SIMD3<Double>(repeating: .infinity)) { pointwiseMin($0, $1) }
        }.reduce(SIMD3<Double>(repeating: .infinity)) { pointwiseMin($0, $1) }
        let origin = count > 0 ? Self.cellOf(lowest, cell) : .zero
        self.origin = origin
        let frameKeys = PoseStep.inOrder(count: points.count, threads: threads) { f in
            points[f].map { Self.key(Self.cellOf($0, cell) &- origin) }
        }
        // Sorted by cell, keyframes before the others, then by frame and index: the keyframes'
        // points then the others', each in frame and index order, sorted stably by cell.
        var keys: [UInt64] = [], places: [SIMD2<Int32>] = []
        keys.reserveCapacity(count)
        places.reserveCapacity(count)
        for keyframesFirst in [true, false] {
            for f in points.indices where isKeyframe(f) == keyframesFirst {
                keys.append(contentsOf: frameKeys[f])
                for i in points[f].indices { places.append(SIMD2(Int32(f), Int32(i))) }
            }
        }
        Self.radixSort(&keys, &places)
        var runs: [CellTable.Run] = []
        var start = 0
        while start < count {
            var upper = start, middle = start
            while upper < count, keys[upper] == keys[start] { upper += 1 }
            while middle < upper, isKeyframe(Int(places[middle].x)) { middle += 1 }
            runs.append(CellTable.Run(key: keys[start], lower: start, middle: middle, upper: upper))
            start = upper
        }
        cells = CellTable(runs)
        entries = [Entry](unsafeUninitializedCapacity: count) { buffer, initialized in
            let out = SendablePointer(buffer.baseAddress!), bands = max(1, min(threads, count))
            let places = places
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                for at in count * band / bands ..< count * (band + 1) / bands {
                    let place = places[at], p = points[Int(place.x)][Int(place.y)]
                    (out.base + at).initialize(to: Entry(x: p.x, y: p.y, z: p.z, frame: place.x, index: place.y))
                }
            }
            initialized = count
        }
    }

    /// Sorts `keys` and `values` alike by key, stably: passes of 16-bit digits, least
    /// significant first, but for digits no key has set (a comparison sort of the 900,000 points
    /// of 300 frames took 0.1 s a level on one core).
    private static func radixSort(_ keys: inout [UInt64], _ values: inout [SIMD2<Int32>]) {
        let used = keys.reduce(0, |)
        var otherKeys = keys, otherValues = values
        var counts = [Int](repeating: 0, count: 1 << 16)
        for shift in Swift.stride(from: 0, to: 64, by: 16) where (used >> UInt64(shift)) & 0xFFFF != 0 {
            for k in 0 ..< counts.count { counts[k] = 0 }
            for key in keys { counts[Int(truncatingIfNeeded: key >> UInt64(shift)) & 0xFFFF] += 1 }
            var total = 0
            for k in 0 ..< counts.count {
                let n = counts[k]
                counts[k] = total
                total += n
            }
            for at in keys.indices {
                let digit = Int(truncatingIfNeeded: keys[at] >> UInt64(shift)) & 0xFFFF
                otherKeys[counts[digit]] = keys[at]
                otherValues[counts[digit]] = values[at]
                counts[digit] += 1
            }
            swap(&keys, &otherKeys)
            swap(&values, &otherValues)
        }
    }

    private static func cellOf(_ p: SIMD3<Double>, _ cell: Double) -> SIMD3<Int64> {
        SIMD3(Int64((p.x / cell).rounded(.down)), Int64((p.y / cell).rounded(.down)), Int64((p.z / cell).rounded(.down)))
    }

    /// A cell's key: the low 21 bits of its coordinates interleaved (`Morton`), so that
    /// entries sorted by key keep neighbouring cells near each other in memory. Cells 2²¹ cells
    /// apart on an axis share a key and a run, and are told apart by distance.
    private static func key(_ c: SIMD3<Int64>) -> UInt64 {
        Morton.spread(UInt64(bitPattern: c.x)) | Morton.spread(UInt64(bitPattern: c.y)) << 1 | Morton.spread(UInt64(bitPattern: c.z)) << 2
    }

    /// The 27 cells around a cell, itself first.
    private static let neighbours: [SIMD3<Int64>] = {
        var cells = [SIMD3<Int64>.zero]
        for z: Int64 in -1 ... 1 {
            for y: Int64 in -1 ... 1 {
                for x: Int64 in -1 ... 1 where x != 0 || y != 0 || z != 0 { cells.append(SIMD3(x, y, z)) }
            }
        }
        return cells
    }()

    /// The nearest point found so far: its frame, index and squared distance.
    typealias Nearest = (frame: Int, index: Int, distance: Double)

    /// Updates `best` with the points nearer to `p` than it (or than `radius` while it is nil;
    /// `radius` at most the cell) of the keyframes and the frames in `window`, but `excluded`;
    /// ties go to the lower frame, then index.
    func nearest(to p: SIMD3<Double>, window: ClosedRange<Int>, excluding excluded: Int, within radius: Double, best: inout Nearest?) {
        let centre = Self.cellOf(p, cell)
        let lower = Int32(clamping: window.lowerBound), upper = Int32(clamping: window.upperBound)
        let excluded = Int32(clamping: excluded)
        // How far `p` lies from its cell's lower and upper faces on each axis.
        let offset = p - SIMD3<Double>(centre) * cell
        let below = offset, above = SIMD3(repeating: cell) - offset
        var bound = best?.distance ?? radius * radius
        var found = best.map { (Int32($0.frame), Int32($0.index)) }
        entries.withUnsafeBufferPointer { entries in
            func consider(_ at: Int) {
                let entry = entries[at]
                guard entry.frame != excluded else { return }
                let dx = entry.x - p.x, dy = entry.y - p.y, dz = entry.z - p.z
                let distance = dx * dx + dy * dy + dz * dz
                if distance < bound || (distance == bound && found.map { (entry.frame, entry.index) < $0 } == true) {
                    bound = distance
                    found = (entry.frame, entry.index)
                }
            }
            // The own cell first, then the others in a fixed order, each only when its box is no
            // farther than the nearest point found (so the result is the nearest of all 27).
            for neighbour in Self.neighbours {
                var gap = SIMD3<Double>.zero
                for axis in 0 ..< 3 where neighbour[axis] != 0 { gap[axis] = neighbour[axis] < 0 ? below[axis] : above[axis] }
                guard (gap * gap).sum() <= bound else { continue }
                guard let run = cells[Self.key(centre &+ neighbour &- origin)] else { continue }
                for at in run.lower ..< run.middle { consider(at) }
                // The first of the other frames' entries at or past `lower`.
                var (low, high) = (run.middle, run.upper)
                while low < high {
                    let middle = (low + high) / 2
                    if entries[middle].frame < lower { low = middle + 1 } else { high = middle }
                }
                var at = low
                while at < run.upper, entries[at].frame <= upper {
                    consider(at)
                    at += 1
                }
            }
        }
        if let found { best = (Int(found.0), Int(found.1), bound) }
    }
}

/// The cells' runs by their key: open addressing with linear probing in a power-of-two table at
/// most a quarter full, each slot holding its key beside its run, so that a look-up reads one
/// slot (an empty cell's, most of the 27 around a point on a surface, too). A `Dictionary` was
/// slower (its look-ups were a third of a search's time), and so was a slot that pointed to the
/// run in a second array (a second cache miss for every cell read). The search is bound by such
/// misses, not by arithmetic: the slots of neighbouring cells lie together (`start`), and so do
/// their entries (the keys are Morton codes).
private struct CellTable: Sendable {
    /// A cell's entries: its keyframes' in `lower ..< middle`, the others' in `middle ..< upper`.
    struct Run: Sendable {
        var key: UInt64
        var lower: Int, middle: Int, upper: Int
    }

    /// A slot: a run's key and its bounds (32-bit, so that a slot takes 24 bytes); `upper` 0: empty.
    private struct Slot {
        var key: UInt64 = 0
        var lower: UInt32 = 0, middle: UInt32 = 0, upper: UInt32 = 0
    }

    private let slots: [Slot]
    private let mask: Int

    /// The slot a key's probe starts at: a 4 × 4 × 4 block of cells hashed, and the cell's place
    /// in it (the key's low six bits), so that the cells around a point mostly lie in a few
    /// stretches of 64 slots.
    private static func start(_ key: UInt64, _ mask: Int) -> Int {
        var h = (key >> 6) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        return Int(truncatingIfNeeded: h &* 64 &+ (key & 63)) & mask
    }

    /// The table of `runs` (distinct keys, bounds below 2³²).
    init(_ runs: [Run]) {
        var size = 64
        while size < 4 * runs.count { size *= 2 }
        mask = size - 1
        var slots = [Slot](repeating: Slot(), count: size)
        for run in runs {
            var slot = Self.start(run.key, mask)
            while slots[slot].upper != 0 { slot = (slot + 1) & mask }
            slots[slot] = Slot(key: run.key, lower: UInt32(run.lower), middle: UInt32(run.middle), upper: UInt32(run.upper))
        }
        self.slots = slots
    }

    subscript(key: UInt64) -> Run? {
        slots.withUnsafeBufferPointer { slots in
            var slot = Self.start(key, mask)
            while slots[slot].upper != 0 {
                let found = slots[slot]
                if found.key == key { return Run(key: key, lower: Int(found.lower), middle: Int(found.middle), upper: Int(found.upper)) }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }
}
