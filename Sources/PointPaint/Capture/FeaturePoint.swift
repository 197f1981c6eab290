/// A 3D feature point ARKit detected: a world position in metres and, when known, its
/// identifier (`ARPointCloud.identifiers`).
public struct FeaturePoint: Sendable, Equatable {
    /// World position, metres.
    public var position: SIMD3<Float>
    /// ARKit's identifier, if recorded.
    public var id: UInt64?
    /// The position as the file held it, where `Float` would lose more than 0.1 mm (a point in
    /// map coordinates, past `WorldOrigin.exactOffsetLimit`); nil otherwise.
    public var exact: SIMD3<Double>?

    /// Creates a point.
    public init(position: SIMD3<Float>, id: UInt64? = nil) {
        self.position = position
        self.id = id
    }

    /// A point read as `world`: its exact position kept where `Float` would lose precision.
    public init(world: SIMD3<Double>, id: UInt64? = nil) {
        self.position = SIMD3<Float>(world)
        self.id = id
        if WorldOrigin.farthest(world, world) > WorldOrigin.exactOffsetLimit { exact = world }
    }

    /// The world position in full precision.
    public var world: SIMD3<Double> { exact ?? SIMD3<Double>(position) }
}
