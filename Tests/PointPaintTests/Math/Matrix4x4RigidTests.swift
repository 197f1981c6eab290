import Foundation
import Testing
@testable import PointPaint

/// Rigid transforms: Rodrigues' rotation agrees with the quaternion one, the rigid inverse is the
/// inverse, the rotation angle is exact down to tiny angles, and anything not rigid is measured so.
@Suite struct Matrix4x4RigidTests {
    @Test func axisAngleEqualsTheQuaternionOfTheSameRotation() {
        let axis = SIMD3(0.2, -0.5, 0.84).normalizedForTest, angle = 0.7
        let m = Matrix4x4(axis: axis, angle: angle, translation: SIMD3(1, 2, 3))
        let q = SIMD4(axis * sin(angle / 2), cos(angle / 2))
        let reference = Matrix4x4(quaternion: q, translation: SIMD3(1, 2, 3))
        #expect(zip(m.columnMajor, reference.columnMajor).allSatisfy { abs($0 - $1) < 1e-15 })
        #expect(abs(m.rotationAngle - angle) < 1e-15 && m.rigidError < 1e-15)
        let product = m * m.rigidInverse
        #expect(zip(product.columnMajor, Matrix4x4.identity.columnMajor).allSatisfy { abs($0 - $1) < 4e-15 })
    }

    @Test func theAngleOfATinyRotationKeepsItsDigits() {
        let m = Matrix4x4(axis: SIMD3(0, 0, 1), angle: 1e-9)
        #expect(abs(m.rotationAngle - 1e-9) < 1e-22)
    }

    @Test func scaledShearedReflectedAndNonFiniteMatricesAreNotRigid() {
        var scaled = Matrix4x4.identity
        scaled.columns.1 *= 1.001
        var sheared = Matrix4x4.identity
        sheared.columns.1.x = 0.01
        var reflected = Matrix4x4.identity
        reflected.columns.2 = -reflected.columns.2
        var projective = Matrix4x4.identity
        projective.columns.0.w = 0.5
        var broken = Matrix4x4.identity
        broken.columns.3.x = .nan
        #expect(abs(scaled.rigidError - 0.002001) < 1e-9)
        #expect(sheared.rigidError > 1e-3 && projective.rigidError == 0.5)
        #expect(reflected.rigidError == .infinity && broken.rigidError == .infinity)
    }
}

private extension SIMD3<Double> {
    var normalizedForTest: SIMD3<Double> { self / (self * self).sum().squareRoot() }
}
