import Foundation

/// `pointpaint register` on a recording with depth (docs/registration.md): the geometric stage
/// (`GeometricRegistration`) solves every pose from the depth maps; the colour stage
/// (`PhotometricRegistration`) then refines them on the colour consistency of the frames' own
/// depth points, held by the geometric stage's stiffness, so that colour moves a frame only where
/// depth leaves it free. When depth holds every frame (`DepthLooseness`), colour has nothing to
/// move and is not run.
public enum PoseRefinement {
    /// What the two stages did.
    public struct Reports: Sendable {
        /// The geometric stage (residuals in metres).
        public var geometric: RegistrationReport
        /// The colour stage (residuals in 8-bit luma levels); its refusals keep the geometric
        /// pose. Nil when depth held every frame, so the colour stage did not run.
        public var photometric: RegistrationReport?
        /// The loosest any frame's depth left it: the largest standard deviations of a camera's
        /// position (metres) and turn (degrees) over the frames (`DepthLooseness`).
        public var loosest: (metres: Double, degrees: Double)
        /// Frames depth left loose (past `DepthLooseness.limits`) or that have no depth points;
        /// the colour stage runs when there is one.
        public var loose: Int
    }

    /// The depth a geometric residual is trusted to, against the colour stage's 4 levels: 2 mm.
    static let geometricSigma = 0.002

    /// Refines `source`'s poses by depth, then by colour (the frames' depth points as the cloud;
    /// `photometric.pass.poses` and `anchor` are set from the geometric stage) when depth left
    /// some frame loose, or always with `alwaysColour`.
    /// - Throws: the stages' errors.
    public static func run(source: any CaptureSource, geometric: GeometricRegistration.Options,
                           photometric: PhotometricRegistration.Options,
                           alwaysColour: Bool = false) throws -> (poses: CameraPoses, reports: Reports) {
        let solution = try GeometricRegistration.solve(source: source, options: geometric)
        // How loose depth left each frame (the anchor is held, not solved).
        let looseness = solution.poses.frames.filter { $0.index != solution.poses.anchor }.map { frame in
            solution.stiffness[frame.index].map {
                DepthLooseness(hessian: $0, centre: solution.centre, camera: frame.refined.translation, sigma: geometricSigma)
            } ?? DepthLooseness(metres: .infinity, degrees: .infinity)
        }
        let loosest = (metres: looseness.map(\.metres).max() ?? 0, degrees: looseness.map(\.degrees).max() ?? 0)
        let loose = looseness.filter(\.isLoose).count + solution.framesWithoutDepth
        guard loose > 0 || alwaysColour else {
            return (solution.poses, Reports(geometric: solution.report, photometric: nil, loosest: loosest, loose: 0))
        }
        // The depth points as a cloud measured from a whole-metre origin near them.
        let mean = solution.points.reduce(SIMD3<Double>.zero, +) / Double(max(solution.points.count, 1))
        let origin = mean.rounded(.down)
        let cloud = try PaintCloud(path: source.path, positions: solution.points.map { SIMD3<Float>($0 - origin) }, colors: nil, origin: origin)
        var options = photometric
        // The depth stage leaves the colour stage near its optimum: two levels and fewer rounds
        // and points than from the recorded poses.
        options.levels = min(options.levels, 2)
        options.iterations = min(options.iterations, 5)
        options.maximumPoints = min(options.maximumPoints, 20_000)
        options.pass.poses = solution.poses
        options.anchor = solution.poses.anchor
        let stiffness = PhotometricRegistration.Stiffness(blocks: solution.stiffness, centre: solution.centre, sigma: geometricSigma)
        let (poses, report) = try PhotometricRegistration.run(cloud: cloud, source: source, options: options, stiffness: stiffness,
                                                              method: "geometric+photometric")
        return (poses, Reports(geometric: solution.report, photometric: report, loosest: loosest, loose: loose))
    }
}
