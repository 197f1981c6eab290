import PointPaint

/// What the camera needs to frame a cloud: its bounding sphere (boxes included), the box size
/// to draw, and a view that does not look at a flat or collinear cloud edge-on.
public struct SceneFraming: Sendable, Equatable {
    /// Centre of the bounds.
    public var center: SIMD3<Float>
    /// Radius of a sphere enclosing every box.
    public var radius: Float
    /// Extent of the voxel centres along x, y, z.
    public var extent: SIMD3<Float>
    /// Edge length of a box: the cloud's voxel size, or inferred from the point spacing.
    public var boxSize: Float
    /// Whether `boxSize` was inferred (the cloud recorded none).
    public var boxSizeInferred: Bool

    /// Framing for `cloud`; an empty cloud gives a unit sphere at the origin. Points with a
    /// non-finite coordinate are left out of the bounds and the spacing (the viewer does not draw
    /// them). The box size is `boxSize` when given (positive and finite), else the cloud's voxel
    /// size, else inferred from the point spacing — only then is the spacing estimated, and the
    /// inferred size is capped at 1/8 of the cloud's largest extent, so a sparse cloud gets small
    /// boxes, not boxes as wide as the gaps between its points.
    /// - Complexity: O(n) with a known size; O(n) expected (a hash grid) when inferring it.
    public init(cloud: VoxelCloud, boxSize: Float? = nil) {
        let bounds = VoxelCloud.finiteBounds(cloud.positions)
        if let boxSize, boxSize > 0, boxSize.isFinite {
            self.init(bounds: bounds, boxSize: boxSize)
        } else if let size = cloud.voxelSize, size > 0, size.isFinite {
            self.init(bounds: bounds, boxSize: size)
        } else {
            var size = PointSpacing.estimate(cloud.positions)
            if let bounds {
                let extent = bounds.max - bounds.min
                let largest = max(extent.x, extent.y, extent.z)
                if largest > 0 && largest.isFinite { size = min(size, largest / Self.inferredBoxDivisor) }
            }
            self.init(bounds: bounds, boxSize: size, inferred: true)
        }
    }

    /// An inferred box is at most the cloud's largest extent divided by this.
    public static let inferredBoxDivisor: Float = 8

    /// Framing for centres within `bounds` drawn as boxes of `boxSize`. Bounds too far apart for
    /// a `Float` extent are clamped, so the framing stays finite.
    public init(bounds: (min: SIMD3<Float>, max: SIMD3<Float>)?, boxSize: Float, inferred: Bool = false) {
        boxSizeInferred = inferred
        let size = boxSize > 0 && boxSize.isFinite ? boxSize : 0.05
        self.boxSize = size
        guard let bounds else {
            center = .zero
            radius = 1
            extent = .zero
            return
        }
        let limit = SIMD3<Float>(repeating: .greatestFiniteMagnitude / 8)
        center = bounds.min * 0.5 + bounds.max * 0.5
        extent = pointwiseMin(bounds.max * 0.5 - bounds.min * 0.5, limit / 2) * 2
        radius = max(min(length(extent / 2 + SIMD3(repeating: size / 2)), .greatestFiniteMagnitude / 8), 1e-6)
    }

    /// Yaw and pitch in degrees for a first view: 0 and 20 for an ordinary cloud (seen from the
    /// +z side, slightly from above, as the capture camera started); a cloud flat in y (a floor) is
    /// seen from higher up, one thin in x (a wall facing x, or a line along z) from the side.
    public var suggestedView: (yaw: Float, pitch: Float) {
        let largest = max(extent.x, extent.y, extent.z)
        guard largest > 0 else { return (0, 20) }
        let thinX = extent.x < largest * 0.05, thinY = extent.y < largest * 0.05
        let yaw: Float = thinX ? 60 : 0
        let pitch: Float = thinY && !thinX ? 55 : 20
        return (yaw, pitch)
    }
}

/// Estimates the spacing of a point cloud without a recorded voxel size: the median distance
/// from a sample of points to their nearest neighbour.
public enum PointSpacing {
    /// The median nearest-neighbour distance over up to 1,000 sampled points; 0.05 when there are
    /// fewer than two distinct points. Points with a non-finite coordinate are ignored.
    /// - Complexity: O(n) expected (one hash-grid pass plus bounded neighbourhood searches).
    public static func estimate(_ points: [SIMD3<Float>]) -> Float {
        let fallback: Float = 0.05
        let points = points.allSatisfy(\.isFinite) ? points : points.filter(\.isFinite)
        guard points.count >= 2, let (lo, hi) = VoxelCloud.finiteBounds(points) else { return fallback }
        let extent = hi - lo
        let largest = max(extent.x, extent.y, extent.z)
        guard largest > 0, largest.isFinite else { return fallback }
        // Cell size so that a surface-like cloud has a few points per cell.
        let dims = Float(max([extent.x, extent.y, extent.z].filter { $0 > largest * 1e-3 }.count, 1))
        var cell = largest / Float(points.count).squareRoot() * (dims == 3 ? 2 : 1)
        if dims == 1 { cell = largest / Float(points.count) * 2 }
        cell = max(cell, largest * 1e-6)
        func key(_ p: SIMD3<Float>) -> SIMD3<Int32> { SIMD3<Int32>(((p - lo) / cell).rounded(.down)) }
        var grid: [SIMD3<Int32>: [Int32]] = [:]
        for (i, p) in points.enumerated() { grid[key(p), default: []].append(Int32(i)) }
        let stride = max(points.count / 1000, 1)
        var distances: [Float] = []
        var i = 0
        while i < points.count {
            let p = points[i], k = key(p)
            var best = Float.infinity
            var ring: Int32 = 1
            // Widen the search until a neighbour is found and the ring covers that distance.
            while ring <= 16 {
                for dz in -ring ... ring { for dy in -ring ... ring { for dx in -ring ... ring {
                    guard max(abs(dx), abs(dy), abs(dz)) == ring || ring == 1 else { continue }
                    guard let list = grid[k &+ SIMD3(dx, dy, dz)] else { continue }
                    for j in list where Int(j) != i {
                        let d = length(points[Int(j)] - p)
                        if d > 0 && d < best { best = d }
                    }
                } } }
                if best <= Float(ring) * cell { break }
                ring += 1
            }
            if best.isFinite { distances.append(best) }
            i += stride
        }
        guard !distances.isEmpty else { return fallback }
        distances.sort()
        return distances[distances.count / 2]
    }
}
