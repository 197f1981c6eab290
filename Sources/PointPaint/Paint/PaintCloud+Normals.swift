import Foundation

/// A unit normal in three signed bytes (each component × 127): precise to about 0.5°, which is
/// plenty for weighting views, at 3 bytes a point instead of 16.
public struct PackedNormal: Sendable, Equatable {
    /// Components × 127.
    public var x: Int8, y: Int8, z: Int8

    /// No normal (too few neighbours to tell a surface).
    public static let none = PackedNormal(x: 0, y: 0, z: 0)

    /// Packs a unit vector (a zero vector packs to `none`).
    public init(_ n: SIMD3<Float>) {
        let q = (n * 127).rounded(.toNearestOrAwayFromZero)
        x = Int8(max(min(q.x, 127), -127))
        y = Int8(max(min(q.y, 127), -127))
        z = Int8(max(min(q.z, 127), -127))
    }

    /// Packs the components as they are.
    public init(x: Int8, y: Int8, z: Int8) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The normal as a vector of length about 1 (zero for `none`).
    @inline(__always)
    public var vector: SIMD3<Float> { SIMD3(Float(x), Float(y), Float(z)) / 127 }
}

extension PaintCloud {
    /// Surface normals by principal component analysis: for each point, the direction of least
    /// spread of its neighbours within `2.5 × spacing` (about 20 neighbours on a surface sampled
    /// every `spacing` metres). Orientation is arbitrary (weights use |cos θ|); a point with fewer
    /// than 5 neighbours, or whose neighbours spread as much in every direction (no surface),
    /// gets `PackedNormal.none`.
    ///
    /// Neighbours are found through a grid of cells one radius wide, the points sorted by cell.
    /// - Complexity: O(n log n) for the sort, then O(n · k) for k neighbours a point, on
    ///   `threads` threads; 12 bytes a point besides the result's 3.
    public func estimatedNormals(spacing: Float, threads: Int = ProcessInfo.processInfo.activeProcessorCount) -> [PackedNormal] {
        let n = positions.count
        guard n > 0 else { return [] }
        var lo = SIMD3<Float>(repeating: .infinity), hi = -lo
        for p in positions {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        // Cells one radius wide, at most 2²⁰ along an axis (the keys pack 21 bits an axis); the
        // extent and cells in Double, as finite points up to ±3.4e38 apart overflow a Float's.
        let low = SIMD3<Double>(lo), extent = (SIMD3<Double>(hi) - low).max()
        let radius = Float(min(max(Double(2.5 * spacing), extent / Double(1 << 20), Double(Float.leastNormalMagnitude)),
                               Double(Float.greatestFiniteMagnitude)))
        let cell = max(Double(radius), extent / Double(1 << 20))
        @inline(__always) func cellOf(_ p: SIMD3<Float>) -> SIMD3<Int> {
            let c = ((SIMD3<Double>(p) - low) / cell).rounded(.down)
            return SIMD3(Int(c.x), Int(c.y), Int(c.z))
        }

        // Points sorted by cell: keys and point indices together, one sort.
        var sorted = [SIMD2<UInt64>](unsafeUninitializedCapacity: n) { out, initialized in
            for i in 0 ..< n { out[i] = SIMD2(Self.cellKey(cellOf(positions[i])), UInt64(i)) }
            initialized = n
        }
        sorted.sort { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        var cellKeys: [UInt64] = [], cellStarts: [Int] = []
        for (j, e) in sorted.enumerated() where cellKeys.last != e.x {
            cellKeys.append(e.x)
            cellStarts.append(j)
        }
        cellStarts.append(n)

        var normals = [PackedNormal](repeating: .none, count: n)
        let radiusSquared = radius * radius
        let cells = cellKeys.count
        let bands = min(cells, max(1, threads) * 8)
        normals.withUnsafeMutableBufferPointer { out in
            let result = SendablePointer(out.baseAddress!)
            sorted.withUnsafeBufferPointer { sortedPoints in
                positions.withUnsafeBufferPointer { points in
                    cellKeys.withUnsafeBufferPointer { keys in
                        cellStarts.withUnsafeBufferPointer { starts in
                            // Read-only from every thread.
                            let sp = SendablePointer(UnsafeMutablePointer(mutating: sortedPoints.baseAddress!))
                            let pp = SendablePointer(UnsafeMutablePointer(mutating: points.baseAddress!))
                            let kp = SendablePointer(UnsafeMutablePointer(mutating: keys.baseAddress!))
                            let stp = SendablePointer(UnsafeMutablePointer(mutating: starts.baseAddress!))
                            DispatchQueue.concurrentPerform(iterations: bands) { band in
                                var ranges: [Range<Int>] = []
                                for c in cells * band / bands ..< cells * (band + 1) / bands {
                                    let k = kp.base[c]
                                    let cx = Int(k & 0x1F_FFFF), cy = Int(k >> 21 & 0x1F_FFFF), cz = Int(k >> 42)
                                    ranges.removeAll(keepingCapacity: true)
                                    for dz in -1 ... 1 {
                                        for dy in -1 ... 1 {
                                            for dx in -1 ... 1 {
                                                let x = cx + dx, y = cy + dy, z = cz + dz
                                                guard x >= 0, y >= 0, z >= 0, x < 1 << 21, y < 1 << 21 else { continue }
                                                if let m = Self.search(UnsafeBufferPointer(start: kp.base, count: cells), Self.cellKey(SIMD3(x, y, z))) {
                                                    ranges.append(stp.base[m] ..< stp.base[m + 1])
                                                }
                                            }
                                        }
                                    }
                                    for j in stp.base[c] ..< stp.base[c + 1] {
                                        let i = Int(sp.base[j].y)
                                        let p = pp.base[i]
                                        var count = 0
                                        var sum = SIMD3<Double>.zero
                                        var xx = 0.0, xy = 0.0, xz = 0.0, yy = 0.0, yz = 0.0, zz = 0.0
                                        for range in ranges {
                                            for q in range {
                                                let d = pp.base[Int(sp.base[q].y)] - p
                                                guard (d * d).sum() <= radiusSquared else { continue }
                                                let e = SIMD3<Double>(d)
                                                count += 1
                                                sum += e
                                                xx += e.x * e.x; xy += e.x * e.y; xz += e.x * e.z
                                                yy += e.y * e.y; yz += e.y * e.z; zz += e.z * e.z
                                            }
                                        }
                                        guard count >= 5 else { continue }
                                        let m = sum / Double(count), c = Double(count)
                                        let covariance = (xx / c - m.x * m.x, xy / c - m.x * m.y, xz / c - m.x * m.z,
                                                          yy / c - m.y * m.y, yz / c - m.y * m.z, zz / c - m.z * m.z)
                                        result.base[i] = PackedNormal(Self.leastSpreadDirection(covariance))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return normals
    }

    /// A grid cell's key: 21 bits an axis, z highest.
    @inline(__always)
    private static func cellKey(_ c: SIMD3<Int>) -> UInt64 { UInt64(c.z) << 42 | UInt64(c.y) << 21 | UInt64(c.x) }

    /// The index of `key` in the increasing `keys`, if there.
    @inline(__always)
    private static func search(_ keys: UnsafeBufferPointer<UInt64>, _ key: UInt64) -> Int? {
        var low = 0, high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low < keys.count && keys[low] == key ? low : nil
    }

    /// The unit eigenvector of the smallest eigenvalue of the symmetric matrix
    /// ((a, b, c), (b, d, e), (c, e, f)), or zero when the matrix has no single such direction:
    /// a line (the middle eigenvalue under 1 % of the largest) or a blob (the two smallest
    /// within 25 % of each other), not a surface.
    static func leastSpreadDirection(_ m: (Double, Double, Double, Double, Double, Double)) -> SIMD3<Float> {
        let (a, b, c, d, e, f) = m
        // Eigenvalues of a symmetric 3 × 3 matrix in closed form (trigonometric).
        let p1 = b * b + c * c + e * e
        let q = (a + d + f) / 3
        let p2 = (a - q) * (a - q) + (d - q) * (d - q) + (f - q) * (f - q) + 2 * p1
        guard p2 > 0 else { return .zero }
        let p = (p2 / 6).squareRoot()
        let ba = (a - q) / p, bd = (d - q) / p, bf = (f - q) / p, bb = b / p, bc = c / p, be = e / p
        let det = ba * (bd * bf - be * be) - bb * (bb * bf - be * bc) + bc * (bb * be - bd * bc)
        let phi = acos(min(max(det / 2, -1), 1)) / 3
        let largest = q + 2 * p * cos(phi)
        let smallest = q + 2 * p * cos(phi + 2 * Double.pi / 3)
        let middle = 3 * q - largest - smallest
        // A surface spreads in two directions (the middle eigenvalue a fair share of the largest,
        // not a line) and clearly less in the third (not a blob).
        guard middle > 0.01 * largest, middle - smallest > 0.25 * middle else { return .zero }
        // The eigenvector: the largest cross product of two rows of (M − λI).
        let r0 = SIMD3(a - smallest, b, c), r1 = SIMD3(b, d - smallest, e), r2 = SIMD3(c, e, f - smallest)
        func cross(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
        }
        let candidates = [cross(r0, r1), cross(r0, r2), cross(r1, r2)]
        let best = candidates.max { ($0 * $0).sum() < ($1 * $1).sum() }!
        let length = (best * best).sum().squareRoot()
        guard length > 0 else { return .zero }
        return SIMD3<Float>(best / length)
    }
}
