import Foundation

/// Photometric pose refinement (`pointpaint register … --cloud`, and the colour stage of
/// `register` on a recording with depth; docs/registration.md): the points of a fixed cloud that
/// several frames see, through the same visibility test as `paint`, should look alike in every
/// one of them. Each point's proxy is the mean of its luma over the frames that see it; each
/// frame then takes one Gauss–Newton step of its 6-DoF pose on the image gradient of its samples
/// against the proxies (Huber loss, Levenberg–Marquardt damping); the proxies are recomputed and
/// the steps repeated, coarse to fine over a luma pyramid. The anchor frame keeps its pose.
///
/// With `stiffness` (the geometric stage's per-frame normal equations), a frame's step also pays
/// for leaving the geometric solution as its depth would: colour then moves a frame only where
/// depth does not hold it (a slide along a wall seen face on).
///
/// Deterministic, and the same whatever the thread count: frames are worked on in parallel, but
/// everything summed over frames is summed in frame order.
public enum PhotometricRegistration {
    /// What to refine and how.
    public struct Options: Sendable {
        /// Which frames (`frames`, `every`) and on how many threads; `poses` is where the
        /// refinement starts (the recorded poses when nil).
        public var pass = FramePassOptions()
        /// Which frames see which points: `paint`'s test.
        public var visibility: CloudPainter.Visibility = .auto
        /// The cloud's points used, at most (an even subset of them).
        public var maximumPoints = 60_000
        /// Pyramid levels, coarse to fine (each halves the finest's size once more).
        public var levels = 3
        /// Rounds (proxies, then one step a frame) a level at most.
        public var iterations = 10
        /// A level ends when a round's steps lower the frames' total cost by less than this
        /// fraction (rounds after the frames have settled each lower it by 0.01–0.02 %).
        public var convergence = 0.001
        /// The frame that keeps its pose; nil: the first selected.
        public var anchor: Int?
        /// A correction (from the recorded pose) larger than these is not applied (metres, degrees).
        public var maximumCorrection = (metres: 0.25, degrees: 10.0)

        /// A frame's correction is applied only when it lowers the frame's residual by at least
        /// this fraction: colour consistency alone drifts by a few millimetres where nothing is
        /// wrong (docs/registration.md), and that must not move a frame.
        public var minimumGain = 0.1

        /// Defaults: every frame, `paint`'s visibility, up to 60,000 points, three levels of up
        /// to 10 rounds, the first frame as the anchor.
        public init() {}
    }

    /// The geometric stage's hold on each frame: its normal equations (metres) for leaving the
    /// geometric solution, a twist about `centre` (world space), weighted by 1 / `sigma`².
    struct Stiffness: Sendable {
        var blocks: [Int: Matrix6]
        var centre: SIMD3<Double>
        var sigma: Double
    }

    /// The prior's scales (`Problem.prior`): metres the camera centre moves, degrees it turns.
    static let priorMetres = 0.005, priorDegrees = 0.1

    /// The Huber loss's threshold on a luma residual (0…1): 10 levels of 255.
    static let lossScale = 10.0 / 255

    /// The Huber loss of residual `r` (on the scale of a square) and its weight in a
    /// Gauss–Newton step (iteratively reweighted least squares).
    static func loss(_ r: Double) -> (cost: Double, weight: Double) {
        let c = lossScale, a = abs(r)
        return a <= c ? (r * r, 1) : (2 * c * a - c * c, c / a)
    }

    /// One frame as the refinement holds it.
    struct FrameData: Sendable {
        var index: Int
        var intrinsics: CameraIntrinsics
        /// The pose the refinement starts from and the recorded one, world space.
        var start: Matrix4x4, recorded: Matrix4x4
        /// The cloud points (slots of the subset) the frame sees, increasing.
        var slots: [Int32]
        var pyramid: LumaPyramid
    }

    /// Refines the poses of `source`'s selected frames so that `cloud` looks alike in all of them.
    /// - Throws: the painter's errors (frames, `--visibility depth` without depth); `.missing`
    ///   when fewer than two frames share a point.
    public static func run(cloud: PaintCloud, source: any CaptureSource, options: Options) throws -> (poses: CameraPoses, report: RegistrationReport) {
        try run(cloud: cloud, source: source, options: options, stiffness: nil, method: "photometric")
    }

    /// `run`, with the geometric stage's stiffness: a frame's normal equations (metres) for
    /// moving it away from its start pose, weighted by 1 / `stiffness.sigma`² against the luma's
    /// 1 / σ² of 4 levels.
    static func run(cloud: PaintCloud, source: any CaptureSource, options: Options,
                    stiffness: Stiffness?, method: String) throws -> (poses: CameraPoses, report: RegistrationReport) {
        let (frames, points) = try gather(cloud: cloud, source: source, options: options)
        guard frames.count >= 2 else {
            throw PointPaintError(.missing, file: source.path,
                                  "expected at least two frames that see points of \(PointPaintError.quote(cloud.path)) to compare their colours, found \(frames.count)")
        }
        let anchor = try RegistrationReport.anchor(options.anchor, among: frames.map(\.index), file: source.path,
                                                  what: "points of the cloud in view")
        var problem = Problem(frames: frames, points: points, anchor: anchor, threads: max(1, options.pass.threads), stiffness: stiffness,
                              origin: cloud.origin)
        let before = problem.residuals(level: 0)
        for level in stride(from: options.levels - 1, through: 0, by: -1) {
            for _ in 0 ..< options.iterations {
                if problem.round(level: level) < options.convergence { break }
            }
        }
        let after = problem.residuals(level: 0)
        // Luma levels of 255 for the report.
        func levels(_ s: (sum: Double, count: Int)) -> (sum: Double, count: Int) { (s.sum * 255 * 255, s.count) }
        let candidates = frames.enumerated().map { k, frame in
            RegistrationReport.Candidate(index: frame.index, start: frame.start, refined: problem.world(k), recorded: frame.recorded,
                                         before: levels(before[k]), after: levels(after[k]), isAnchor: k == anchor)
        }
        return RegistrationReport.assemble(candidates, method: method, unit: "levels", anchor: anchor, recordingFrames: source.frameCount,
                                           limits: options.maximumCorrection, minimumGain: options.minimumGain)
    }

    /// One pass over the frames: each frame's luma pyramid and the subset's points it sees
    /// (paint's visibility, with the start poses), and the subset's positions (measured from the
    /// cloud's origin).
    static func gather(cloud: PaintCloud, source: any CaptureSource, options: Options) throws -> (frames: [FrameData], points: [SIMD3<Double>]) {
        // The subset is a cloud of its own, so the visibility pass costs what it keeps.
        let stride = max(1, (cloud.count + options.maximumPoints - 1) / max(options.maximumPoints, 1))
        let subset = stride == 1 ? cloud : try PaintCloud(path: cloud.path, positions: Swift.stride(from: 0, to: cloud.count, by: stride).map { cloud.positions[$0] },
                                                          colors: nil, origin: cloud.origin)
        var painting = CloudPainter.Options()
        painting.pass = options.pass
        painting.visibility = options.visibility
        painting.weighted = false
        // (The z-buffer splats the subset with the subset's own spacing, which the painter estimates.)
        let painter = try CloudPainter(cloud: subset, source: source, options: painting)
        defer { painter.scratch.releaseAll() }
        let origin = cloud.origin, start = options.pass.poses, levels = max(1, options.levels)
        var frames: [FrameData] = []
        try painter.pass.run(pieces: { _ in [()] }, transform: { frame, _ -> FrameData in
            let seen = try painter.observe(frame)
            var pose = frame.camera.transform
            pose.columns.3 += SIMD4(origin, 0)
            return FrameData(index: frame.index, intrinsics: frame.camera.intrinsics, start: pose,
                             recorded: start?.frame(frame.index)?.recorded ?? pose, slots: seen.points.map { Int32($0) },
                             pyramid: LumaPyramid(image: frame.image, count: levels))
        }, body: { frames.append($0); return true })
        return (frames.filter { !$0.slots.isEmpty }, subset.positions.map { SIMD3<Double>($0) })
    }
}

extension PhotometricRegistration {
    /// The poses being refined (measured from the cloud's origin), the points and the proxies.
    struct Problem {
        let frames: [FrameData]
        let points: [SIMD3<Double>]
        let anchor: Int
        let threads: Int
        let stiffness: Stiffness?
        /// The cloud's origin, subtracted from world poses.
        let origin: SIMD3<Double>
        /// Each frame's start pose and its current pose, camera to the cloud's measured space.
        let starts: [Matrix4x4]
        private(set) var poses: [Matrix4x4]
        /// The point rotations turn about (the mean camera centre).
        let centre: SIMD3<Double>
        /// Each frame's Levenberg–Marquardt damping, relative to its normal equations' diagonal.
        var damping: [Double]
        /// Each frame's luma samples of its points (NaN where a point leaves the image) with its
        /// current pose, and the level: the proxies of the next round, or the residuals, come
        /// from them, not from another pass over the frames (a step's accepted trial sampled its
        /// new pose already).
        private var sampled: (level: Int, values: [[Double]])?

        init(frames: [FrameData], points: [SIMD3<Double>], anchor: Int, threads: Int, stiffness: Stiffness?,
             origin: SIMD3<Double> = .zero) {
            self.frames = frames
            self.points = points
            self.anchor = anchor
            self.threads = threads
            self.stiffness = stiffness
            self.origin = origin
            starts = frames.map { frame in
                var pose = frame.start
                pose.columns.3 -= SIMD4(origin, 0)
                return pose
            }
            poses = starts
            centre = stiffness.map { $0.centre - origin } ?? poses.map(\.translation).reduce(.zero, +) / Double(max(poses.count, 1))
            damping = [Double](repeating: 1e-4, count: frames.count)
        }

        /// Frame `k`'s pose in world space.
        func world(_ k: Int) -> Matrix4x4 {
            var pose = poses[k]
            pose.columns.3 += SIMD4(origin, 0)
            return pose
        }

        /// Frame `k`'s samples of its points with `pose` on `level`: luma and, when `gradient`, its
        /// gradient per image pixel, and the point in camera space; nil where a point leaves the image.
        func samples(_ k: Int, pose: Matrix4x4, level: Int, gradient: Bool = false) -> [(value: Double, du: Double, dv: Double, camera: SIMD3<Double>)?] {
            let frame = frames[k], inverse = pose.rigidInverse, f = frame.intrinsics
            return frame.slots.map { slot in
                let c = inverse.transformPoint(points[Int(slot)])
                guard c.z < -1e-6 else { return nil }
                let inverseDepth = -1 / c.z
                guard let s = frame.pyramid.sample(level: level, u: f.fx * c.x * inverseDepth + f.cx, v: f.fy * -c.y * inverseDepth + f.cy,
                                                   gradient: gradient) else { return nil }
                return (s.value, s.du, s.dv, c)
            }
        }

        /// Frame `k`'s luma samples of its points with `pose` on `level`, NaN where none.
        func values(_ k: Int, pose: Matrix4x4, level: Int) -> [Double] {
            samples(k, pose: pose, level: level).map { $0?.value ?? .nan }
        }

        /// Every frame's samples with its current pose on `level` (`sampled`, or a pass over them).
        mutating func values(level: Int) -> [[Double]] {
            if let sampled, sampled.level == level { return sampled.values }
            let problem = self
            let values = PoseStep.inOrder(count: frames.count, threads: threads) { k in problem.values(k, pose: problem.poses[k], level: level) }
            sampled = (level, values)
            return values
        }

        /// Every point's mean luma over the frames that sample it (`values`, each frame's), and
        /// how many do.
        func proxies(_ values: [[Double]]) -> (mean: [Double], count: [Int32]) {
            var sum = [Double](repeating: 0, count: points.count), count = [Int32](repeating: 0, count: points.count)
            for (k, values) in values.enumerated() {
                for (slot, value) in zip(frames[k].slots, values) where !value.isNaN {
                    sum[Int(slot)] += value
                    count[Int(slot)] += 1
                }
            }
            return (zip(sum, count).map { $1 > 0 ? $0 / Double($1) : 0 }, count)
        }

        /// Each frame's sum of squared luma residuals against the proxies on `level` (0…1 units),
        /// and their count, over points at least two frames sample.
        mutating func residuals(level: Int) -> [(sum: Double, count: Int)] {
            let values = values(level: level)
            let proxies = proxies(values)
            return values.indices.map { k in
                let cost = cost(k, values: values[k], proxies: proxies)
                return (cost.squares, cost.count)
            }
        }

        /// Frame `k`'s Huber cost, plain sum of squares and count, of its samples `values`.
        func cost(_ k: Int, values: [Double], proxies: (mean: [Double], count: [Int32])) -> (huber: Double, squares: Double, count: Int) {
            var huber = 0.0, squares = 0.0, count = 0
            for (slot, value) in zip(frames[k].slots, values) {
                guard !value.isNaN, proxies.count[Int(slot)] >= 2 else { continue }
                let r = value - proxies.mean[Int(slot)]
                squares += r * r
                huber += PhotometricRegistration.loss(r).cost
                count += 1
            }
            return (huber, squares, count)
        }

        /// One round on `level`: the proxies, then one damped Gauss–Newton step a frame (the
        /// anchor's held). Returns the fraction of the frames' total cost its steps took away.
        mutating func round(level: Int) -> Double {
            var values = values(level: level)
            let proxies = proxies(values)
            let problem = self
            let steps = PoseStep.inOrder(count: frames.count, threads: threads) { k -> Step? in
                k == problem.anchor ? nil : problem.step(k, level: level, proxies: proxies)
            }
            var total = 0.0, lowered = 0.0
            for (k, step) in steps.enumerated() {
                guard let step else { continue }
                total += step.current
                guard let accepted = step.accepted else { continue }
                poses[k] = accepted.pose
                damping[k] = accepted.damping
                values[k] = accepted.values
                lowered += step.current - accepted.cost
            }
            sampled = (level, values)
            return total > 0 ? lowered / total : 0
        }

        /// A frame's step: its cost at its pose, and the step taken, when one lowered it.
        struct Step: Sendable {
            var current: Double
            var accepted: (pose: Matrix4x4, damping: Double, cost: Double, values: [Double])?
        }

        /// Frame `k`'s damped Gauss–Newton step against `proxies`: its cost now and, when a step
        /// lowers it, the new pose, the damping to start from next time and its cost there; nil
        /// when the frame samples nothing.
        func step(_ k: Int, level: Int, proxies: (mean: [Double], count: [Int32])) -> Step? {
            let pose = poses[k], f = frames[k].intrinsics
            let rotation = Matrix4x4(columns: pose.columns.0, pose.columns.1, pose.columns.2, SIMD4(0, 0, 0, 1))
            let sigma = 4.0 / 255
            var block = NormalBlock()
            var current = 0.0
            for (slot, sample) in zip(frames[k].slots, samples(k, pose: pose, level: level, gradient: true)) {
                guard let s = sample, proxies.count[Int(slot)] >= 2 else { continue }
                let r = s.value - proxies.mean[Int(slot)]
                current += PhotometricRegistration.loss(r).cost
                let c = s.camera, e = -1 / c.z
                // ∂r/∂(camera point), then to world space: n = R q. Moving the camera moves the
                // point the other way in camera space: ∂r/∂(ω, v) = −(a × n, n), a = p − centre.
                let gu = s.du * f.fx * e, gv = s.dv * f.fy * e
                let q = SIMD3(gu, -gv, (gu * c.x - gv * c.y) * e)
                let n4 = rotation.transform(SIMD4(q, 0)), n = SIMD3(n4.x, n4.y, n4.z)
                let j = -PoseStep.jacobian(point: points[Int(slot)] - centre, direction: n) / sigma
                let w = PhotometricRegistration.loss(r).weight
                block.add(j, weight: w, residual: r / sigma)
            }
            guard block.hessian[0][0] + block.hessian[3][3] > 0 else { return nil }
            // The geometric stage's stiffness: ½ δᵀ H δ / σ² for leaving the start pose.
            let deviation = self.deviation(k, pose)
            if let stiffness, let h = stiffness.blocks[frames[k].index] {
                let scale = 1 / (stiffness.sigma * stiffness.sigma)
                block.hessian.add(h, scale: scale)
                block.gradient += scale * h.times(deviation)
            }
            for (j, r) in prior(k, pose) { block.add(j, weight: 1, residual: r) }
            current = current / (sigma * sigma) + stiffnessCost(k, deviation) + priorCost(k, pose)
            var lambda = damping[k]
            for _ in 0 ..< 6 {
                var h = [Double](repeating: 0, count: 36)
                for r in 0 ..< 6 {
                    for c in 0 ..< 6 { h[r * 6 + c] = block.hessian[r][c] }
                    h[r * 6 + r] *= 1 + lambda
                    h[r * 6 + r] += 1e-12
                }
                if let delta = PoseStep.solve(h, (0 ..< 6).map { -block.gradient[$0] }, n: 6) {
                    let omega = SIMD3(delta[0], delta[1], delta[2]), v = SIMD3(delta[3], delta[4], delta[5])
                    let trial = PoseStep.apply(omega: omega, v: v, about: centre, to: pose)
                    let values = values(k, pose: trial, level: level)
                    let cost = cost(k, values: values, proxies: proxies).huber / (sigma * sigma) + stiffnessCost(k, self.deviation(k, trial))
                        + priorCost(k, trial)
                    if cost < current {
                        return Step(current: current, accepted: (trial, max(1e-6, lambda / 4), cost, values))
                    }
                }
                lambda *= 8
            }
            return Step(current: current, accepted: nil)
        }

        /// The prior's residuals and their Jacobians for frame `k` at `pose`: how far the camera
        /// centre moved from its start (a third each axis, over `PhotometricRegistration.priorMetres`) and
        /// how far it turned (over `priorDegrees`). Where its image gradients constrain a frame
        /// they outweigh it many times over; where they hardly do (a slide along a wall
        /// traded for a turn, which moves the image alike) it holds the start pose.
        func prior(_ k: Int, _ pose: Matrix4x4) -> [(SIMD8<Double>, Double)] {
            let start = starts[k]
            let moved = pose.translation - start.translation
            let d = pose.translation - centre
            let turn = PoseStep.twist(pose * start.rigidInverse, about: centre)
            let st = PhotometricRegistration.priorMetres, sr = PhotometricRegistration.priorDegrees * .pi / 180
            var terms: [(SIMD8<Double>, Double)] = []
            for i in 0 ..< 3 {
                var e = SIMD3<Double>.zero
                e[i] = 1
                // ∂(centre moved)ᵢ/∂ω = d × eᵢ, ∂/∂v = eᵢ.
                let c = SIMD3(d.y * e.z - d.z * e.y, d.z * e.x - d.x * e.z, d.x * e.y - d.y * e.x)
                terms.append((SIMD8(c.x, c.y, c.z, e.x, e.y, e.z, 0, 0) / st, moved[i] / st))
                terms.append((SIMD8(e.x, e.y, e.z, 0, 0, 0, 0, 0) / sr, turn[i] / sr))
            }
            return terms
        }

        /// The prior's cost for frame `k` at `pose` (a sum of squares, as `cost`'s).
        func priorCost(_ k: Int, _ pose: Matrix4x4) -> Double {
            prior(k, pose).reduce(0) { $0 + $1.1 * $1.1 }
        }

        /// How far `pose` lies from frame `k`'s start, as a twist about the centre (zero without
        /// stiffness, where it is not needed).
        func deviation(_ k: Int, _ pose: Matrix4x4) -> SIMD8<Double> {
            guard stiffness != nil else { return .zero }
            return PoseStep.twist(pose * starts[k].rigidInverse, about: centre)
        }

        /// ½ δᵀ H δ / σ² · 2 (the scale of a sum of squares) for frame `k` away from its start by `deviation`.
        func stiffnessCost(_ k: Int, _ deviation: SIMD8<Double>) -> Double {
            guard let stiffness, let h = stiffness.blocks[frames[k].index] else { return 0 }
            return (deviation * h.times(deviation)).sum() / (stiffness.sigma * stiffness.sigma)
        }
    }
}
