import Foundation

/// The arrays a frame's observation fills before it knows how many of the cloud's points it
/// keeps (the projection's candidates, their coordinates, depths and z-buffer bins), kept from
/// frame to frame: one set for each thread observing at once, taken for a frame and given back
/// after it (up to `retainedPoints`). A frame then writes into pages an earlier frame already
/// mapped, where fresh arrays (as large as the cloud) had every page it touched faulted in and
/// zeroed by the kernel.
final class ObservationScratch: @unchecked Sendable {
    /// One frame's arrays, each with room for `capacity` elements, allocated but not
    /// initialised: a page is mapped when a frame first writes to it, so a set holds only what
    /// its frames reached. What lies past a frame's own count is left from earlier frames.
    final class Buffers {
        private(set) var capacity = 0
        private(set) var candidates = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        private(set) var coordinates = UnsafeMutablePointer<SIMD2<Float>>.allocate(capacity: 1)
        private(set) var depths = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        private(set) var bins = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

        /// Grows every array to room for at least `count` elements (their contents then lost).
        func reserve(_ count: Int) {
            guard count > capacity else { return }
            release()
            candidates = .allocate(capacity: count)
            coordinates = .allocate(capacity: count)
            depths = .allocate(capacity: count)
            bins = .allocate(capacity: count)
            capacity = count
        }

        private func release() {
            candidates.deallocate()
            coordinates.deallocate()
            depths.deallocate()
            bins.deallocate()
        }

        deinit { release() }
    }

    /// The largest set kept for the next frame, in points (20 bytes a point: 320 MB). A larger
    /// cloud's sets are freed after each frame, as its arrays were before they were reused: there
    /// a set held through sampling and accumulating would raise the peak memory by more than the
    /// page faults it saves are worth (100 M points, 3 frames: 7.2 GB → 8.0 GB peak).
    static let retainedPoints = 16_000_000

    private let lock = NSLock()
    /// Sets not in use (at most as many as threads ever observed at once).
    private var free: [Buffers] = []

    /// Frees every set not in use (after the frames, so a painting's later steps do not hold
    /// the frames' pages).
    func releaseAll() {
        lock.withLock { free.removeAll() }
    }

    /// Calls `body` with a set of arrays with room for `count` elements that no other call holds.
    func withBuffers<R>(count: Int, _ body: (Buffers) throws -> R) rethrows -> R {
        let buffers = lock.withLock { free.popLast() } ?? Buffers()
        defer {
            if buffers.capacity <= Self.retainedPoints { lock.withLock { free.append(buffers) } }
        }
        buffers.reserve(count)
        return try body(buffers)
    }
}
