import Foundation

/// Produces numbered chunks of bytes on a second thread while the calling thread consumes the
/// previous ones, in order: encoding a file overlaps with writing it.
///
/// A few buffers circulate between the two threads; each chunk's bytes are valid only during
/// `consume`. When `consume` throws, production stops after the chunk in hand and the error is
/// rethrown once the producer has finished.
enum ChunkPipeline {
    /// Buffers in flight.
    static let depth = 3

    /// Runs `produce(k, buffer)` for k in 0 ..< count on a second thread (each returns the bytes
    /// it wrote into `buffer`, at most `capacity`), and `consume` on those bytes here, in order.
    /// With fewer than two chunks no thread is started.
    static func run(count: Int, capacity: Int, produce: @escaping @Sendable (Int, UnsafeMutableRawPointer) -> Int,
                    consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let storage = UnsafeMutableRawPointer.allocate(byteCount: depth * capacity, alignment: 64)
        defer { storage.deallocate() }
        let sizes = UnsafeMutablePointer<Int>.allocate(capacity: depth)
        defer { sizes.deallocate() }
        sizes.initialize(repeating: 0, count: depth)
        guard count >= 2 else {
            for k in 0 ..< count { try consume(UnsafeRawBufferPointer(start: storage, count: produce(k, storage))) }
            return
        }
        let shared = Shared(storage: storage, sizes: sizes, capacity: capacity)
        let thread = Thread {
            for k in 0 ..< count {
                shared.empty.wait()
                if shared.isStopped { break }
                let slot = k % depth
                shared.sizes[slot] = produce(k, shared.storage + slot * shared.capacity)
                shared.full.signal()
            }
            shared.done.signal()
        }
        thread.start()
        do {
            for k in 0 ..< count {
                shared.full.wait()
                let slot = k % depth
                try consume(UnsafeRawBufferPointer(start: storage + slot * capacity, count: sizes[slot]))
                shared.empty.signal()
            }
        } catch {
            shared.stop()
            shared.empty.signal()  // the producer may wait for a buffer: let it see the stop
            shared.done.wait()
            throw error
        }
        shared.done.wait()
    }

    /// What both threads share. The semaphores order every access to a slot: the producer writes
    /// a slot between `empty.wait` and `full.signal`, the consumer reads it between `full.wait`
    /// and `empty.signal`.
    private final class Shared: @unchecked Sendable {
        let storage: UnsafeMutableRawPointer
        let sizes: UnsafeMutablePointer<Int>
        let capacity: Int
        /// Created at 0 and signalled `depth` times: libdispatch traps when a semaphore is
        /// released holding less than its initial value, as this one may after an error.
        let empty = DispatchSemaphore(value: 0)
        let full = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var stopped = false

        init(storage: UnsafeMutableRawPointer, sizes: UnsafeMutablePointer<Int>, capacity: Int) {
            self.storage = storage
            self.sizes = sizes
            self.capacity = capacity
            for _ in 0 ..< ChunkPipeline.depth { empty.signal() }
        }

        var isStopped: Bool { lock.withLock { stopped } }
        func stop() { lock.withLock { stopped = true } }
    }
}
