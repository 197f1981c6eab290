/// The one clamp and the one 8-bit quantiser of PointPaint's colour paths.
///
/// Every float colour that becomes an 8-bit code (sampler `rgb8`, whole-frame float conversion,
/// the double-precision reference conversion, PNG cubes) goes through `byte(_:)`, so they all
/// round the same way: clamp to 0…1, scale by 255, round half away from zero.
///
/// Both are written with scalar `min`/`max` and comparisons, not the standard library's SIMD
/// `.clamped(lowerBound:upperBound:)` or `pointwiseMin`/`pointwiseMax`, which do not inline and
/// fall back to calls (docs/DESIGN.md, "Kernels and hot loops").
public enum ColorMath {
    /// Each channel clamped to 0…1; a NaN channel stays NaN.
    @inlinable @inline(__always)
    public static func clampedToUnit<F: BinaryFloatingPoint & SIMDScalar>(_ v: SIMD3<F>) -> SIMD3<F> {
        SIMD3(min(max(v.x, 0), 1), min(max(v.y, 0), 1), min(max(v.z, 0), 1))
    }

    /// The 8-bit code of one channel: clamped to 0…1 (NaN counts as 0), times 255, rounded half
    /// away from zero (`code(_:as:)`).
    @inlinable @inline(__always)
    public static func byte<F: BinaryFloatingPoint>(_ v: F) -> UInt8 {
        code(v, as: UInt8.self)
    }

    /// The code of one channel in `T`'s bits (8 or 16): clamped to 0…1 (NaN counts as 0), times
    /// `T.max`, rounded half away from zero. Exact: the rounding compares the fraction instead
    /// of adding ½ (which, in floating point, rounds up some values just below a half) and calls
    /// no libm function.
    @inlinable @inline(__always)
    public static func code<F: BinaryFloatingPoint, T: FixedWidthInteger & UnsignedInteger>(_ v: F, as _: T.Type) -> T {
        let t = (v > 0 ? min(v, 1) : 0) * F(T.max)
        let whole = T(t)  // t is within 0…T.max: truncation is floor
        return t - F(whole) >= 0.5 ? whole + 1 : whole
    }

    /// `byte(_:)` of each channel.
    @inlinable @inline(__always)
    public static func bytes<F: BinaryFloatingPoint & SIMDScalar>(_ v: SIMD3<F>) -> SIMD3<UInt8> {
        SIMD3(byte(v.x), byte(v.y), byte(v.z))
    }
}
