/// The bounding boxes of a cloud's points taken `size` at a time in file order, so that a frame
/// can skip a run of points that lies wholly behind its camera or wholly beyond one edge of its
/// image (`FrameProjection`). Clouds are written in scan, face or grid order, so consecutive
/// points lie close together and most runs' boxes are small.
struct CloudBlocks: Sendable {
    /// Points a block covers (the last block may cover fewer).
    static let size = 1024
    /// Per block: the least x, y, z of its points.
    let lower: [SIMD3<Float>]
    /// Per block: the greatest x, y, z of its points.
    let upper: [SIMD3<Float>]
    /// The greatest magnitude of any coordinate of the cloud (for `FrameProjection`'s margins).
    let magnitude: Float

    /// The blocks of `positions` (finite).
    /// - Complexity: O(n).
    init(_ positions: [SIMD3<Float>]) {
        let count = (positions.count + Self.size - 1) / Self.size
        var lower = [SIMD3<Float>](repeating: .zero, count: count), upper = lower
        var magnitude: Float = 0
        positions.withUnsafeBufferPointer { p in
            for b in 0 ..< count {
                var lo = p[b * Self.size], hi = lo
                for i in b * Self.size ..< min(p.count, (b + 1) * Self.size) {
                    let q = p[i]
                    lo = SIMD3(q.x < lo.x ? q.x : lo.x, q.y < lo.y ? q.y : lo.y, q.z < lo.z ? q.z : lo.z)
                    hi = SIMD3(q.x > hi.x ? q.x : hi.x, q.y > hi.y ? q.y : hi.y, q.z > hi.z ? q.z : hi.z)
                }
                lower[b] = lo
                upper[b] = hi
                magnitude = max(magnitude, abs(lo.x), abs(lo.y), abs(lo.z), abs(hi.x), abs(hi.y), abs(hi.z))
            }
        }
        self.lower = lower
        self.upper = upper
        self.magnitude = magnitude
    }

    /// Number of blocks.
    var count: Int { lower.count }
}
