import Foundation

/// The sRGB transfer curve (IEC 61966-2-1), used by sRGB, Display P3 and PointPaint's BT.2020
/// captures alike, extended to all reals by mirroring through zero, as Apple's extended sRGB
/// spaces do, so wide-colour values survive a round trip.
public enum SRGBTransfer {
    /// Encoded R′G′B′ → linear light.
    @inlinable
    public static func decode(_ v: Double) -> Double { decoded(v) }

    /// Linear light → encoded R′G′B′.
    @inlinable
    public static func encode(_ v: Double) -> Double { encoded(v) }

    /// Encoded → linear in single precision.
    @inlinable
    public static func decode(_ v: Float) -> Float { decoded(v) }

    /// Linear → encoded in single precision.
    @inlinable
    public static func encode(_ v: Float) -> Float { encoded(v) }

    /// Encoded → linear, per channel.
    @inlinable
    public static func decode(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(decoded(v.x), decoded(v.y), decoded(v.z)) }

    /// Linear → encoded, per channel.
    @inlinable
    public static func encode(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(encoded(v.x), encoded(v.y), encoded(v.z)) }

    /// Encoded → linear, per channel, single precision.
    @inlinable
    public static func decode(_ v: SIMD3<Float>) -> SIMD3<Float> { SIMD3(decoded(v.x), decoded(v.y), decoded(v.z)) }

    /// Linear → encoded, per channel, single precision.
    @inlinable
    public static func encode(_ v: SIMD3<Float>) -> SIMD3<Float> { SIMD3(encoded(v.x), encoded(v.y), encoded(v.z)) }

    /// Linear light of each 8-bit encoded code, for fast decoding of 8-bit samples.
    public static let linearOf8Bit: [Float] = (0 ..< 256).map { Float(decode(Double($0) / 255)) }

    /// The curve's one body for both precisions (constants in the value's own precision, `pow`
    /// or `powf`).
    @inlinable @inline(__always)
    static func decoded<F: TransferScalar>(_ v: F) -> F {
        let a = abs(v)
        let linear = a <= 0.04045 ? a / 12.92 : F.power((a + 0.055) / 1.055, 2.4)
        return v < 0 ? -linear : linear
    }

    /// Linear → encoded, one body for both precisions.
    @inlinable @inline(__always)
    static func encoded<F: TransferScalar>(_ v: F) -> F {
        let a = abs(v)
        let encoded = a <= 0.0031308 ? a * 12.92 : 1.055 * F.power(a, 1 / 2.4) - 0.055
        return v < 0 ? -encoded : encoded
    }
}

/// `Float` and `Double`, with the C library's power function of their precision.
@usableFromInline
protocol TransferScalar: BinaryFloatingPoint {
    /// `x` to the power `y`: `powf` or `pow`.
    static func power(_ x: Self, _ y: Self) -> Self
}

extension Float: TransferScalar {
    @inlinable @inline(__always)
    static func power(_ x: Float, _ y: Float) -> Float { powf(x, y) }
}

extension Double: TransferScalar {
    @inlinable @inline(__always)
    static func power(_ x: Double, _ y: Double) -> Double { pow(x, y) }
}
