import Foundation

/// Geometric pose refinement (`pointpaint register`, docs/registration.md): every selected frame's
/// depth points, with normals from the depth grid, are brought into agreement with the other
/// frames' (its neighbours and the keyframes) by one joint point-to-plane Gauss–Newton over all
/// poses at once (a block-sparse system), coarse to fine, with a Huber loss. The anchor frame (the gauge) keeps its recorded pose; the others move relative
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
        /// A level ends when no point moved by more than this fraction of its radius in an
        /// iteration (0.8, 0.4 and 0.2 mm at the default radii).
        public var convergence = 0.01
        /// At the levels before the finest, every `coarseStride`-th point of a frame is matched.
        public var coarseStride = 4
        /// The model a frame's points are matched with: the `window` frames registered before it
        /// and after it, and every `keyframes`-th frame. A recording of at most 2 × `window` + 1
        /// frames is matched all with all.
        public var window = 10, keyframes = 10
        /// The frame that keeps its recorded pose; nil: the first selected.
        public var anchor: Int?
        /// A correction larger than these is not applied (metres, degrees).
        public var maximumCorrection = (metres: 0.25, degrees: 10.0)

        /// Defaults: every frame, high-confidence depth up to 5 m, 3,000 points a frame, radii
        /// 8, 4 and 2 cm (every 4th point asking at the first two), a radius ended once points
        /// move less than 1 % of it, 10 neighbours on each side and every 10th frame, the first
        /// frame as the anchor.
        public init() {}
    }

    /// One frame's surfels and its pose.
    fileprivate struct FrameData: Sendable {
        var index: Int
        var recorded: Matrix4x4
        var surfels: DepthSurfels
    }

    /// Refines the poses of `source`'s selected frames.
    /// - Throws: `.missing` when no selected frame has depth points (geometric refinement needs
    ///   depth), or when the anchor asked for is not among them; the source's errors loading a
    ///   frame.
    public static func run(source: any CaptureSource, options: Options) throws -> (poses: CameraPoses, report: RegistrationReport) {
        let solution = try solve(source: source, options: options)
        return (solution.poses, solution.report)
    }

    /// A solved registration with what the colour stage needs (`PoseRefinement`).
    struct Solution {
        var poses: CameraPoses
        var report: RegistrationReport
        /// Each registered frame's stiffness at the finest radius (by frame index), a twist about `centre`.
        var stiffness: [Int: Matrix6]
        /// The point the twists turn about, world space.
        var centre: SIMD3<Double>
        /// Every frame's depth points placed with the poses applied, world space.
        var points: [SIMD3<Double>]
        /// Selected frames that had no depth points (not registered; they keep their poses).
        var framesWithoutDepth: Int
    }

    /// `run`, keeping the stiffness and the placed points.
    static func solve(source: any CaptureSource, options: Options) throws -> Solution {
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
                                  "expected depth maps to register the frames' poses by their geometry, found no depth points in the \(frames.count) frames selected (register --cloud registers by colour against a cloud instead)")
        }
        let anchor = try RegistrationReport.anchor(options.anchor, among: withDepth.map(\.index), file: source.path, what: "depth points")
        var problem = Problem(frames: withDepth, anchor: anchor, threads: pass.threads, window: options.window, keyframes: options.keyframes)
        let finestRadius = options.radii.last ?? 0.02
        let before = problem.terms(radius: finestRadius).map(\.residual)
        // The finest level's terms at the poses it ended with, when its last pass computed them.
        var ended: [Problem.Terms]?
        for (level, radius) in options.radii.enumerated() {
            // Coarse levels only bring the frames near each other: every `coarseStride`-th point
            // asks for a match there (the model keeps every point); the finest level asks with all.
            let finest = level == options.radii.count - 1
            let queryStride = finest ? 1 : max(1, options.coarseStride)
            ended = nil
            for _ in 0 ..< options.iterations {
                // A level ends at a step that moves no point by more than `convergence` of the
                // radius. At the finest radius that step is not taken, so the terms it was solved
                // from are the terms at the poses registration ends with: the residuals after,
                // without another search. (A coarser level takes it: the next one starts nearer.)
                let terms = problem.terms(radius: radius, queryStride: queryStride)
                guard let step = problem.step(terms) else {
                    if finest { ended = terms }
                    break
                }
                let converged = step.movement < options.convergence * radius
                if converged, finest {
                    ended = terms
                    break
                }
                problem.apply(step)
                if converged { break }
            }
        }
        let solved = ended ?? problem.terms(radius: finestRadius)
        let (poses, report) = result(problem: problem, withDepth: withDepth, anchor: anchor, before: before, after: solved.map(\.residual),
                                     recordingFrames: source.frameCount, options: options)
        // The stiffness and points with the poses applied (a refused frame's recorded one).
        let applied = poses.frames.map(\.refined)
        var final = solved
        if applied != problem.poses {
            problem.poses = applied
            final = problem.terms(radius: finestRadius)
        }
        let blocks = Problem.stiffness(final)
        let points = problem.world().points.flatMap { $0 }
        return Solution(poses: poses, report: report, stiffness: Dictionary(uniqueKeysWithValues: zip(withDepth.map(\.index), blocks)),
                        centre: problem.centre, points: points, framesWithoutDepth: frames.count - withDepth.count)
    }

    /// The poses file and report from a solved problem (`RegistrationReport.assemble`).
    private static func result(problem: Problem, withDepth: [FrameData], anchor: Int,
                               before: [(sum: Double, count: Int)], after: [(sum: Double, count: Int)],
                               recordingFrames: Int, options: Options) -> (poses: CameraPoses, report: RegistrationReport) {
        let candidates = withDepth.enumerated().map { k, frame in
            RegistrationReport.Candidate(index: frame.index, start: frame.recorded, refined: problem.poses[k], recorded: frame.recorded,
                                         before: before[k], after: after[k], isAnchor: k == anchor)
        }
        // Frames without depth points keep their recorded pose (they are not listed).
        return RegistrationReport.assemble(candidates, method: "geometric", unit: "m", anchor: anchor, recordingFrames: recordingFrames,
                                           limits: options.maximumCorrection)
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

        /// The model's shape (`Options.window`, `Options.keyframes`).
        let window: Int, keyframes: Int

        init(frames: [FrameData], anchor: Int, threads: Int, window: Int, keyframes: Int) {
            self.frames = frames
            self.anchor = anchor
            self.threads = threads
            self.window = max(1, window)
            self.keyframes = max(1, keyframes)
            poses = frames.map(\.recorded)
            centre = poses.map(\.translation).reduce(.zero, +) / Double(max(poses.count, 1))
        }

        /// The grid of `points` (a list a frame) in cells of `radius`, with the keyframes marked.
        func grid(_ points: [[SIMD3<Double>]], radius: Double) -> NeighbourGrid {
            NeighbourGrid(points: points, cell: radius, keyframes: keyframes, threads: threads)
        }

        /// The nearest point to `a`, of frame `k`, within `radius` in the frames it is matched
        /// with: those within the window of it, and the keyframes. (A match couples both frames'
        /// poses, so a keyframe is held by the points of every frame that match it.)
        func nearest(to a: SIMD3<Double>, of k: Int, grid: NeighbourGrid, radius: Double) -> (frame: Int, index: Int)? {
            var best: NeighbourGrid.Nearest?
            grid.nearest(to: a, window: max(0, k - window) ... k + window, excluding: k, within: radius, best: &best)
            return best.map { ($0.frame, $0.index) }
        }

        /// Every frame's points and normals in world space with the current poses.
        func world() -> (points: [[SIMD3<Double>]], normals: [[SIMD3<Double>]]) {
            let poses = poses, frames = frames
            let placed = perFrame { k -> ([SIMD3<Double>], [SIMD3<Double>]) in
                let pose = poses[k], surfels = frames[k].surfels
                return (surfels.points.map { pose.transformPoint($0) }, surfels.normals.map { n in
                    let v = pose.transform(SIMD4(n, 0))
                    return SIMD3(v.x, v.y, v.z)
                })
            }
            return (placed.map(\.0), placed.map(\.1))
        }

        /// Calls `body` for every point of frame `k` matched with its nearest point of a frame it
        /// is matched with (`nearest`) within `radius` whose normal agrees (cosine above 0.7): the
        /// point, the matched frame, the matched point and its normal, and the point-to-plane
        /// residual n_b · (a − b).
        func forEachMatch(of k: Int, points: [[SIMD3<Double>]], normals: [[SIMD3<Double>]], grid: NeighbourGrid, radius: Double, stride: Int,
                          _ body: (_ a: SIMD3<Double>, _ frame: Int, _ b: SIMD3<Double>, _ normal: SIMD3<Double>, _ r: Double) -> Void) {
            for i in Swift.stride(from: 0, to: points[k].count, by: stride) {
                let a = points[k][i], na = normals[k][i]
                guard let (j, m) = nearest(to: a, of: k, grid: grid, radius: radius) else { continue }
                let nb = normals[j][m]
                guard (na * nb).sum() > 0.7 else { continue }
                let b = points[j][m]
                body(a, j, b, nb, (nb * (a - b)).sum())
            }
        }

        /// `body` for every frame, on up to `threads` threads, the results in frame order.
        func perFrame<T: Sendable>(_ body: @Sendable (Int) -> T) -> [T] {
            PoseStep.inOrder(count: frames.count, threads: threads, body)
        }

        /// What a frame's matches contribute to the normal equations (to its own block, and to
        /// each frame they match: its block, and the cross block between the two), and the sum of
        /// their squared residuals and their count.
        struct Terms: Sendable {
            var own = NormalBlock()
            var matched: [Int: (block: NormalBlock, cross: Matrix6)] = [:]
            var residual: (sum: Double, count: Int) = (0, 0)
        }

        /// Each frame's terms with correspondences within `radius`, every `queryStride`-th point of
        /// a frame matched.
        func terms(radius: Double, queryStride: Int = 1) -> [Terms] {
            let (points, normals) = world()
            let grid = grid(points, radius: radius)
            let huber = radius / 4
            let centre = centre
            return perFrame { k -> Terms in
                var terms = Terms()
                forEachMatch(of: k, points: points, normals: normals, grid: grid, radius: radius, stride: queryStride) { a, j, b, nb, r in
                    let w = abs(r) <= huber ? 1 : huber / abs(r)
                    let ja = PoseStep.jacobian(point: a - centre, direction: nb), jb = -PoseStep.jacobian(point: b - centre, direction: nb)
                    terms.own.add(ja, weight: w, residual: r)
                    terms.matched[j, default: (NormalBlock(), Matrix6())].block.add(jb, weight: w, residual: r)
                    terms.matched[j, default: (NormalBlock(), Matrix6())].cross.addOuter(ja, jb, weight: w)
                    terms.residual.sum += r * r
                    terms.residual.count += 1
                }
                return terms
            }
        }

        /// Each frame's stiffness with the others held, from `terms`: the Gauss–Newton Hessian of
        /// the residuals its pose enters (its points' matches and the matches of other frames'
        /// points with its); a twist about `centre`.
        static func stiffness(_ terms: [Terms]) -> [Matrix6] {
            var blocks = terms.map(\.own.hessian)
            for frame in terms {
                for j in frame.matched.keys.sorted() { blocks[j].add(frame.matched[j]!.block.hessian) }
            }
            return blocks
        }

        /// A Gauss–Newton step: each free frame's twist about `centre`, and the largest movement
        /// of a point it makes (metres, about).
        struct Step {
            var twists: [(frame: Int, omega: SIMD3<Double>, v: SIMD3<Double>)]
            var movement: Double
        }

        /// One Gauss–Newton step over all poses from `contributions` (`terms`); nil when no frame
        /// is free or the system cannot be solved.
        func step(_ contributions: [Terms]) -> Step? {
            // Unknowns: six a frame but the anchor's.
            let free = frames.indices.filter { $0 != anchor }
            guard !free.isEmpty else { return nil }
            var slot = [Int](repeating: -1, count: frames.count)
            for (s, k) in free.enumerated() { slot[k] = s }
            var system = BlockSystem(count: free.count)
            for (k, contribution) in contributions.enumerated() {
                if slot[k] >= 0 { system.add(contribution.own, at: slot[k]) }
                for j in contribution.matched.keys.sorted() {
                    let (block, cross) = contribution.matched[j]!
                    if slot[j] >= 0 { system.add(block, at: slot[j]) }
                    // cross[r][c] = Σ w · ja[r] · jb[c]: the (k, j) block, and its transpose.
                    if slot[k] >= 0, slot[j] >= 0 { system.addCross(cross, at: slot[k], slot[j]) }
                }
            }
            // A weak prior holds each pose at its recorded value (its correction's rotation
            // vector and its translation about the centre, weighted by 1e-5 of the data's mean
            // curvature), so a direction nothing constrains stays as recorded; stronger, it pulls
            // real corrections back (1e-3 left 5 mm of a 25 mm drift on the 8-frame test scene;
            // 1e-5 leaves 0.7 mm). It cannot hold a slide the geometry only weakly constrains
            // (a wall seen face on): the photometric term is for that. Then Levenberg–Marquardt
            // damping of the same size.
            let prior = 1e-5 * system.meanDiagonal + 1e-12
            for (s, k) in free.enumerated() {
                let deviation = PoseStep.twist(poses[k] * frames[k].recorded.rigidInverse, about: centre)
                system.addDiagonal(2 * prior, right: prior * deviation, at: s)
            }
            guard let delta = system.solve(threads: threads) else { return nil }
            var step = Step(twists: [], movement: 0)
            for (s, k) in free.enumerated() {
                let omega = SIMD3(delta[s][0], delta[s][1], delta[s][2]), v = SIMD3(delta[s][3], delta[s][4], delta[s][5])
                step.twists.append((k, omega, v))
                step.movement = max(step.movement, (v * v).sum().squareRoot() + (omega * omega).sum().squareRoot() * 3)
            }
            return step
        }

        /// Moves the poses by `step`.
        mutating func apply(_ step: Step) {
            for twist in step.twists {
                poses[twist.frame] = PoseStep.apply(omega: twist.omega, v: twist.v, about: centre, to: poses[twist.frame])
            }
        }

    }
}
