/// A 3D feature point ARKit detected: a world position in metres and, when known, its
/// identifier (`ARPointCloud.identifiers`).
public struct FeaturePoint: Sendable, Equatable {
    /// World position, metres.
    public var position: SIMD3<Float>
    /// ARKit's identifier, if recorded.
    public var id: UInt64?

    /// Creates a point.
    public init(position: SIMD3<Float>, id: UInt64? = nil) {
        self.position = position
        self.id = id
    }
}
