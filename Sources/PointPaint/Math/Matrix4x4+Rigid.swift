import Foundation

extension Matrix4x4 {
    /// How far a camera pose's rotation block may be from a rotation (the largest element of
    /// `RᵀR − I`, and of the last row's difference from 0 0 0 1) and still count as rigid: poses
    /// printed with 9 or more digits are off by about 1e-9; a scaled or sheared matrix by far
    /// more than 1e-6.
    public static let rigidTolerance = 1e-6

    /// The rigid transform that rotates by `angle` radians about the unit vector `axis` (right-
    /// handed, Rodrigues' formula) and then moves by `translation`.
    public init(axis: SIMD3<Double>, angle: Double, translation: SIMD3<Double> = .zero) {
        let (s, c) = (sin(angle), cos(angle))
        let t = 1 - c
        let (x, y, z) = (axis.x, axis.y, axis.z)
        self.init(columns: SIMD4(t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0),
                  SIMD4(t * x * y - s * z, t * y * y + c, t * y * z + s * x, 0),
                  SIMD4(t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0),
                  SIMD4(translation, 1))
    }

    /// The translation (the last column's first three elements).
    public var translation: SIMD3<Double> { SIMD3(columns.3.x, columns.3.y, columns.3.z) }

    /// How far this matrix is from a rigid transform: the largest element of `RᵀR − I` for its
    /// upper 3 × 3 block R, and of its last row less (0, 0, 0, 1); infinity when R is a reflection
    /// (determinant below 0) or an element is not finite.
    public var rigidError: Double {
        guard isFinite else { return .infinity }
        var error = 0.0
        for i in 0 ..< 3 {
            for j in 0 ..< 3 {
                var dot = 0.0
                for k in 0 ..< 3 { dot += self[k, i] * self[k, j] }
                error = max(error, abs(dot - (i == j ? 1 : 0)))
            }
        }
        for j in 0 ..< 4 { error = max(error, abs(self[3, j] - (j == 3 ? 1 : 0))) }
        let determinant = self[0, 0] * (self[1, 1] * self[2, 2] - self[1, 2] * self[2, 1])
            - self[0, 1] * (self[1, 0] * self[2, 2] - self[1, 2] * self[2, 0])
            + self[0, 2] * (self[1, 0] * self[2, 1] - self[1, 1] * self[2, 0])
        return determinant > 0 ? error : .infinity
    }

    /// The inverse of a rigid transform: the transposed rotation Rᵀ and the translation −Rᵀt.
    public var rigidInverse: Matrix4x4 {
        // Rᵀ's columns are R's rows; (Rᵀt)ᵢ is R's column i dotted with t.
        let c0 = SIMD3(columns.0.x, columns.0.y, columns.0.z), c1 = SIMD3(columns.1.x, columns.1.y, columns.1.z)
        let c2 = SIMD3(columns.2.x, columns.2.y, columns.2.z)
        let t = translation
        return Matrix4x4(columns: SIMD4(c0.x, c1.x, c2.x, 0), SIMD4(c0.y, c1.y, c2.y, 0), SIMD4(c0.z, c1.z, c2.z, 0),
                         SIMD4(-(c0 * t).sum(), -(c1 * t).sum(), -(c2 * t).sum(), 1))
    }

    /// The angle, in radians, of the rotation of this rigid transform (0 … π), exact for small
    /// angles too (from the sine and the cosine, not the cosine alone).
    public var rotationAngle: Double {
        let cosine = (self[0, 0] + self[1, 1] + self[2, 2] - 1) / 2
        let axis = SIMD3(self[2, 1] - self[1, 2], self[0, 2] - self[2, 0], self[1, 0] - self[0, 1])
        return atan2((axis * axis).sum().squareRoot() / 2, cosine)
    }
}
