/// One voxel's exact accumulator, keyed by its Morton code: what store files hold, what merges
/// combine and what every cloud written from a store is made of.
///
/// The fields are integers, so combining two voxels is exact, associative and commutative
/// (`merged(with:policy:)`), and the colour a voxel shows (`color(_:)`) depends only on these
/// bits: a store written, read back and merged in any grouping gives the same clouds byte for
/// byte.
///
/// - `mean`: `r`, `g`, `b` are sums of linear-light extended sRGB channels in 40.24 fixed
///   point (`SceneStore.fixedPoint`), each sample rounded toward zero to 2⁻²⁴ and clamped to
///   ±64, so one sample adds at most 2³⁰ in magnitude and `count` ≤ 2³² − 1 samples keep every
///   sum below 2⁶² in magnitude.
/// - `latest` / `first`: `r`, `g`, `b` hold the kept sample's `Float` bit patterns (low 32 bits,
///   the rest zero); its frame is `last` (latest) or `first` (first).
package struct StoredVoxel: Sendable, Equatable {
    /// `VoxelKey.mortonCode` of the voxel's cell.
    package var code: UInt64
    /// Red, green and blue: fixed-point sums (`mean`) or `Float` bit patterns.
    package var r: Int64, g: Int64, b: Int64
    /// Samples in the voxel, at least 1.
    package var count: UInt32
    /// Smallest frame index among its samples.
    package var first: UInt32
    /// Greatest frame index among its samples.
    package var last: UInt32

    /// Creates a voxel from its fields.
    @inline(__always)
    package init(code: UInt64, r: Int64, g: Int64, b: Int64, count: UInt32, first: UInt32, last: UInt32) {
        self.code = code
        self.r = r
        self.g = g
        self.b = b
        self.count = count
        self.first = first
        self.last = last
    }

    /// The voxel's cell.
    package var key: VoxelKey { VoxelKey(mortonCode: code) }

    /// Linear-light extended sRGB colour: the mean (`mean`) or the kept sample.
    @inline(__always)
    package func color(_ policy: AccumulationPolicy) -> SIMD3<Float> {
        StoredVoxel.color(r: r, g: g, b: b, count: count, policy: policy)
    }

    /// The colour of accumulator fields; the one definition `SceneStore` and store files share.
    @inline(__always)
    package static func color(r: Int64, g: Int64, b: Int64, count: UInt32, policy: AccumulationPolicy) -> SIMD3<Float> {
        switch policy {
        case .mean:
            guard count > 0 else { return .zero }
            let d = Double(count) * SceneStore.fixedPointScale
            return SIMD3(Float(Double(r) / d), Float(Double(g) / d), Float(Double(b) / d))
        case .latest, .first:
            return SIMD3(Float(bitPattern: UInt32(truncatingIfNeeded: r)), Float(bitPattern: UInt32(truncatingIfNeeded: g)),
                         Float(bitPattern: UInt32(truncatingIfNeeded: b)))
        }
    }

    /// This voxel combined with `other` (same code) as if one store had received both voxels'
    /// samples, or nil when the combined count would pass `UInt32.max`.
    ///
    /// Symmetric: `a.merged(with: b) == b.merged(with: a)`, and associative, so any grouping and
    /// order of merges gives the same bits. Counts and sums add, frames take their min and max;
    /// `latest` keeps the colour of the voxel with the greater `last` frame and `first` the one
    /// with the smaller `first` frame; when both voxels hold a sample of that same frame (only
    /// possible when the stores replayed overlapping frames), the greater colour bit pattern
    /// (r, then g, then b, as unsigned 32-bit numbers) wins.
    @inline(__always)
    package func merged(with other: StoredVoxel, policy: AccumulationPolicy) -> StoredVoxel? {
        let (count, overflow) = count.addingReportingOverflow(other.count)
        guard !overflow else { return nil }
        var out = self
        out.count = count
        out.first = min(first, other.first)
        out.last = max(last, other.last)
        switch policy {
        case .mean:
            // |sums| < 2³⁰ · count ≤ 2⁶² for any count that fits 32 bits: no overflow.
            out.r = r &+ other.r
            out.g = g &+ other.g
            out.b = b &+ other.b
        case .latest:
            if other.last > last || (other.last == last && other.colorBitsExceed(self)) { out.setColor(of: other) }
        case .first:
            if other.first < first || (other.first == first && other.colorBitsExceed(self)) { out.setColor(of: other) }
        }
        return out
    }

    /// Whether this voxel's colour bits, (r, g, b) as unsigned numbers, order after `other`'s.
    @inline(__always)
    private func colorBitsExceed(_ other: StoredVoxel) -> Bool {
        (UInt64(bitPattern: r), UInt64(bitPattern: g), UInt64(bitPattern: b))
            > (UInt64(bitPattern: other.r), UInt64(bitPattern: other.g), UInt64(bitPattern: other.b))
    }

    @inline(__always)
    private mutating func setColor(of other: StoredVoxel) {
        r = other.r
        g = other.g
        b = other.b
    }
}
