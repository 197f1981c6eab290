import Foundation

/// The hand-off between a replay running on its own thread and a viewer drawing on the main
/// thread: the replay publishes the growing cloud, the viewer polls it once a frame and sends
/// pause, resume, step and stop requests back.
///
/// Contract (what makes incremental GPU uploads possible):
/// - Voxel indices are stable: a voxel keeps its index for the life of the replay and new voxels
///   are appended at the end (`SceneStore` keeps insertion order). Positions never change.
/// - Colours and counts of existing voxels may change between publications; the publisher says
///   which indices did (`recolored`), or passes `nil` when it does not know, meaning "any".
/// - There is one consumer. `takeUpdate()` returns what changed since the consumer's previous
///   call, so the viewer uploads only the new tail and the recoloured range.
///
/// A capture replay does all of this with `CaptureReplay.run(into:publishingTo:)`. By hand (the
/// viewer runs on the main thread, the replay on another):
/// ```swift
/// let live = LiveCloud(frameCount: frames.count)
/// Thread.detachNewThread {
///     for (i, frame) in frames.enumerated() {
///         guard live.waitIfPaused() else { break }      // blocks while paused; false once the window closed
///         store.add(samples(of: frame))                 // whatever the replay does
///         live.publish(cloud: store.cloud(), framesDone: i + 1)   // or pass recolored: lo ..< hi
///     }
///     live.finish()
/// }
/// try Viewer.run(content: .live(live), options: options)   // on the main actor; returns when closed
/// ```
/// Passing `recolored:` (the range of existing voxel indices the frame touched) saves the viewer
/// re-uploading every colour; without it the viewer uploads all colours of the known voxels
/// (16 bytes each) plus the new tail.
///
/// `LiveCloud` is `@unchecked Sendable`: the state is guarded by one `NSCondition`, which also
/// wakes a paused replay, and the publish handler by its own lock.
public final class LiveCloud: @unchecked Sendable {
    /// What changed since the consumer's previous `takeUpdate()`.
    public struct Update: Sendable {
        /// The whole cloud as last published (arrays are shared copy-on-write, so this is cheap).
        public var cloud: VoxelCloud
        /// Indices of voxels appended since the previous update (upload these in full).
        public var appended: Range<Int>
        /// Indices of previously seen voxels whose colour or count may have changed (a superset);
        /// empty when none did.
        public var recolored: Range<Int>
        /// Whether the consumer must re-upload everything: the cloud shrank or was replaced, so
        /// indices are no longer stable.
        public var reset: Bool
        /// Frames replayed so far.
        public var framesDone: Int
        /// Frames the replay will process in all (0 when unknown).
        public var frameCount: Int
        /// Whether the replay has finished (`finish()` was called).
        public var finished: Bool
        /// The error the replay ended with (`finish(failure:)`), if any.
        public var failure: (any Error)?
    }

    private struct State {
        var cloud = VoxelCloud(voxelSize: nil, positions: [], colors: [])
        var version = 0
        var takenVersion = 0
        var takenCount = 0
        var dirtyLow = Int.max
        var dirtyHigh = Int.min
        var reset = false
        var framesDone = 0
        var frameCount = 0
        var finished = false
        var failure: (any Error)?
        var paused = false
        var steps = 0
        var cancelled = false
    }

    private let condition = NSCondition()
    private var state = State()
    /// Guards `handler` and is held while it runs, so clearing it waits for a call in progress.
    private let handlerLock = NSLock()
    private var handler: (@Sendable () -> Void)?

    /// Creates an empty live cloud. `frameCount` is shown by the viewer (0 when unknown);
    /// `startPaused` makes the replay wait for a resume or step before its first frame.
    public init(frameCount: Int = 0, startPaused: Bool = false) {
        state.frameCount = frameCount
        state.paused = startPaused
    }

    private func locked<T>(_ body: (inout State) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }

    // MARK: Replay side

    /// Publishes the cloud after a frame. Call it from the replay thread as often as you like;
    /// the viewer takes only the latest state.
    /// - Parameters:
    ///   - cloud: the whole cloud so far; its first voxels must be the ones published before, in
    ///     the same order (otherwise the viewer re-uploads everything).
    ///   - framesDone: frames replayed so far.
    ///   - frameCount: frames in all, when it changed or became known.
    ///   - recolored: indices of already published voxels whose colour or count changed since the
    ///     previous publication; `nil` (the default) means any of them may have.
    /// - Complexity: O(1); the cloud's arrays are shared, not copied.
    public func publish(cloud: VoxelCloud, framesDone: Int, frameCount: Int? = nil, recolored: Range<Int>? = nil) {
        locked { s in
            if cloud.count < s.takenCount { s.reset = true }
            let known = min(s.takenCount, cloud.count)
            let range = (recolored ?? 0 ..< known).clamped(to: 0 ..< known)
            if !range.isEmpty {
                s.dirtyLow = min(s.dirtyLow, range.lowerBound)
                s.dirtyHigh = max(s.dirtyHigh, range.upperBound)
            }
            s.cloud = cloud
            s.framesDone = framesDone
            if let frameCount { s.frameCount = frameCount }
            s.version += 1
        }
        notify()
    }

    /// Marks the replay as finished; the viewer keeps showing the final cloud. A replay that
    /// stopped on an error passes it as `failure`, for the viewer to show and the caller to report
    /// once the window is closed (`failure`); a later `finish()` keeps it.
    public func finish(failure: (any Error)? = nil) {
        locked { s in
            s.finished = true
            if let failure { s.failure = failure }
            s.version += 1
        }
        condition.broadcast()
        notify()
    }

    private func notify() {
        handlerLock.lock()
        defer { handlerLock.unlock() }
        handler?()
    }

    /// Blocks the calling (replay) thread while the viewer has paused the replay, until it
    /// resumes, asks for one step (which this call consumes) or stops. Call it between frames.
    /// - Returns: `false` when the viewer asked the replay to stop (window closed).
    @discardableResult
    public func waitIfPaused() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while state.paused && state.steps == 0 && !state.cancelled {
            condition.wait()
        }
        if state.paused && state.steps > 0 { state.steps -= 1 }
        return !state.cancelled
    }

    /// Blocks the calling (replay) thread for up to `seconds`, to pace a replay to its capture's
    /// clock; returns at once when the viewer pauses (the pause is `waitIfPaused()`'s business)
    /// or stops the replay.
    /// - Returns: `false` when the viewer asked the replay to stop.
    @discardableResult
    public func pace(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(seconds, 0))
        condition.lock()
        defer { condition.unlock() }
        while !state.cancelled && !state.paused && condition.wait(until: deadline) {}
        return !state.cancelled
    }

    /// The error the replay ended with, if it did (see `finish(failure:)`).
    public var failure: (any Error)? { locked { $0.failure } }

    /// Whether the viewer asked the replay to stop; a replay may poll it inside long frames.
    public var isCancelled: Bool { locked { $0.cancelled } }

    // MARK: Viewer side

    /// The changes since the previous call, or nil when nothing was published or finished since.
    /// Single consumer: a second consumer would see only what the first left.
    /// - Complexity: O(1).
    public func takeUpdate() -> Update? {
        locked { s in
            guard s.version != s.takenVersion else { return nil }
            let count = s.cloud.count
            let reset = s.reset
            let appended = reset ? 0 ..< count : s.takenCount ..< count
            var recolored = 0 ..< 0
            if !reset, s.dirtyLow < s.dirtyHigh {
                recolored = s.dirtyLow ..< min(s.dirtyHigh, s.takenCount)
            }
            let update = Update(cloud: s.cloud, appended: appended, recolored: recolored, reset: reset,
                                framesDone: s.framesDone, frameCount: s.frameCount, finished: s.finished, failure: s.failure)
            s.takenVersion = s.version
            s.takenCount = count
            s.dirtyLow = .max
            s.dirtyHigh = .min
            s.reset = false
            return update
        }
    }

    /// Sets a closure called on the replay's thread after each `publish` and `finish` (outside
    /// the state lock, so it may call `takeUpdate()`); a viewer wakes its event loop with it.
    /// Once `setPublishHandler(nil)` returns, the previous closure is not running and never runs
    /// again.
    public func setPublishHandler(_ handler: (@Sendable () -> Void)?) {
        handlerLock.lock()
        defer { handlerLock.unlock() }
        self.handler = handler
    }

    /// Whether the replay is paused by the viewer.
    public var isPaused: Bool { locked { $0.paused } }

    /// Pauses (`true`) or resumes (`false`) the replay before its next frame.
    public func setPaused(_ paused: Bool) {
        locked { s in
            s.paused = paused
            if !paused { s.steps = 0 }
        }
        condition.broadcast()
    }

    /// Lets a paused replay run exactly one more frame (pausing first if it was running).
    public func step() {
        locked { s in
            s.paused = true
            s.steps += 1
        }
        condition.broadcast()
    }

    /// Asks the replay to stop: `waitIfPaused()` returns `false` from now on.
    public func cancel() {
        locked { $0.cancelled = true }
        condition.broadcast()
    }
}
