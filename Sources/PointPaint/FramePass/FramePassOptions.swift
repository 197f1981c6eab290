import Foundation

/// What replay (`CaptureReplay.Options.pass`) and paint (`CloudPainter.Options.pass`) both
/// choose about their walk over a capture's frames (`FramePass`): which frames, how an image is
/// read between texels, on how many threads, and with which poses.
public struct FramePassOptions: Sendable, Equatable {
    /// Frames to use (indices into the capture); all when nil.
    public var frames: Range<Int>?
    /// Use every Nth frame of the range (1 = all).
    public var every = 1
    /// How the sampler reads between texels.
    public var interpolation: Interpolation = .bilinear
    /// Threads that load, sample and observe frames; defaults to the active processor count.
    public var threads = ProcessInfo.processInfo.activeProcessorCount
    /// Refined camera poses (`--poses`): a frame they list is used with its refined pose, its
    /// feature points moved with it (`CameraPoses.Frame.correction`); nil uses the recorded ones.
    public var poses: CameraPoses?

    /// Every frame, bilinear, all cores.
    public init() {}
}
