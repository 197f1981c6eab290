import PointPaint

extension SceneFraming {
    /// Points sampled at most for the bulk's percentiles.
    public static let bulkSample = 100_000
    /// The share of points left out at each end of every axis: the bulk spans the 1st to the 99th
    /// percentile.
    public static let bulkTail = 0.01

    /// The bulk of `points`: per axis, from the 1st to the 99th percentile of the finite points'
    /// coordinates (by rank: the ⌊0.01·(m−1)⌋-th to the ⌈0.99·(m−1)⌉-th of m sorted values, so a
    /// cloud of up to 100 points keeps all of them). Clouds of more than `bulkSample` points are
    /// sampled by a hash of each point's coordinates, so the result depends on the points and
    /// not on their order. Nil when no point is finite.
    /// - Complexity: O(n) to sample, O(s log s) for the s ≤ `bulkSample` sampled.
    public static func bulkBounds(_ points: [SIMD3<Float>]) -> (min: SIMD3<Float>, max: SIMD3<Float>)? {
        var xs: [Float] = [], ys: [Float] = [], zs: [Float] = []
        let finite = points.count { $0.hasFiniteCoordinates }
        guard finite > 0 else { return nil }
        // Keep a point when its hash falls below the share that leaves about `bulkSample`.
        let threshold = finite <= bulkSample ? UInt64.max : UInt64(Double(UInt64.max) * Double(bulkSample) / Double(finite))
        let capacity = min(finite, bulkSample + bulkSample / 8)
        xs.reserveCapacity(capacity)
        ys.reserveCapacity(capacity)
        zs.reserveCapacity(capacity)
        for p in points where p.hasFiniteCoordinates && PointHash.of(p) <= threshold {
            xs.append(p.x)
            ys.append(p.y)
            zs.append(p.z)
        }
        guard !xs.isEmpty else { return VoxelCloud.finiteBounds(points) }
        let m = xs.count
        let low = Int((bulkTail * Double(m - 1)).rounded(.down)), high = Int(((1 - bulkTail) * Double(m - 1)).rounded(.up))
        xs.sort()
        ys.sort()
        zs.sort()
        return (SIMD3(xs[low], ys[low], zs[low]), SIMD3(xs[high], ys[high], zs[high]))
    }
}

/// A hash of a point's coordinates (their bits, mixed by SplitMix64's finaliser): picks samples
/// that depend on the points themselves, not on their order.
enum PointHash {
    @inline(__always)
    static func of(_ p: SIMD3<Float>) -> UInt64 {
        var z = UInt64(p.x.bitPattern) | UInt64(p.y.bitPattern) << 32
        z ^= UInt64(p.z.bitPattern) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
