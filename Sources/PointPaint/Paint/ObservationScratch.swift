import Foundation

/// The arrays a frame's observation fills before it knows how many of the cloud's points it
/// keeps (the projection's candidates, their coordinates, depths and z-buffer bins), kept from
/// frame to frame: one set for each thread observing at once, taken for a frame and given back
/// after it. A frame then writes into pages an earlier frame already mapped, where fresh arrays
/// (as large as the cloud) had every page it touched faulted in and zeroed by the kernel.
final class ObservationScratch: @unchecked Sendable {
    /// One frame's arrays, each at least as long as the cloud; what lies past the frame's own
    /// count is left from earlier frames.
    final class Buffers {
        var candidates: [UInt32] = []
        var coordinates: [SIMD2<Float>] = []
        var depths: [Float] = []
        var bins: [Int32] = []

        /// Grows every array to at least `count` elements.
        func reserve(_ count: Int) {
            guard candidates.count < count else { return }
            candidates = Array(repeating: 0, count: count)
            coordinates = Array(repeating: .zero, count: count)
            depths = Array(repeating: 0, count: count)
            bins = Array(repeating: 0, count: count)
        }
    }

    private let lock = NSLock()
    /// Sets not in use (at most as many as threads ever observed at once).
    private var free: [Buffers] = []

    /// Calls `body` with a set of arrays of at least `count` elements that no other call holds.
    func withBuffers<R>(count: Int, _ body: (Buffers) throws -> R) rethrows -> R {
        let buffers = lock.withLock { free.popLast() } ?? Buffers()
        defer { lock.withLock { free.append(buffers) } }
        buffers.reserve(count)
        return try body(buffers)
    }
}
