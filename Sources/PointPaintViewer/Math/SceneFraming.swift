import PointPaint

/// What the camera needs to frame a cloud: the box it frames (the cloud's bulk: the 1st to 99th
/// percentile of the points along each axis, so a few stray points far away do not shrink the
/// cloud to a speck), the sphere around every point (which the clip planes keep in view), the box
/// size to draw, and a view that does not look at a flat or collinear cloud edge-on.
public struct SceneFraming: Sendable, Equatable {
    /// Centre of the framed box.
    public var center: SIMD3<Float>
    /// Radius of a sphere enclosing the framed box, boxes included.
    public var radius: Float
    /// Extent of the framed box along x, y, z.
    public var extent: SIMD3<Float>
    /// Centre of the bounds of every point.
    public var fullCenter: SIMD3<Float>
    /// Radius of a sphere around every box.
    public var fullRadius: Float
    /// Extent of every point's bounds.
    public var fullExtent: SIMD3<Float>
    /// Edge length of a box: the cloud's voxel size, or inferred from the point spacing.
    public var boxSize: Float
    /// Whether `boxSize` was inferred (the cloud recorded none).
    public var boxSizeInferred: Bool

    /// Framing for `cloud`; an empty cloud gives a unit sphere at the origin. Points with a
    /// non-finite coordinate are left out of the bounds and the spacing (the viewer does not draw
    /// them). The framed box is the cloud's bulk (`bulkBounds`). The box size is `boxSize` when
    /// given (positive and finite), else the cloud's voxel size, else inferred from the point
    /// spacing — only then is the spacing estimated, and the inferred size is capped at 1/8 of the
    /// bulk's largest extent, so a sparse cloud gets small boxes, not boxes as wide as the gaps
    /// between its points.
    /// - Complexity: O(n) (the bulk from a sample of at most `bulkSample` points).
    public init(cloud: VoxelCloud, boxSize: Float? = nil) {
        let bounds = VoxelCloud.finiteBounds(cloud.positions)
        let bulk = bounds.flatMap { _ in Self.bulkBounds(cloud.positions) }
        if let boxSize, boxSize > 0, boxSize.isFinite {
            self.init(bounds: bounds, bulk: bulk, boxSize: boxSize)
        } else if let size = cloud.voxelSize, size > 0, size.isFinite {
            self.init(bounds: bounds, bulk: bulk, boxSize: size)
        } else {
            var size = PointSpacing.estimate(cloud.positions)
            if let bulk {
                let extent = bulk.max - bulk.min
                let largest = max(extent.x, extent.y, extent.z)
                if largest > 0 && largest.isFinite { size = min(size, largest / Self.inferredBoxDivisor) }
            }
            self.init(bounds: bounds, bulk: bulk, boxSize: size, inferred: true)
        }
    }

    /// An inferred box is at most the cloud's largest extent divided by this.
    public static let inferredBoxDivisor: Float = 8

    /// Framing for centres within `bounds`, framing `bulk` (within them; nil: all of `bounds`),
    /// drawn as boxes of `boxSize`. Bounds too far apart for a `Float` extent are clamped, so the
    /// framing stays finite.
    public init(bounds: (min: SIMD3<Float>, max: SIMD3<Float>)?, bulk: (min: SIMD3<Float>, max: SIMD3<Float>)? = nil,
                boxSize: Float, inferred: Bool = false) {
        boxSizeInferred = inferred
        let size = boxSize > 0 && boxSize.isFinite ? boxSize : 0.05
        self.boxSize = size
        guard let bounds else {
            center = .zero
            radius = 1
            extent = .zero
            fullCenter = .zero
            fullRadius = 1
            fullExtent = .zero
            return
        }
        func sphere(_ box: (min: SIMD3<Float>, max: SIMD3<Float>)) -> (SIMD3<Float>, Float, SIMD3<Float>) {
            let limit = SIMD3<Float>(repeating: .greatestFiniteMagnitude / 8)
            let extent = pointwiseMin(box.max * 0.5 - box.min * 0.5, limit / 2) * 2
            let radius = max(min(length(extent / 2 + SIMD3(repeating: size / 2)), .greatestFiniteMagnitude / 8), 1e-6)
            return (box.min * 0.5 + box.max * 0.5, radius, extent)
        }
        (fullCenter, fullRadius, fullExtent) = sphere(bounds)
        (center, radius, extent) = sphere(bulk ?? bounds)
    }

    /// The framing of every point (the full bounds framed, not the bulk).
    public var whole: SceneFraming {
        var framing = self
        (framing.center, framing.radius, framing.extent) = (fullCenter, fullRadius, fullExtent)
        return framing
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
    /// Points searched at most: a larger cloud is searched in whole blocks of space chosen by a
    /// hash, so the neighbours of the sampled points are all there.
    public static let searchedPoints = 200_000

    /// The median nearest-neighbour distance over about 1,000 sampled points; 0.05 when there are
    /// fewer than two distinct points. Points with a non-finite coordinate are ignored. The
    /// samples are chosen by a hash of their coordinates, so the estimate depends on the points,
    /// not on their order.
    /// - Complexity: O(n) expected (a pass choosing the blocks, one hash-grid pass over at most
    ///   `searchedPoints`, bounded neighbourhood searches).
    public static func estimate(_ points: [SIMD3<Float>]) -> Float {
        let fallback: Float = 0.05
        var points = points.allSatisfy { $0.hasFiniteCoordinates } ? points : points.filter { $0.hasFiniteCoordinates }
        guard points.count >= 2, let (lo, hi) = VoxelCloud.finiteBounds(points) else { return fallback }
        let extent = hi - lo
        let largest = max(extent.x, extent.y, extent.z)
        guard largest > 0, largest.isFinite else { return fallback }
        // Cell size so that a surface-like cloud has a few points per cell.
        func cellSize(_ count: Int) -> Float {
            let dims = Float(max([extent.x, extent.y, extent.z].filter { $0 > largest * 1e-3 }.count, 1))
            var cell = largest / Float(count).squareRoot() * (dims == 3 ? 2 : 1)
            if dims == 1 { cell = largest / Float(count) * 2 }
            return max(cell, largest * 1e-6)
        }
        if points.count > searchedPoints {
            // Whole blocks of 16 cells a side, one in `keep` by the hash of the block's key.
            let block = cellSize(points.count) * 16, keep = UInt64(points.count / (searchedPoints / 2))
            points = points.filter { p in
                let key = SIMD3<Int32>(((p - lo) / block).rounded(.down))
                return PointHash.of(SIMD3<Float>(Float(key.x), Float(key.y), Float(key.z))) % keep == 0
            }
            guard points.count >= 2 else { return fallback }
        }
        let cell = cellSize(points.count)
        func key(_ p: SIMD3<Float>) -> SIMD3<Int32> { SIMD3<Int32>(((p - lo) / cell).rounded(.down)) }
        var grid: [SIMD3<Int32>: [Int32]] = [:]
        for (i, p) in points.enumerated() { grid[key(p), default: []].append(Int32(i)) }
        let share = UInt64(max(points.count / 1000, 1))
        var distances: [Float] = []
        for (i, p) in points.enumerated() where PointHash.of(p) % share == 0 {
            let k = key(p)
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
        }
        guard !distances.isEmpty else { return fallback }
        distances.sort()
        return distances[distances.count / 2]
    }
}
