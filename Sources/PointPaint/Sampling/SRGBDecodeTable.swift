import Foundation

/// The sRGB transfer's decode (`SRGBTransfer.decode`, encoded → linear light) on 0…1 without a
/// `powf` per channel, for painting's observations: below the curve's threshold (0.04045) the
/// same division, above it one quadratic a 1/1024-wide interval, through the curve at the
/// interval's ends and middle (coefficients from the double-precision curve).
///
/// The quadratic's own error is below 1e-9 (the curve's third derivative on intervals this
/// narrow); evaluated in single precision it stays within a few units in the last place of the
/// float curve, far inside what accumulation in the store's fixed point (2⁻²⁴) and an 8-bit
/// output resolve. The bound is tested against `SRGBTransfer.decode`.
enum SRGBDecodeTable {
    /// Intervals across 0…1.
    static let intervals = 1024

    /// Per interval: the value at its start, and the linear and quadratic coefficients in the
    /// fraction t (0…1) across it; the fourth lane unused.
    static let coefficients: [SIMD4<Float>] = (0 ..< intervals).map { i in
        // The power segment itself, also below the threshold: the interval across it is read
        // only above it, where a fit to the kinked curve would be off.
        func curve(_ x: Double) -> Double { pow((x + 0.055) / 1.055, 2.4) }
        let n = Double(intervals)
        let f0 = curve(Double(i) / n), fm = curve((Double(i) + 0.5) / n), f1 = curve(Double(i + 1) / n)
        let c = 2 * (f0 - 2 * fm + f1)
        let b = f1 - f0 - c
        return SIMD4(Float(f0), Float(b), Float(c), 0)
    }

    /// The curve above the threshold, from the table: `coefficients` must be its buffer.
    @inline(__always)
    static func curve(_ a: Float, _ table: UnsafeBufferPointer<SIMD4<Float>>) -> Float {
        let x = a * Float(intervals)
        let i = min(Int(x), intervals - 1)
        let t = x - Float(i)
        let k = table[i]
        return k.x + t * (k.y + t * k.z)
    }

    /// Linear light of an encoded channel clamped to 0…1 (NaN stays NaN, as with the curve).
    @inline(__always)
    static func decode(_ v: Float, _ table: UnsafeBufferPointer<SIMD4<Float>>) -> Float {
        let a = min(max(v, 0), 1)
        return a <= 0.04045 ? a / 12.92 : a.isNaN ? a : curve(a, table)
    }

    /// Replaces each colour by the linear light of its channels clamped to 0…1: what
    /// `SampleColorPolicy.linearize` gives for a capture in sRGB primaries without a grade,
    /// within the table's error.
    static func linearize(_ colors: inout [SIMD3<Float>]) {
        coefficients.withUnsafeBufferPointer { table in
            colors.withUnsafeMutableBufferPointer { c in
                for i in c.indices {
                    let v = c[i]
                    c[i] = SIMD3(decode(v.x, table), decode(v.y, table), decode(v.z, table))
                }
            }
        }
    }
}
