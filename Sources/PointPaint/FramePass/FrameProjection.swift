import CPointPaintKernels

/// The points of a cloud one frame can see before any visibility test: those in front of its
/// camera and inside its image, with their scalar image coordinates and depths, computed as
/// `Camera.project` does (double precision, the same operations in the same order), so the
/// candidates, coordinates and counts equal those of a plain loop over every point.
///
/// With `CloudBlocks`, a block whose box lies wholly behind the camera plane, or wholly in front
/// of it and beyond one edge of the image, is counted without projecting its points. A box
/// decides only with a margin far above the rounding of the per-point arithmetic (a millionth
/// of the scene's scale), so a block it skips holds no point the loop would have kept.
struct FrameProjection {
    /// Indices of the candidates, increasing.
    var candidates: [UInt32]
    /// Their scalar image coordinates (0…1, origin top-left).
    var coordinates: [SIMD2<Float>]
    /// Their z-depths, metres.
    var depths: [Float]
    /// Points at or behind the camera plane.
    var behind = 0
    /// Points in front of the camera but outside the image.
    var outside = 0
    /// Blocks counted without projecting their points (for tests and profiles).
    var skippedBlocks = 0

    /// Projects `positions` (finite) through `camera` into an image of `width` × `height`
    /// pixels, skipping the blocks of `blocks` (made from the same positions) that cannot hold a
    /// candidate, with `kernel` projecting the points of the blocks that remain.
    /// - Complexity: O(points) in the worst case; O(blocks + points of the blocks that reach
    ///   the image) when the cloud's blocks are compact.
    init(positions: [SIMD3<Float>], blocks: CloudBlocks?, camera: Camera, width: Int, height: Int,
         kernel: CPUKernel = .automatic) {
        let n = positions.count
        var counts = Counts()
        var coordinates: [SIMD2<Float>] = [], depths: [Float] = []
        guard n > 0 else {
            (self.candidates, self.coordinates, self.depths) = ([], [], [])
            return
        }
        // Room for every point: pages no candidate reaches are never touched.
        let candidates = [UInt32](unsafeUninitializedCapacity: n) { outIndex, indexCount in
            coordinates = [SIMD2<Float>](unsafeUninitializedCapacity: n) { outST, stCount in
                depths = [Float](unsafeUninitializedCapacity: n) { outDepth, depthCount in
                    counts = Self.project(positions, blocks: blocks, camera: camera, width: width, height: height, kernel: kernel,
                                          index: outIndex.baseAddress!, st: outST.baseAddress!, depth: outDepth.baseAddress!)
                    depthCount = counts.candidates
                }
                stCount = counts.candidates
            }
            indexCount = counts.candidates
        }
        self.candidates = candidates
        self.coordinates = coordinates
        self.depths = depths
        behind = counts.behind
        outside = counts.outside
        skippedBlocks = counts.skippedBlocks
    }

    /// What a projection into caller's arrays found.
    struct Counts {
        /// Candidates written.
        var candidates = 0
        /// Points at or behind the camera plane.
        var behind = 0
        /// Points in front of the camera but outside the image.
        var outside = 0
        /// Blocks counted without projecting their points.
        var skippedBlocks = 0
    }

    /// `init`'s projection written into `buffers`' candidates, coordinates and depths (from their
    /// start; room for every point), for observations that reuse their arrays.
    static func project(_ positions: [SIMD3<Float>], blocks: CloudBlocks?, camera: Camera, width: Int, height: Int,
                        kernel: CPUKernel = .automatic, into buffers: ObservationScratch.Buffers) -> Counts {
        guard !positions.isEmpty else { return Counts() }
        precondition(buffers.capacity >= positions.count, "expected room for every point")
        return project(positions, blocks: blocks, camera: camera, width: width, height: height, kernel: kernel,
                       index: buffers.candidates, st: buffers.coordinates, depth: buffers.depths)
    }

    /// The projection into raw arrays with room for every point.
    private static func project(_ positions: [SIMD3<Float>], blocks: CloudBlocks?, camera: Camera, width: Int, height: Int,
                                kernel: CPUKernel, index: UnsafeMutablePointer<UInt32>, st outST: UnsafeMutablePointer<SIMD2<Float>>,
                                depth: UnsafeMutablePointer<Float>) -> Counts {
        precondition(MemoryLayout<SIMD3<Float>>.stride == 4 * MemoryLayout<Float>.stride, "the kernels read four floats a point")
        let n = positions.count
        guard n > 0 else { return Counts() }
        let k = camera.intrinsics
        let w = Double(width), h = Double(height)
        let (m0, m1, m2, m3) = camera.worldToCamera.columns
        var parameters = PointPaintProjection(m: (m0.x, m0.y, m0.z, m1.x, m1.y, m1.z, m2.x, m2.y, m2.z, m3.x, m3.y, m3.z),
                                              fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, width: w, height: h)
        var counts = Counts()
        let test = blocks.map { BlockTest(camera: camera, width: w, height: h, magnitude: Double($0.magnitude)) }
        let kernel = kernel.resolved
        let st = UnsafeMutableRawPointer(outST).assumingMemoryBound(to: Float.self)
        positions.withUnsafeBytes { raw in
            // SIMD3<Float> is four floats apart (the fourth padding), as the kernels read.
            let p = raw.baseAddress!.assumingMemoryBound(to: Float.self)
            let blockCount = blocks?.count ?? 1
            let size = blocks == nil ? n : CloudBlocks.size
            for b in 0 ..< blockCount {
                let range = b * size ..< min(n, (b + 1) * size)
                if let blocks, let test {
                    switch test.classify(lower: blocks.lower[b], upper: blocks.upper[b]) {
                    case .behind: counts.behind += range.count; counts.skippedBlocks += 1; continue
                    case .outside: counts.outside += range.count; counts.skippedBlocks += 1; continue
                    case .undecided: break
                    }
                }
                let found = counts.candidates
                counts.candidates += project(p, range, &parameters, kernel: kernel, index: index + found, st: st + 2 * found,
                                             depth: depth + found, behind: &counts.behind, outside: &counts.outside)
            }
        }
        return counts
    }

    /// The points of `range` through `kernel` (resolved); returns the candidates written.
    private static func project(_ positions: UnsafePointer<Float>, _ range: Range<Int>, _ parameters: inout PointPaintProjection,
                                kernel: CPUKernel, index: UnsafeMutablePointer<UInt32>, st: UnsafeMutablePointer<Float>,
                                depth: UnsafeMutablePointer<Float>, behind: inout Int, outside: inout Int) -> Int {
        #if arch(x86_64)
        if kernel == .avx2 {
            return pointpaint_project_points_avx2(positions, range.lowerBound, range.upperBound, &parameters, index, st, depth,
                                                  &behind, &outside)
        }
        #endif
        return pointpaint_project_points_c(positions, range.lowerBound, range.upperBound, &parameters, index, st, depth,
                                           &behind, &outside)
    }

    /// Where a block's box lies for one camera.
    enum BlockSide { case behind, outside, undecided }

    /// The box test of one frame: each condition is linear in camera space, so when all eight
    /// corners meet it by the margin, every point of the box does.
    struct BlockTest {
        let m: Matrix4x4
        let k: CameraIntrinsics
        let width: Double, height: Double
        /// Margins: for depths, and for the image-edge functions (pixels × metres).
        let depthMargin: Double, edgeMargin: Double

        init(camera: Camera, width: Double, height: Double, magnitude: Double) {
            m = camera.worldToCamera
            k = camera.intrinsics
            self.width = width
            self.height = height
            let c = m.columns
            let linear = [c.0, c.1, c.2].map { max(abs($0.x), abs($0.y), abs($0.z)) }.max()!
            let translation = max(abs(c.3.x), abs(c.3.y), abs(c.3.z))
            // A bound on |camera-space coordinate| anywhere in the cloud.
            let scale = 3 * linear * magnitude + translation + 1
            let focal = abs(k.fx) + abs(k.fy) + abs(k.cx) + abs(k.cy) + width + height
            depthMargin = 1e-6 * scale
            edgeMargin = 1e-7 * focal * scale
        }

        /// Whether the box [lower, upper] lies wholly behind the camera plane, wholly in front
        /// of it beyond one image edge, or neither (its points must be projected one by one).
        func classify(lower: SIMD3<Float>, upper: SIMD3<Float>) -> BlockSide {
            var allBehind = true, allInFront = true
            var left = true, right = true, top = true, bottom = true
            for corner in 0 ..< 8 {
                let p = SIMD3<Double>(corner & 1 == 0 ? Double(lower.x) : Double(upper.x),
                                      corner & 2 == 0 ? Double(lower.y) : Double(upper.y),
                                      corner & 4 == 0 ? Double(lower.z) : Double(upper.z))
                let c = m.transformPoint(p)
                let depth = -c.z
                allBehind = allBehind && c.z > depthMargin
                allInFront = allInFront && depth > depthMargin
                // u < 0, u ≥ width, v < 0, v ≥ height, multiplied by the (positive) depth.
                left = left && k.fx * c.x + k.cx * depth < -edgeMargin
                right = right && k.fx * c.x + (k.cx - width) * depth > edgeMargin
                top = top && k.fy * -c.y + k.cy * depth < -edgeMargin
                bottom = bottom && k.fy * -c.y + (k.cy - height) * depth > edgeMargin
            }
            if allBehind { return .behind }
            if allInFront, left || right || top || bottom { return .outside }
            return .undecided
        }
    }
}
