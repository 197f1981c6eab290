import Foundation

/// The distance between two picked voxels, as the viewer prints and draws it. World y is up (as in
/// ARKit worlds), so the height difference is the difference in y.
public struct Measurement: Sendable, Equatable {
    /// The first voxel's centre.
    public var from: SIMD3<Float>
    /// The second voxel's centre.
    public var to: SIMD3<Float>

    /// A measurement from `from` to `to`.
    public init(from: SIMD3<Float>, to: SIMD3<Float>) {
        self.from = from
        self.to = to
    }

    /// The straight-line distance.
    public var distance: Float { length(to - from) }
    /// How much higher the second voxel lies (negative: lower).
    public var heightDifference: Float { to.y - from.y }
    /// The distance in the horizontal plane (x and z).
    public var horizontalDistance: Float { length(SIMD3(to.x - from.x, 0, to.z - from.z)) }

    /// `distance 1.234 m, height +0.120 m, horizontal 1.228 m` (world units, metres in ARKit worlds).
    public var description: String {
        String(format: "distance %.3f m, height %+.3f m, horizontal %.3f m", distance, heightDifference, horizontalDistance)
    }
}
