/// The viewer's background colours, in the order the `B` key cycles through them; the raw values
/// are what `--background` takes.
public enum Background: String, Sendable, CaseIterable {
    /// Dark blue-grey, the default.
    case dark
    /// Black.
    case black
    /// White.
    case white
    /// Mid grey.
    case grey

    /// The colour (encoded sRGB, 0…1).
    public var rgb: SIMD3<Float> {
        switch self {
        case .dark: SIMD3(0.11, 0.11, 0.13)
        case .black: SIMD3(0, 0, 0)
        case .white: SIMD3(1, 1, 1)
        case .grey: SIMD3(0.5, 0.5, 0.5)
        }
    }
}
