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

    /// Framing for `cloud`; an empty cloud gives a unit sphere at the origin.
    /// - Complexity: O(n) with a known voxel size; O(n) expected (a hash grid) when inferring it.
    public init(cloud: VoxelCloud) {
        let inferred = cloud.voxelSize == nil || !(cloud.voxelSize! > 0)
        let size = inferred ? PointSpacing.estimate(cloud.positions) : cloud.voxelSize!
        self.init(bounds: cloud.bounds, boxSize: size, inferred: inferred)
    }

    /// Framing for centres within `bounds` drawn as boxes of `boxSize`.
    public init(bounds: (min: SIMD3<Float>, max: SIMD3<Float>)?, boxSize: Float, inferred: Bool = false) {
        boxSizeInferred = inferred
        guard let bounds else {
            center = .zero
            radius = 1
            extent = .zero
            self.boxSize = boxSize > 0 && boxSize.isFinite ? boxSize : 0.05
            return
        }
        let size = boxSize > 0 && boxSize.isFinite ? boxSize : 0.05
        self.boxSize = size
        center = (bounds.min + bounds.max) / 2
        extent = bounds.max - bounds.min
        radius = max(length(extent + SIMD3(repeating: size)) / 2, 1e-6)
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
    /// fewer than two distinct points.
    /// - Complexity: O(n) expected (one hash-grid pass plus bounded neighbourhood searches).
    public static func estimate(_ points: [SIMD3<Float>]) -> Float {
        let fallback: Float = 0.05
        guard points.count >= 2, var lo = points.first else { return fallback }
        var hi = lo
        for p in points { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        let extent = hi - lo
        let largest = max(extent.x, extent.y, extent.z)
        guard largest > 0 else { return fallback }
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
