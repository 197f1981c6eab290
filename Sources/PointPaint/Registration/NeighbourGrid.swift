/// Points of many frames binned into cubic cells, for the nearest point of other frames within a
/// radius no larger than the cell: the 27 cells around the query hold every candidate. A cell's
/// points are sorted by frame, so a search reads only the frames it asks for, and a neighbouring
/// cell farther than the nearest point found is not read at all.
struct NeighbourGrid: Sendable {
    /// The cell edge, metres.
    let cell: Double
    /// Where each cell's points lie in `entries`, by the hash of the cell.
    private let cells: [UInt64: Range<Int>]
    /// Each point with its frame and index, cell by cell (the point kept beside them, so a
    /// search reads one array).
    private let entries: [Entry]

    private struct Entry {
        var point: SIMD3<Double>
        var frame: Int32, index: Int32
    }

    /// Bins `points` (a list a frame) into cells of `cell` metres.
    init(points: [[SIMD3<Double>]], cell: Double) {
        self.cell = cell
        var binned: [(key: UInt64, frame: Int32, index: Int32)] = []
        binned.reserveCapacity(points.reduce(0) { $0 + $1.count })
        for (f, list) in points.enumerated() {
            for (i, p) in list.enumerated() { binned.append((Self.key(Self.cellOf(p, cell)), Int32(f), Int32(i))) }
        }
        binned.sort { ($0.key, $0.frame, $0.index) < ($1.key, $1.frame, $1.index) }
        var cells: [UInt64: Range<Int>] = [:]
        var start = 0
        for at in 1 ..< binned.count + 1 where at == binned.count || binned[at].key != binned[start].key {
            cells[binned[start].key] = start ..< at
            start = at
        }
        self.cells = cells
        entries = binned.map { Entry(point: points[Int($0.frame)][Int($0.index)], frame: $0.frame, index: $0.index) }
    }

    private static func cellOf(_ p: SIMD3<Double>, _ cell: Double) -> SIMD3<Int64> {
        SIMD3(Int64((p.x / cell).rounded(.down)), Int64((p.y / cell).rounded(.down)), Int64((p.z / cell).rounded(.down)))
    }

    /// A hash of a cell's coordinates (cells of equal hash are told apart by distance).
    private static func key(_ c: SIMD3<Int64>) -> UInt64 {
        var h = UInt64(bitPattern: c.x) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ UInt64(bitPattern: c.y)) &* 0xC2B2_AE3D_27D4_EB4F
        h = (h ^ UInt64(bitPattern: c.z)) &* 0x1656_67B1_9E37_79F9
        return h ^ (h >> 29)
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
    /// `radius` at most the cell) of the frames in `frames` but `excluded`; ties go to the lower
    /// frame, then index. A cell's points are sorted by frame, so only those of `frames` are read.
    func nearest(to p: SIMD3<Double>, frames: ClosedRange<Int>, excluding excluded: Int, within radius: Double, best: inout Nearest?) {
        let centre = Self.cellOf(p, cell)
        let lower = Int32(clamping: frames.lowerBound), upper = Int32(clamping: frames.upperBound)
        // How far `p` lies from its cell's lower and upper faces on each axis.
        let offset = p - SIMD3<Double>(centre) * cell
        let below = offset, above = SIMD3(repeating: cell) - offset
        entries.withUnsafeBufferPointer { entries in
            // The own cell first, then the others in a fixed order, each only when its box is no
            // farther than the nearest point found (so the result is the nearest of all 27).
            for neighbour in Self.neighbours {
                var gap = SIMD3<Double>.zero
                for axis in 0 ..< 3 where neighbour[axis] != 0 { gap[axis] = neighbour[axis] < 0 ? below[axis] : above[axis] }
                guard (gap * gap).sum() <= best?.distance ?? radius * radius else { continue }
                guard let range = cells[Self.key(centre &+ neighbour)] else { continue }
                // The first entry of a frame at or past `lower`.
                var (low, high) = (range.lowerBound, range.upperBound)
                while low < high {
                    let middle = (low + high) / 2
                    if entries[middle].frame < lower { low = middle + 1 } else { high = middle }
                }
                var at = low
                while at < range.upperBound, entries[at].frame <= upper {
                    let entry = entries[at]
                    at += 1
                    let (f, i) = (Int(entry.frame), Int(entry.index))
                    guard f != excluded else { continue }
                    let d = entry.point - p
                    let distance = (d * d).sum()
                    let bound = best?.distance ?? radius * radius
                    if distance < bound || (distance == bound && best.map { (f, i) < ($0.frame, $0.index) } == true) {
                        best = (f, i, distance)
                    }
                }
            }
        }
    }
}
