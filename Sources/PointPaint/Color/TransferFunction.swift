import Foundation

/// The sRGB transfer curve (IEC 61966-2-1), used by sRGB, Display P3 and PointPaint's BT.2020
/// captures alike, extended to all reals by mirroring through zero, as Apple's extended sRGB
/// spaces do, so wide-colour values survive a round trip.
public enum SRGBTransfer {
    /// Encoded R′G′B′ → linear light.
    @inlinable
    public static func decode(_ v: Double) -> Double {
        let a = abs(v)
        let linear = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4)
        return v < 0 ? -linear : linear
    }

    /// Linear light → encoded R′G′B′.
    @inlinable
    public static func encode(_ v: Double) -> Double {
        let a = abs(v)
        let encoded = a <= 0.0031308 ? a * 12.92 : 1.055 * pow(a, 1 / 2.4) - 0.055
        return v < 0 ? -encoded : encoded
    }

    /// Encoded → linear, per channel.
    @inlinable
    public static func decode(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(decode(v.x), decode(v.y), decode(v.z)) }

    /// Linear → encoded, per channel.
    @inlinable
    public static func encode(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(encode(v.x), encode(v.y), encode(v.z)) }

    /// Encoded → linear in single precision.
    @inlinable
    public static func decode(_ v: Float) -> Float {
        let a = abs(v)
        let linear = a <= 0.04045 ? a / 12.92 : powf((a + 0.055) / 1.055, 2.4)
        return v < 0 ? -linear : linear
    }

    /// Linear → encoded in single precision.
    @inlinable
    public static func encode(_ v: Float) -> Float {
        let a = abs(v)
        let encoded = a <= 0.0031308 ? a * 12.92 : 1.055 * powf(a, 1 / 2.4) - 0.055
        return v < 0 ? -encoded : encoded
    }

    /// Encoded → linear, per channel, single precision.
    @inlinable
    public static func decode(_ v: SIMD3<Float>) -> SIMD3<Float> { SIMD3(decode(v.x), decode(v.y), decode(v.z)) }

    /// Linear → encoded, per channel, single precision.
    @inlinable
    public static func encode(_ v: SIMD3<Float>) -> SIMD3<Float> { SIMD3(encode(v.x), encode(v.y), encode(v.z)) }

    /// Linear light of each 8-bit encoded code, for fast decoding of 8-bit samples.
    public static let linearOf8Bit: [Float] = (0 ..< 256).map { Float(decode(Double($0) / 255)) }
}
