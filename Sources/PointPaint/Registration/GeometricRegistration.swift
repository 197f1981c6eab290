import Foundation

/// Geometric pose refinement (`pointpaint register`, docs/registration.md): every selected frame's
/// depth points, with normals from the depth grid, are brought into agreement with every other
/// frame's by one joint point-to-plane Gauss–Newton over all poses at once, coarse to fine, with
/// a Huber loss. The anchor frame (the gauge) keeps its recorded pose; the others move relative
/// to it and to each other. A frame whose correction passes the limits, or whose residual it
/// raises, keeps its recorded pose and is reported.
///
/// Deterministic, and the same whatever the thread count: frames are worked on in parallel, but
/// what each contributes is summed in frame order.
public enum GeometricRegistration {
    /// What to refine and how.
    public struct Options: Sendable {
        /// Which frames (`frames`, `every`) and on how many threads; `poses` is ignored.
        public var pass = FramePassOptions()
        /// Which depth pixels count (confidence, distance).
        public var depth = DepthSampling()
        /// Depth points a frame, about: the stride over the depth grid is chosen for it.
        public var pointsPerFrame = 3000
        /// Correspondence radii, metres, one a level, coarse to fine: a point is matched with
        /// the nearest point of another frame within it.
        public var radii: [Double] = [0.08, 0.04, 0.02]
        /// Gauss–Newton iterations a level at most.
        public var iterations = 8
        /// The frame that keeps its recorded pose; nil: the first selected.
        public var anchor: Int?
        /// A correction larger than these is not applied (metres, degrees).
        public var maximumCorrection = (metres: 0.25, degrees: 10.0)

        /// Defaults: every frame, high-confidence depth up to 5 m, 3,000 points a frame, radii
        /// 8, 4 and 2 cm, the first frame as the anchor.
        public init() {}
    }

    /// What a registration did.
    public struct Report: Sendable {
        /// Frames registered (those with depth points).
        public var frames = 0
        /// Frames given a refined pose other than their recorded one.
        public var corrected = 0
        /// Frames whose correction was not applied, each with the reason.
        public var refused: [(frame: Int, reason: String)] = []
        /// The median and the largest correction applied: metres the camera moved, degrees it turned.
        public var medianCorrection = (metres: 0.0, degrees: 0.0), largestCorrection = (metres: 0.0, degrees: 0.0)
        /// RMS point-to-plane distance between frames at the finest radius, recorded and refined
        /// poses, metres.
        public var residual = CameraPoses.Residual(before: 0, after: 0)
    }

    /// One frame's surfels and its pose.
    fileprivate struct FrameData: Sendable {
        var index: Int
        var recorded: Matrix4x4
        var surfels: DepthSurfels
    }

    /// Refines the poses of `source`'s selected frames.
    /// - Throws: `.missing` when no selected frame has depth points (geometric refinement needs
    ///   depth; the photometric kind is not built yet); the source's errors loading a frame.
    public static func run(source: any CaptureSource, options: Options) throws -> (poses: CameraPoses, report: Report) {
        var passOptions = options.pass
        passOptions.poses = nil
        let pass = try FramePass(source: source, options: passOptions, shard: nil, verb: "register")
        let info = source.imageInfo
        var frames: [FrameData] = []
        try pass.run(pieces: { [$0] }, transform: { frame, _ -> FrameData in
            guard let depth = frame.depth else { return FrameData(index: frame.index, recorded: frame.camera.transform, surfels: DepthSurfels()) }
            let stride = max(1, Int((Double(depth.width * depth.height) / Double(max(options.pointsPerFrame, 1))).squareRoot().rounded()))
            let surfels = DepthSurfels(map: depth, camera: frame.camera, imageWidth: info.width, imageHeight: info.height,
                                       sampling: options.depth, stride: stride)
            return FrameData(index: frame.index, recorded: frame.camera.transform, surfels: surfels)
        }, body: { frames.append($0); return true })
        let withDepth = frames.filter { !$0.surfels.points.isEmpty }
        guard !withDepth.isEmpty else {
            throw PointPaintError(.missing, file: source.path,
                                  "expected depth maps to register the frames' poses by their geometry, found no depth points in the \(frames.count) frames selected")
        }
        let anchor = options.anchor.flatMap { a in withDepth.firstIndex { $0.index == a } } ?? 0
        var problem = Problem(frames: withDepth, anchor: anchor, threads: pass.threads)
        let finestRadius = options.radii.last ?? 0.02
        let before = problem.residuals(radius: finestRadius)
        for radius in options.radii {
            for _ in 0 ..< options.iterations {
                let step = problem.step(radius: radius)
                if step < 1e-5 { break }
            }
        }
        let after = problem.residuals(radius: finestRadius)
        return result(problem: problem, withDepth: withDepth, anchor: anchor, before: before, after: after,
                      recordingFrames: source.frameCount, options: options)
    }

    /// The poses file and report from a solved problem: frames whose correction passes the
    /// limits, or whose residual it raises, keep their recorded pose.
    private static func result(problem: Problem, withDepth: [FrameData], anchor: Int,
                               before: [(sum: Double, count: Int)], after: [(sum: Double, count: Int)],
                               recordingFrames: Int, options: Options) -> (poses: CameraPoses, report: Report) {
        var report = Report()
        report.frames = withDepth.count
        var out: [CameraPoses.Frame] = []
        var moves: [(metres: Double, degrees: Double)] = []
        var total = (before: 0.0, after: 0.0, count: 0, countAfter: 0)
        for (k, frame) in withDepth.enumerated() {
            let rmsBefore = rms(before[k].sum, before[k].count), rmsAfter = rms(after[k].sum, after[k].count)
            var refined = k == anchor ? frame.recorded : problem.poses[k]
            let candidate = CameraPoses.Frame(index: frame.index, recorded: frame.recorded, refined: refined)
            if candidate.moved > options.maximumCorrection.metres || candidate.turned > options.maximumCorrection.degrees {
                report.refused.append((frame.index, String(format: "a correction of %.3f m and %.2f° passes the limits (%.3f m, %.2f°)",
                                                           candidate.moved, candidate.turned, options.maximumCorrection.metres,
                                                           options.maximumCorrection.degrees)))
                refined = frame.recorded
            } else if k != anchor, rmsAfter > rmsBefore * 1.05 + 1e-6 {
                report.refused.append((frame.index, String(format: "the correction raises its residual from %.4f m to %.4f m", rmsBefore, rmsAfter)))
                refined = frame.recorded
            }
            let entry = CameraPoses.Frame(index: frame.index, recorded: frame.recorded, refined: refined,
                                          residual: CameraPoses.Residual(before: rmsBefore, after: refined == frame.recorded ? rmsBefore : rmsAfter))
            if k != anchor, refined != frame.recorded {
                report.corrected += 1
                moves.append((entry.moved, entry.turned))
            }
            total.before += before[k].sum
            total.count += before[k].count
            total.after += after[k].sum
            total.countAfter += after[k].count
            out.append(entry)
        }
        // Frames without depth points keep their recorded pose (they are not listed).
        if !moves.isEmpty {
            let metres = moves.map(\.metres).sorted(), degrees = moves.map(\.degrees).sorted()
            report.medianCorrection = (metres[metres.count / 2], degrees[degrees.count / 2])
            report.largestCorrection = (metres.last!, degrees.last!)
        }
        report.residual = CameraPoses.Residual(before: rms(total.before, total.count), after: rms(total.after, total.countAfter))
        let poses = CameraPoses(method: "geometric", recordingFrames: recordingFrames, anchor: withDepth[anchor].index, frames: out,
                                residual: report.residual)
        return (poses, report)
    }

    /// The root mean square of `count` values whose squares sum to `sum`; 0 for none.
    private static func rms(_ sum: Double, _ count: Int) -> Double {
        count > 0 ? (sum / Double(count)).squareRoot() : 0
    }
}

extension GeometricRegistration {
    /// The joint problem: every frame's pose (camera to world), the anchor's fixed.
    fileprivate struct Problem {
        let frames: [FrameData]
        let anchor: Int
        let threads: Int
        /// The poses being refined, one a frame.
        var poses: [Matrix4x4]
        /// The point the rotations turn about (the mean camera centre), for conditioning.
        let centre: SIMD3<Double>

        init(frames: [FrameData], anchor: Int, threads: Int) {
            self.frames = frames
            self.anchor = anchor
            self.threads = threads
            poses = frames.map(\.recorded)
            centre = poses.map(\.translation).reduce(.zero, +) / Double(max(poses.count, 1))
        }

        /// Every frame's points and normals in world space with the current poses.
        func world() -> (points: [[SIMD3<Double>]], normals: [[SIMD3<Double>]]) {
            var points: [[SIMD3<Double>]] = [], normals: [[SIMD3<Double>]] = []
            for (k, frame) in frames.enumerated() {
                let pose = poses[k]
                let surfels = frame.surfels
                points.append(surfels.points.map { pose.transformPoint($0) })
                normals.append(surfels.normals.map { n in
                    let v = pose.transform(SIMD4(n, 0))
                    return SIMD3(v.x, v.y, v.z)
                })
            }
            return (points, normals)
        }

        /// Each frame's sum of squared point-to-plane distances to its nearest neighbours in other
        /// frames within `radius`, and their count, with the current poses.
        func residuals(radius: Double) -> [(sum: Double, count: Int)] {
            let (points, normals) = world()
            let grid = NeighbourGrid(points: points, cell: radius)
            return perFrame { k in
                var sum = 0.0, count = 0
                Self.forEachMatch(of: k, points: points, normals: normals, grid: grid, radius: radius) { _, _, _, _, r in
                    sum += r * r
                    count += 1
                }
                return (sum, count)
            }
        }

        /// Calls `body` for every point of frame `k` matched with its nearest point of another
        /// frame within `radius` whose normal agrees (cosine above 0.7): the point, the matched
        /// frame, the matched point and its normal, and the point-to-plane residual n_b · (a − b).
        static func forEachMatch(of k: Int, points: [[SIMD3<Double>]], normals: [[SIMD3<Double>]], grid: NeighbourGrid, radius: Double,
                                 _ body: (_ a: SIMD3<Double>, _ frame: Int, _ b: SIMD3<Double>, _ normal: SIMD3<Double>, _ r: Double) -> Void) {
            for (a, na) in zip(points[k], normals[k]) {
                guard let (j, m) = grid.nearest(to: a, excluding: k, within: radius) else { continue }
                let nb = normals[j][m]
                guard (na * nb).sum() > 0.7 else { continue }
                let b = points[j][m]
                body(a, j, b, nb, (nb * (a - b)).sum())
            }
        }

        /// `body` for every frame, on up to `threads` threads, the results in frame order.
        func perFrame<T: Sendable>(_ body: @Sendable (Int) -> T) -> [T] {
            let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: frames.count)
            results.initialize(repeating: nil)
            defer { results.deallocate() }
            let slots = SendablePointer(results.baseAddress!)
            let count = frames.count, workers = max(1, min(threads, count))
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for k in Swift.stride(from: worker, to: count, by: workers) { slots.base[k] = body(k) }
            }
            return results.map { $0! }
        }

        /// One Gauss–Newton step over all poses with correspondences within `radius`; returns the
        /// largest movement of a point it made (metres, about).
        mutating func step(radius: Double) -> Double {
            let (points, normals) = world()
            let grid = NeighbourGrid(points: points, cell: radius)
            let huber = radius / 4
            let centre = centre
            // What each frame's points contribute: to its own block, and to each frame they match
            // (its block, and the cross block between the two).
            let contributions = perFrame { k -> (own: NormalBlock, matched: [Int: (block: NormalBlock, cross: Matrix6)]) in
                var own = NormalBlock()
                var matched: [Int: (block: NormalBlock, cross: Matrix6)] = [:]
                Self.forEachMatch(of: k, points: points, normals: normals, grid: grid, radius: radius) { a, j, b, nb, r in
                    let w = abs(r) <= huber ? 1 : huber / abs(r)
                    let ja = Self.jacobian(point: a - centre, normal: nb), jb = -Self.jacobian(point: b - centre, normal: nb)
                    own.add(ja, weight: w, residual: r)
                    matched[j, default: (NormalBlock(), Matrix6())].block.add(jb, weight: w, residual: r)
                    matched[j, default: (NormalBlock(), Matrix6())].cross.addOuter(ja, jb, weight: w)
                }
                return (own, matched)
            }
            // Unknowns: six a frame but the anchor's.
            let free = frames.indices.filter { $0 != anchor }
            guard !free.isEmpty else { return 0 }
            var slot = [Int](repeating: -1, count: frames.count)
            for (s, k) in free.enumerated() { slot[k] = s }
            let n = 6 * free.count
            var h = [Double](repeating: 0, count: n * n), g = [Double](repeating: 0, count: n)
            func addBlock(_ block: NormalBlock, at s: Int) {
                guard s >= 0 else { return }
                for r in 0 ..< 6 {
                    g[6 * s + r] += block.gradient[r]
                    for c in 0 ..< 6 { h[(6 * s + r) * n + 6 * s + c] += block.hessian[r][c] }
                }
            }
            for (k, contribution) in contributions.enumerated() {
                addBlock(contribution.own, at: slot[k])
                for j in contribution.matched.keys.sorted() {
                    let (block, cross) = contribution.matched[j]!
                    addBlock(block, at: slot[j])
                    // cross[r][c] = Σ w · ja[r] · jb[c]: the (k, j) block, and its transpose.
                    let (s, t) = (slot[k], slot[j])
                    guard s >= 0, t >= 0 else { continue }
                    for r in 0 ..< 6 {
                        for c in 0 ..< 6 {
                            h[(6 * s + r) * n + 6 * t + c] += cross[r][c]
                            h[(6 * t + c) * n + 6 * s + r] += cross[r][c]
                        }
                    }
                }
            }
            // A weak prior holds each pose at its recorded value (its correction's rotation
            // vector and its translation about the centre, weighted by 1e-5 of the data's mean
            // curvature), so a direction nothing constrains stays as recorded; stronger, it pulls
            // real corrections back (1e-3 left 5 mm of a 25 mm drift on the 8-frame test scene;
            // 1e-5 leaves 0.7 mm). It cannot hold a slide the geometry only weakly constrains
            // (a wall seen face on): the photometric term is for that. Then Levenberg–Marquardt
            // damping of the same size.
            let mean = (0 ..< n).map { h[$0 * n + $0] }.reduce(0, +) / Double(n)
            let prior = 1e-5 * mean + 1e-12
            for (s, k) in free.enumerated() {
                let deviation = Self.twist(poses[k] * frames[k].recorded.rigidInverse, about: centre)
                for i in 0 ..< 6 {
                    h[(6 * s + i) * n + 6 * s + i] += 2 * prior
                    g[6 * s + i] += prior * deviation[i]
                }
            }
            guard let delta = Self.solve(h, g.map { -$0 }, n: n) else { return 0 }
            var largest = 0.0
            for (s, k) in free.enumerated() {
                let omega = SIMD3(delta[6 * s], delta[6 * s + 1], delta[6 * s + 2]), v = SIMD3(delta[6 * s + 3], delta[6 * s + 4], delta[6 * s + 5])
                let angle = (omega * omega).sum().squareRoot()
                let turn = angle > 0 ? Matrix4x4(axis: omega / angle, angle: angle) : .identity
                // p ↦ c + exp(ω)(p − c) + v, applied after the pose.
                let moved = turn.transformPoint(-centre) + centre + v
                let update = Matrix4x4(columns: turn.columns.0, turn.columns.1, turn.columns.2, SIMD4(moved, 1))
                poses[k] = update * poses[k]
                largest = max(largest, (v * v).sum().squareRoot() + angle * 3)
            }
            return largest
        }

        /// The rigid transform `e` as a twist about `centre`: its rotation vector ω (axis times
        /// angle, radians) and v with e(p) = centre + R(p − centre) + v.
        static func twist(_ e: Matrix4x4, about centre: SIMD3<Double>) -> SIMD8<Double> {
            let angle = e.rotationAngle
            let axis = SIMD3(e[2, 1] - e[1, 2], e[0, 2] - e[2, 0], e[1, 0] - e[0, 1])
            let length = (axis * axis).sum().squareRoot()
            let omega = length > 0 ? axis / length * angle : .zero
            let v = e.transformPoint(centre) - centre
            return SIMD8(omega.x, omega.y, omega.z, v.x, v.y, v.z, 0, 0)
        }

        /// ∂r/∂(ω, v) of a point-to-plane residual n · (p − q) for a left perturbation of p's pose
        /// about the centre (p given relative to it): (p × n, n), and two zeros.
        static func jacobian(point p: SIMD3<Double>, normal n: SIMD3<Double>) -> SIMD8<Double> {
            SIMD8(p.y * n.z - p.z * n.y, p.z * n.x - p.x * n.z, p.x * n.y - p.y * n.x, n.x, n.y, n.z, 0, 0)
        }

        /// Solves the symmetric positive definite system `a x = b` (Cholesky); nil when it is not.
        static func solve(_ a: [Double], _ b: [Double], n: Int) -> [Double]? {
            var l = a
            for j in 0 ..< n {
                var d = l[j * n + j]
                for k in 0 ..< j { d -= l[j * n + k] * l[j * n + k] }
                guard d > 0 else { return nil }
                let root = d.squareRoot()
                l[j * n + j] = root
                for i in j + 1 ..< n {
                    var s = l[i * n + j]
                    for k in 0 ..< j { s -= l[i * n + k] * l[j * n + k] }
                    l[i * n + j] = s / root
                }
            }
            var y = b
            for i in 0 ..< n {
                for k in 0 ..< i { y[i] -= l[i * n + k] * y[k] }
                y[i] /= l[i * n + i]
            }
            for i in stride(from: n - 1, through: 0, by: -1) {
                for k in i + 1 ..< n { y[i] -= l[k * n + i] * y[k] }
                y[i] /= l[i * n + i]
            }
            return y
        }
    }

    /// A 6 × 6 block of the normal equations, a row a SIMD vector (the last two lanes unused).
    fileprivate struct Matrix6: Sendable {
        var rows = [SIMD8<Double>](repeating: .zero, count: 6)

        subscript(r: Int) -> SIMD8<Double> { rows[r] }

        /// Adds w · a · bᵀ.
        mutating func addOuter(_ a: SIMD8<Double>, _ b: SIMD8<Double>, weight w: Double) {
            let wb = w * b
            rows.withUnsafeMutableBufferPointer { m in
                for r in 0 ..< 6 { m[r] += a[r] * wb }
            }
        }
    }

    /// A frame's share of the normal equations: Σ w · j · jᵀ and Σ w · j · r.
    fileprivate struct NormalBlock: Sendable {
        var hessian = Matrix6()
        var gradient = SIMD8<Double>.zero

        mutating func add(_ j: SIMD8<Double>, weight w: Double, residual r: Double) {
            hessian.addOuter(j, j, weight: w)
            gradient += (w * r) * j
        }
    }
}
