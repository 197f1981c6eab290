/// Linear colour channels as whole multiples of 2⁻²⁴ (`scale`): the 40.24 fixed point in which a
/// `SceneStore` sums a `mean` and painting sums its observations, so sums are exact integers and
/// do not depend on the order of the samples.
///
/// A channel is clamped to ±64 first (±4096 for a square), NaN counted as 0. One sample then adds
/// at most 2³⁰ in magnitude (2³⁶ for a square) to a 64-bit sum, and sums stay within what a store
/// file's reader accepts.
///
/// Two roundings, each fixed by files already written:
/// - `truncated`: toward zero, the store's samples (`SceneStore`, "Accumulation");
/// - `rounded`, `roundedSquare`: to the nearest, halves away from zero, painting's observations
///   (`PaintAccumulator`).
enum FixedPointColor {
    /// One unit of a sum is 1 / `scale` (2⁻²⁴).
    static let scale: Double = 16_777_216

    /// The greatest magnitude of a channel (linear light) before it is scaled.
    static let channelLimit: Float = 64

    /// `channelLimit` and its square, scaled: 64 · 2²⁴ and 4096 · 2²⁴ (literals, so that they
    /// are constants in the loops that use them rather than lazily initialised globals).
    static let scaledLimit: Double = 1_073_741_824, scaledSquareLimit: Double = 68_719_476_736

    /// A store's sample: each channel rounded toward zero. In `Float`, where scaling by 2²⁴ is
    /// exact (or overflows to an infinity, which the clamp takes to the limit).
    @inline(__always)
    static func truncated(_ c: SIMD3<Float>) -> SIMD3<Int64> {
        let scaled = c * Float(scale), limit = Float(scaledLimit)
        return SIMD3(truncatedCode(scaled.x, limit: limit), truncatedCode(scaled.y, limit: limit),
                     truncatedCode(scaled.z, limit: limit))
    }

    /// `v` rounded toward zero within ±`limit`, NaN as 0. A value within the limits, the store's
    /// common case, takes one comparison: with `roundedCode`'s branch-free clamp (a NaN test, a
    /// minimum and a maximum) adding samples ran about 9 % more instructions.
    @inline(__always)
    static func truncatedCode(_ v: Float, limit: Float) -> Int64 {
        if abs(v) <= limit { return Int64(v) }
        return v.isNaN ? 0 : v > 0 ? Int64(limit) : -Int64(limit)
    }

    /// A painted observation: each channel rounded to the nearest code, halves away from zero.
    @inline(__always)
    static func rounded(_ c: SIMD3<Float>) -> SIMD3<Int64> {
        let scaled = SIMD3<Double>(c) * scale
        return SIMD3(roundedCode(scaled.x, limit: scaledLimit), roundedCode(scaled.y, limit: scaledLimit),
                     roundedCode(scaled.z, limit: scaledLimit))
    }

    /// The square of a painted observation, channel-wise, rounded as `rounded` (within ±4096).
    @inline(__always)
    static func roundedSquare(_ c: SIMD3<Float>) -> SIMD3<Int64> {
        let scaled = SIMD3<Double>(c * c) * scale
        return SIMD3(roundedCode(scaled.x, limit: scaledSquareLimit), roundedCode(scaled.y, limit: scaledSquareLimit),
                     roundedCode(scaled.z, limit: scaledSquareLimit))
    }

    /// `v` rounded to the nearest integer, halves away from zero, within ±`limit` (a whole number
    /// below 2⁵³; NaN as 0): `Int64(max(min(v.rounded(), limit), -limit))` without the libm call
    /// (baseline x86-64 has no rounding instruction). Clamping first is the same (rounding is
    /// monotonic and the limit a whole number); truncation and the exact remainder then round,
    /// without branches (the remainder's side is as good as random, so a branch on it
    /// mispredicts half the time).
    @inline(__always)
    static func roundedCode(_ v: Double, limit: Double) -> Int64 {
        let c = v.isNaN ? 0 : max(min(v, limit), -limit)
        let t = Int64(c)
        let r = c - Double(t)  // exact: |t| < 2⁵³
        return t &+ Int64(r >= 0.5 ? 1 : 0) &- Int64(r <= -0.5 ? 1 : 0)
    }
}
