import Foundation
import Testing
@testable import PointPaint

/// `DepthLooseness`: the standard deviations σ² H⁻¹ leaves a frame's camera, against closed forms
/// and the two cases docs/registration.md names (one plane face on; surfaces at several angles).
@Suite struct DepthLoosenessTests {
    /// The Gauss–Newton Hessian of point-to-plane matches at `points` with `normal` each, for a
    /// twist about the origin (`PoseStep.jacobian`).
    static func hessian(_ matches: [(point: SIMD3<Double>, normal: SIMD3<Double>)]) -> Matrix6 {
        var h = Matrix6()
        for m in matches {
            let j = PoseStep.jacobian(point: m.point, direction: m.normal)
            h.addOuter(j, j, weight: 1)
        }
        return h
    }

    @Test func aDiagonalStiffnessGivesItsClosedForm() {
        // H = diag(a, a, a, b, b, b): turns σ √(3 / a), the centre σ √(3 / b), and a camera at r
        // also moves by the turn: σ √(3 / b + 2 |r|² / a).
        let a = 4e6, b = 1e6, sigma = 0.002
        var h = Matrix6()
        for i in 0 ..< 6 { h.addOuter(SIMD8((0 ..< 8).map { $0 == i ? 1 : 0 }), SIMD8((0 ..< 8).map { $0 == i ? 1 : 0 }), weight: i < 3 ? a : b) }
        let atCentre = DepthLooseness(hessian: h, centre: .zero, camera: .zero, sigma: sigma)
        #expect(abs(atCentre.metres - sigma * (3 / b).squareRoot()) < 1e-12)
        #expect(abs(atCentre.degrees - sigma * (3 / a).squareRoot() * 180 / .pi) < 1e-9)
        let r = SIMD3<Double>(1, -2, 0.5)
        let away = DepthLooseness(hessian: h, centre: SIMD3(3, 3, 3), camera: SIMD3(3, 3, 3) + r, sigma: sigma)
        #expect(abs(away.metres - sigma * (3 / b + 2 * (r * r).sum() / a).squareRoot()) < 1e-12)
        #expect(abs(away.degrees - atCentre.degrees) < 1e-12)
    }

    @Test func onePlaneFaceOnLeavesTheFrameLooseAndACornerHoldsIt() {
        var random = SystemRandomNumberGenerator()
        func uniform() -> Double { Double.random(in: -1 ... 1, using: &random) }
        // 3,000 points of the wall z = 2 seen face on: nothing holds a slide along x or y.
        let wall = (0 ..< 3_000).map { _ in (point: SIMD3(uniform(), uniform(), 2.0), normal: SIMD3<Double>(0, 0, -1)) }
        let free = DepthLooseness(hessian: Self.hessian(wall), centre: .zero, camera: .zero, sigma: 0.002)
        #expect(free.isLoose && !(free.metres < 1))
        // 1,000 points on each of three walls at right angles: held far inside the limits.
        let corner = (0 ..< 1_000).flatMap { _ -> [(point: SIMD3<Double>, normal: SIMD3<Double>)] in
            [(SIMD3(uniform(), uniform(), 2), SIMD3(0, 0, -1)), (SIMD3(2, uniform(), uniform()), SIMD3(-1, 0, 0)),
             (SIMD3(uniform(), 2, uniform()), SIMD3(0, -1, 0))]
        }
        let held = DepthLooseness(hessian: Self.hessian(corner), centre: .zero, camera: .zero, sigma: 0.002)
        #expect(!held.isLoose && held.metres < 0.2 * DepthLooseness.limits.metres && held.degrees < 0.2 * DepthLooseness.limits.degrees,
                "\(held)")
    }
}
