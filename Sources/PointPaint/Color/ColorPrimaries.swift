/// The RGB primaries (and white point) a capture's R′G′B′ values refer to. All three use the
/// sRGB transfer curve in PointPaint captures, as Apple's Display P3 does.
public enum ColorPrimaries: String, Sendable, CaseIterable, Codable, Hashable {
    /// BT.709 / sRGB primaries, D65.
    case srgb
    /// Display P3: DCI-P3 primaries with a D65 white.
    case displayP3 = "display-p3"
    /// BT.2020 primaries, D65.
    case bt2020
}
