/// The colour space a sampler delivers.
///
/// The spaces that convert (`srgb`, `extendedSRGB`, `linear`, `displayP3`) first clamp the
/// decoded R′G′B′ to the capture's own gamut (0…1 in its primaries: values outside come from
/// chroma subsampling and rounding, not from the scene), then convert exactly; `capture` and
/// `captureLinear` show the decode as it is. `SampleColorPolicy` holds this policy, and replay
/// follows it too: a one-sample voxel's float colour in a replayed PLY equals `extendedSRGB`.
public enum SampleSpace: String, Sendable, CaseIterable, Hashable {
    /// R′G′B′ in the capture's own primaries, as decoded from Y′CbCr (unclamped).
    case capture
    /// Linear light in the capture's own primaries (unclamped).
    case captureLinear = "capture-linear"
    /// sRGB, encoded, clamped to 0…1: what an sRGB display shows.
    case srgb
    /// Extended sRGB, encoded: wide-colour captures give values outside 0…1.
    case extendedSRGB = "extended-srgb"
    /// Extended sRGB in linear light: the space PointPaint averages colours in.
    case linear
    /// Display P3, encoded.
    case displayP3 = "display-p3"
}
