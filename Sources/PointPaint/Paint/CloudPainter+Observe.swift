import CPointPaintKernels
import Foundation

/// What one frame saw of a cloud: the points that passed its visibility test and their colours.
struct FrameObservations: Sendable {
    /// Frame index.
    var frame: Int
    /// Indices into the cloud of the points seen, increasing.
    var points: [UInt32] = []
    /// Their colours, linear-light extended sRGB (`SampleColorPolicy.linear`).
    var colors: [SIMD3<Float>] = []
    /// Their weights (`ObservationWeight`, 1…255); empty when unweighted.
    var weights: [UInt8] = []
    /// This frame's counts.
    var statistics = CloudPainter.Statistics()
}

extension CloudPainter {
    /// The tolerance of a depth test at depth `d` metres: max(2 cm, 2 % of `d`).
    @inline(__always)
    static func depthTolerance(_ d: Float) -> Float { max(0.02, 0.02 * d) }

    /// Projects every point into `frame`, keeps those its visibility test accepts, and samples
    /// their colours as replay does.
    /// - Throws: `.missing` for a frame without a depth map under `Visibility.depth`.
    /// - Complexity: O(points + depth pixels, or points × footprint bins for the z-buffer).
    func observe(_ frame: CaptureFrame) throws -> FrameObservations {
        let info = source.imageInfo
        var result = FrameObservations(frame: frame.index)
        result.statistics.frames = 1
        let mode: Visibility
        switch options.visibility {
        case .auto: mode = frame.depth == nil ? .zbuffer : .depth
        case .depth:
            guard frame.depth != nil else {
                throw PointPaintError(.missing, file: source.path, place: .frame(frame.index),
                                      "expected a depth map for --visibility depth; use zbuffer (or auto) for a capture without depth")
            }
            mode = .depth
        case .zbuffer, .off: mode = options.visibility
        }
        if mode == .depth { result.statistics.depthFrames = 1 }
        if mode == .zbuffer { result.statistics.zbufferFrames = 1 }

        // Project exactly as `Camera.project` does, keeping the depth for the visibility test
        // (runs of points wholly behind the camera or beyond an image edge skipped as blocks).
        let camera = frame.camera
        let k = camera.intrinsics
        // The projection and the visibility test's arrays are this thread's scratch, reused from
        // frame to frame; what the frame keeps is copied out before the colours are sampled.
        var visible: [SIMD2<Float>] = [], visibleDepths: [Float] = []
        scratch.withBuffers(count: cloud.positions.count) { buffers in
            let counts = FrameProjection.project(cloud.positions, blocks: blocks, camera: camera, width: info.width, height: info.height,
                                                 into: buffers)
            result.statistics.behind = counts.behind
            result.statistics.outside = counts.outside
            let found = counts.candidates
            let candidates = UnsafeBufferPointer(start: buffers.candidates, count: found)
            let coordinates = UnsafeBufferPointer(start: buffers.coordinates, count: found)
            let depths = UnsafeBufferPointer(start: buffers.depths, count: found)
            let accepted: [Bool]
            switch mode {
            case .depth:
                let map = frame.depth!
                accepted = depths.indices.map { map.agrees(depth: depths[$0], at: coordinates[$0]) }
            case .zbuffer:
                let buffer = SplatDepthBuffer(width: info.width, height: info.height, focalLength: Float(k.fx), spacing: spacing,
                                              coordinates: coordinates, depths: depths, bins: buffers.bins)
                accepted = buffer.acceptanceOfSplattedPoints(depths: depths, bins: UnsafeBufferPointer(start: buffers.bins, count: found))
            case .off, .auto:
                accepted = Array(repeating: true, count: found)
            }
            let kept = accepted.reduce(0) { $0 + ($1 ? 1 : 0) }
            visible.reserveCapacity(kept)
            visibleDepths.reserveCapacity(weighted ? kept : 0)
            result.points.reserveCapacity(kept)
            for i in accepted.indices where accepted[i] {
                visible.append(coordinates[i])
                result.points.append(candidates[i])
                if weighted { visibleDepths.append(depths[i]) }
            }
            result.statistics.hidden = found - result.points.count
            result.statistics.observations = result.points.count
        }

        pass.sampler(of: frame.image).sample(visible, into: &result.colors, space: .capture)
        if weighted {
            // From the encoded colours, before they are linearised (the clipping factor reads codes).
            result.weights = weights(of: result.points, at: visible, depths: visibleDepths, encoded: result.colors, camera: camera)
            result.statistics.weightSum = result.weights.reduce(0) { $0 + Int($1) }
        } else {
            result.statistics.weightSum = result.points.count * Int(ObservationWeight.full)
        }
        result.statistics.outOfSRGB = colorPolicy.linearizeBatch(&result.colors)
        return result
    }
}

extension CloudPainter {
    /// The weights of the observations of `points` at scalar image coordinates `st`, z-depths
    /// `depths` and encoded colours `encoded`, seen by `camera` (`ObservationWeight`).
    /// - Complexity: O(points).
    func weights(of points: [UInt32], at st: [SIMD2<Float>], depths: [Float], encoded: [SIMD3<Float>], camera: Camera) -> [UInt8] {
        let info = source.imageInfo
        let width = Float(info.width), height = Float(info.height)
        let focal = Float(camera.intrinsics.fx)
        let eye = camera.position
        return points.indices.map { n in
            let i = Int(points[n])
            var w = ObservationWeight.footprint(spacing: spacing, depth: depths[n], focal: focal)
            w *= ObservationWeight.border(u: st[n].x * width, v: st[n].y * height, width: width, height: height)
            w *= ObservationWeight.clipping(encoded: encoded[n])
            if !normals.isEmpty {
                let toCamera = SIMD3<Float>(eye - SIMD3<Double>(cloud.positions[i]))
                w *= ObservationWeight.incidence(normal: normals[i].vector, toCamera: toCamera)
            }
            return ObservationWeight.quantised(w)
        }
    }
}

extension DepthMap {
    /// Whether a point at z-depth `z` (metres) projecting to scalar image coordinates `st` lies on
    /// the surface this map sees: `|z − d| ≤ max(2 cm, 2 % of d)` where `d` is the map's depth
    /// there, interpolated bilinearly between the four depth pixels around the point when all
    /// four have a depth and agree with each other within that tolerance, else the depth of the
    /// pixel the point falls in (never interpolated across a depth edge). A point whose pixel has
    /// no depth is not confirmed, so not accepted; nor is one beside a nearer surface's edge
    /// (`hasOccludingEdge`).
    /// - Complexity: O(1).
    func agrees(depth z: Float, at st: SIMD2<Float>) -> Bool {
        let x = st.x * Float(width), y = st.y * Float(height)
        let i = Swift.min(Int(x), width - 1), j = Swift.min(Int(y), height - 1)
        let nearest = depth[j * width + i]
        guard nearest > 0, nearest.isFinite else { return false }
        var d = nearest
        // Bilinear between the pixel centres around (x, y), when they agree.
        let fx = x - 0.5, fy = y - 0.5
        let x0 = Swift.max(0, Swift.min(Int(fx.rounded(.down)), width - 2)), y0 = Swift.max(0, Swift.min(Int(fy.rounded(.down)), height - 2))
        if width > 1, height > 1 {
            let a = depth[y0 * width + x0], b = depth[y0 * width + x0 + 1]
            let c = depth[(y0 + 1) * width + x0], e = depth[(y0 + 1) * width + x0 + 1]
            let lo = Swift.min(a, b, c, e), hi = Swift.max(a, b, c, e)
            if lo > 0, hi.isFinite, hi - lo <= CloudPainter.depthTolerance(lo) {
                let tx = Swift.min(Swift.max(fx - Float(x0), 0), 1), ty = Swift.min(Swift.max(fy - Float(y0), 0), 1)
                d = (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + e * tx) * ty
            }
        }
        guard abs(z - d) <= CloudPainter.depthTolerance(d) else { return false }
        return !hasOccludingEdge(column: i, row: j)
    }

    /// Whether a depth edge lies next to depth pixel (`column`, `row`): for each of the four
    /// lines through its 3 × 3 neighbourhood, a neighbour nearer or farther than the centre by
    /// more than the tolerance plus the slope the opposite neighbour shows (a tilted plane's own
    /// change). A point beside such an edge is refused: the image there may show the nearer
    /// surface, which the coarser depth grid puts a pixel away, and a sampler reads a few
    /// pixels around the point, mixing both sides of a silhouette.
    func hasOccludingEdge(column i: Int, row j: Int) -> Bool {
        let c = depth[j * width + i]
        let tolerance = CloudPainter.depthTolerance(c)
        @inline(__always) func at(_ x: Int, _ y: Int) -> Float? {
            guard x >= 0, x < width, y >= 0, y < height else { return nil }
            let d = depth[y * width + x]
            return d > 0 && d.isFinite ? d : nil
        }
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let a = at(i - dx, j - dy), b = at(i + dx, j + dy)
            if let a, a < c - tolerance - max(0, (b ?? c) - c) { return true }
            if let b, b < c - tolerance - max(0, (a ?? c) - c) { return true }
            // A farther surface beside: the point lies on a silhouette, where the sampler mixes in
            // what lies behind.
            if let a, a > c + tolerance + max(0, c - (b ?? c)) { return true }
            if let b, b > c + tolerance + max(0, c - (a ?? c)) { return true }
        }
        return false
    }
}

/// A coarse depth buffer splatted from a cloud's own points, for visibility without depth maps:
/// the image is cut into bins of `binSize` pixels; each point covers the bins its footprint (a
/// disc of its spacing seen at its depth) touches, and each bin keeps the nearest depth. A
/// point is accepted when the nearest depths of its bin and the 8 around it all lie within a
/// tolerance of its own (nothing nearer hides it, and it is not on a silhouette against
/// something farther or against nothing, where a sampler mixes both sides):
/// max(2 cm, 2 % of the depth), plus one spacing and two bins' width at that depth (a tilted
/// surface's own depth changes across a footprint).
struct SplatDepthBuffer {
    /// Bins across and down.
    let columns: Int, rows: Int
    /// Pixels a bin covers along each side.
    let binSize: Float
    /// Image size in pixels.
    let width: Float, height: Float
    /// Focal length in pixels.
    let focalLength: Float
    /// Point spacing, metres.
    let spacing: Float
    /// Nearest depth per bin (infinity where nothing landed), row by row.
    private(set) var nearest: [Float]
    /// The bin of each point splatted (row × columns + column, clamped as `accepts` finds it),
    /// for `acceptanceOfSplattedPoints`; empty when the splat stored them elsewhere.
    private(set) var bins: [Int32]

    /// The most bins a footprint reaches on each side of its centre, so a point at the camera
    /// cannot cost a whole image.
    static let maximumReach = 16

    /// Splats the points at scalar image coordinates `coordinates` with z-depths `depths`
    /// through `kernel` (the arithmetic of `splat(into:…)`, the Swift model), keeping each
    /// point's bin in `bins`.
    /// - Complexity: O(points × footprint bins + bins).
    init(width: Int, height: Int, focalLength: Float, spacing: Float, coordinates: [SIMD2<Float>], depths: [Float],
         kernel: CPUKernel = .automatic) {
        precondition(coordinates.count == depths.count)
        var bins = [Int32](repeating: 0, count: depths.count)
        self = coordinates.withUnsafeBufferPointer { st in
            depths.withUnsafeBufferPointer { z in
                bins.withUnsafeMutableBufferPointer { bins in
                    SplatDepthBuffer(width: width, height: height, focalLength: focalLength, spacing: spacing, coordinates: st, depths: z,
                                     bins: bins.baseAddress, kernel: kernel)
                }
            }
        }
        self.bins = bins
    }

    /// The splat of the points at `coordinates` and `depths`, storing each point's own bin in
    /// `bins` (room for them all) when given; `self.bins` stays empty.
    init(width: Int, height: Int, focalLength: Float, spacing: Float, coordinates: UnsafeBufferPointer<SIMD2<Float>>,
         depths: UnsafeBufferPointer<Float>, bins: UnsafeMutablePointer<Int32>?, kernel: CPUKernel = .automatic) {
        precondition(coordinates.count == depths.count)
        self.width = Float(width)
        self.height = Float(height)
        self.focalLength = focalLength
        self.spacing = spacing
        let bin = max(2, min(width, height) / 120)
        binSize = Float(bin)
        columns = (width + bin - 1) / bin
        rows = (height + bin - 1) / bin
        self.bins = []
        var nearest = [Float](repeating: .infinity, count: columns * rows)
        var parameters = PointPaintSplat(width: self.width, height: self.height, focalLength: focalLength, spacing: spacing,
                                         binSize: binSize, columns: Int32(columns), rows: Int32(rows), reach: Int32(Self.maximumReach))
        let kernel = kernel.resolved
        nearest.withUnsafeMutableBufferPointer { out in
            let st = UnsafeRawPointer(coordinates.baseAddress)?.assumingMemoryBound(to: Float.self)
            #if arch(x86_64)
            if kernel == .avx2 {
                pointpaint_splat_avx2(out.baseAddress!, st, depths.baseAddress, depths.count, &parameters, bins)
                return
            }
            #endif
            pointpaint_splat_c(out.baseAddress!, st, depths.baseAddress, depths.count, &parameters, bins)
        }
        self.nearest = nearest
    }

    /// Whether a point at depth `z` and scalar coordinates `st` is the nearest surface of its bin.
    func accepts(depth z: Float, at st: SIMD2<Float>) -> Bool {
        let x = min(columns - 1, Int(st.x * width / binSize)), y = min(rows - 1, Int(st.y * height / binSize))
        let tolerance = CloudPainter.depthTolerance(z) + spacing + 2 * binSize * z / focalLength
        var front = Float.infinity, back = -Float.infinity
        for j in max(0, y - 1) ... min(rows - 1, y + 1) {
            for i in max(0, x - 1) ... min(columns - 1, x + 1) {
                front = min(front, nearest[j * columns + i])
                back = max(back, nearest[j * columns + i])
            }
        }
        return z - front <= tolerance && back - z <= tolerance
    }
}
