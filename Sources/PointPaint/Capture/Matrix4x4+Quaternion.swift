extension Matrix4x4 {
    /// The rigid transform that rotates by the unit quaternion `q` (x, y, z, w: vector part,
    /// then scalar part, Hamilton's convention as `simd_quatf` holds it) and then moves by
    /// `translation`. `q` is used as given: normalise it first.
    package init(rotation q: SIMD4<Double>, translation: SIMD3<Double>) {
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        self.init(columns: SIMD4(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0),
                  SIMD4(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0),
                  SIMD4(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0),
                  SIMD4(translation, 1))
    }

    /// The unit quaternion (x, y, z, w) of the rotation in the upper-left 3 × 3 block, which must
    /// be a rotation (orthonormal, determinant 1); the sign with w ≥ 0.
    package var rotationQuaternion: SIMD4<Double> {
        let m = self
        let trace = m[0, 0] + m[1, 1] + m[2, 2]
        var q: SIMD4<Double>
        // Divide by the largest of the four candidates (Shepperd's method), so nothing cancels.
        if trace > 0 {
            let s = 2 * (trace + 1).squareRoot()
            q = SIMD4((m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4)
        } else if m[0, 0] > m[1, 1] && m[0, 0] > m[2, 2] {
            let s = 2 * (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot()
            q = SIMD4(s / 4, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s, (m[2, 1] - m[1, 2]) / s)
        } else if m[1, 1] > m[2, 2] {
            let s = 2 * (1 + m[1, 1] - m[0, 0] - m[2, 2]).squareRoot()
            q = SIMD4((m[0, 1] + m[1, 0]) / s, s / 4, (m[1, 2] + m[2, 1]) / s, (m[0, 2] - m[2, 0]) / s)
        } else {
            let s = 2 * (1 + m[2, 2] - m[0, 0] - m[1, 1]).squareRoot()
            q = SIMD4((m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, s / 4, (m[1, 0] - m[0, 1]) / s)
        }
        if q.w < 0 { q = -q }
        return q / (q * q).sum().squareRoot()
    }
}
