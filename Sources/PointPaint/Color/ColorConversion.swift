/// Converts R′G′B′ from one set of primaries to another, in linear light, without clamping.
///
/// Every PointPaint colour space uses the sRGB transfer curve, mirrored through zero for negative
/// values (`SRGBTransfer`), so a conversion is: decode, multiply by the exact linear matrix, encode.
/// Converting to `.srgb` gives *extended* sRGB: colours an sRGB display cannot show come out below
/// 0 or above 1 in some channel, and survive a round trip back.
///
/// ```swift
/// let toSRGB = ColorConversion(from: .displayP3, to: .srgb)
/// let rgb = toSRGB.encoded(SIMD3<Double>(1, 0, 0))   // ≈ (1.093, -0.2267, -0.1501)
/// ColorGamut.isInsideSRGB(rgb)                // false
/// ```
public struct ColorConversion: Sendable, Hashable {
    /// The primaries of the input values.
    public let source: ColorPrimaries
    /// The primaries of the output values.
    public let destination: ColorPrimaries
    /// Linear source RGB → linear destination RGB.
    public let matrix: ColorMatrix
    /// `matrix` in single precision, as rows.
    @usableFromInline let floatRow0: SIMD3<Float>
    /// Second row of `matrix` in single precision.
    @usableFromInline let floatRow1: SIMD3<Float>
    /// Third row of `matrix` in single precision.
    @usableFromInline let floatRow2: SIMD3<Float>

    /// A conversion from `source` primaries to `destination` primaries (sRGB unless given).
    public init(from source: ColorPrimaries, to destination: ColorPrimaries = .srgb) {
        self.source = source
        self.destination = destination
        matrix = source.matrix(to: destination)
        (floatRow0, floatRow1, floatRow2) = matrix.floatRows
    }

    /// Whether the conversion leaves every value unchanged (same primaries).
    public var isIdentity: Bool { source == destination }

    /// Linear source RGB → linear destination RGB (unclamped).
    @inlinable
    public func linear(fromLinear rgb: SIMD3<Double>) -> SIMD3<Double> {
        matrix * rgb
    }

    /// Encoded source R′G′B′ → linear destination RGB (unclamped).
    @inlinable
    public func linear(_ encoded: SIMD3<Double>) -> SIMD3<Double> {
        matrix * SRGBTransfer.decode(encoded)
    }

    /// Encoded source R′G′B′ → encoded destination R′G′B′ (unclamped, mirrored curve).
    @inlinable
    public func encoded(_ encoded: SIMD3<Double>) -> SIMD3<Double> {
        isIdentity ? encoded : SRGBTransfer.encode(linear(encoded))
    }

    /// Encoded source R′G′B′ → linear destination RGB, single precision.
    @inlinable
    public func linear(_ encoded: SIMD3<Float>) -> SIMD3<Float> {
        let l = SRGBTransfer.decode(encoded)
        return SIMD3((floatRow0 * l).sum(), (floatRow1 * l).sum(), (floatRow2 * l).sum())
    }

    /// Encoded source R′G′B′ → encoded destination R′G′B′, single precision.
    @inlinable
    public func encoded(_ encoded: SIMD3<Float>) -> SIMD3<Float> {
        isIdentity ? encoded : SRGBTransfer.encode(linear(encoded))
    }

    /// Both forms of one converted colour: `(encoded, linear)` in the destination primaries.
    @inlinable
    public func convert(_ encoded: SIMD3<Double>) -> (encoded: SIMD3<Double>, linear: SIMD3<Double>) {
        let l = isIdentity ? SRGBTransfer.decode(encoded) : linear(encoded)
        return (isIdentity ? encoded : SRGBTransfer.encode(l), l)
    }
}

extension ColorPrimaries {
    /// Encoded R′G′B′ in these primaries → extended (unclamped) sRGB, encoded and linear.
    ///
    /// Channels outside 0…1 in the result are colours outside the sRGB gamut
    /// (see `ColorGamut.isInsideSRGB`).
    package func extendedSRGB(fromEncoded rgb: SIMD3<Double>) -> (encoded: SIMD3<Double>, linear: SIMD3<Double>) {
        ColorConversion(from: self, to: .srgb).convert(rgb)
    }

    /// Encoded sRGB R′G′B′ → encoded R′G′B′ in these primaries (e.g. Display P3 output), unclamped.
    package func encoded(fromSRGB rgb: SIMD3<Double>) -> SIMD3<Double> {
        ColorConversion(from: .srgb, to: self).encoded(rgb)
    }
}

/// Gamut tests for RGB triples (the clamp is `ColorMath.clampedToUnit`).
public enum ColorGamut {
    /// The slack allowed outside 0…1 before a value counts as out of gamut: 1/65536, far below one
    /// 16-bit code, so rounding in a conversion of an in-gamut colour never flags it.
    public static let defaultTolerance = 1.0 / 65536

    /// Whether every channel lies within [−tolerance, 1 + tolerance] (NaN is outside).
    ///
    /// Works on encoded or linear values alike: the sRGB curve maps 0…1 onto 0…1 and keeps signs.
    @inlinable
    public static func isInsideSRGB<F: BinaryFloatingPoint & SIMDScalar>(_ rgb: SIMD3<F>,
                                                                         tolerance: F = F(defaultTolerance)) -> Bool {
        rgb.x >= -tolerance && rgb.y >= -tolerance && rgb.z >= -tolerance
            && rgb.x <= 1 + tolerance && rgb.y <= 1 + tolerance && rgb.z <= 1 + tolerance
    }
}
