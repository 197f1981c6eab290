import Foundation
import Testing
@testable import PointPaint

/// Quaternions (x, y, z, w) as the capture apps record rotations, to and from matrices.
@Suite struct Matrix4x4QuaternionTests {
    static func close(_ a: Matrix4x4, _ b: Matrix4x4, _ tolerance: Double = 1e-12) -> Bool {
        zip(a.columnMajor, b.columnMajor).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test func aQuarterTurnAboutZ() {
        let s = 0.5.squareRoot()
        let m = Matrix4x4(quaternion: SIMD4(0, 0, s, s), translation: SIMD3(1, 2, 3))
        // x turns into y, y into −x; the translation is the last column.
        let expected = Matrix4x4(columns: SIMD4(0, 1, 0, 0), SIMD4(-1, 0, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(1, 2, 3, 1))
        #expect(Self.close(m, expected))
        #expect(Self.close(Matrix4x4(quaternion: m.rotationQuaternion, translation: SIMD3(1, 2, 3)), m))
    }

    @Test func matricesAndQuaternionsRoundTrip() {
        var random = SplitMix64(seed: 12)
        // Random rotations, and half turns about each axis (each branch of the conversion).
        var quaternions: [SIMD4<Double>] = [SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)]
        for _ in 0 ..< 200 {
            let q = SIMD4(random.gaussian(), random.gaussian(), random.gaussian(), random.gaussian())
            quaternions.append(q / (q * q).sum().squareRoot())
        }
        for q in quaternions {
            let m = Matrix4x4(quaternion: q, translation: SIMD3(0.5, -1, 2))
            let back = m.rotationQuaternion
            // q and −q are the same rotation; the conversion gives the one with w ≥ 0.
            func distance(_ a: SIMD4<Double>) -> Double { ((back - a) * (back - a)).sum().squareRoot() }
            #expect(back.w >= 0 && min(distance(q), distance(-q)) < 1e-12, "\(q) → \(back)")
            #expect(Self.close(Matrix4x4(quaternion: back, translation: SIMD3(0.5, -1, 2)), m), "\(q)")
        }
    }

    @Test func onlyQuaternionsOfUnitLengthAreRotations() throws {
        let q = SIMD4(0.1, 0.2, 0.3, 0.9)
        let unit = q / (q * q).sum().squareRoot()
        #expect(Matrix4x4.unitQuaternion(unit) == unit)
        let near = try #require(Matrix4x4.unitQuaternion(unit * 1.0009))
        #expect(((near - unit) * (near - unit)).sum().squareRoot() < 1e-15)
        #expect(Matrix4x4.unitQuaternion(unit * 1.0011) == nil)
        #expect(Matrix4x4.unitQuaternion(unit * 0.998) == nil)
        #expect(Matrix4x4.unitQuaternion(SIMD4(.nan, 0, 0, 1)) == nil)
        #expect(Matrix4x4.unitQuaternion(SIMD4(.infinity, 0, 0, 1)) == nil)
        #expect(Matrix4x4.unitQuaternion(.zero) == nil)
    }
}
