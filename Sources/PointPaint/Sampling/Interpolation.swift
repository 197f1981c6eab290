/// How a sampler reads between texels.
public enum Interpolation: String, Sendable, CaseIterable, Hashable {
    /// The texel of each plane that covers the point.
    case nearest
    /// Y and CbCr each interpolated from their four nearest texels, then the matrix applied.
    case bilinear
}
