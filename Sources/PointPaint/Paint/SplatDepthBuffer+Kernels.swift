extension SplatDepthBuffer {
    /// The splat of `init(width:height:focalLength:spacing:coordinates:depths:)` as one kernel
    /// over raw buffers: every point lowers the nearest depth of the bins its footprint touches.
    /// The same bins as the initializer's loop (its float arithmetic, clamps and reach), with
    /// the floor taken by truncation and a compare rather than a call, and the footprint
    /// clamped to the reach before it becomes an integer (a point nearly at the camera, whose
    /// footprint is wider than any integer, cannot trap).
    /// The divisions by the bin size go two and four at a time (each lane the same IEEE
    /// division as the scalar one).
    /// - Parameters:
    ///   - nearest: `columns × rows` depths, row by row, infinity where nothing landed.
    ///   - bins: when given, room for each point's own bin (row × columns + column, clamped to
    ///     the grid as `accepts` finds it).
    /// - Complexity: O(points × footprint bins).
    static func splat(into nearest: UnsafeMutableBufferPointer<Float>, columns: Int, rows: Int, binSize: Float,
                      width: Float, height: Float, focalLength: Float, spacing: Float,
                      coordinates: UnsafeBufferPointer<SIMD2<Float>>, depths: UnsafeBufferPointer<Float>,
                      bins: UnsafeMutablePointer<Int32>? = nil) {
        precondition(nearest.count == columns * rows && coordinates.count == depths.count)
        let reach = maximumReach
        @inline(__always) func floor(_ v: Float) -> Int {
            let t = Int(v)
            return Float(t) > v ? t - 1 : t
        }
        let base = nearest.baseAddress!
        let size = SIMD2<Float>(width, height)
        for n in 0 ..< depths.count {
            let z = depths[n]
            let uv = coordinates[n] * size
            let u = uv.x, v = uv.y
            let r = focalLength * spacing / z
            let centre = uv / binSize
            let cx = Int(centre.x), cy = Int(centre.y)
            if let bins { bins[n] = Int32(truncatingIfNeeded: min(cy, rows - 1) * columns + min(cx, columns - 1)) }
            // The footprint's edges: (u − r, u + r, v − r, v + r) / binSize.
            let edges = (SIMD4(u, u, v, v) + SIMD4(-r, r, -r, r)) / binSize
            // max(cx − reach, ⌊a⌋) = ⌊max(a, cx − reach)⌋ for an integer cx − reach.
            let x0 = max(0, floor(max(edges.x, Float(cx - reach))))
            let x1 = min(columns - 1, floor(min(edges.y, Float(cx + reach))))
            let y0 = max(0, floor(max(edges.z, Float(cy - reach))))
            let y1 = min(rows - 1, floor(min(edges.w, Float(cy + reach))))
            guard x0 <= x1, y0 <= y1 else { continue }
            for y in y0 ... y1 {
                let row = base + y * columns
                for x in x0 ... x1 where z < row[x] { row[x] = z }
            }
        }
    }

    /// `acceptance(depths:coordinates:)` of the points this buffer was splatted from (`depths`
    /// theirs, in order), reading each point's bin as the splat found it.
    /// - Complexity: O(points + bins).
    func acceptanceOfSplattedPoints(depths: [Float]) -> [Bool] {
        precondition(depths.count == bins.count, "expected the depths of the points splatted")
        return depths.withUnsafeBufferPointer { z in
            bins.withUnsafeBufferPointer { acceptanceOfSplattedPoints(depths: z, bins: $0) }
        }
    }

    /// The same for points whose bins the splat stored in `bins`.
    func acceptanceOfSplattedPoints(depths: UnsafeBufferPointer<Float>, bins: UnsafeBufferPointer<Int32>) -> [Bool] {
        precondition(depths.count == bins.count, "expected a bin a point")
        let (front, back) = neighbourhoodBounds()
        return [Bool](unsafeUninitializedCapacity: depths.count) { out, count in
            front.withUnsafeBufferPointer { front in
                back.withUnsafeBufferPointer { back in
                    for n in 0 ..< depths.count {
                        let z = depths[n], bin = Int(bins[n])
                        let tolerance = CloudPainter.depthTolerance(z) + spacing + 2 * binSize * z / focalLength
                        out[n] = z - front[bin] <= tolerance && back[bin] - z <= tolerance
                    }
                }
            }
            count = depths.count
        }
    }

    /// `accepts(depth:at:)` for every point at once: the nearest and farthest depth of each
    /// bin's 3 × 3 neighbourhood are found once for the whole buffer, so each point costs two
    /// loads and its tolerance. The same answers as `accepts`.
    /// - Complexity: O(points + bins).
    func acceptance(depths: [Float], coordinates: [SIMD2<Float>]) -> [Bool] {
        precondition(depths.count == coordinates.count)
        let (front, back) = neighbourhoodBounds()
        return [Bool](unsafeUninitializedCapacity: depths.count) { out, count in
            front.withUnsafeBufferPointer { front in
                back.withUnsafeBufferPointer { back in
                    for n in 0 ..< depths.count {
                        let z = depths[n], st = coordinates[n]
                        let x = min(columns - 1, Int(st.x * width / binSize)), y = min(rows - 1, Int(st.y * height / binSize))
                        let tolerance = CloudPainter.depthTolerance(z) + spacing + 2 * binSize * z / focalLength
                        out[n] = z - front[y * columns + x] <= tolerance && back[y * columns + x] - z <= tolerance
                    }
                }
            }
            count = depths.count
        }
    }

    /// The nearest and farthest depth of each bin's (clamped) 3 × 3 neighbourhood.
    private func neighbourhoodBounds() -> (front: [Float], back: [Float]) {
        // Separable: the 3-bin spread along each row, then along each column of that.
        let alongRows = spread(nearest, nearest, alongRows: true)
        let both = spread(alongRows.low, alongRows.high, alongRows: false)
        return (both.low, both.high)
    }

    /// The least of `low` and the greatest of `high` over each bin and its neighbours along its
    /// row (or column), clamped at the edges.
    private func spread(_ low: [Float], _ high: [Float], alongRows: Bool) -> (low: [Float], high: [Float]) {
        var outLow = low, outHigh = high
        let extent = alongRows ? columns : rows, step = alongRows ? 1 : columns
        for j in 0 ..< rows {
            for i in 0 ..< columns {
                let bin = j * columns + i, along = alongRows ? i : j
                var lo = Float.infinity, hi = -Float.infinity
                for k in max(0, along - 1) ... min(extent - 1, along + 1) {
                    let at = bin + (k - along) * step
                    lo = min(lo, low[at])
                    hi = max(hi, high[at])
                }
                outLow[bin] = lo
                outHigh[bin] = hi
            }
        }
        return (outLow, outHigh)
    }
}
