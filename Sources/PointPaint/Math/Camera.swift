/// Pinhole intrinsics in pixels of the image they belong to (ARKit's `ARCamera.intrinsics`).
public struct CameraIntrinsics: Sendable, Equatable {
    /// Focal length along x, pixels.
    public var fx: Double
    /// Focal length along y, pixels.
    public var fy: Double
    /// Principal point x, pixels from the left edge.
    public var cx: Double
    /// Principal point y, pixels from the top edge.
    public var cy: Double

    /// Creates intrinsics.
    public init(fx: Double, fy: Double, cx: Double, cy: Double) {
        (self.fx, self.fy, self.cx, self.cy) = (fx, fy, cx, cy)
    }
}

/// Where a world point lands in an image.
public enum Projection: Sendable, Equatable {
    /// In front of the camera and inside the image: scalar coordinates (0…1, origin top-left).
    case visible(s: Double, t: Double)
    /// At or behind the camera plane.
    case behind
    /// In front of the camera but outside the image.
    case outside
}

/// A camera of one frame: intrinsics and the camera-to-world pose, in ARKit's axes
/// (+x right, +y up, looking down −z).
public struct Camera: Sendable, Equatable {
    /// Intrinsics in pixels of the frame's image.
    public var intrinsics: CameraIntrinsics
    /// Camera space → world space (ARKit's `ARCamera.transform`).
    public let transform: Matrix4x4
    /// World space → camera space.
    public let worldToCamera: Matrix4x4

    /// Creates a camera; nil when `transform` is singular or not finite.
    public init?(intrinsics: CameraIntrinsics, transform: Matrix4x4) {
        guard let inverse = transform.inverse else { return nil }
        self.intrinsics = intrinsics
        self.transform = transform
        self.worldToCamera = inverse
    }

    /// This camera in a frame whose origin lies at `origin` of this one's world (a cloud's
    /// `VoxelCloud.origin`): the pose's translation less `origin`, the rotation and
    /// intrinsics the same. Projecting `p − origin` with it is projecting `p` with this camera,
    /// without the precision a `Float` loses at map coordinates.
    public func measured(from origin: SIMD3<Double>) -> Camera {
        guard origin != .zero else { return self }
        var t = transform
        t.columns.3 -= SIMD4(origin, 0)
        // A pose that was invertible stays so: only its translation changed.
        return Camera(intrinsics: intrinsics, transform: t)!
    }

    /// The camera centre in world space.
    public var position: SIMD3<Double> {
        let c = transform.columns.3
        return SIMD3(c.x, c.y, c.z)
    }

    /// Projects world point `p` into an image of `width` × `height` pixels, per the capture format:
    /// `c = inverse(transform) · p`, visible when `c.z < 0`, `u = fx·c.x/(−c.z) + cx`,
    /// `v = fy·(−c.y)/(−c.z) + cy`, scalar coordinates `(u/width, v/height)` in [0, 1).
    @inlinable
    public func project(_ p: SIMD3<Double>, width: Int, height: Int) -> Projection {
        let c = worldToCamera.transformPoint(p)
        guard c.z < 0 else { return .behind }
        let depth = -c.z
        let u = intrinsics.fx * c.x / depth + intrinsics.cx
        let v = intrinsics.fy * -c.y / depth + intrinsics.cy
        let s = u / Double(width), t = v / Double(height)
        guard s >= 0, s < 1, t >= 0, t < 1 else { return .outside }
        return .visible(s: s, t: t)
    }

    /// The world-space ray through pixel position (u, v): origin and unit direction.
    public func ray(u: Double, v: Double) -> (origin: SIMD3<Double>, direction: SIMD3<Double>) {
        let d = SIMD3((u - intrinsics.cx) / intrinsics.fx, -(v - intrinsics.cy) / intrinsics.fy, -1.0)
        let w = transform.transform(SIMD4(d.x, d.y, d.z, 0))
        let dir = SIMD3(w.x, w.y, w.z)
        return (position, dir / (dir * dir).sum().squareRoot())
    }
}
