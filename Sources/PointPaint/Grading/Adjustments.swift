import Foundation

/// The four basic adjustments, each 0 when neutral and meant for −1…1 (larger magnitudes are
/// allowed and exaggerate). Applied in this order: temperature and saturation in linear light,
/// then contrast and brightness on encoded values; the result is clamped to 0…1.
public struct Adjustments: Sendable, Hashable, Codable {
    /// Brightness as a gamma curve that keeps black and white: the encoded value is raised to
    /// `2^(−brightness)`, so +1 is a gamma of 0.5 (brighter) and −1 a gamma of 2.
    public var brightness: Double
    /// Contrast about mid grey on encoded values: `0.5 + (v − 0.5)·(1 + contrast)`; −1 is flat grey,
    /// +1 doubles the slope.
    public var contrast: Double
    /// Colour temperature as white-balance gains in linear light: red × (1 + 0.2·t), blue ×
    /// (1 − 0.2·t), normalised so white keeps its luminance; positive is warmer.
    public var temperature: Double
    /// Saturation about the luminance in linear light: `Y + (c − Y)·(1 + saturation)`; −1 is
    /// black and white, +1 doubles the colourfulness.
    public var saturation: Double

    /// Creates a set of adjustments; every one defaults to neutral.
    public init(brightness: Double = 0, contrast: Double = 0, temperature: Double = 0, saturation: Double = 0) {
        self.brightness = brightness
        self.contrast = contrast
        self.temperature = temperature
        self.saturation = saturation
    }

    /// No adjustment.
    public static let neutral = Adjustments()

    /// Whether every adjustment is 0.
    public var isNeutral: Bool { self == .neutral }

    /// The adjustments applied to one encoded sRGB colour (result clamped to 0…1).
    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        var v = ColorMath.clampedToUnit(rgb)
        if temperature != 0 || saturation != 0 {
            var linear = SRGBTransfer.decode(v)
            if temperature != 0 {
                // 0.2 per unit: about the red/blue shift between 5000 K and 6500 K white balance.
                let gains = SIMD3(1 + 0.2 * temperature, 1, 1 - 0.2 * temperature)
                linear *= gains / GradingMath.luminance(gains)
                linear = SIMD3(max(linear.x, 0), linear.y, max(linear.z, 0))
            }
            if saturation != 0 {
                let y = GradingMath.luminance(linear)
                linear = SIMD3(repeating: y) + (linear - SIMD3(repeating: y)) * (1 + saturation)
            }
            v = SRGBTransfer.encode(ColorMath.clampedToUnit(linear))
        }
        if contrast != 0 {
            v = ColorMath.clampedToUnit(SIMD3(repeating: 0.5) + (v - SIMD3(repeating: 0.5)) * (1 + contrast))
        }
        if brightness != 0 {
            let exponent = pow(2, -brightness)
            v = SIMD3(pow(v.x, exponent), pow(v.y, exponent), pow(v.z, exponent))
        }
        return ColorMath.clampedToUnit(v)
    }

    /// The adjustments as a cube of `size` points per axis.
    public func cube(size: Int = Grade.defaultCubeSize) -> ColorCube {
        ColorCube(size: size) { apply($0) }
    }
}
