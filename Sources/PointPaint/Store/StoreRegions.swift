/// Spatial regions of a merge: runs of Morton codes holding about equal shares of the inputs'
/// voxels, computed from the inputs' indexes alone (each chunk's sample codes are exact
/// quantiles of its voxels), so that every process merging region K of N of the same inputs
/// (listed in any order) agrees on every boundary, and the N region stores, merged (or read one
/// after another), give the whole merge.
///
/// A region's share is exact to within one sample's weight of each input chunk (1/32 of a chunk:
/// 256 voxels); cells shared between inputs are counted once for each input holding them.
package enum StoreRegions {
    /// The N + 1 boundaries of `regions` regions: region k holds the codes `b[k] ..< b[k+1]`,
    /// `b[0] = 0`, `b[N] = UInt64.max` (every code lies below 2⁶³). `samples` are codes, each
    /// standing for `weight` voxels from it on; the boundaries are their weighted quantiles, in
    /// integer arithmetic, independent of the order of `samples`.
    ///
    /// - Complexity: O(s log s) for s samples.
    package static func boundaries(samples: [(code: UInt64, weight: Int)], regions n: Int) -> [UInt64] {
        precondition(n >= 1, "at least one region")
        let sorted = samples.filter { $0.weight > 0 }.sorted { $0.code != $1.code ? $0.code < $1.code : $0.weight < $1.weight }
        let total = UInt64(sorted.reduce(0) { $0 + $1.weight })
        var bounds: [UInt64] = [0]
        var before: UInt64 = 0  // voxels of the samples before the current one
        var k: UInt64 = 1
        let regions = UInt64(n)
        for sample in sorted where k < regions {
            // Region k starts at the first sample whose voxels begin at or past k/N of all.
            while k < regions, !below(before, regions, k, total) {
                bounds.append(sample.code)
                k += 1
            }
            before += UInt64(sample.weight)
        }
        while bounds.count < n { bounds.append(UInt64.max) }
        bounds.append(UInt64.max)
        return bounds
    }

    /// Whether a · b < c · d, without overflow.
    private static func below(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> Bool {
        let left = a.multipliedFullWidth(by: b), right = c.multipliedFullWidth(by: d)
        return left.high != right.high ? left.high < right.high : left.low < right.low
    }
}
