/// Which depth pixels become points.
public struct DepthSampling: Sendable, Equatable {
    /// Pixels below this confidence are skipped (`--min-confidence`).
    public var minimumConfidence: DepthConfidence = .high
    /// Pixels farther than this many metres are skipped (`--max-depth`): depth sensors grow noisy
    /// with distance (ARKit's LiDAR is rated to about 5 m).
    public var maximumDepth: Float = 5
    /// Every `stride`-th pixel in each direction is used (`--depth-stride`); 1 uses them all.
    public var stride = 1

    /// The defaults: high confidence, up to 5 m, every pixel.
    public init() {}
}

/// What happened to the pixels of a depth map turned into points.
public struct DepthPointCounts: Sendable, Equatable {
    /// Pixels looked at (after the stride).
    public var considered = 0
    /// Pixels that became points.
    public var points = 0
    /// Pixels with no depth (zero, negative or not a number).
    public var noDepth = 0
    /// Pixels below the minimum confidence.
    public var lowConfidence = 0
    /// Pixels beyond the maximum depth.
    public var tooFar = 0

    /// Creates counts (zero unless given).
    public init(considered: Int = 0, points: Int = 0, noDepth: Int = 0, lowConfidence: Int = 0, tooFar: Int = 0) {
        self.considered = considered
        self.points = points
        self.noDepth = noDepth
        self.lowConfidence = lowConfidence
        self.tooFar = tooFar
    }

    /// Adds another map's counts.
    public mutating func add(_ other: DepthPointCounts) {
        considered += other.considered
        points += other.points
        noDepth += other.noDepth
        lowConfidence += other.lowConfidence
        tooFar += other.tooFar
    }
}

extension DepthMap {
    /// Unprojects the depth pixels that pass `sampling` into world points with the frame's camera.
    ///
    /// The camera's intrinsics belong to the colour image (`imageWidth` × `imageHeight`); they are
    /// scaled to this map's grid (fx·w/W, cx·w/W, …: both grids cover the same field of view, and
    /// the principal point is measured from the image corner, so the scaling is exact). Depth
    /// pixel (i, j) has its centre at (i + ½, j + ½); at depth d it lies at camera-space
    /// x = (i + ½ − cx)·d/fx, y = −(j + ½ − cy)·d/fy, z = −d (ARKit axes), and the camera's pose
    /// takes it to world space. Its scalar image coordinates, where its colour is sampled, are
    /// ((i + ½)/w, (j + ½)/h): the same place in the colour image.
    ///
    /// Points and coordinates are appended to the arrays given, so one pair of buffers serves a
    /// whole replay without reallocating. With `rows`, only the pixels of those rows (of the
    /// rows the stride visits: 0, stride, 2·stride, …) are looked at, so a large map can become
    /// points a band at a time: the bands of a partition of the rows give, one after another,
    /// exactly the points and counts of the whole map.
    /// - Returns: what happened to the pixels.
    /// - Complexity: O(width × rows / stride²).
    @discardableResult
    public func appendPoints(camera: Camera, imageWidth: Int, imageHeight: Int, sampling: DepthSampling, rows: Range<Int>? = nil,
                             positions: inout [SIMD3<Float>], coordinates: inout [SIMD2<Float>]) -> DepthPointCounts {
        let step = max(sampling.stride, 1)
        let band = (rows ?? 0 ..< height).clamped(to: 0 ..< height)
        // The first row of the band that the stride visits.
        let firstRow = (band.lowerBound + step - 1) / step * step
        let k = camera.intrinsics
        let sx = Double(width) / Double(imageWidth), sy = Double(height) / Double(imageHeight)
        // Per pixel: x = (i + ½)·ax + bx, y = (j + ½)·ay + by, each times d (camera space, ARKit axes).
        let ax = Float(1 / (k.fx * sx)), bx = Float(-k.cx / k.fx)
        let ay = Float(-1 / (k.fy * sy)), by = Float(k.cy / k.fy)
        let m = camera.transform.columns
        let c0 = SIMD3<Float>(Float(m.0.x), Float(m.0.y), Float(m.0.z))
        let c1 = SIMD3<Float>(Float(m.1.x), Float(m.1.y), Float(m.1.z))
        let c2 = SIMD3<Float>(Float(m.2.x), Float(m.2.y), Float(m.2.z))
        let c3 = SIMD3<Float>(Float(m.3.x), Float(m.3.y), Float(m.3.z))
        let minimum = UInt8(sampling.minimumConfidence.rawValue)
        let maximumDepth = sampling.maximumDepth
        let inverseWidth = 1 / Float(width), inverseHeight = 1 / Float(height)
        var counts = DepthPointCounts()
        let columns = (width + step - 1) / step
        let visitedRows = firstRow < band.upperBound ? (band.upperBound - firstRow + step - 1) / step : 0
        counts.considered = columns * visitedRows
        positions.reserveCapacity(positions.count + counts.considered)
        coordinates.reserveCapacity(coordinates.count + counts.considered)
        depth.withUnsafeBufferPointer { depth in
            confidence.withUnsafeBufferPointer { confidence in
                for j in Swift.stride(from: firstRow, to: band.upperBound, by: step) {
                    let v = Float(j) + 0.5
                    let y = v * ay + by
                    let t = v * inverseHeight
                    let row = j * width
                    for i in Swift.stride(from: 0, to: width, by: step) {
                        let d = depth[row + i]
                        // `d > 0` is false for NaN too.
                        guard d > 0, d.isFinite else { counts.noDepth += 1; continue }
                        if let confidence, confidence[row + i] < minimum { counts.lowConfidence += 1; continue }
                        guard d <= maximumDepth else { counts.tooFar += 1; continue }
                        let u = Float(i) + 0.5
                        let x = u * ax + bx
                        positions.append(c0 * (x * d) + c1 * (y * d) - c2 * d + c3)
                        coordinates.append(SIMD2(u * inverseWidth, t))
                    }
                }
            }
        }
        counts.points = counts.considered - counts.noDepth - counts.lowConfidence - counts.tooFar
        return counts
    }
}

private extension Optional where Wrapped == [UInt8] {
    /// Calls `body` with the array's buffer, or nil.
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        switch self {
        case .some(let array): array.withUnsafeBufferPointer { body($0) }
        case .none: body(nil)
        }
    }
}
