/// One decoded frame of a video: its place in presentation order, its time and its planes.
public struct VideoFrame: Sendable, Equatable {
    /// The frame's index in presentation order, from 0. Frames are counted whether or not their
    /// planes were asked for, so indices match the file's own frame numbers.
    public var index: Int
    /// Presentation time in seconds from the stream's start (its first presentation timestamp
    /// where the container gives one). For a frame without a timestamp: `index` ÷ frame rate
    /// (30 a second when the rate is unknown too).
    public var time: Double
    /// The frame's Y′CbCr codes exactly as decoded.
    public var planes: YCbCrPlanes

    /// Creates a frame.
    public init(index: Int, time: Double, planes: YCbCrPlanes) {
        self.index = index
        self.time = time
        self.planes = planes
    }
}
