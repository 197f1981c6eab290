/// How a voxel combines the colour samples that fall into it.
public enum AccumulationPolicy: String, Sendable, CaseIterable, Codable {
    /// The average of every sample, taken in linear light (averaging gamma-encoded values would
    /// darken edges). Sums are kept in fixed point, so the result does not depend on the order
    /// of the samples or on how stores were split and merged.
    case mean
    /// The sample with the greatest frame index; among samples of that frame, the one added last.
    case latest
    /// The sample with the smallest frame index; among samples of that frame, the one added first.
    case first
}
