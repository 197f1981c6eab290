/// Named tolerances for comparing computed colours and numbers, as libyuv's colour tests name
/// theirs (`ERROR_R`): each says what it allows and why, so a test reads as a claim.
enum Tolerance {
    /// 8-bit results against a double-precision reference: one level, the most that rounding a
    /// value the fast path computes within a fraction of a level can differ.
    static let levels = 1
    /// A figure the standard prints to 4 decimals (IEC 61966-2-1, ITU-R BT.2087).
    static let fourDecimals = 1e-4
    /// A figure printed to 7 decimals (CSS Color 4's P3 → sRGB matrix).
    static let sevenDecimals = 1e-6
    /// Single precision against double for values of order 1: about 16 ulps of a `Float`.
    static let single = 2e-6
    /// `Float` lattice arithmetic (cube lookups, compositions, strengths) on values in 0…1.
    static let lattice: Float = 1e-6
    /// `Float` arithmetic that chains two lattices (a composition looked up again).
    static let chainedLattice: Float = 1e-5
    /// A double-precision computation of a few operations on values of order 1.
    static let double = 1e-12
    /// A double-precision product that should give exact values (a matrix times its inverse).
    static let doubleExact = 1e-14
}

/// Whether `a` and `b` differ by at most `tolerance`.
func isApproximatelyEqual<F: BinaryFloatingPoint>(_ a: F, _ b: F, tolerance: F) -> Bool {
    abs(a - b) <= tolerance
}

/// Whether every channel of `a` is within `tolerance` of the same channel of `b`.
func isApproximatelyEqual<F: BinaryFloatingPoint & SIMDScalar>(_ a: SIMD3<F>, _ b: SIMD3<F>, tolerance: F) -> Bool {
    maximumDifference(a, b) <= tolerance
}

/// The largest difference between a channel of `a` and the same channel of `b` (infinity when
/// either holds a NaN, so no tolerance accepts it).
func maximumDifference<F: BinaryFloatingPoint & SIMDScalar>(_ a: SIMD3<F>, _ b: SIMD3<F>) -> F {
    let d = a - b
    if d.x.isNaN || d.y.isNaN || d.z.isNaN { return .infinity }
    return max(abs(d.x), abs(d.y), abs(d.z))
}
