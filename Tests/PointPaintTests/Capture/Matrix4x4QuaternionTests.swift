import Foundation
import Testing
@testable import PointPaint

/// Rotations from unit quaternions (x, y, z, w) and back.
@Suite struct Matrix4x4QuaternionTests {
    @Test func knownRotations() {
        // 90° about z: x goes to y.
        let s = 0.5.squareRoot()
        let m = Matrix4x4(rotation: SIMD4(0, 0, s, s), translation: SIMD3(1, 2, 3))
        let x = m.transform(SIMD4(1, 0, 0, 0)), origin = m.transformPoint(.zero)
        #expect(abs(x.x) < 1e-15 && abs(x.y - 1) < 1e-15 && origin == SIMD3(1, 2, 3))
        // 180° about x (Stray's camera turn): y and z flip.
        let flip = Matrix4x4(rotation: SIMD4(1, 0, 0, 0), translation: .zero)
        #expect(flip == Matrix4x4(columns: SIMD4(1, 0, 0, 0), SIMD4(0, -1, 0, 0), SIMD4(0, 0, -1, 0), SIMD4(0, 0, 0, 1)))
    }

    @Test func roundTripsThroughEveryBranch() {
        var random = SplitMix64(seed: 7)
        var worst = 0.0
        // Random rotations, and the near-180° ones that take the other branches.
        var quaternions = (0 ..< 200).map { _ in SIMD4((0 ..< 4).map { _ in random.unit() * 2 - 1 }) }
        quaternions += [SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0.7, 0.7, 0.1, 0.01), SIMD4(0.01, 0.2, 0.97, 0.02)]
        for raw in quaternions {
            var q = raw / (raw * raw).sum().squareRoot()
            if q.w < 0 { q = -q }
            let back = Matrix4x4(rotation: q, translation: .zero).rotationQuaternion
            let d = back - q
            worst = max(worst, abs(d.x), abs(d.y), abs(d.z), abs(d.w))
        }
        #expect(worst < 1e-12, "\(worst)")
    }
}
