/// Points of many frames binned into cubic cells, for the nearest point of another frame within
/// a radius no larger than the cell: the 27 cells around the query hold every candidate.
struct NeighbourGrid: Sendable {
    /// The cell edge, metres.
    let cell: Double
    /// Where each cell's points lie in `entries`, by the hash of the cell.
    private let cells: [UInt64: Range<Int>]
    /// The frame and index of each point, cell by cell.
    private let entries: [(frame: Int32, index: Int32)]
    private let points: [[SIMD3<Double>]]

    /// Bins `points` (a list a frame) into cells of `cell` metres.
    init(points: [[SIMD3<Double>]], cell: Double) {
        self.cell = cell
        self.points = points
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
        entries = binned.map { ($0.frame, $0.index) }
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

    /// The nearest point to `p` of a frame other than `frame`, within `radius` (at most the
    /// cell); ties go to the lower frame, then index.
    func nearest(to p: SIMD3<Double>, excluding frame: Int, within radius: Double) -> (frame: Int, index: Int)? {
        let centre = Self.cellOf(p, cell)
        var best: (frame: Int, index: Int)?
        var bestDistance = radius * radius
        for dz in -1 ... 1 {
            for dy in -1 ... 1 {
                for dx in -1 ... 1 {
                    guard let range = cells[Self.key(centre &+ SIMD3(Int64(dx), Int64(dy), Int64(dz)))] else { continue }
                    for at in range {
                        let (f, i) = (Int(entries[at].frame), Int(entries[at].index))
                        guard f != frame else { continue }
                        let d = points[f][i] - p
                        let distance = (d * d).sum()
                        if distance < bestDistance || (distance == bestDistance && best.map { (f, i) < ($0.frame, $0.index) } == true) {
                            bestDistance = distance
                            best = (f, i)
                        }
                    }
                }
            }
        }
        return best
    }
}
