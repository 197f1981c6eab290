/// The window's frame statistics for its title: frames a second over the last whole second, and
/// the time the last frame took to draw.
struct FrameRate {
    /// Frames a second, over the last whole second.
    private(set) var perSecond = 0.0
    /// Milliseconds the last frame took.
    private(set) var lastFrameMilliseconds = 0.0
    private var framesInSecond = 0
    private var secondStart: Double

    /// Starts counting at `time` (seconds).
    init(startingAt time: Double) {
        secondStart = time
    }

    /// Records a frame drawn from `start` to `end` (seconds).
    mutating func frameDrawn(from start: Double, to end: Double) {
        lastFrameMilliseconds = (end - start) * 1000
        framesInSecond += 1
    }

    /// Closes the current second once one has passed by `time`.
    mutating func tick(at time: Double) {
        guard time - secondStart >= 1 else { return }
        perSecond = Double(framesInSecond) / (time - secondStart)
        framesInSecond = 0
        secondStart = time
    }
}
