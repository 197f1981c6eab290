import Foundation

/// Built-in looks, each a colour transform on encoded sRGB that is sampled into a `ColorCube`.
///
/// Raw values are the names used on the command line (`--look noir`); `allCases` is the order a
/// viewer cycles through.
public enum Look: String, Sendable, CaseIterable, Codable, Hashable {
    /// No change.
    case natural
    /// High-contrast black and white: luminance through a steep S-curve that crushes the deepest
    /// shadows and clips the brightest highlights.
    case noir
    /// Black and white through a deep red filter (like a Wratten 25 on panchromatic film): reds
    /// render light, blue skies and foliage dark.
    case redFilter = "red-filter"
    /// "Black hot" thermal-style infrared: inverted black and white with extra contrast, so the
    /// brightest (hottest-looking) things render black.
    case infrared
    /// Cyanotype print: luminance mapped from deep Prussian blue through cyan-blue to paper white.
    case cyanotype
    /// Night-vision goggles: luminance lifted and shown in phosphor green, highlights blooming
    /// towards white.
    case nightVision = "night-vision"

    /// A one-line description for help text and overlays.
    public var summary: String {
        switch self {
        case .natural: "no change"
        case .noir: "high-contrast black and white"
        case .redFilter: "black and white through a deep red filter"
        case .infrared: "hot-black infrared (inverted black and white)"
        case .cyanotype: "cyanotype blue print"
        case .nightVision: "night-vision green phosphor"
        }
    }

    /// The look applied to one encoded sRGB colour (inputs 0…1; outputs 0…1).
    public func apply(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        let linear = SRGBTransfer.decode(ColorMath.clampedToUnit(rgb))
        switch self {
        case .natural:
            return rgb
        case .noir:
            let y = SRGBTransfer.encode(GradingMath.luminance(linear))
            // Black below 0.08 and white above 0.92, a steep smooth curve between.
            return SIMD3(repeating: GradingMath.smoothstep(0.08, 0.92, y))
        case .redFilter:
            // A deep red filter passes mostly the red record, a little green, no blue.
            let y = SRGBTransfer.encode((linear * SIMD3(0.85, 0.15, 0)).sum())
            return SIMD3(repeating: GradingMath.smoothstep(0.03, 0.97, y))
        case .infrared:
            // Red-heavy weighting (warm surfaces read hot), inverted, with a gentle S-curve.
            let y = SRGBTransfer.encode((linear * SIMD3(0.5, 0.4, 0.1)).sum())
            return SIMD3(repeating: 1 - GradingMath.smoothstep(0.05, 0.95, y))
        case .cyanotype:
            let y = SRGBTransfer.encode(GradingMath.luminance(linear))
            // Encoded colours of the print: Prussian blue shadows, cyan-blue mid-tones, paper white.
            let shadow = SIMD3(0.02, 0.11, 0.25), mid = SIMD3(0.13, 0.40, 0.63), paper = SIMD3(0.90, 0.95, 0.97)
            return y < 0.5 ? shadow + (mid - shadow) * (y * 2) : mid + (paper - mid) * ((y - 0.5) * 2)
        case .nightVision:
            let y = SRGBTransfer.encode(GradingMath.luminance(linear))
            // Image-intensifier gain: shadows lifted (gamma 0.7) and 15 % more output, clipped.
            let v = min(1.15 * pow(y, 0.7), 1)
            // P43-like phosphor green, blending towards white in the top highlights.
            let phosphor = SIMD3(0.30, 1.0, 0.25) * v
            return phosphor + (SIMD3(repeating: v) - phosphor) * pow(v, 4) * 0.6
        }
    }

    /// The look as a cube of `size` points per axis.
    public func cube(size: Int = Grade.defaultCubeSize) -> ColorCube {
        ColorCube(size: size) { apply($0) }
    }
}

/// Shared helpers for looks and adjustments.
enum GradingMath {
    /// Relative-luminance weights of linear sRGB: the Y row of the sRGB → XYZ matrix derived from
    /// the BT.709 primaries and D65 (≈ 0.2126, 0.7152, 0.0722).
    static let luminanceWeights: SIMD3<Double> = ColorPrimaries.srgb.rgbToXYZ.row1

    /// Relative luminance of linear sRGB.
    @inline(__always)
    static func luminance(_ linear: SIMD3<Double>) -> Double { (linear * luminanceWeights).sum() }

    /// Hermite step from 0 at `e0` to 1 at `e1`, clamped outside.
    @inline(__always)
    static func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double {
        let t = min(max((x - e0) / (e1 - e0), 0), 1)
        return t * t * (3 - 2 * t)
    }
}
