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
/// - Weighted (`StoreContents.weights`, `mean` only): each sample carries a whole-number weight w
///   of 1…255 (`ObservationWeight`); `r`, `g`, `b` are Σ w · c and `weight` is Σ w, so the colour
///   is the weighted mean. Unweighted voxels keep `weight` 0 (every sample weighs 1).
/// - With the spread (`StoreContents.spread`, `mean` only): `r2`, `g2`, `b2` are Σ w · c² in the
///   same fixed point (each c² clamped to 4096, as c is to ±64), so the voxel has a variance.
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
    /// Σ w of a weighted voxel; 0 when unweighted.
    package var weight: UInt64 = 0
    /// Σ w · c² of each channel when the spread is kept; 0 otherwise.
    package var r2: Int64 = 0, g2: Int64 = 0, b2: Int64 = 0

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

    /// Linear-light extended sRGB colour: the (weighted) mean (`mean`) or the kept sample.
    @inline(__always)
    package func color(_ policy: AccumulationPolicy) -> SIMD3<Float> {
        StoredVoxel.color(r: r, g: g, b: b, count: weight > 0 ? Double(weight) : Double(count), policy: policy)
    }

    /// The standard deviation of the voxel's samples' colours in linear light, the largest of the
    /// three channels' (weighted like the mean), from `r2`, `g2`, `b2`: 0 for a single sample.
    /// Meaningful only for `mean` voxels whose store keeps the spread.
    package var colourSD: Float {
        guard count > 1 else { return 0 }
        let total = weight > 0 ? Double(weight) : Double(count)
        let scale = 1 / SceneStore.fixedPointScale
        let mean = SIMD3<Double>(Double(r), Double(g), Double(b)) * (scale / total)
        let variance = SIMD3<Double>(Double(r2), Double(g2), Double(b2)) * (scale / total) - mean * mean
        return Float(max(variance.max(), 0).squareRoot())
    }

    /// The colour of accumulator fields; the one definition `SceneStore` and store files share.
    /// `count` divides the sums of a mean: the samples, or Σ w when weighted.
    @inline(__always)
    package static func color(r: Int64, g: Int64, b: Int64, count: Double, policy: AccumulationPolicy) -> SIMD3<Float> {
        switch policy {
        case .mean:
            guard count > 0 else { return .zero }
            let d = count * SceneStore.fixedPointScale
            return SIMD3(Float(Double(r) / d), Float(Double(g) / d), Float(Double(b) / d))
        case .latest, .first:
            return SIMD3(Float(bitPattern: UInt32(truncatingIfNeeded: r)), Float(bitPattern: UInt32(truncatingIfNeeded: g)),
                         Float(bitPattern: UInt32(truncatingIfNeeded: b)))
        }
    }

    /// This voxel combined with `other` (same code) as if one store had received both voxels'
    /// samples, or nil when the combined count would pass `UInt32.max` (or a weighted voxel's
    /// sums 64 bits).
    ///
    /// Symmetric: `a.merged(with: b) == b.merged(with: a)`, and associative, so any grouping and
    /// order of merges gives the same bits. Counts, weights and sums add, frames take their min and max;
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
        case .mean where weight == 0 && other.weight == 0 && (r2 | g2 | b2 | other.r2 | other.g2 | other.b2) == 0:
            // |sums| < 2³⁰ · count ≤ 2⁶² for any count that fits 32 bits: no overflow.
            out.r = r &+ other.r
            out.g = g &+ other.g
            out.b = b &+ other.b
        case .mean:
            // Weights of up to 255 and squares of up to 2³⁶ a sample can pass 64 bits: checked.
            var overflow = false
            func add(_ a: Int64, _ b: Int64) -> Int64 {
                let (sum, o) = a.addingReportingOverflow(b)
                overflow = overflow || o
                return sum
            }
            out.r = add(r, other.r)
            out.g = add(g, other.g)
            out.b = add(b, other.b)
            out.r2 = add(r2, other.r2)
            out.g2 = add(g2, other.g2)
            out.b2 = add(b2, other.b2)
            let (w, o) = weight.addingReportingOverflow(other.weight)
            guard !overflow, !o else { return nil }
            out.weight = w
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
