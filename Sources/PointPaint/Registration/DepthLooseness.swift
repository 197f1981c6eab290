/// How far a frame's depth leaves its pose free after the geometric stage (docs/registration.md,
/// "What depth constrains"): the standard deviations of its camera's position and turn that the
/// point-to-plane matches allow, from the frame's stiffness (its Gauss–Newton Hessian with the
/// other frames held, `GeometricRegistration.Solution.stiffness`) and the depth residual's
/// scale σ: the covariance is σ² H⁻¹.
///
/// A frame that sees surfaces at several angles is held to hundredths of a millimetre; one that
/// sees a single plane face on is free to slide along it (H is singular there). `PoseRefinement`
/// runs the colour stage only when some frame is loose, since colour moves a frame only along
/// what its depth leaves free.
struct DepthLooseness: Sendable, Equatable {
    /// The camera centre's standard deviation, metres: the root of its covariance's trace, so
    /// no direction is looser than this.
    var metres: Double
    /// The turn's standard deviation, degrees, the same way.
    var degrees: Double

    /// A frame is loose past either. Within them depth leaves colour nothing worth a correction
    /// (the synthetic scenes' frames, held to 0.3–0.4 mm and 0.01°, are all held by the colour
    /// stage too), while a slide along a wall seen face on is unbounded.
    static let limits = (metres: 0.001, degrees: 0.05)

    /// Whether the frame's depth leaves it free past `limits`.
    var isLoose: Bool { !(metres <= Self.limits.metres && degrees <= Self.limits.degrees) }

    /// The looseness of a frame whose stiffness `hessian` is for a twist (ω, v) about `centre`
    /// (a point x moves by ω × (x − centre) + v), with its camera at `camera`; infinite when the
    /// Hessian is not positive definite (some motion is not seen at all).
    init(hessian: Matrix6, centre: SIMD3<Double>, camera: SIMD3<Double>, sigma: Double) {
        let a = (0 ..< 6).flatMap { r in (0 ..< 6).map { hessian[r][$0] } }
        // H⁻¹ column by column.
        var inverse = [[Double]]()
        for c in 0 ..< 6 {
            guard let column = PoseStep.solve(a, (0 ..< 6).map { $0 == c ? 1 : 0 }, n: 6) else {
                self.init(metres: .infinity, degrees: .infinity)
                return
            }
            inverse.append(column)
        }
        let variance = sigma * sigma
        // The camera centre moves by d = ω × r + v = −[r]× ω + v, r = camera − centre: d = A ξ.
        let r = camera - centre
        let rows: [[Double]] = [[0, r.z, -r.y, 1, 0, 0], [-r.z, 0, r.x, 0, 1, 0], [r.y, -r.x, 0, 0, 0, 1]]
        var positionTrace = 0.0
        for row in rows {
            for i in 0 ..< 6 where row[i] != 0 {
                for j in 0 ..< 6 where row[j] != 0 { positionTrace += row[i] * inverse[j][i] * row[j] }
            }
        }
        let turnTrace = inverse[0][0] + inverse[1][1] + inverse[2][2]
        self.init(metres: (variance * max(positionTrace, 0)).squareRoot(),
                  degrees: (variance * max(turnTrace, 0)).squareRoot() * 180 / .pi)
    }

    init(metres: Double, degrees: Double) {
        self.metres = metres
        self.degrees = degrees
    }
}
