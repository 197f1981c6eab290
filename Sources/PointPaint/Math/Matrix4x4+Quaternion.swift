import Foundation

extension Matrix4x4 {
    /// How far a recorded quaternion's length may be from 1 and still count as a rotation: apps
    /// print them with a few digits, so their lengths are off by about 1e-6, never by 1e-3.
    package static let quaternionTolerance = 1e-3

    /// The unit quaternion of `q` (x, y, z, w), normalised, when its length is within `tolerance`
    /// of 1; nil for any other length, a non-finite component included.
    package static func unitQuaternion(_ q: SIMD4<Double>, tolerance: Double = quaternionTolerance) -> SIMD4<Double>? {
        let length = (q * q).sum().squareRoot()
        guard length.isFinite, abs(length - 1) <= tolerance else { return nil }
        return q / length
    }

    /// The rigid transform that rotates by the unit quaternion `q` (vector part x, y, z, then
    /// the scalar w) and then moves by `translation`.
    package init(quaternion q: SIMD4<Double>, translation t: SIMD3<Double>) {
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        self.init(columns: SIMD4(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0),
                  SIMD4(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0),
                  SIMD4(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0),
                  SIMD4(t, 1))
    }

    /// The rotation of the upper 3 × 3 block (which must be a rotation) as a unit quaternion
    /// (x, y, z, w) with w ≥ 0.
    package var rotationQuaternion: SIMD4<Double> {
        let (m00, m11, m22) = (self[0, 0], self[1, 1], self[2, 2])
        let trace = m00 + m11 + m22
        var q: SIMD4<Double>
        // Shepperd's method: divide by the largest of the four candidates for accuracy.
        if trace > 0 {
            let s = 2 * (1 + trace).squareRoot()
            q = SIMD4((self[2, 1] - self[1, 2]) / s, (self[0, 2] - self[2, 0]) / s, (self[1, 0] - self[0, 1]) / s, s / 4)
        } else if m00 > m11 && m00 > m22 {
            let s = 2 * (1 + m00 - m11 - m22).squareRoot()
            q = SIMD4(s / 4, (self[0, 1] + self[1, 0]) / s, (self[0, 2] + self[2, 0]) / s, (self[2, 1] - self[1, 2]) / s)
        } else if m11 > m22 {
            let s = 2 * (1 + m11 - m00 - m22).squareRoot()
            q = SIMD4((self[0, 1] + self[1, 0]) / s, s / 4, (self[1, 2] + self[2, 1]) / s, (self[0, 2] - self[2, 0]) / s)
        } else {
            let s = 2 * (1 + m22 - m00 - m11).squareRoot()
            q = SIMD4((self[0, 2] + self[2, 0]) / s, (self[1, 2] + self[2, 1]) / s, s / 4, (self[1, 0] - self[0, 1]) / s)
        }
        if q.w < 0 { q = -q }
        return q / (q * q).sum().squareRoot()
    }
}
