/// Where a cloud's local coordinates start, so map coordinates keep their precision.
///
/// Survey clouds sit hundreds of kilometres from the origin (UTM northings near 5,400 km), where
/// a `Float` steps by half a metre. A cloud therefore holds its positions as `Float` offsets from
/// an origin in `Double` whole metres: near the data, the offsets keep a `Float`'s precision
/// (61 µm within ±1024 m, a sixteenth of a voxel anywhere a store's keys reach), and world
/// coordinates are `origin + Double(offset)`.
///
/// Data within ±1024 m of the world origin keeps the origin at zero, so every cloud that was
/// exact before is read, voxelised and written exactly as before. Elsewhere the origin is the
/// centre of the data's bounds rounded to whole metres: moving a cloud by whole metres moves its
/// origin with it, and the offsets (and so the cells) stay those of the unmoved cloud
/// (docs/DESIGN.md, "Map coordinates").
public enum WorldOrigin {
    /// The largest coordinate kept with a zero origin: a `Float` steps by 2⁻¹³ m up to it, so
    /// rounding moves a point by at most 61 µm, under a tenth of a millimetre and under a
    /// sixteenth of the smallest voxel (1 mm).
    public static let zeroOriginLimit: Double = 1024

    /// The origin for data within `min … max` (finite bounds): zero when every coordinate lies
    /// within ±`zeroOriginLimit`, else the bounds' centre rounded to whole metres.
    public static func choose(min lo: SIMD3<Double>, max hi: SIMD3<Double>) -> SIMD3<Double> {
        guard farthest(lo, hi) > zeroOriginLimit else { return .zero }
        return ((lo + hi) * 0.5).rounded(.toNearestOrEven)
    }

    /// The largest magnitude of any coordinate of the box `lo … hi`.
    public static func farthest(_ lo: SIMD3<Double>, _ hi: SIMD3<Double>) -> Double {
        Swift.max(-lo.min(), lo.max(), -hi.min(), hi.max())
    }

    /// The farthest from the world origin a coordinate may lie, in metres: 2³¹ − 1, which store
    /// files hold as 32-bit whole metres (the Earth's surface lies within 10⁷ m of any map
    /// projection's origin).
    public static let maxCoordinate = Double(Int32.max)

    /// Throws `.outOfRange` naming `file` when a coordinate of `min … max` lies past
    /// `maxCoordinate`.
    public static func check(min lo: SIMD3<Double>, max hi: SIMD3<Double>, file: String?) throws {
        let far = farthest(lo, hi)
        guard far <= maxCoordinate else {
            throw PointPaintError(.outOfRange, file: file, "expected coordinates within ±\(Int32.max) m of the origin, found one at \(far) m")
        }
    }

    /// How far from its origin a `Float` offset keeps 0.1 mm: 0.1 mm · 2²⁴ = 1,677.7 m.
    public static let exactOffsetLimit = 1e-4 * Double(1 << 24)

    /// Whether data within `bounds`, measured from `origin`, needs its exact world positions
    /// beside the `Float` offsets: whether some offset lies past `exactOffsetLimit`.
    public static func needsExactPositions(_ bounds: WorldBounds?, origin: SIMD3<Double>) -> Bool {
        guard let bounds else { return false }
        return farthest(bounds.min - origin, bounds.max - origin) > exactOffsetLimit
    }

    /// The greatest rounding error, in metres, of writing coordinates up to `magnitude` as
    /// `Float`: half the spacing of floats there.
    public static func floatRoundingError(at magnitude: Double) -> Double {
        Double(Float(Swift.min(magnitude, Double(Float.greatestFiniteMagnitude))).ulp) / 2
    }
}

/// The box of some world positions, grown point by point.
public struct WorldBounds: Sendable, Equatable {
    /// Smallest x, y and z.
    public var min: SIMD3<Double>
    /// Greatest x, y and z.
    public var max: SIMD3<Double>

    /// The box of one point.
    public init(_ p: SIMD3<Double>) {
        min = p
        max = p
    }

    /// The box of the points of `points` whose coordinates are all finite, or nil when none is.
    /// - Complexity: O(n).
    public init?(finite points: some Sequence<SIMD3<Double>>) {
        var box: WorldBounds?
        for p in points where p.x.isFinite && p.y.isFinite && p.z.isFinite {
            if box == nil { box = WorldBounds(p) } else { box!.include(p) }
        }
        guard let box else { return nil }
        self = box
    }

    /// `a` grown to hold `b`, either of them possibly absent.
    public static func union(_ a: WorldBounds?, _ b: WorldBounds?) -> WorldBounds? {
        guard var a else { return b }
        if let b { a.include(b) }
        return a
    }

    /// This box grown to hold `p`.
    @inline(__always)
    public mutating func include(_ p: SIMD3<Double>) {
        min = pointwiseMin(min, p)
        max = pointwiseMax(max, p)
    }

    /// This box grown to hold `other`.
    public mutating func include(_ other: WorldBounds) {
        min = pointwiseMin(min, other.min)
        max = pointwiseMax(max, other.max)
    }

    /// The origin for data in this box (`WorldOrigin.choose`).
    /// - Throws: `.outOfRange` naming `file` for a coordinate past `WorldOrigin.maxCoordinate`.
    public func origin(file: String?) throws -> SIMD3<Double> {
        try WorldOrigin.check(min: min, max: max, file: file)
        return WorldOrigin.choose(min: min, max: max)
    }
}
