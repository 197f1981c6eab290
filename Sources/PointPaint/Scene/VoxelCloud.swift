/// A coloured point or voxel cloud as the viewer, the PLY writer and the tools exchange it:
/// parallel arrays, one entry a voxel (or point).
public struct VoxelCloud: Sendable, Equatable {
    /// Edge length of a voxel in world units (metres), or nil when the cloud is plain points and
    /// the size is unknown.
    public var voxelSize: Float?
    /// Where `positions` are measured from, in whole metres: zero for data near the world
    /// origin, the data's rounded centre for map coordinates (`WorldOrigin`).
    public var origin: SIMD3<Double>
    /// Voxel centres (or point positions) as offsets from `origin`: the world position of point
    /// `i` is `origin + Double(positions[i])` (`worldPosition(_:)`).
    public var positions: [SIMD3<Float>]
    /// Gamma-encoded extended sRGB (sRGB primaries and transfer, unclamped: wide-colour values
    /// may lie outside 0…1).
    public var colors: [SIMD3<Float>]
    /// Observations that went into each voxel (1 for plain points; a PLY file's `views` when it
    /// has them, 0 for a point no frame saw).
    public var counts: [UInt32]
    /// Per voxel, the standard deviation of its observations' colours in linear light (the largest
    /// channel's, as `pointpaint paint --quality-properties` writes it in `colour_sd`), or nil when
    /// the cloud does not carry it.
    public var colourSD: [Float]?
    /// The world positions exactly as the file held them, one a point, kept only where the
    /// `Float` offsets lose more than 0.1 mm (`WorldOrigin.needsExactPositions`: a cloud
    /// spanning more than about 3 km); nil otherwise. Writers of plain points prefer them.
    public var exactPositions: [SIMD3<Double>]?

    /// Creates a cloud; the arrays must have the same length. `counts` defaults to all ones.
    /// `origin` must hold whole numbers of metres.
    public init(voxelSize: Float?, origin: SIMD3<Double> = .zero, positions: [SIMD3<Float>], colors: [SIMD3<Float>],
                counts: [UInt32]? = nil, colourSD: [Float]? = nil) {
        precondition(positions.count == colors.count, "positions and colours differ in length")
        precondition(origin == origin.rounded(.towardZero), "a cloud's origin is a whole number of metres")
        self.voxelSize = voxelSize
        self.origin = origin
        self.positions = positions
        self.colors = colors
        self.counts = counts ?? Array(repeating: 1, count: positions.count)
        self.colourSD = colourSD
        self.exactPositions = nil
        precondition(self.counts.count == positions.count, "positions and counts differ in length")
        precondition(colourSD.map { $0.count == positions.count } ?? true, "positions and colour spreads differ in length")
    }

    /// Whether `counts` says more than "one observation a voxel" (some count differs from 1).
    public var hasViewCounts: Bool { counts.contains { $0 != 1 } }

    /// Number of voxels.
    public var count: Int { positions.count }

    /// Whether some colour lies outside 0…1 in a channel (a colour sRGB cannot show, kept as
    /// extended sRGB), or is not a number.
    public var hasWideColor: Bool { PLYWriter.hasWideColor(colors) }

    /// The world position of point `i`: as the file held it when kept (`exactPositions`), else
    /// `origin + Double(positions[i])`.
    public func worldPosition(_ i: Int) -> SIMD3<Double> { exactPositions?[i] ?? origin + SIMD3<Double>(positions[i]) }

    /// Axis-aligned bounds of the finite positions (offsets from `origin`), or nil when there are
    /// none.
    public var bounds: (min: SIMD3<Float>, max: SIMD3<Float>)? { VoxelCloud.finiteBounds(positions) }

    /// Axis-aligned bounds of the points whose coordinates are all finite (a NaN or infinite
    /// point is left out), or nil when none is.
    /// - Complexity: O(n).
    public static func finiteBounds(_ points: [SIMD3<Float>]) -> (min: SIMD3<Float>, max: SIMD3<Float>)? {
        var lo = SIMD3<Float>(repeating: .infinity), hi = SIMD3<Float>(repeating: -.infinity)
        var any = false
        for p in points where p.isFinite {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
            any = true
        }
        return any ? (lo, hi) : nil
    }
}

extension SIMD3 where Scalar == Float {
    /// Whether all three coordinates are finite (neither NaN nor infinite).
    package var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}
