/// CIE 1931 xy chromaticities of a colour space's primaries and white point.
public struct Chromaticities: Sendable, Hashable {
    /// Red primary (x, y).
    public var red: SIMD2<Double>
    /// Green primary (x, y).
    public var green: SIMD2<Double>
    /// Blue primary (x, y).
    public var blue: SIMD2<Double>
    /// White point (x, y).
    public var white: SIMD2<Double>

    /// Creates a set of chromaticities.
    public init(red: SIMD2<Double>, green: SIMD2<Double>, blue: SIMD2<Double>, white: SIMD2<Double>) {
        self.red = red
        self.green = green
        self.blue = blue
        self.white = white
    }

    /// CIE standard illuminant D65 as the 4-digit xy that sRGB, Display P3 and BT.2020 all specify
    /// (IEC 61966-2-1, SMPTE EG 432-1, ITU-R BT.2020).
    public static let d65 = SIMD2<Double>(0.3127, 0.3290)

    /// The normalised primary matrix: linear RGB → CIE XYZ, with RGB (1, 1, 1) mapping to the white
    /// point at Y = 1 (SMPTE RP 177).
    ///
    /// Each primary's XYZ is (x/y, 1, (1 − x − y)/y) scaled by a factor chosen so the three sum to
    /// the white's XYZ; the factors solve `P · s = W`.
    public var rgbToXYZ: ColorMatrix {
        func xyz(_ c: SIMD2<Double>) -> SIMD3<Double> { SIMD3(c.x / c.y, 1, (1 - c.x - c.y) / c.y) }
        let p = ColorMatrix(columns: xyz(red), xyz(green), xyz(blue))
        // The primaries are never collinear for a real colour space, so `p` is invertible.
        let s = p.inverse! * xyz(white)
        return ColorMatrix(columns: xyz(red) * s.x, xyz(green) * s.y, xyz(blue) * s.z)
    }
}

extension ColorPrimaries {
    /// The xy chromaticities of the primaries and white point, exactly as the standards give them.
    public var chromaticities: Chromaticities {
        switch self {
        case .srgb:
            // ITU-R BT.709 / IEC 61966-2-1.
            Chromaticities(red: SIMD2(0.640, 0.330), green: SIMD2(0.300, 0.600), blue: SIMD2(0.150, 0.060),
                           white: Chromaticities.d65)
        case .displayP3:
            // SMPTE EG 432-1 (DCI-P3 primaries) with the D65 white.
            Chromaticities(red: SIMD2(0.680, 0.320), green: SIMD2(0.265, 0.690), blue: SIMD2(0.150, 0.060),
                           white: Chromaticities.d65)
        case .bt2020:
            // ITU-R BT.2020.
            Chromaticities(red: SIMD2(0.708, 0.292), green: SIMD2(0.170, 0.797), blue: SIMD2(0.131, 0.046),
                           white: Chromaticities.d65)
        }
    }

    /// Linear RGB in these primaries → CIE XYZ (Y = 1 for white), derived from the chromaticities.
    public var rgbToXYZ: ColorMatrix { chromaticities.rgbToXYZ }

    /// The linear-light matrix taking RGB in these primaries to RGB in `destination`'s primaries.
    ///
    /// All three spaces share the D65 white, so no chromatic adaptation is involved and each row
    /// sums to 1 (white stays white). Computed in double precision from the xy chromaticities.
    public func matrix(to destination: ColorPrimaries) -> ColorMatrix {
        if destination == self { return .identity }
        // The destination's normalised primary matrix is invertible (see `rgbToXYZ`).
        return destination.rgbToXYZ.inverse! * rgbToXYZ
    }
}
