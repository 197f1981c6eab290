/// The colour space a sampler delivers.
public enum SampleSpace: String, Sendable, CaseIterable, Hashable {
    /// R′G′B′ in the capture's own primaries, as decoded from Y′CbCr (unclamped).
    case capture
    /// Linear light in the capture's own primaries (unclamped).
    case captureLinear = "capture-linear"
    /// sRGB, encoded, clamped to 0…1: what an sRGB display shows.
    case srgb
    /// Extended sRGB, encoded and unclamped: wide-colour captures give values outside 0…1.
    case extendedSRGB = "extended-srgb"
    /// Extended sRGB in linear light (unclamped): the space PointPaint averages colours in.
    case linear
    /// Display P3, encoded (unclamped).
    case displayP3 = "display-p3"
}
